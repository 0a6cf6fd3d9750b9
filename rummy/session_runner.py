"""A headless bot runner over :class:`rummy.session.MatchSession` (for kill-and-resume tests).

``python -m rummy.session_runner run --state-dir DIR --seed N [--game gin|contract] [--matches N]
[--delay S] [--stop-at M:N] [--no-records]``

On start it resumes an unfinished match (printing ``resumed <digest> after <n> actions``)
or starts a new one; computer players then play through the same session path as the
table app. With a seed every choice is derived from ``(seed, action number)``, so a run that
is killed and restarted any number of times ends in exactly the state of an uninterrupted
run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from rummy.actions import Action
from rummy.play import Player
from rummy.session import ARCHIVE, MatchSession, SessionError
from rummy.store import Store, StoreError


def next_action(session: MatchSession, players: Sequence[Player]) -> Action:
    """The deal when one is pending, else the choice of the first seat that may act."""
    deal = session.deal_action()
    if deal is not None:
        return deal
    engine, state = session.engine, session.state
    seed = session.seed if session.seed is not None else "none"
    rng = random.Random(f"{seed}:act:{session.actions_applied}")
    for seat in engine.to_act(state):
        legal = engine.legal_actions(state, seat)
        if legal:
            return players[seat].choose(engine, engine.view(state, seat), legal, rng)
    raise RuntimeError("no seat can act but the match is not over")


def default_rules(game: str, preset: str | None) -> tuple[dict[str, Any], str | None]:
    """The rules of ``preset`` (or of the engine's ``standard`` preset) and its name."""
    from rummy.games import get_engine

    engine = get_engine(game)
    for name in (preset,) if preset else ("standard", "seed_002", "default"):
        try:
            return engine.rules_to_dict(engine.preset(name)), name
        except (KeyError, ValueError):
            if preset:
                raise SessionError(f"unknown {game} preset {preset!r}") from None
    return {}, None


def run_matches(state_dir: str | Path, *, seed: int | None, game: str = "gin",
                preset: str | None = None, matches: int = 1, delay: float = 0.0,
                stop_at: tuple[int, int] | None = None, seats: int | None = None,
                records: bool = True, record_bots: bool = False, fsync: bool = True,
                out: TextIO | None = None) -> int:
    """Resume or start, then play until ``matches`` are archived (or ``stop_at``).

    ``stop_at = (m, n)`` stops once match number ``m`` has ``n`` actions (left unfinished).
    The store is opened when ``records`` (it records what resume finds queued); these
    matches of computers only go into ``<state_dir>/records.sqlite3`` only with
    ``record_bots`` (a bot run never tops the table's real leaderboard by accident).
    """
    def say(text: str) -> None:
        print(text, file=out or sys.stdout, flush=True)

    store = Store.in_state_dir(state_dir, record_bots=record_bots) if records else None
    try:
        res = MatchSession.resume(state_dir, store=store, fsync=fsync)
        for msg in res.messages:
            say(f"note: {msg}")
        archive = Path(state_dir) / ARCHIVE
        done = len(list(archive.glob("*.jsonl"))) if archive.is_dir() else 0
        session = res.session
        if session is not None:
            say(f"resumed {session.digest()} after {session.actions_applied} actions")
        while done < matches:
            if session is None:
                n_seats = seats or (2 if game == "gin" else 4)
                seat_list = [{"name": f"Bot {i + 1}", "kind": "computer", "bot": "basic"}
                             for i in range(n_seats)]
                rules, preset_name = default_rules(game, preset)
                session = MatchSession.start(state_dir, game, rules, seat_list,
                                             seed=None if seed is None else seed * 1000 + done,
                                             preset=preset_name, fsync=fsync)
                say(f"started {session.journal_path.name}")
            players = [session.engine.player(s.get("bot", "basic")) for s in session.header.seats]
            while not session.is_over:
                if stop_at and stop_at[0] == done + 1 and session.actions_applied >= stop_at[1]:
                    say(f"stopped after {session.actions_applied} actions")
                    session.close()
                    return 0
                session.apply(next_action(session, players))
                if delay:
                    time.sleep(delay)
            say(f"finished {session.digest()} after {session.actions_applied} actions")
            session.finish(store)
            session = None
            done += 1
        say("done")
        return 0
    finally:
        if store is not None:
            store.close()


def run(argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m rummy.session_runner run")
    p.add_argument("--state-dir", required=True)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--game", choices=("gin", "contract"), default="gin")
    p.add_argument("--preset", default=None)
    p.add_argument("--matches", type=int, default=1)
    p.add_argument("--delay", type=float, default=0.0, help="seconds between actions")
    p.add_argument("--stop-at", default=None, metavar="M:N",
                   help="stop when match M has N actions (left unfinished)")
    p.add_argument("--seats", type=int, default=None)
    p.add_argument("--no-records", action="store_true", help="do not open records.sqlite3")
    p.add_argument("--record-bots", action="store_true",
                   help="record these matches of computers only in records.sqlite3")
    args = p.parse_args(argv)
    stop_at = None
    if args.stop_at:
        try:
            m, n = (int(x) for x in args.stop_at.split(":"))
            stop_at = (m, n)
        except ValueError:
            p.error(f"--stop-at must look like 2:150, got {args.stop_at!r}")
    try:
        return run_matches(args.state_dir, seed=args.seed, game=args.game, preset=args.preset,
                           matches=args.matches, delay=args.delay, stop_at=stop_at,
                           seats=args.seats, records=not args.no_records,
                           record_bots=args.record_bots)
    except (SessionError, StoreError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] != "run":
        print("usage: python -m rummy.session_runner run --state-dir DIR [--seed N] [--game gin|contract]",
              file=sys.stderr)
        return 2
    return run(argv[1:])


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
