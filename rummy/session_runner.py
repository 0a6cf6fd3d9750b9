"""A headless bot runner over :class:`rummy.session.MatchSession` (for kill-and-resume tests).

``python -m rummy.session run --state-dir DIR --seed N [--game gin|contract] [--matches N]
[--delay S] [--max-actions N]``

On start it resumes an unfinished match (printing ``resumed <digest> after <n> actions``)
or starts a new one; computer players then play through the same session path as the
table app. With a seed every choice is derived from ``(seed, action number)``, so a run that
is killed and restarted any number of times ends in exactly the state of an uninterrupted
run.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rummy.actions import Action
from rummy.games import GameEngine
from rummy.session import ARCHIVE, MatchSession, SessionError

# Where the engines keep their basic computer player (first found wins).
BOT_LOCATIONS = ("rummy.{game}.bots:BasicPlayer", "rummy.{game}.bot:BasicPlayer",
                 "rummy.{game}.engine:BasicPlayer", "rummy.bots:BasicPlayer")


class RandomPlayer:
    """Fallback computer player: any legal action, uniformly."""

    def choose(self, engine: GameEngine, view: Any, legal: Sequence[Action],
               rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]


def basic_player(game: str) -> Any:
    """The engine's BasicPlayer if it exists, else :class:`RandomPlayer`."""
    for location in BOT_LOCATIONS:
        module_name, attr = location.format(game=game).split(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        cls = getattr(module, attr, None)
        if cls is not None:
            return cls()
    return RandomPlayer()


def next_action(session: MatchSession, players: Sequence[Any]) -> Action:
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
    for name in (preset,) if preset else ("standard", "default"):
        try:
            return engine.rules_to_dict(engine.preset(name)), name
        except (KeyError, ValueError):
            if preset:
                raise SessionError(f"unknown {game} preset {preset!r}") from None
    return {}, None


def run(argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m rummy.session run")
    p.add_argument("--state-dir", required=True)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--game", choices=("gin", "contract"), default="gin")
    p.add_argument("--preset", default=None)
    p.add_argument("--matches", type=int, default=1)
    p.add_argument("--delay", type=float, default=0.0, help="seconds between actions")
    p.add_argument("--max-actions", type=int, default=100_000)
    p.add_argument("--seats", type=int, default=None)
    args = p.parse_args(argv)
    res = MatchSession.resume(args.state_dir)
    for msg in res.messages:
        print(f"note: {msg}", flush=True)
    archive = Path(args.state_dir) / ARCHIVE
    done = len(list(archive.glob("*.jsonl"))) if archive.is_dir() else 0
    session = res.session
    if session is not None:
        print(f"resumed {session.digest()} after {session.actions_applied} actions", flush=True)
    while done < args.matches:
        if session is None:
            n_seats = args.seats or (2 if args.game == "gin" else 4)
            seats = [{"name": f"Bot {i + 1}", "kind": "computer", "bot": "basic"}
                     for i in range(n_seats)]
            seed = None if args.seed is None else args.seed * 1000 + done
            try:
                rules, preset = default_rules(args.game, args.preset)
                session = MatchSession.start(args.state_dir, args.game, rules, seats,
                                             seed=seed, preset=preset)
            except SessionError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
            print(f"started {session.journal_path.name}", flush=True)
        players = [basic_player(session.header.game) for _ in session.header.seats]
        while not session.is_over:
            if session.actions_applied >= args.max_actions:
                print(f"stopped after {session.actions_applied} actions", flush=True)
                session.close()
                return 0
            session.apply(next_action(session, players))
            if args.delay:
                time.sleep(args.delay)
        print(f"finished {session.digest()} after {session.actions_applied} actions", flush=True)
        session.finish(None)
        session = None
        done += 1
    print("done", flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] != "run":
        print("usage: python -m rummy.session run --state-dir DIR [--seed N] [--game gin|contract]",
              file=sys.stderr)
        return 2
    return run(argv[1:])


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
