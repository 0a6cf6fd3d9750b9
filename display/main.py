"""``rummy-table sim`` and ``rummy-table kiosk``: start the table app.

``sim`` opens a desktop window (default 1280×800) with simulated arcade buttons;
``sim --headless`` plays computer players through the same loop with SDL's dummy video
driver and exits 0 when the requested matches are done. ``kiosk`` runs fullscreen with
real GPIO and shows an error screen (never a crash loop) when the configuration is bad.
"""

from __future__ import annotations

import argparse
import os
import sys


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x800, got {text!r}") from None
    if not (320 <= w <= 7680 and 240 <= h <= 4320):
        raise argparse.ArgumentTypeError(f"size {w}x{h} is out of range (320x240 .. 7680x4320)")
    return (w, h)


def sim_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rummy-table sim", description="The desktop simulator of the table.")
    p.add_argument("--headless", action="store_true", help="computer players only, no window; exit at the end")
    p.add_argument("--state-dir", help="where journals and records go (default: from the config; "
                                       "with --headless a new temporary directory)")
    p.add_argument("--record-bots", action="store_true",
                   help="record matches of computers only in the records (default: not recorded)")
    p.add_argument("--seed", type=int, help="deterministic deals and computer players")
    p.add_argument("--matches", type=int, default=1, help="matches to play headless (default 1)")
    p.add_argument("--game", choices=("gin", "contract"), help="game for headless play (default gin)")
    p.add_argument("--preset", help="rules preset (e.g. standard, knock_card, tournament)")
    p.add_argument("--size", type=_size, help="table size WxH (default 1280x800)")
    p.add_argument("--screenshots", help="save screenshots (attract, table, review, end) into this folder")
    p.add_argument("--language", choices=("en", "id", "ru", "pt"), help="language of the table")
    p.add_argument("--config", help="a config.toml (default /etc/rummy-table/config.toml if present)")
    p.add_argument("--debug", action="store_true", help="re-raise errors instead of the failsafe screen")
    p.add_argument("--real-cards", action="store_true",
                   help="real cards: the simulated card shoe and discard slot (docs/real_cards.md)")
    p.add_argument("--faults", type=float, default=0.0, metavar="P",
                   help="with --real-cards: faults per card passed (misreads, doubles, strays, unplugs)")
    p.add_argument("--reader-speed", type=float, default=1.0, help=argparse.SUPPRESS)  # tests: a faster twin
    return p


def _load(config_path: str | None, env=os.environ):
    from display.table.config import load_config

    return load_config(config_path, env=env)


def _builtin_config():
    """The packaged defaults alone (the operator's file could not be read at all)."""
    import dataclasses

    from display.table import config as cfg

    return cfg.Config(display=cfg.DisplayConfig(), game=cfg.GameConfig(), buttons={},
                      shoe=cfg.ShoeConfig(), operator=cfg.OperatorConfig(),
                      paths=dataclasses.replace(cfg.PathsConfig(),
                                                state_dir=cfg.default_state_dir(os.environ)))


def sim_main(argv: list[str] | None = None) -> int:
    args = sim_parser().parse_args(argv)
    if args.preset:
        from rummy.games import get_engine

        try:
            get_engine(args.game or "gin").preset(args.preset)
        except (ValueError, KeyError) as exc:
            print(f"rummy-table sim: --preset {args.preset!r}: {exc}", file=sys.stderr)
            return 2
    config, errors = _load(args.config)
    for e in errors:
        print(f"rummy-table: config: {e}", file=sys.stderr, flush=True)
    if args.language:
        from dataclasses import replace

        config = replace(config, display=replace(config.display, language=args.language))
    from display.app import App

    people = None
    if args.real_cards:
        if not 0.0 <= args.faults < 1.0:
            print("rummy-table sim: --faults must be 0 <= P < 1", file=sys.stderr)
            return 2
        from display.sim_real_cards import SimTable, TwinReaders

        people = SimTable(TwinReaders(seed=args.seed or 0, speed=args.reader_speed), game=args.game or "gin",
                          seed=args.seed or 0,
                          faults=args.faults, auto=args.headless)
    app = App(config, mode="headless" if args.headless else "sim", size=args.size or (1280, 800),
              state_dir=args.state_dir, seed=args.seed, matches=args.matches, game=args.game,
              preset=args.preset, screenshots=args.screenshots, debug=args.debug,
              record_bots=args.record_bots, real_cards=args.real_cards, readers=people)
    if args.headless and not args.state_dir:
        print(f"headless: journals in {app.state_dir} (a temporary directory; --state-dir to keep "
              "them elsewhere)", flush=True)
    if errors and not args.headless:
        app.problems = list(errors) + app.problems
    code = app.run()
    if args.headless:
        print(f"headless: {app.matches_done} match(es) played, {app.frames} frames", flush=True)
    if people is not None:
        for note in people.tally.notes[-20:]:
            print(f"real cards: {note}", flush=True)
        asked = ", ".join(f"{k} {n}" for k, n in sorted(people.tally.questions.items()))
        print(f"real cards: the table asked: {asked or 'nothing'}; {people.tally.faults} faults injected, "
              f"{people.tally.voided} hands voided", flush=True)
        print(app.real.summary(), flush=True)  # the last line
        if people.tally.lost or people.tally.wrong:
            code = code or 1
    return code


def kiosk_main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="rummy-table kiosk", description="Run the table fullscreen with real GPIO.")
    p.add_argument("--config", help="config.toml (default /etc/rummy-table/config.toml or $RUMMY_TABLE_CONFIG)")
    p.add_argument("--debug", action="store_true", help="re-raise errors instead of the failsafe screen")
    args = p.parse_args(argv)
    try:
        config, errors = _load(args.config)
    except Exception as exc:  # noqa: BLE001 - whatever the loader raises ends on the fault screen
        from display.table.config import SYSTEM_CONFIG

        source = args.config or os.environ.get("RUMMY_TABLE_CONFIG") or SYSTEM_CONFIG
        config, errors = _builtin_config(), [f"{source}: "
                                             f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"]
    for e in errors:
        print(f"rummy-table: config error: {e}", file=sys.stderr, flush=True)
    from display.app import App

    try:
        app = App(config, mode="kiosk", debug=args.debug, config_errors=errors)
    except Exception as exc:  # noqa: BLE001 - no display at all: say so loudly, exit non-zero
        print(f"rummy-table: cannot open the display: {exc}\n"
              f"  SDL_VIDEODRIVER={os.environ.get('SDL_VIDEODRIVER', '(unset)')}; see docs for kmsdrm/cage",
              file=sys.stderr, flush=True)
        return 1
    for problem in app.problems:
        print(f"rummy-table: {problem}", file=sys.stderr, flush=True)
    import signal

    def stop(signum: int, frame: object) -> None:  # systemctl stop: end the loop, exit 0
        app.running = False

    signal.signal(signal.SIGTERM, stop)
    return app.run()


if __name__ == "__main__":
    sys.exit(sim_main())
