"""The pygame-ce table app: scenes, layout, card art, touch, kiosk loop, simulator, i18n.

Structure (one main loop in :mod:`display.app`)::

    device queue + pygame events -> App.frame -> scene handlers -> match.controller.perform(seat, call)
                                                 -> MatchDriver.try_submit(Action) -> MatchSession.apply
                                  -> match.update (rule timers, computer players, deals)
                                  -> scene.update (peek and flash timers; what the match did)
                                  -> App.show_lamps (every lamp, one place)
                                  -> scene.draw (only when dirty) -> Screen.present -> tick

(docs/architecture.md walks a DRAW press through it, step by step.)

Adding a scene (e.g. the contract table, recall, leaderboard) is one new module in
``display/scenes/`` plus one line in ``display.scenes.SCENES``:

* subclass :class:`display.scenes.base.Scene`; override ``draw(surf)`` (return None for a
  full redraw or a list of dirty rects), ``update(now)``, and the handlers ``on_button``
  (arcade buttons: ``event.seat``, ``event.call`` draw/knock/buy, ``event.edge``),
  ``on_key`` and, when needed, ``on_pointer``. Register touch targets while drawing with
  ``self.button(surf, rect, label, callback)`` or ``self.targets.append(Target(...))``.
* a game table subclasses :class:`display.scenes.table_base.TableScene` (peek, flashes,
  drawing by regions: ``region(name, view_model, rect, draw, dirty)`` redraws a panel only
  when its view-model changed); reviews subclass ``review_base.ReviewScene``. A table owns
  painters (``gin_panel.GinPanelPainter``, ``contract_centre.ContractCentrePainter``, …)
  that draw frozen view-models built without pygame in :mod:`display.table.viewmodels`; the
  scene is their hooks (what a touch on a card, a pile or a button does).
* what a call does is the match's table controller's (:mod:`display.table.controller`, no
  pygame): per game one table from seat calls (DRAW / KNOCK / BUY, touches, on-screen
  buttons) to engine actions, read by ``TableScene.call`` and by the lamps
  (``controller.lamps(seat)``), so a lamp is lit exactly when its button acts; the panel's
  buttons are ``controller.screen_buttons(seat)``; hints are codes worded by
  :mod:`display.table.hint_text`; the C-8.4 answer deadline and the buy window live there too.
* a game ``g`` provides scenes ``g_table`` and ``g_review`` (``display.scenes.GAME_SCENES``);
  the app shows ``g_review`` whenever ``app.match.review_pending`` (a deal is pending after a
  hand, or the match is over) and calls ``app.match.continue_after_review()`` /
  ``app.after_match()`` from it. A scene changes the screen by a reason,
  ``app.go(Go.X, ...)``; ``display.scenes.next_scene`` alone decides which scene follows.
  No scene writes a lamp: the app does, once a frame (``display.table.controller.lamps``).
* act only through ``self.call(seat, Call.X, arg)`` (the controller); show what
  ``app.match.legal(seat)`` allows.
* layout: :mod:`display.layout` (``seat_panels`` for 2–6 seats with flat/upright turning,
  ``SeatPanel.to_screen``/``to_local``, ``hand_rects``, ``centre_area``, ``touch_px``);
  cards: :func:`display.cardart.card_surface`; text that always fits:
  :func:`display.theme.draw_text` / ``draw_paragraph``; words: ``from display.table.i18n import _,
  ngettext, N_`` then ``bash .ci/run.d/catalogs.sh --update`` (pybabel extract / update /
  compile; ``docs/translations.md``) and translate the new entries.
* tests: ``tests/test_display_layout.py`` shows how to render a scene to a dummy surface
  and check texts fit, targets are ≥ 48 px and nothing overlaps the hands.
"""

import os as _os

_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
