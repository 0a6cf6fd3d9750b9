"""``rummy-table diag``: live text diagnostics of the buttons, lamps and card shoe.

Shows every press/hold/release per seat, lights each lamp in turn, and the shoe's
connection, firmware version, link counters and the cards it reads. Exits on Ctrl-C or
after ``--seconds``. ``--mock`` uses gpiozero's MockFactory (desktop); ``--demo`` then
presses the mock buttons itself so the whole path can be seen working. ``--enrol FILE``
builds a deck map by dealing a deck through the shoe in new-deck order.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
import tomllib
from collections.abc import Callable
from importlib import metadata
from typing import TYPE_CHECKING, Any

from device.buttons import ButtonBoard, HardwareError, factory_from_env, make_pin_factory
from device.events import DeviceEvent, InputEvent, ShoeEvent
from device.pins import ButtonConfig, parse_button_config
from device.shoe.deckmap import DeckMap, DeckMapError, Enroller
from device.sim_buttons import SimButtons

if TYPE_CHECKING:  # imported when --shoe is given (pyserial)
    from device.shoe.link import ShoeLink


def version() -> str:
    try:
        return metadata.version("rummy-table")
    except metadata.PackageNotFoundError:
        return "unknown"


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="rummy-table diag", description=__doc__.split("\n\n")[0])
    ap.add_argument("--mock", action="store_true", help="mock GPIO pins (no Pi needed)")
    ap.add_argument("--demo", action="store_true", help="with --mock: press buttons by itself")
    ap.add_argument("--seats", type=int, default=2, help="default pin map for 2..6 seats")
    ap.add_argument("--config", help="a TOML file with a [buttons] table")
    ap.add_argument("--no-buttons", action="store_true", help="shoe only")
    ap.add_argument("--shoe", metavar="PORT", help="card shoe port (/dev/rummy-shoe, a pty)")
    ap.add_argument(
        "--deck",
        action="append",
        default=[],
        metavar="FILE",
        help="deck map file (repeat for several decks)",
    )
    ap.add_argument(
        "--sim-decks",
        type=int,
        default=0,
        metavar="N",
        help="use the simulated shoe's deck map for N packs",
    )
    ap.add_argument("--enrol", metavar="FILE", help="enrol a deck into FILE (new-deck order)")
    ap.add_argument("--seconds", type=float, default=0.0, help="stop after N seconds")
    ap.add_argument("--lamp-step", type=float, default=0.15, help="seconds per lamp in the test")
    return ap


def load_button_config(args: argparse.Namespace) -> tuple[ButtonConfig | None, list[str]]:
    data: dict[str, Any] = {"seat_count": args.seats}
    if args.config:
        try:
            with open(args.config, "rb") as f:
                data = tomllib.load(f).get("buttons", {})
        except (OSError, tomllib.TOMLDecodeError) as exc:
            return None, [f"cannot read {args.config}: {exc}"]
    return parse_button_config(data)


class Diag:
    """The diagnostics loop, separate from argument parsing for tests."""

    def __init__(self, args: argparse.Namespace, out: Callable[[str], None] = print) -> None:
        self.args = args
        self.out = out
        self.start = time.monotonic()
        self.events: queue.Queue[DeviceEvent] = queue.Queue()
        self.board: ButtonBoard | None = None
        self.sim: SimButtons | None = None
        self.link: ShoeLink | None = None
        self.enroller: Enroller | None = None
        self.cards_read: list[str] = []

    def say(self, text: str) -> None:
        self.out(f"[{time.monotonic() - self.start:7.2f}] {text}")

    def setup(self) -> int:
        args = self.args
        self.out(f"rummy-table diag {version()}  (Ctrl-C to stop)")
        if not args.no_buttons:
            config, errors = load_button_config(args)
            if config is None:
                for error in errors:
                    self.out(f"config error: {error}")
                return 2
            factory = make_pin_factory("mock") if args.mock else factory_from_env()
            self.out(f"pin factory: {type(factory).__name__}")
            self.board = ButtonBoard(config, pin_factory=factory, events=self.events)
            for seat, pins in config.seats.items():
                buttons = " ".join(f"{c}={p}" for c, p in pins.buttons.items())
                lamps = " ".join(f"{n}={p}" for n, p in pins.lamps.items()) or "none"
                self.out(f"seat {seat}: buttons {buttons} | lamps {lamps}")
            self.out(f"operator chord: {config.operator_chord} held {config.operator_hold:g} s")
            if args.mock and args.demo:
                self.sim = SimButtons(self.board)
        if args.shoe:
            from device.shoe.link import ShoeLink

            deck_map = None
            try:
                if args.deck:
                    deck_map = DeckMap.load_many(args.deck)
                elif args.sim_decks:
                    deck_map = DeckMap.simulated(args.sim_decks)
            except DeckMapError as exc:
                self.out(f"deck map error: {exc}")
                return 2
            if deck_map is not None:
                self.out(f"deck map: {deck_map.name or '?'} ({len(deck_map)} tags)")
            if args.enrol:
                self.enroller = Enroller(name=args.enrol)
                self.out(
                    f"enrolling: deal the deck in new-deck order, first {self.enroller.expected}"
                )
            self.link = ShoeLink(args.shoe, events=self.events, deck_map=deck_map).start()
        return 0

    def lamp_test(self) -> None:
        if self.board is None:
            return
        for seat, name in self.board.lamps():
            self.say(f"lamp seat {seat} {name} on")
            self.board.set_lamp(seat, name, True)
            time.sleep(self.args.lamp_step)
            self.board.set_lamp(seat, name, False)
        self.board.all_off()

    def show(self, event: InputEvent | ShoeEvent) -> None:
        if isinstance(event, InputEvent):
            who = "TABLE" if event.seat < 0 else f"seat {event.seat}"
            self.say(f"{who} {event.call.upper()} {event.edge} ({event.source})")
            return
        if event.kind == "card":
            name = str(event.card) if event.card else "?"
            self.cards_read.append(name)
            line = f"{event.point} card {name} uid {event.uid} seq {event.seq} {event.detail}"
            self.say(line.rstrip())
            if self.enroller is not None and self.link is not None:
                self.enrol(event.uid or "")
        elif event.kind == "connected":
            info = event.info
            self.say(
                f"shoe connected on {info.get('port')}: firmware {info.get('fw')}, protocol "
                f"{info.get('proto')}, reader {info.get('reader')}, boot {info.get('boot')}, "
                f"read points {'+'.join(info.get('points', ()))}"
            )
            if self.enroller is not None and self.link is not None:  # both set by --enrol
                self.link.set_mode("enrol")
        elif event.kind == "status":
            if event.detail:
                self.say(f"shoe: {event.detail}")
        else:
            self.say(f"{event.point} {event.kind} {event.detail}".rstrip())

    def enrol(self, uid: str) -> None:
        assert self.enroller is not None
        try:
            card = self.enroller.add(uid)
        except DeckMapError as exc:
            self.say(f"enrol: {exc}")
            return
        nxt = self.enroller.expected
        self.say(f"enrol: {uid} = {card}; next {nxt}" if nxt else f"enrol: {uid} = {card}")
        if self.enroller.done:
            self.enroller.result().save(self.args.enrol)
            self.say(f"enrol: deck map written to {self.args.enrol}")

    def status_line(self) -> None:
        parts = []
        if self.board is not None:
            c = self.board.counters
            parts.append(
                f"buttons presses={c['presses']} holds={c['holds']} bounces={c['bounces']} "
                f"lockouts={c['lockouts']} chords={c['chords']}"
            )
        if self.link is not None:
            s = self.link.stats()
            c = s["counters"]
            state = "connected" if s["connected"] else f"not connected ({s['last_error'] or '...'})"
            hb = s["heartbeat"]
            parts.append(
                f"shoe {state} fw={s['hello'].get('fw', '?')} state={hb.get('state', '?')} "
                f"unacked={hb.get('unacked', '?')} frames={c['frames']} cards={c['cards']} "
                f"bad_crc={c['bad_crc']} noise={c['noise']} dups={c['duplicates']} "
                f"lost={c['lost']} reconnects={c['disconnects']}"
            )
        if parts:
            self.say("status: " + " | ".join(parts))

    def demo_step(self, n: int) -> None:
        if self.sim is None or self.board is None:
            return
        buttons = self.board.buttons()
        seat, call = buttons[n % len(buttons)]
        self.sim.press(seat, call)
        time.sleep(0.05)
        self.sim.release(seat, call)

    def loop(self) -> None:
        deadline = self.start + self.args.seconds if self.args.seconds else None
        next_status = time.monotonic() + 2
        next_demo = time.monotonic() + 0.3
        demo_n = 0
        while deadline is None or time.monotonic() < deadline:
            if self.enroller is not None and self.enroller.done:
                break  # the deck map is written
            try:
                self.show(self.events.get(timeout=0.05))
            except queue.Empty:
                pass
            now = time.monotonic()
            if self.sim is not None and now >= next_demo:
                self.demo_step(demo_n)
                demo_n += 1
                next_demo = now + 0.4
            if now >= next_status:
                self.status_line()
                next_status = now + 2
        while not self.events.empty():
            self.show(self.events.get_nowait())
        self.status_line()

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
        if self.board is not None:
            self.board.close()


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.demo and not args.mock:
        print("diag: --demo needs --mock (it drives mock pins)", file=sys.stderr)
        return 2
    diag = Diag(args)
    try:
        rc = diag.setup()
        if rc:
            return rc
        diag.lamp_test()
        diag.loop()
    except HardwareError as exc:
        print(f"diag: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print()
    finally:
        diag.close()
    if diag.cards_read:
        print(f"cards read: {' '.join(diag.cards_read)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
