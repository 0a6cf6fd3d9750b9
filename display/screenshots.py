"""Screenshots for the docs: real seeded games driven to telling moments, in every language.

    python -m display.screenshots OUTDIR [--size 1280x800] [--lang en,ru]

Writes ``<screen>-<lang>.png`` for the attract screen, the game chooser, the operator menu,
a gin table's first turn with its hands private (how to look), a seat looking at his hand,
the illegal-knock warning (G-8), a gin table mid-hand, a knock review, a contract table with
melds on it, a "Можно?" question, the choice of how many discard-pile cards to buy in turn,
the turn of a contract player with BUY worded for in turn and out of turn, a contract
deal review, "End this match now" asking first, the "Last hands" recall of a gin hand and of
a contract deal, the start screen of a kiosk whose buttons are not usable (the warning left of the top buttons),
and the simulator's button strip for gin and for contract. Nothing is staged by hand: the
games are played by the computer players through ``MatchDriver.submit`` from fixed seeds,
so the pictures are reproducible.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

SHOTS = ("attract", "choice", "operator", "operator-end-confirm", "gin-first-turn", "gin-look", "gin-knock-warning", "gin-table",
         "gin-knock-review", "contract-table", "contract-buy", "contract-turn", "contract-take", "contract-review", "recall",
         "recall-contract", "attract-warning", "sim-strip-gin", "sim-strip-contract",
         "real-deal", "real-misread", "contract-real-buy",  # real cards (screenshots_real)
         "real-prompt-deal-slot", "real-prompt-not-due", "real-prompt-stopped", "real-prompt-not-back",
         "real-prompt-out-of-turn", "real-prompt-slot-unplugged", "real-prompt-reader-error",
         "real-prompt-unknown-tag", "real-prompt-lost", "real-prompt-shoe-unplugged")  # at 800x480
GIN_NAMES = ("Anastasia", "Budi")
CONTRACT_NAMES = ("Ana", "Boris", "Citra", "Duarte")


def _render(app, path: Path) -> None:
    import pygame

    scene = app.scene
    if hasattr(scene, "reword"):
        scene.reword()  # word the last event in the current language
        scene.update(app.clock())
    scene.targets = []
    scene.draw(app.screen.surface)
    pygame.image.save(app.screen.surface, str(path))


def _step(app, rng: random.Random) -> None:
    from display.table.match import make_player

    m = app.match
    if m.review_pending:
        m.continue_after_review()
        return
    if not m.to_act():
        m.deal_if_needed()
        return
    seat = m.to_act()[0]
    bot = make_player(m.game)
    m.submit(bot.choose(m.engine, m.engine.view(m.state, seat), m.legal(seat), rng))


def _show(app) -> None:
    """The match's scene; a table already shown stays (its list of recent moves grows)."""
    m = app.match
    if m is not None and not m.review_pending and app.scene is not None and app.scene.name == f"{m.game}_table":
        app.scene.update(app.clock())
        return
    app.show_match()


def _played(app, rng: random.Random) -> None:
    """One move, taken in by the table on screen as a person would see it."""
    _step(app, rng)
    if app.scene is not None and app.scene.name.endswith("_table") and app.match is not None \
            and not app.match.review_pending:
        app.scene.update(app.clock())


def _gin(app) -> Iterator[str]:
    """A gin table mid-hand, then the first knock (or undercut) review."""
    app.start_match("gin", [{"name": n, "kind": "human"} for n in GIN_NAMES])
    m, rng = app.match, random.Random(2)
    while not (m.state.hand is not None and len(m.state.hand.stock) <= 22
               and m.state.hand.phase.name == "DISCARD"):
        _step(app, rng)
    app.show_match()
    yield "gin-table"
    for _ in range(5000):
        if m.review_pending:
            r = m.state.hand.result if m.state.hand is not None else None
            app.show_match()
            if r is not None and r.outcome in ("knock", "undercut"):
                yield "gin-knock-review"
                break
            m.continue_after_review()
            app.show_match()
            continue
        _step(app, rng)
    app.abandon_match()


def _private(app) -> Iterator[str]:
    """Private hands (docs/privacy.md): the first turn says how to look; one seat holds his
    button and sees his hand; the panel's Knock without a legal knock warns first (G-8)."""
    from display.table.controller import Call
    from rummy.gin.melds import deadwood

    app.change(privacy="peek")
    app.start_match("gin", [{"name": n, "kind": "human"} for n in GIN_NAMES])
    m, rng = app.match, random.Random(4)
    app.show_match()
    yield "gin-first-turn"
    seat = m.to_act()[0]
    app.scene.reveal(seat)  # as if he held his DRAW button
    yield "gin-look"
    m.controller.release_all()
    for _ in range(400):
        h = m.state.hand
        if (h is not None and h.phase.name == "DISCARD" and not m.review_pending
                and deadwood(h.hands[m.to_act()[0]]) > h.knock_limit + 1):
            break
        _step(app, rng)
    app.show_match()
    seat = m.to_act()[0]
    app.scene.reveal(seat)
    app.scene.update(app.clock())
    app.scene.call(seat, Call.KNOCK_BUTTON)
    app.scene.ui[seat].flash = ""  # the warning stays as his status line
    yield "gin-knock-warning"
    m.controller.release_all()
    app.abandon_match()
    app.change(privacy="open")


def _contract(app) -> Iterator[str]:
    """A four-seat contract game: a "Можно?" question, melds on the table, a deal review."""
    from rummy.actions import Action
    from rummy.contract.state import PLAY, TURN

    app.start_match("contract", [{"name": n, "kind": "human"} for n in CONTRACT_NAMES])
    m, rng = app.match, random.Random(5)
    app.show_match()  # the table follows the game from the deal: its recent moves list the last few
    asked = False
    melds = False
    took = False
    for _ in range(5000):
        st = m.state
        if m.review_pending:
            app.show_match()
            yield "contract-review"
            break
        if (asked and not took and st.phase == TURN and len(st.discard_pile) >= 3
                and any(a.kind == "buy" for a in m.legal(st.turn))):
            took = True  # in turn, BUY: how many discard-pile cards (C-8.2); then Cancel
            _show(app)
            app.scene.update(app.clock())
            yield "contract-turn"  # BUY in turn buys discard-pile cards; out of turn it asks "Можно?"
            app.scene.press(st.turn, "buy")
            if app.scene.ui[st.turn].choose_take:
                yield "contract-take"
                app.scene.press(st.turn, "cancel")
        if not asked and st.phase == TURN and st.turns_started > 6 and st.top is not None:
            asker = (st.turn + 2) % len(m.seats)
            if st.top.discarder != asker and m.submit(Action("buy", asker)) is None:
                asked = True
                _show(app)
                yield "contract-buy"
                continue
        owners = {t.owner for t in st.table_melds}
        if asked and not melds and len(owners) >= 2 and st.phase == PLAY:
            melds = True
            _show(app)
            yield "contract-table"
        _played(app, rng)
    app.abandon_match()


def _recall(app) -> Iterator[str]:
    """The "Last hands" screen (from the records of the games above): the last step of the
    newest gin hand, then of the newest contract deal."""
    app.goto("recall", back="attract")
    scene = app.scene
    for game, name in (("gin", "recall"), ("contract", "recall-contract")):
        i = next((k for k, rec in enumerate(scene.hands) if rec.game == game), None)
        if i is None:
            continue
        scene.pick(i)
        scene.move(10_000)  # the last step: the showdown and the score
        yield name


def _strips(app, clock: _Clock) -> Iterator[str]:
    """The simulator's button strip (``display.sim.SimPanel``, mode ``sim``): a gin table's
    first turn (two seats, DRAW and KNOCK), then a contract table once BUY is open."""
    app.start_match("gin", [{"name": n, "kind": "human"} for n in GIN_NAMES])
    app.show_match()
    app.frame(events=[])
    yield "sim-strip-gin"
    app.abandon_match()
    app.start_match("contract", [{"name": n, "kind": "human"} for n in CONTRACT_NAMES])
    app.show_match()
    clock.t += app.config.game.deal_grace_s + 0.1  # BUY opens after the deal
    app.frame(events=[])
    yield "sim-strip-contract"
    app.abandon_match()


class _Clock:
    """The sim app's clock, moved by hand (the deal's grace, the lamps' flashes)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def take(outdir: str | Path, *, size: tuple[int, int] = (1280, 800), languages: list[str] | None = None,
         log: Callable[[str], None] = print) -> list[Path]:
    """Render every screenshot in every language into ``outdir``; returns the files."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from display.app import App
    from display.table import i18n
    from display.table.config import load_config

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    languages = languages or list(i18n.LANGUAGES)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as state:
        config, _errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": state})
        app = App(config, mode="headless", size=size, state_dir=state, seed=11)
        app.change(privacy="open")  # the docs show the hands

        def shoot(name: str, render: Callable[..., None] = _render) -> None:
            for lang in languages:
                app.set_language(lang)
                path = outdir / f"{name}-{lang}.png"
                render(app, path)
                written.append(path)
                log(str(path))
            app.set_language("en")

        app.goto("attract")
        app.frames = 3
        shoot("attract")
        app.goto("choice")
        shoot("choice")
        app.start_match("gin", [{"name": n, "kind": "human"} for n in GIN_NAMES])
        app.goto("operator", back="gin_table")
        app.scene.unlocked = True
        shoot("operator")
        app.scene.abandon()  # "End this match now" touched once: it asks first
        shoot("operator-end-confirm")
        app.goto("operator", back="gin_table")  # a new menu: asked off, the match goes on
        app.scene.unlocked = True
        app.abandon_match()
        for name in _private(app):
            shoot(name)
        for name in _gin(app):
            shoot(name)
        for name in _contract(app):
            shoot(name)
        for name in _recall(app):
            shoot(name)
        app.close()
        # a kiosk off a Pi: the lgpio pin factory is not there, the start screen says so
        from dataclasses import replace

        windowed = replace(config, display=replace(config.display, fullscreen=False))  # at ``size``
        kiosk = App(windowed, mode="kiosk", size=size, state_dir=state, seed=11)
        kiosk.goto("attract")
        app = kiosk
        shoot("attract-warning")
        kiosk.close()
        clock = _Clock()
        sim = App(config, mode="sim", size=size, state_dir=state, seed=11, clock=clock)
        sim.change(privacy="open")
        app = sim
        for name in _strips(sim, clock):
            shoot(name, render=_render_strip)
        sim.close()
        from display.screenshots_real import take_prompts, take_real

        written += take_real(outdir, languages, size, state, log=log)
        written += take_prompts(outdir, languages, state, log=log)
    return written


def _render_strip(app, path: Path) -> None:
    import pygame

    from display.app import SIM_STRIP

    surf = pygame.Surface((SIM_STRIP, app.screen.size[1]))
    app.sim.draw(surf)
    pygame.image.save(surf, str(path))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m display.screenshots", description=__doc__.splitlines()[0])
    p.add_argument("outdir")
    p.add_argument("--size", default="1280x800", help="WIDTHxHEIGHT (default 1280x800)")
    p.add_argument("--lang", default="", help="comma-separated languages (default: all)")
    args = p.parse_args(argv)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"screenshots: --size must look like 1280x800, got {args.size!r}", file=sys.stderr)
        return 2
    langs = [x for x in args.lang.split(",") if x] or None
    from display.table.i18n import LANGUAGES

    bad = [x for x in langs or [] if x not in LANGUAGES]
    if bad:
        print(f"screenshots: unknown language(s) {bad}; known: {', '.join(LANGUAGES)}", file=sys.stderr)
        return 2
    files = take(args.outdir, size=(w, h), languages=langs)
    missing = [s for s in SHOTS if not any(f.name.startswith(s + "-") for f in files)]
    if missing:
        print(f"screenshots: these games never reached {missing}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
