"""The pygame-ce table app: scenes, layout, card art, touch, kiosk loop, simulator, i18n.

Structure (one main loop in :mod:`display.app`)::

    device queue + pygame events -> App.frame -> scene handlers -> MatchDriver.submit(Action)
                                                                     -> MatchSession.apply (journal)
                                  -> scene.update (timers, computer players, deals)
                                  -> scene.draw (only when dirty) -> Screen.present -> tick

Adding a scene (e.g. the contract table, recall, leaderboard) is one new module in
``display/scenes/`` plus one line in ``display.scenes.SCENES``:

* subclass :class:`display.scenes.base.Scene`; override ``draw(surf)`` (return None for a
  full redraw or a list of dirty rects), ``update(now)``, and the handlers ``on_button``
  (arcade buttons: ``event.seat``, ``event.call`` draw/knock/buy, ``event.edge``),
  ``on_key`` and, when needed, ``on_pointer``. Register touch targets while drawing with
  ``self.button(surf, rect, label, callback)`` or ``self.targets.append(Target(...))``.
* a game table subclasses :class:`display.scenes.table_base.TableScene` (seat touch state,
  peek, flashes, buttons to ``call_draw``/``call_knock``/``call_buy``, lamps from ``LAMPS``,
  stock and pile, drawing by regions: ``region(name, key, rect, draw, dirty)`` redraws a
  panel only when its key changed); reviews subclass ``review_base.ReviewScene``.
* a game ``g`` provides scenes ``g_table`` and ``g_review``; the app shows ``g_review``
  whenever ``app.match.review_pending`` (a deal is pending after a hand, or the match is
  over) and calls ``app.match.continue_after_review()`` / ``app.after_match()`` from it.
* act only through ``app.match.legal(seat)`` and ``app.match.submit(action)``; light lamps
  with ``app.hw.set_lamps(seat, draw=..., knock=..., buy=...)``.
* layout: :mod:`display.layout` (``seat_panels`` for 2–6 seats with flat/upright turning,
  ``SeatPanel.to_screen``/``to_local``, ``hand_rects``, ``centre_area``, ``touch_px``);
  cards: :func:`display.cardart.card_surface`; text that always fits:
  :func:`display.theme.draw_text` / ``draw_paragraph``; words: ``from display.i18n import _,
  ngettext, N_`` then ``bash .ci/run.d/catalogs.sh --update`` (pybabel extract / update /
  compile; ``docs/translations.md``) and translate the new entries.
* tests: ``tests/test_display_layout.py`` shows how to render a scene to a dummy surface
  and check texts fit, targets are ≥ 48 px and nothing overlaps the hands.
"""

import os as _os

_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
