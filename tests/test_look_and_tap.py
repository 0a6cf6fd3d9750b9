"""Private hands and the arcade buttons together (issue 11): a player holds one of his own
buttons to look and taps another, through the real input path (gpiozero MockFactory pins
behind the ButtonBoard, its 8 ms glitch filter settled before each frame). Tapping KNOCK
while he looks melds what he sees (contract) or starts the knock (gin); without a look it
lays nothing unseen."""

from __future__ import annotations

import os
import random

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402
from display_input import FakeClock, conceal, press, reveal, tap  # noqa: E402
from test_display_contract_table import make_app as contract_app  # noqa: E402
from test_display_contract_table import start  # noqa: E402

from display.app import App  # noqa: E402
from display.table.config import load_config  # noqa: E402
from display.table.controller import DISCARD_FLASHES, Lamp, lamp_lit  # noqa: E402
from display.table.controller.gin import Mode  # noqa: E402
from rummy.contract.bots import BasicPlayer as ContractBot  # noqa: E402
from rummy.contract.state import PLAY  # noqa: E402
from rummy.gin.bots import BasicPlayer as GinBot  # noqa: E402
from rummy.gin.state import HandPhase  # noqa: E402


def contract_at_meld(tmp_path, clock: FakeClock) -> tuple[App, int]:
    """Three people; the bot plays (without melding) until the seat in turn may lay his contract."""
    app = contract_app(tmp_path, clock=clock)
    start(app, 3)
    m = app.match
    rng = random.Random(1)
    for _ in range(400):
        st = m.state
        if st.phase == PLAY and any(a.kind == "meld" for a in m.legal(st.turn)):
            break
        seat = m.to_act()[0]
        legal = [a for a in m.legal(seat) if a.kind != "meld"] or m.legal(seat)
        m.submit(ContractBot().choose(m.engine, m.engine.view(st, seat), legal, rng))
    else:  # pragma: no cover
        pytest.fail("nobody could lay his contract")
    app.frame(events=[])
    return app, m.state.turn


@pytest.mark.parametrize("look", ["buy", "draw"])
def test_contract_hold_a_button_to_look_and_tap_knock_melds_the_suggestion(tmp_path, look):
    clock = FakeClock(500.0)
    app, seat = contract_at_meld(tmp_path, clock)
    m = app.match
    suggestion = next(a for a in m.legal(seat) if a.kind == "meld")
    reveal(app, seat, clock, button=look)
    assert app.hw.lamps[seat]["knock"], "KNOCK lays the contract he sees: its lamp is lit"
    before = m.session.actions_applied
    press(app, seat, "knock", clock)
    assert app.scene.face_up(seat), "he still holds his button: the hand stays up"
    assert m.session.actions_applied == before + 1 and m.state.contract_down[seat]
    laid = sorted(sorted(t.cards) for t in m.state.table_melds if t.owner == seat)
    assert laid == sorted(sorted(g) for g in suggestion.melds)
    app.close()


def test_contract_tap_knock_lays_his_own_groups_while_he_looks(tmp_path):
    """He groups cards by touch while holding BUY, lets go (the groups survive the hide),
    looks again with DRAW and taps KNOCK: his groups are laid, not the suggestion."""
    clock = FakeClock(500.0)
    app, seat = contract_at_meld(tmp_path, clock)
    m = app.match
    suggestion = next(a for a in m.legal(seat) if a.kind == "meld")
    hand = list(m.state.hands[seat])
    reveal(app, seat, clock, button="buy")
    used: set[int] = set()
    for group in suggestion.melds:
        for c in group:
            k = next(i for i, x in enumerate(hand) if x == c and i not in used)
            used.add(k)
            tap(app, f"card-{seat}-{k}", clock)
        tap(app, f"group-{seat}", clock)
    groups = app.match.controller.input(seat).groups
    assert len(groups) == len(suggestion.melds)
    conceal(app, seat, clock)
    assert not app.scene.face_up(seat) and app.match.controller.input(seat).groups == groups
    assert not app.hw.lamps[seat]["knock"], "a hidden hand: KNOCK lays nothing, its lamp is dark"
    reveal(app, seat, clock, button="draw")
    press(app, seat, "knock", clock)
    assert m.state.contract_down[seat]
    laid = sorted(sorted(t.cards) for t in m.state.table_melds if t.owner == seat)
    assert laid == sorted(sorted(hand[i] for i in g) for g in groups)
    app.close()


def test_contract_knock_tapped_on_a_hidden_hand_lays_nothing(tmp_path):
    clock = FakeClock(500.0)
    app, seat = contract_at_meld(tmp_path, clock)
    m = app.match
    before = m.session.actions_applied
    press(app, seat, "knock", clock)  # nobody looks
    assert m.session.actions_applied == before and not m.state.contract_down[seat]
    assert "Hold one of your buttons" in app.scene.ui[seat].flash
    # looking with KNOCK itself: tapping it means letting go first, and that hides the hand
    reveal(app, seat, clock, button="knock")
    press(app, seat, "knock", clock)
    assert m.session.actions_applied == before and not m.state.contract_down[seat]
    app.close()


# -- gin ----------------------------------------------------------------------------------------


def gin_at_knock(tmp_path, clock: FakeClock) -> tuple[App, int]:
    """Two people; the bot plays (never knocking) until the seat in turn may knock."""
    config, errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    assert not errors
    app = App(config, mode="sim", size=(1280, 800), state_dir=tmp_path, seed=11, clock=clock)
    app.start()
    app.start_match("gin", [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}])
    m = app.match
    rng = random.Random(3)
    for _ in range(2000):
        h = m.state.hand
        seat = m.to_act()[0]
        if h is not None and h.phase is HandPhase.DISCARD and any(a.kind == "knock" for a in m.legal(seat)):
            break
        legal = [a for a in m.legal(seat) if a.kind not in ("knock", "big_gin")] or m.legal(seat)
        m.submit(GinBot().choose(m.engine, m.engine.view(m.state, seat), legal, rng))
    else:  # pragma: no cover
        pytest.fail("no knock came up")
    app.frame(events=[])
    return app, m.to_act()[0]


def test_gin_hold_draw_to_look_tap_knock_then_touch_the_card_knocks(tmp_path):
    clock = FakeClock(500.0)
    app, seat = gin_at_knock(tmp_path, clock)
    m = app.match
    knock = next(a for a in m.legal(seat) if a.kind == "knock")
    reveal(app, seat, clock, button="draw")
    assert app.hw.lamps[seat]["knock"]
    press(app, seat, "knock", clock)
    assert app.scene.face_up(seat) and app.match.controller.input(seat).mode is Mode.KNOCK
    tap(app, f"card-{seat}-{knock.card}", clock)
    last, _events = m.history[-1]
    assert last.kind == "knock" and last.seat == seat and last.card == knock.card
    app.close()


def test_gin_a_picked_card_then_knock_tapped_while_looking_knocks_with_it(tmp_path):
    clock = FakeClock(500.0)
    app, seat = gin_at_knock(tmp_path, clock)
    m = app.match
    knock = next(a for a in m.legal(seat) if a.kind == "knock")
    reveal(app, seat, clock, button="draw")
    tap(app, f"card-{seat}-{knock.card}", clock)  # picked (touched again it would be discarded)
    assert app.match.controller.input(seat).selected == knock.card
    press(app, seat, "knock", clock)
    last, _events = m.history[-1]
    assert last.kind == "knock" and last.card == knock.card
    app.close()


def test_table_melds_and_the_meld_button_have_names_of_their_own(tmp_path):
    """Table meld N is ``table-meld-N``; seat N's Meld button is ``meld-N`` like his other
    buttons (``draw-N``, ``group-N`` …): no two touch targets share a name."""
    clock = FakeClock(500.0)
    app, seat = contract_at_meld(tmp_path, clock)
    m = app.match
    reveal(app, seat, clock, button="buy")
    press(app, seat, "knock", clock)  # his contract is on the table now
    ids = [t.id for t in m.state.table_melds]
    assert ids
    app.scene.dirty = True
    app.frame(events=[])
    names = [t.name for t in app.scene.targets]
    assert {f"table-meld-{i}" for i in ids} <= set(names)
    dupes = sorted({n for n in names if names.count(n) > 1})
    assert not dupes, f"touch targets share names: {dupes}"
    for i in ids:
        rect = app.scene.meld_rects[i]
        assert app.scene.target_at(rect.center).name == f"table-meld-{i}"
    app.close()


# -- the "discard now" lamps (docs/buttons.md, "Lamps") -----------------------------------------


def lamp_trace(app: App, seat: int, button: str, clock: FakeClock, seconds: float = 1.2) -> list[bool]:
    """The lamp of ``button``, one frame every 50 ms for ``seconds``; the board's MockFactory
    lamps follow it (a seat wired with one lamp only shows whether any of his lamps is lit)."""
    board, out = app.hw.board, []
    for _ in range(round(seconds / 0.05)):
        clock.t += 0.05
        app.frame(events=[])
        lamps = app.hw.lamps[seat]
        if (seat, button) in board.lamps():
            assert board.lamp_is_lit(seat, button) == lamps[button]
        if (seat, "seat") in board.lamps():
            assert board.lamp_is_lit(seat, "seat") == any(lamps.values())
        out.append(lamps[button])
    return out


def test_lamp_lit_follows_the_discard_now_pattern():
    assert lamp_lit(Lamp.ON, 3.0) and not lamp_lit(Lamp.OFF, 3.0)
    period = sum(on + off for on, off in DISCARD_FLASHES)
    seen = [lamp_lit(Lamp.DISCARD, 600 * period + k * 0.01) for k in range(round(period / 0.01))]
    flashes = sum(1 for a, b in zip([False, *seen], seen, strict=False) if b and not a)
    assert flashes == len(DISCARD_FLASHES) == 2, "two short flashes, then a pause"
    assert abs(sum(seen) * 0.01 - sum(on for on, _ in DISCARD_FLASHES)) < 0.02


def test_contract_discard_now_flashes_on_the_lamps_that_do_nothing(tmp_path):
    clock = FakeClock(500.0)
    app, seat = contract_at_meld(tmp_path, clock)
    # at his play with his hand hidden no button acts: every lamp says "discard now"
    for b in ("draw", "knock", "buy"):
        trace = lamp_trace(app, seat, b, clock)
        assert any(trace) and not all(trace), f"{b} flashes: {trace}"
    others = [s for s in range(3) if s != seat]
    assert not any(app.hw.lamps[s][b] for s in others for b in ("draw", "knock"))
    # he holds BUY to look: KNOCK lays the contract he sees (steady), BUY and DRAW flash
    reveal(app, seat, clock, button="buy")
    assert all(lamp_trace(app, seat, "knock", clock))
    for b in ("buy", "draw"):
        trace = lamp_trace(app, seat, b, clock)
        assert any(trace) and not all(trace), f"{b} flashes while he looks with BUY: {trace}"
    # one card picked: DRAW discards it (steady)
    tap(app, f"card-{seat}-0", clock)
    assert all(lamp_trace(app, seat, "draw", clock))
    conceal(app, seat, clock)
    app.close()


def test_gin_discard_now_flashes_draw_and_knock_stays_steady(tmp_path):
    clock = FakeClock(500.0)
    app, seat = gin_at_knock(tmp_path, clock)
    assert all(lamp_trace(app, seat, "knock", clock)), "a legal knock: KNOCK steady"
    trace = lamp_trace(app, seat, "draw", clock)
    assert any(trace) and not all(trace), "DRAW does nothing at the discard: it flashes"
    assert not any(app.hw.lamps[1 - seat].values())
    reveal(app, seat, clock, button="knock")  # looking with KNOCK: it cannot be tapped now
    trace = lamp_trace(app, seat, "knock", clock)
    assert any(trace) and not all(trace), "the button held to look flashes 'discard now'"
    tap(app, f"card-{seat}-{next(iter(app.match.state.hand.hands[seat]))}", clock)
    m = app.match
    before = m.session.actions_applied
    conceal(app, seat, clock)
    assert m.session.actions_applied == before, "letting go after a look discards nothing"
    app.close()


def test_a_buy_with_no_penalty_card_says_no_plus_nothing():
    """The asked player's own buy (C-8.4) takes no stock card: its line has no "(+0 …)"."""
    from types import SimpleNamespace

    from display.table.contract_text import event_text

    match = SimpleNamespace(seats=[{}, {}], name=lambda s: ["Ana", "Boris"][s])
    own = SimpleNamespace(kind="bought", seat=0, data={"cards": ["JD"], "penalty_cards": []})
    asker = SimpleNamespace(kind="bought", seat=1, data={"cards": ["JD"], "penalty_cards": ["4D"]})
    assert event_text(match, own) == "Ana bought J♦"
    assert event_text(match, asker) == "Boris bought J♦ (+1 from the stock)"
