"""Hardware edge: GPIO buttons and lamps, the card-shoe link, the watchdog, simulated twins.

Never imports pygame or ``display``: device threads only put timestamped, immutable events
on a :class:`queue.Queue` that the main loop drains each frame.

Events (``device.events``)
    ``InputEvent(seat, call, edge, source, t)``: seat 0..5 (-1 for the operator chord),
    call ``draw``/``knock``/``buy``/``operator``, edge ``press``/``hold``/``release``,
    source ``gpio``/``keyboard``/``touch``/``sim``, ``t`` = ``time.monotonic()`` taken in
    the callback (resolve buy contention by ``t``, not queue order).
    ``ShoeEvent(kind, t, uid, card, seq, boot, detail, info, point)``: kind ``card``,
    ``misread``, ``double``, ``jam``, ``error``, ``connected`` (info: fw, proto, boot,
    reader, port, points), ``disconnected`` (detail: why), ``status`` (heartbeat info, or
    a warning in detail), ``lost``; ``point`` = where a card or error was read: "shoe"
    (the shoe's exit) or "slot" (the discard slot), ``SHOE_POINTS``.

Buttons (``device.buttons``, ``device.pins``)
    ``config, errors = parse_button_config(toml_dict["buttons"])`` (all errors at once;
    pins ``"GPIO17"``; no ``seats`` table -> packaged map for ``seat_count`` 2..6), or
    ``default_config(n)``.
    ``ButtonBoard(config, *, pin_factory, events, clock=time.monotonic)``; pin factory from
    ``make_pin_factory("lgpio" | "mock")`` or ``factory_from_env()`` — errors raise
    ``HardwareError`` (never a silent mock; the mock is refused on a Pi).
    Lamps: ``set_lamps(seat, draw=True, knock=False, buy=True)``, ``set_lamp(seat, name,
    on)``, ``all_off()``, ``lamps()``; ``buttons()``, ``is_pressed(seat, call)``,
    ``counters``; ``close()`` / context manager.
    Simulator: ``SimButtons(board).key_down("q")`` / ``press(seat, call)`` drive the
    MockFactory pins (keys: q w e = seat 0 draw/knock/buy, a s d = seat 1, z x c, r t y,
    f g h, v b n).

Card shoe (``device.shoe``)
    ``ShoeLink(port, *, events, deck_map=None)`` -> ``start()``, ``close()``, ``connected``,
    ``points``, ``stats()``, ``set_mode("deal" | "enrol" | "idle")``. ``DeckMap.load(path)``
    / ``load_many(paths)`` (``|`` merges decks), ``Enroller`` builds one. Protocol 3
    (``device.shoe.protocol``, also the firmware's file) names the read point of each card.
    ``device.shoe.sim.ShoeTwin`` is the simulated shoe and slot (the firmware's own
    ``fwlogic.py`` on a pty): ``feed(point, card)``, ``misread``, ``double``, ``unknown``,
    ``jam``, ``unplug``/``replug``, ``reboot``, ``wait_idle``; ``rummy-table shoe-sim
    --link /tmp/cardshoe [--seed N] [faults] [--commands]`` runs one as a process.

Watchdog (``device.watchdog``)
    ``ready(status)``, ``watchdog()``, ``status(text)``, ``watchdog_interval()``; no-ops
    without ``NOTIFY_SOCKET``.

Diagnostics: ``rummy-table diag [--mock [--demo]] [--shoe PORT] [--seconds N]``.
"""
