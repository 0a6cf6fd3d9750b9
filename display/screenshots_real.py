"""Real-card screenshots for the docs (called by :mod:`display.screenshots`): the deal out of
the shoe, a misread prompt and a contract "Можно?" question, played through rcdevice's
simulated shoe and slot and the real link, the simulated people dealing and drawing.

Each shot is the whole screen as the app draws it (the table's question over the scene).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REAL_SHOTS = ("real-deal", "real-misread", "contract-real-buy")
#: each question the table asks about a read (issue 28), shot at the Pi screen's 800x480
PROMPT_SHOTS = ("real-prompt-deal-slot", "real-prompt-not-due", "real-prompt-stopped", "real-prompt-not-back",
                "real-prompt-out-of-turn",
                "real-prompt-slot-unplugged", "real-prompt-reader-error", "real-prompt-unknown-tag",
                "real-prompt-lost", "real-prompt-shoe-unplugged")
PROMPT_SIZE = (800, 480)


def wait(app: Any, done: Callable[[], bool], seconds: float = 20.0) -> bool:
    """Frames until ``done()`` (the readers' threads run meanwhile), at most ``seconds``."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        app.frame()
        if done():
            return True
        time.sleep(0.005)
    return done()


def _pull(app: Any, people: Any) -> None:
    """The dealer (or the drawer) takes the shoe's next card; wait until the table took it."""
    wait(app, lambda: people.pending is None)
    people.click_shoe()
    wait(app, lambda: people.pending is None)


def _shots(app: Any, people: Any, game: str) -> Iterator[str]:
    m = app.match
    if game == "gin":
        for _ in range(7):
            _pull(app, people)
        yield "real-deal"
        while m.reads.dealing():
            _pull(app, people)
        while m.reads.need() is None and str(m.state.hand.phase) == "upcard":
            m.controller.perform(m.to_act()[0], _call("knock"))  # both pass the upcard (G-4)
            app.frame()
        people.inject("misread")
        _pull(app, people)
        yield "real-misread"
        return
    while m.reads.dealing():
        _pull(app, people)
    st = m.state
    asker = next(s for s in range(len(m.seats)) if s != st.turn and any(a.kind == "buy" for a in m.legal(s)))
    m.controller.perform(asker, _call("buy"))
    wait(app, lambda: str(m.state.phase) == "ask")
    yield "contract-real-buy"


def _prompt_shots(app: Any, people: Any) -> Iterator[str]:
    """Each question of the table as the first one on screen: raised through the reads the
    way the link's events raise them (a card read, a reader's ERR, an unknown tag), shot,
    then dropped (the people's cards are not moved: only the table's words are shot)."""
    from display.table.controller.real_cards import SHOE, SLOT

    m = app.match
    reads = m.reads

    def clear() -> None:
        reads.prompts.clear()
        reads.unplugged.clear()
        reads.stopped.clear()
        reads._bump()

    for _ in range(5):
        _pull(app, people)
    reads.card(SLOT, reads.dealt[1])  # a dealt card pushed into the slot: back to its seat
    yield "real-prompt-deal-slot"
    clear()
    while reads.dealing():
        _pull(app, people)
    loose = people.shoe[0][0]  # the shoe's next card, when nobody is due one (G-4: the upcard)
    reads.card(SHOE, loose)
    yield "real-prompt-not-due"
    stopped = reads.card(SHOE, people.shoe[1][0]).prompt  # another while the table waits
    reads.prompts[:] = [stopped]
    yield "real-prompt-stopped"
    clear()
    reads.card(SHOE, loose)
    reads.answer()  # "it is back in the shoe" ... but it comes through the slot
    reads.card(SLOT, loose)
    yield "real-prompt-not-back"
    clear()
    reads.returned.clear()
    other = 1 - m.to_act()[0]
    reads.card(SLOT, people.cards_of(other)[0])  # the other seat's card into the slot
    yield "real-prompt-out-of-turn"
    clear()
    reads.reader_error(SLOT, "READER")  # the slot's reader cable out
    yield "real-prompt-slot-unplugged"
    clear()
    reads.reader_error(SHOE, "OVERFLOW")
    yield "real-prompt-reader-error"
    clear()
    reads.unknown(SHOE, "04A1B2C3D4E5F6")
    yield "real-prompt-unknown-tag"
    clear()
    reads.lost(1)
    yield "real-prompt-lost"
    clear()
    reads.disconnected()
    yield "real-prompt-shoe-unplugged"
    clear()


def take_prompts(outdir: Path, languages: list[str], state: str, size: tuple[int, int] = PROMPT_SIZE,
                 log: Callable[[str], None] = print) -> list[Path]:
    """Every real-card question (:data:`PROMPT_SHOTS`) in every language at ``size``."""
    import pygame

    from display.app import App
    from display.sim_real_cards import SimTable, TwinReaders
    from display.table.config import load_config

    written: list[Path] = []
    config, _errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": state})
    people = SimTable(TwinReaders(seed=12, speed=3.0), game="gin", seed=12, auto=False)
    app = App(config, mode="headless", size=size, state_dir=Path(state) / "real-prompts", seed=12,
              real_cards=True, readers=people)
    try:
        app.start()
        wait(app, _connected(app))
        app.start_match("gin", [{"name": "Anastasia", "kind": "human"}, {"name": "Budi", "kind": "human"}])
        for name in _prompt_shots(app, people):
            for lang in languages:
                app.set_language(lang)
                app.scene.update(app.clock())
                app.scene.invalidate()
                app.render()
                path = outdir / f"{name}-{lang}.png"
                pygame.image.save(app.screen.surface, str(path))
                written.append(path)
                log(str(path))
            app.set_language("en")
        app.abandon_match()
    finally:
        app.close()
    return written


def _connected(app: Any) -> Callable[[], bool]:
    return lambda: bool(app.real.shoe.connected)


def _call(name: str) -> Any:
    from display.table.controller import Call

    return Call(name)


def take_real(outdir: Path, languages: list[str], size: tuple[int, int], state: str,
              log: Callable[[str], None] = print) -> list[Path]:
    """Render the real-card shots in every language; returns the files."""
    import pygame

    from display.app import App
    from display.sim_real_cards import SimTable, TwinReaders
    from display.table.config import load_config

    written: list[Path] = []
    config, _errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": state})
    for game, names in (("gin", ("Anastasia", "Budi")), ("contract", ("Ana", "Boris", "Citra", "Duarte"))):
        people = SimTable(TwinReaders(seed=11, speed=3.0), game=game, seed=11, auto=False)
        app = App(config, mode="headless", size=size, state_dir=Path(state) / f"real-{game}", seed=11,
                  real_cards=True, readers=people)
        app.start()
        wait(app, _connected(app))
        app.start_match(game, [{"name": n, "kind": "human"} for n in names])
        for name in _shots(app, people, game):
            for lang in languages:
                app.set_language(lang)  # (the last move's line is worded again too)
                app.scene.update(app.clock())
                app.scene.invalidate()
                app.render()
                path = outdir / f"{name}-{lang}.png"
                pygame.image.save(app.screen.surface, str(path))
                written.append(path)
                log(str(path))
            app.set_language("en")
        app.abandon_match()
        app.close()
    return written
