"""Hardware edge: GPIO buttons and lamps, the card-shoe link, the watchdog, and simulated twins.

Never imports pygame or ``display``: hardware threads only put timestamped events on a queue.
"""
