"""The table's logic, without pygame: what the app decides, not how it draws.

* :mod:`display.table.controller` — per game one call table from seat calls (DRAW / KNOCK /
  BUY, touches, on-screen buttons) to engine actions, the lamps, the real-card referee;
* :mod:`display.table.match` — the match driver: the session, rule timers, computer players;
* :mod:`display.table.viewmodels` — frozen view-models the scenes paint;
* :mod:`display.table.config` (with ``defaults.toml``), :mod:`display.table.hw` (button
  board, lamps and watchdog over gpiozero), :mod:`display.table.faults`;
* the words: :mod:`display.table.i18n` (gettext over ``display/locale``) and the ``*_text``
  modules and :mod:`display.table.names` that turn the engine's codes into sentences.

Nothing here imports pygame or the rest of ``display/`` (tests/test_boundaries.py): the
scenes, layout, card art and main loop around it are ``display/``'s, and this package runs
(and is tested) without a screen.
"""
