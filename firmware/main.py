# Card-shoe firmware entry point (MicroPython on a Raspberry Pi Pico).
# The loop: feed the watchdog, sample the beam, poll the reader while the read gate is
# open, handle the Pi's lines, run timers, write frames. Any crash reports ERR,FATAL and
# resets the board; Ctrl-C (mpremote) still stops it, but the watchdog then resets the
# board within 5 s unless a file named "nowdt" exists on the flash (development).

import sys
import time

import hw
import logic
import protocol as p


def step(board, shoe):
    """One pass of the main loop (separate so host tests can drive it)."""
    board.feed_watchdog()
    now = board.ticks()
    shoe.beam(board.beam_broken(), now)
    if shoe.wants_reads():
        for uid in board.read_uids():
            shoe.tag(uid, now)
    data = board.read_host()
    if data:
        shoe.feed(data, now)
    shoe.tick(now)
    for line in shoe.take_output():
        board.write(line)
    board.set_led(shoe.blocked or bool(shoe.unacked))
    if shoe.reset_requested:
        board.reset()


def dev_mode():
    try:
        open("nowdt").close()
        return True
    except OSError:
        return False


def run():
    board = hw.Hardware(watchdog=not dev_mode())
    reader = "PN532" if board.reader_version else "NONE"
    shoe = logic.Shoe(board.boot_id(), board.ticks(), reader=reader, diff=board.diff)
    if board.reader_version is None:
        shoe.error(p.ERR_READER, "noreader", board.ticks())
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
            sys.stdout.write(p.encode(0, p.ERR, (p.ERR_FATAL, type(exc).__name__)).decode())
        except Exception:  # noqa: BLE001, S110
            pass
        time.sleep(2)
        hw.reset()


if __name__ == "__main__":
    main()
