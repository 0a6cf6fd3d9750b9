"""Languages: every msgid translated (id, ru, pt), plural headers, placeholders, glyphs in the
bundled font, and no text overflowing its box in any language at 800×480 and 1280×800."""

from __future__ import annotations

import os
import random
import re

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import catalogs  # noqa: E402
import pygame  # noqa: E402
from display_input import drawn_texts  # noqa: E402

from display import theme  # noqa: E402
from display.app import App  # noqa: E402
from display.table import i18n
from display.table.config import load_config  # noqa: E402
from display.table.match import make_player  # noqa: E402
from rummy.actions import Action  # noqa: E402
from rummy.contract.bots import BasicPlayer  # noqa: E402
from rummy.contract.state import ASK, PLAY, TURN  # noqa: E402

LANGS = [lang for lang in i18n.LANGUAGES if lang != "en"]
SIZES = [(800, 480), (1280, 800)]
PLACEHOLDER = re.compile(r"\{\w*\}")
NPLURALS = {"id": 1, "ru": 3, "pt": 2}


@pytest.mark.parametrize("lang", LANGS)
def test_every_msgid_is_translated(lang):
    missing = catalogs.missing_translations(lang)
    assert not missing, f"{lang}: {len(missing)} msgids without a translation, e.g. {missing[:5]}"


def test_the_translation_check_catches_a_fuzzy_or_empty_entry(tmp_path, monkeypatch):
    po = i18n.catalog_path("ru").read_text(encoding="utf-8")
    first = catalogs.messages(catalogs.catalog("ru"))[0]
    quoted = f'msgid "{first.id}"\nmsgstr "{first.string}"'
    assert quoted in po
    for broken in (f'#, fuzzy\n{quoted}', f'msgid "{first.id}"\nmsgstr ""'):
        path = tmp_path / "ru" / "LC_MESSAGES" / "messages.po"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(po.replace(quoted, broken), encoding="utf-8")
        monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
        assert catalogs.missing_translations("ru") == [first.id]
        monkeypatch.undo()


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_header_and_placeholders(lang):
    cat = catalogs.catalog(lang)
    assert cat.num_plurals == NPLURALS[lang], cat.plural_forms
    assert f"nplurals={NPLURALS[lang]};" in cat.plural_forms.replace(" ", "")
    for m in catalogs.messages(cat):
        want = set().union(*(PLACEHOLDER.findall(i) for i in catalogs.ids(m)))
        if m.pluralizable:
            assert len(m.string) == NPLURALS[lang], f"{lang}: {m.id!r} needs {NPLURALS[lang]} forms"
        for s in catalogs.strings(m):
            assert set(PLACEHOLDER.findall(s)) == want, f"{lang}: {m.id!r} -> {s!r}: placeholders differ"


def test_russian_plurals_choose_three_forms():
    i18n.set_language("ru")
    try:
        words = [i18n.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (1, 3, 5, 21, 12)]
    finally:
        i18n.set_language("en")
    assert words == ["1 карта", "3 карты", "5 карт", "21 карта", "12 карт"]


def _notdef(bold: bool) -> bytes:
    """The pixels DejaVu draws for a character it lacks (its .notdef box)."""
    return pygame.image.tobytes(theme.font(20, bold).render("\U0010fffd", True, (255, 255, 255)), "RGBA")


def missing(text: str, bold: bool) -> list[str]:
    """Characters the bundled font lacks: ``metrics`` says None, or it draws the .notdef box
    (pygame-ce reports the box's metrics for some missing characters, e.g. U+23EE)."""
    f, box = theme.font(20, bold), _notdef(bold)
    out = list(theme.missing_glyphs(text, bold))
    for ch in set(text) - set(out):
        if not ch.isspace() and pygame.image.tobytes(f.render(ch, True, (255, 255, 255)), "RGBA") == box:
            out.append(ch)
    return out


def test_the_glyph_check_catches_a_missing_character():
    assert missing("⏮", False) == ["⏮"] and missing("Ж♠✓", False) == []


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_the_bundled_font_has_every_glyph(lang):
    cat = catalogs.template() if lang == i18n.SOURCE_LANGUAGE else catalogs.catalog(lang)
    texts = [s for m in catalogs.messages(cat) for s in catalogs.ids(m) + catalogs.strings(m) if s]
    texts += list(i18n.LANGUAGES.values()) + ["♠♥♦♣ ✓ ▶ ◀ ⌫ ● − — – “ ” « » · × ° …"]
    for bold in (False, True):
        bad = {t: missing(t, bold) for t in texts if missing(t, bold)}
        assert not bad, f"{lang}: glyphs missing from DejaVu Sans (bold={bold}): {list(bad.items())[:3]}"



@pytest.mark.parametrize("game", ["gin", "contract"])
def test_event_words_are_keyed_by_the_engines_event_kinds(game):
    """A misspelt kind in a game's table of event words would silently say nothing."""
    from display.table import contract_text, gin_text
    from rummy.contract.kinds import EventKind as ContractEvent
    from rummy.gin.kinds import EventKind as GinEvent

    text, kinds = (gin_text, GinEvent) if game == "gin" else (contract_text, ContractEvent)
    assert text.EVENT_WORDS and set(text.EVENT_WORDS) <= set(kinds)

# -- rendering every screen in every language -------------------------------------------------

def make_app(tmp_path, size) -> App:
    config, errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    assert not errors
    app = App(config, mode="headless", size=size, state_dir=tmp_path, seed=7)
    app.change(privacy="open")
    return app


def render(app: App) -> list:
    scene = app.scene
    if hasattr(scene, "_version"):
        scene._version = -1  # re-word the last event in the current language
        scene.update(app.clock())
    return drawn_texts(app)


def overflow(app: App, label: str) -> list[str]:
    w, h = app.screen.size
    screen = pygame.Rect(0, 0, w, h)
    return [f"{label} {i18n.language()} {w}x{h}: {r.text!r} in {r.box.size}" for r in render(app)
            if not r.fits or not screen.contains(r.drawn)]


BOT = BasicPlayer()


def bot_step(app: App, rng: random.Random) -> None:
    m, bot = app.match, BOT
    seat = m.to_act()[0]
    m.submit(bot.choose(m.engine, m.engine.view(m.state, seat), m.legal(seat), rng))


def contract_states(app: App):
    """Yield (label, setup) at telling moments of a four-seat contract game."""
    app.start_match("contract", [{"name": n, "kind": "human"} for n in
                                 ("Anastasia", "Bartholomew", "Guilherme", "Wulandari")])
    m = app.match
    rng = random.Random(3)
    st = m.state
    yield "contract turn"
    asker = next(s for s in range(4) if s != st.turn)
    m.submit(Action("buy", (st.turn + 2) % 4))
    assert m.state.phase == ASK
    yield "contract ask"
    seen_melds = False
    for _ in range(3000):
        if m.review_pending:
            app.show_match()
            yield "contract review"
            m.continue_after_review()
            app.show_match()
            if m.state.deal_number >= 3:
                break
            continue
        st = m.state
        if not seen_melds and st.table_melds and st.phase == PLAY:
            seen_melds = True
            seat = st.turn
            app.scene.ui[seat].selected = [0]
            app.scene.ui[seat].revealed_until = 1e12
            yield "contract melds"
            app.scene.ui[seat].selected = [0, 1, 2]
            yield "contract picked"
        if st.phase == TURN and st.deal_number == 2 and st.turns_started == 1:
            yield "contract deal 2"
        bot_step(app, rng)
    assert asker is not None and seen_melds


@pytest.mark.parametrize("size", SIZES)
def test_no_text_overflows_in_any_language(tmp_path, size):
    app = make_app(tmp_path, size)
    problems: list[str] = []

    def every_language(label: str) -> None:
        for lang in i18n.LANGUAGES:
            app.set_language(lang)
            problems.extend(overflow(app, label))
        app.set_language("en")

    for name, kw in [("attract", {}), ("choice", {}), ("seating", {"game": "gin"}),
                     ("seating", {"game": "contract"}), ("failsafe", {"error": "ValueError: boom"}),
                     ("config_error", {"errors": ["[display] rotation must be 0, 90, 180 or 270"]}),
                     ("operator", {}), ("recall", {}), ("leaderboard", {})]:
        app.goto(name, **kw)
        every_language(name)
    app.goto("operator")
    app.scene.unlocked = True
    every_language("operator menu")
    app.scene.page = "diagnostics"
    every_language("operator diagnostics")
    app.goto("keyboard", text="Ann", title="Name", on_done=lambda t: None)
    every_language("keyboard")
    # a gin hand in play, then its review
    app.start_match("gin", [{"name": "Anastasia", "kind": "human"}, {"name": "Bartholomew", "kind": "human"}])
    m = app.match
    for _ in range(7):
        seat = m.to_act()[0]
        legal = m.legal(seat)
        pick = next((a for a in legal if a.kind in ("pass_upcard", "draw_stock")), None)
        m.submit(pick or next(a for a in legal if a.kind == "discard"))
    app.show_match()
    every_language("gin table")
    m.players = {0: make_player("gin"), 1: make_player("gin")}  # computers finish the hand
    while not m.review_pending:
        m.update(1e9)
    app.show_match()
    every_language("gin review")
    app.abandon_match()
    for label in contract_states(app):
        app.scene.dirty = True
        every_language(label)
    assert not problems, "\n".join(problems[:12])
    app.close()


def test_a_language_change_mid_match_rewords_the_last_move(tmp_path):
    """The operator switches the table to Russian in the middle of a hand: the line saying
    the last move is worded again in Russian, not left in English until the next move."""
    from display.app import App
    from display.table.config import load_config

    config, errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    assert not errors
    app = App(config, mode="headless", state_dir=tmp_path, seed=5)
    try:
        app.start_match("gin", [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}])
        m = app.match
        m.submit(m.legal(m.to_act()[0])[0])  # the first move: a take or a pass of the upcard
        app.frame()
        english = app.scene.centre_msg
        assert english
        app.set_language("ru")
        app.frame()
        assert app.scene.centre_msg and app.scene.centre_msg != english
        assert not any("a" <= ch <= "z" for ch in app.scene.centre_msg.replace("Ann", "").replace("Bob", ""))
    finally:
        app.set_language("en")
        app.close()
