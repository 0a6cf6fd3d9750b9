# Card-shoe firmware entry point (MicroPython on a Raspberry Pi Pico).
# The loop: feed the watchdog, sample each gate's beam, poll a gate's reader while its
# read window is open, handle the Pi's lines, run timers, write frames. Any crash reports
# ERR,FATAL and resets the board; Ctrl-C (mpremote) still stops it, but the watchdog then
# resets the board within 5 s unless a file named "nowdt" exists on the flash
# (development). The board drives two gates, the shoe's exit and the discard slot; a
# shoe built without the slot has a file named "noslot" on the flash and announces only
# "shoe".

import sys
import time

import fwlogic
import hw
import protocol as p


def step(board, shoe):
    """One pass of the main loop (separate so host tests can drive it)."""
    board.feed_watchdog()
    now = board.ticks()
    for point in shoe.points:
        shoe.beam(point, board.beam_broken(point), now)
        if shoe.wants_reads(point):
            for uid in board.read_uids(point):
                shoe.tag(point, uid, now)
    data = board.read_host()
    if data:
        shoe.feed(data, now)
    shoe.tick(now)
    for line in shoe.take_output():
        board.write(line)
    board.set_led(shoe.blocked or bool(shoe.unacked))
    if shoe.reset_requested:
        board.reset()


def flag(name):
    """True when a file ``name`` exists on the flash."""
    try:
        open(name).close()
        return True
    except OSError:
        return False


def dev_mode():
    return flag("nowdt")


def built_points():
    """The read gates this board is built with."""
    return (p.SHOE,) if flag("noslot") else (p.SHOE, p.SLOT)


def run():
    points = built_points()
    board = hw.Hardware(watchdog=not dev_mode(), points=points)
    found = [v for v in board.reader_versions.values() if v]
    reader = "PN532" if found else "NONE"
    shoe = fwlogic.Shoe(
        board.boot_id(), board.ticks(), reader=reader, diff=board.diff, points=points
    )
    for point in points:
        if board.reader_versions[point] is None:
            shoe.error(p.ERR_READER, "noreader", board.ticks(), point)
    while True:
        step(board, shoe)
        board.idle()


def main():
    try:
        run()
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # noqa: BLE001 - report anything, then start again
        try:
            fields = p.err_fields(p.ERR_FATAL, p.SHOE, type(exc).__name__)
            sys.stdout.write(p.encode(0, p.ERR, fields).decode())
        except Exception:  # noqa: BLE001, S110
            pass
        time.sleep(2)
        hw.reset()


if __name__ == "__main__":
    main()
