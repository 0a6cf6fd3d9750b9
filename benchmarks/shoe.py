"""Card-shoe link benchmark: >= 100,000 CARD frames through the real receiver with faults.

The simulated shoe (device.shoe.sim.MemoryShoe: the firmware's own fwlogic.py, the same
board the sim process runs) and the Pi's ShoeReceiver run in memory on a fake clock.
Every frame the shoe transmits may be corrupted (bad CRC), dropped, duplicated or
preceded by a garbage line, each with probability --fault (default 5 %); ACKs back are
dropped at the same rate. ``--slot F`` passes that share of the cards through the discard
slot's gate instead of the shoe's (both gates run side by side; protocol 3 read points).
Prints cards delivered per second, wrong cards (must be 0: a card, or its read point,
other than the board judged, in its order) and lost valid cards (must be 0). ``--pty N``
also deals N cards from the shoe-sim process over a pseudo-terminal through ShoeLink (real
serial I/O).

    .venv/bin/python benchmarks/shoe.py [--cards 100000] [--fault 0.05] [--slot 0.5] [--pty 5000]
"""

from __future__ import annotations

import argparse
import queue
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from device.shoe.deckmap import DeckMap, sim_uid
from device.shoe.link import ShoeLink, ShoeReceiver
from device.shoe.sim import Faults, MemoryShoe, run_loopback
from rummy.cards import Card, shuffled_deck


def deal_order(n: int, seed: int) -> list[tuple[Card, int]]:
    rng = random.Random(seed)
    out: list[tuple[Card, int]] = []
    while len(out) < n:
        seen: set[Card] = set()
        for card in shuffled_deck(rng, decks=2):
            out.append((card, 1 if card in seen else 0))
            seen.add(card)
    return out[:n]


def in_memory(n: int, fault: float, seed: int, slot: float = 0.0) -> bool:
    order = deal_order(n, seed)
    clock = [0.0]
    events: queue.SimpleQueue = queue.SimpleQueue()
    rx = ShoeReceiver(events=events, deck_map=DeckMap.simulated(2), clock=lambda: clock[0])
    rx_time = [0.0]

    def feed(line: bytes) -> list[bytes]:
        t = time.perf_counter()
        out = rx.feed(line)
        rx_time[0] += time.perf_counter() - t
        return out

    faults = Faults(garbage=fault, bad_crc=fault, drop=fault, dup=fault)
    split = random.Random(seed + 2)
    via_slot = [bool(slot) and split.random() < slot for _ in order]
    to_slot = [c for c, v in zip(order, via_slot, strict=True) if v]
    to_shoe = [c for c, v in zip(order, via_slot, strict=True) if not v]
    shoe = MemoryShoe(
        to_shoe,
        faults=faults,
        rng=random.Random(seed),
        interval=0.0,
        retransmit=0.005,
        points=("shoe", "slot") if slot else ("shoe",),
    )
    shoe.deal(to_slot, point="slot", interval_ms=0, hold_ms=2)
    start = time.perf_counter()
    rounds = run_loopback(
        shoe,
        feed,
        rx.start_connection(),
        clock=clock,
        step=0.001,
        ack_drop=fault,
        rng=random.Random(seed + 1),
    )
    wall = time.perf_counter() - start
    delivered = []
    while not events.empty():
        e = events.get()
        if e.kind == "card":
            delivered.append((e.point, e.uid))
    judged = [(pt, uid) for _, kind, pt, uid in shoe.tally.judged if kind == "CARD"]
    fed = sorted(sim_uid(c, d) for c, d in order)
    if sorted(uid for _, uid in judged) != fed:
        print("  the board did not judge every card fed once (a gate fault)")
        return False
    expected = judged
    wrong = sum(1 for a, b in zip(delivered, expected, strict=False) if a != b)
    wrong += max(0, len(delivered) - len(expected))
    lost = len(expected) - len(delivered) + rx.counters["lost"]
    c = rx.counters
    print(
        f"in-memory loopback, {n} cards ({len(to_slot)} through the slot), "
        f"fault rate {fault:.0%} per frame and per ACK"
    )
    print(
        f"  shoe transmitted   {shoe.sent['frames']} frames ({shoe.sent['dropped']} dropped, "
        f"{shoe.sent['corrupted']} bad CRC, {shoe.sent['duplicated']} duplicated, "
        f"{shoe.sent['garbage']} garbage lines before a frame)"
    )
    print(
        f"  receiver saw       {c['lines']} lines: {c['frames']} frames, {c['bad_crc']} bad CRC, "
        f"{c['noise']} noise, {c['duplicates']} duplicates, {c['out_of_order']} held out of order"
    )
    print(f"  cards delivered    {len(delivered)} in {wall:.2f} s wall ({rounds} rounds)")
    print(f"  cards/s end-to-end {len(delivered) / wall:,.0f}  (both sides in one process)")
    print(
        f"  receiver only      {c['lines'] / rx_time[0]:,.0f} lines/s, "
        f"{len(delivered) / rx_time[0]:,.0f} cards/s"
    )
    print(f"  wrong cards        {wrong}")
    print(f"  lost valid cards   {lost}")
    return wrong == 0 and lost == 0


def over_pty(n: int, fault: float) -> bool:
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        link = str(Path(tmp) / "shoe")
        args = [
            sys.executable,
            "-m",
            "device.shoe.sim",
            "--link",
            link,
            "--seed",
            "1",
            "--decks",
            "2",
            "--interval",
            "0",
            "--retransmit",
            "0.05",
            "--exit-when-done",
        ]
        # the sim deals one deck order; repeat packs by dealing --count from many seeds
        args += ["--order", " ".join(str(c) for c, _ in deal_order(n, 1))]
        for name in ("garbage", "bad-crc", "drop", "dup"):
            args += [f"--{name}", str(fault)]
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, cwd=root)
        assert proc.stdout is not None
        proc.stdout.readline()
        events: queue.Queue = queue.Queue()
        got = []
        with ShoeLink(link, events=events, deck_map=DeckMap.simulated(2)) as shoe_link:
            start = None
            deadline = time.monotonic() + 300
            while len(got) < n and time.monotonic() < deadline:
                try:
                    e = events.get(timeout=0.5)
                except queue.Empty:
                    continue
                if e.kind == "card":
                    start = start or time.perf_counter()
                    got.append(e.card)
            wall = time.perf_counter() - (start or time.perf_counter())
            stats = shoe_link.stats()["counters"]
        proc.wait(timeout=30)
    expected = [c for c, _ in deal_order(n, 1)]
    wrong = sum(1 for a, b in zip(got, expected, strict=False) if a != b)
    lost = n - len(got)
    print(f"pty + shoe-sim process + ShoeLink, {n} cards, fault rate {fault:.0%}")
    print(
        f"  cards delivered    {len(got)} in {wall:.2f} s -> {len(got) / max(wall, 1e-9):,.0f} cards/s"
    )
    print(
        f"  link counters      bad_crc={stats['bad_crc']} noise={stats['noise']} "
        f"duplicates={stats['duplicates']} out_of_order={stats['out_of_order']}"
    )
    print(f"  wrong cards        {wrong}")
    print(f"  lost valid cards   {lost}")
    return wrong == 0 and lost == 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cards", type=int, default=100_000)
    ap.add_argument("--fault", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--slot", type=float, default=0.0, metavar="F", help="share via the slot")
    ap.add_argument("--pty", type=int, default=0, metavar="N")
    args = ap.parse_args()
    ok = in_memory(args.cards, args.fault, args.seed, args.slot)
    if args.pty:
        ok = over_pty(args.pty, args.fault) and ok
    print("RESULT", "ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
