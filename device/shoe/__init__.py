"""The card shoe: line protocol (shared with firmware/), serial link, deck maps, simulator.

``ShoeLink(port, *, events, deck_map=None)`` -> ``start()`` / ``close()``; it puts
:class:`device.events.ShoeEvent`s on ``events``.
"""
