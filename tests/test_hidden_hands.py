"""Hidden hands on the shared screen (issue 28, docs/privacy.md): no touch acts on another
seat's face-down hand, no text shows a hidden number, lamps and buttons of a hidden hand do
not tell whether a knock is legal, a look shows only in the seat's own panel, and a review
needs a confirm that cannot be a stray tap. Driven through the app's real input path
(touches as pygame events, arcade buttons on gpiozero MockFactory pins)."""

from __future__ import annotations

import os
import random
import re

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402
from display_input import FakeClock, conceal, drawn_texts, press, reveal, tap  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from display.app import App  # noqa: E402
from display.table.config import load_config  # noqa: E402
from display.table.controller.gin import Mode  # noqa: E402
from rummy.gin.bots import BasicPlayer as GinBot  # noqa: E402
from rummy.gin.melds import deadwood  # noqa: E402
from rummy.gin.state import HandPhase  # noqa: E402


def gin_app(tmp_path, clock: FakeClock, **rules) -> App:
    config, errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    assert not errors
    app = App(config, mode="sim", size=(1280, 800), state_dir=tmp_path, seed=11, clock=clock)
    app.start()
    app.start_match("gin", [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}],
                    rules=rules or None)
    return app


def gin_at_discard(tmp_path, clock: FakeClock, *, knock: bool, **rules) -> tuple[App, int]:
    """Two people; the bot plays (never knocking) until the seat in turn is at his discard
    with a legal knock (``knock``) or with deadwood well over the limit (no knock)."""
    app = gin_app(tmp_path, clock, **rules)
    m = app.match
    rng = random.Random(3)
    for _ in range(3000):
        h = m.state.hand
        to_act = m.to_act()
        if m.review_pending:
            m.continue_after_review()
            continue
        seat = to_act[0]
        if h is not None and h.phase is HandPhase.DISCARD and not h.exposed[seat]:
            legal = any(a.kind == "knock" for a in m.legal(seat))
            if legal == knock and (knock or deadwood(h.hands[seat]) > h.knock_limit + 5):
                break
        legal_actions = [a for a in m.legal(seat) if a.kind not in ("knock", "big_gin")] or m.legal(seat)
        m.submit(GinBot().choose(m.engine, m.engine.view(m.state, seat), legal_actions, rng))
    else:  # pragma: no cover
        pytest.fail("no such discard came up")
    app.show_match()
    app.frame(events=[])
    return app, m.to_act()[0]


def card_target(app: App, seat: int) -> str:
    """A touch target of one of the seat's cards."""
    return next(t.name for t in app.scene.targets if t.name.startswith(f"card-{seat}-"))


# -- 1. no touch acts on another seat's hidden hand ---------------------------------------------


def test_touching_a_hidden_seats_knock_button_arms_nothing_and_his_look_exposes_nothing(tmp_path):
    """Issue 28: seat 1 touched seat 2's Knock, then "Knock anyway"; when seat 2 held his
    button and touched a card, an illegal knock (G-8.3) turned his hand face up for good."""
    clock = FakeClock(500.0)
    app, seat = gin_at_discard(tmp_path, clock, knock=False)
    m, ctl = app.match, app.match.controller
    assert not app.scene.face_up(seat)
    tap(app, f"knock-{seat}", clock)  # anyone's finger: a touch cannot say who touches
    tap(app, f"knock-{seat}", clock)
    assert ctl.input(seat).mode is Mode.NONE, "a touch on a face-down hand's buttons arms nothing"
    assert "Hold one of your buttons" in app.scene.ui[seat].flash
    before = m.session.actions_applied
    reveal(app, seat, clock, button="draw")  # seat 2 looks ...
    tap(app, card_target(app, seat), clock)  # ... and touches a card: he picks it
    h = m.state.hand
    assert not h.exposed[seat] and not h.must_knock[seat], "no illegal knock was made for him"
    assert m.session.actions_applied == before
    conceal(app, seat, clock)
    app.close()


def test_an_armed_knock_anyway_is_dropped_when_the_hand_hides(tmp_path):
    clock = FakeClock(500.0)
    app, seat = gin_at_discard(tmp_path, clock, knock=False)
    m, ctl = app.match, app.match.controller
    reveal(app, seat, clock, button="draw")
    tap(app, f"knock-{seat}", clock)  # warned (G-8.3) ...
    tap(app, f"knock-{seat}", clock)  # ... "Knock anyway": the knock mode
    assert ctl.input(seat).mode is Mode.KNOCK
    conceal(app, seat, clock)
    assert ctl.input(seat).mode is Mode.NONE, "the mode of a hand that hid is dropped"
    reveal(app, seat, clock, button="draw")
    tap(app, card_target(app, seat), clock)
    assert not m.state.hand.exposed[seat]
    conceal(app, seat, clock)
    app.close()


def test_contract_a_touch_on_a_hidden_seats_answer_buttons_answers_nothing(tmp_path):
    """C-8.4: only the asked seat answers "Можно?"; anyone's touch on his face-down panel's
    No would have made him buy the card and end his turn."""
    from test_display_contract_table import make_app, start

    from rummy.contract.state import ASK

    clock = FakeClock(500.0)
    app = make_app(tmp_path, clock=clock)
    start(app, 4)
    m = app.match
    n = m.state.turn
    far = (n + 2) % 4
    press(app, far, "buy", clock)
    assert m.state.phase == ASK and m.state.buy.asked == n
    before = m.session.actions_applied
    tap(app, f"no-{n}", clock)
    assert m.state.phase == ASK and m.session.actions_applied == before, "nobody answered for him"
    assert "Hold one of your buttons" in app.scene.ui[n].flash
    reveal(app, n, clock, button="buy")  # he looks: his own panel's buttons work
    tap(app, f"no-{n}", clock)
    assert m.state.phase != ASK and m.session.actions_applied == before + 1
    app.close()


# -- 2. no refusal text shows a hidden number ---------------------------------------------------

HAND_WORDS = re.compile(r"deadwood|illegal knock|knock limit|over the", re.IGNORECASE)


def hand_texts(app: App) -> list[str]:
    """The drawn texts that tell a hand's count (the centre's "Knock with 10 or less" is the
    table's rule, not a hand's)."""
    return [r.text for r in drawn_texts(app) if HAND_WORDS.search(r.text) or re.search(r"\d+ over \d+", r.text)]


def test_knock_on_a_hidden_hand_says_no_deadwood(tmp_path):
    """Issue 28: a KNOCK without a legal knock flashed "No knock yet: deadwood 41, the knock
    limit is 10" in the seat's line, for everybody to read."""
    clock = FakeClock(500.0)
    app, seat = gin_at_discard(tmp_path, clock, knock=False)
    press(app, seat, "knock", clock)  # his own button, his hand face down
    flash = app.scene.ui[seat].flash
    assert not re.search(r"\d", flash), flash
    assert not hand_texts(app)
    app.close()


def test_the_illegal_knock_warning_goes_when_the_hand_hides(tmp_path):
    """While he looks, the warning with his count is his (G-8.3); when he lets go, nothing
    on the screen says it."""
    clock = FakeClock(500.0)
    app, seat = gin_at_discard(tmp_path, clock, knock=False)
    count = deadwood(app.match.state.hand.hands[seat])
    reveal(app, seat, clock, button="draw")
    tap(app, f"knock-{seat}", clock)
    assert str(count) in app.scene.ui[seat].flash, "he looks: the warning says what it costs"
    conceal(app, seat, clock)
    assert app.scene.ui[seat].flash == ""
    assert not hand_texts(app), "a face-down hand's count is on the screen"
    app.close()


def test_a_refusal_about_a_hidden_hand_is_worded_without_it():
    from display.table.hint_text import HAND_HINTS, hint_text
    from display.table.refusal_text import HAND_REFUSALS, TEXTS, refusal_text
    from rummy.actions import ActionError
    from rummy.cards import Card
    from rummy.gin.kinds import Refusal

    exc = ActionError(Refusal.KNOCK_OVER_LIMIT, deadwood=41, limit=10)
    assert "41" in refusal_text(exc)
    assert not re.search(r"\d", refusal_text(exc, hidden=True))
    for code in HAND_REFUSALS:
        assert not re.search(r"\d", refusal_text(code, {"deadwood": 41, "limit": 10, "card": Card.parse("7H")},
                                                 hidden=True))
    # every refusal worded with a hand's count or reason is one of them
    for code, text in TEXTS.items():
        if re.search(r"\{(deadwood|reason|meld)\}", text):
            assert code in HAND_REFUSALS, code
    from display.table.controller import Hint

    for code in HAND_HINTS:
        said = hint_text(Hint.of(code, count=41, limit=10, penalty="expose_and_force"), str, hidden=True)
        assert not re.search(r"\d", said), said


# -- 3. lamps and buttons of a hidden hand tell nothing of it ------------------------------------


def test_a_hidden_hands_lamps_and_buttons_are_the_same_whatever_his_cards():
    """Issue 28: at his discard the KNOCK lamp turned steady, and the panel's Knock hot (a
    Big Gin button beside it), only when he could knock: the table told everybody. Face
    down, both hands below show the same; face up, they differ as before (G-7.2, G-10)."""
    from test_controller import GIN_D, GIN_ND, HIGH, _draw_to_discard, gin_table

    from display.table.controller import Call

    can, can_ctl = gin_table()
    can_ctl.perform(1, Call.DISCARD_PILE)  # takes JD: every card melded (a knock, Big Gin)
    cannot, cannot_ctl = gin_table(nondealer=HIGH, dealer=GIN_ND)
    _draw_to_discard(cannot_ctl, cannot)
    assert can.state.hand.phase is cannot.state.hand.phase is HandPhase.DISCARD
    assert any(a.kind == "knock" for a in can.legal(1)) and not any(a.kind == "knock" for a in cannot.legal(1))
    for seat in (0, 1):
        hidden = [ctl.lamp_states(seat, 0.0, face_up=False) for ctl in (can_ctl, cannot_ctl)]
        assert hidden[0] == hidden[1], f"seat {seat}: {hidden}"
        buttons = [ctl.screen_buttons(seat, face_up=False) for ctl in (can_ctl, cannot_ctl)]
        assert buttons[0] == buttons[1], f"seat {seat}: {buttons}"
    assert can_ctl.lamp_states(1, 0.0, face_up=False)["knock"] == "on", "KNOCK lit for the seat at his discard"
    assert can_ctl.lamps(1) != cannot_ctl.lamps(1), "while he looks the lamps follow his cards"
    assert GIN_D  # the dealer's hand of both tables


def test_knock_on_a_hidden_hand_is_judged_when_he_looks_on_his_own_panel(tmp_path):
    clock = FakeClock(500.0)
    app, seat = gin_at_discard(tmp_path, clock, knock=False)
    m, ctl = app.match, app.match.controller
    assert app.hw.lamps[seat]["knock"], "lit whatever his cards"
    press(app, seat, "knock", clock)  # the knock mode, his cards unseen
    assert ctl.input(seat).mode is Mode.KNOCK
    assert "hold one of your buttons to look" in app.scene.ui[seat].flash
    reveal(app, seat, clock, button="draw")
    card = max(m.state.hand.hands[seat], key=lambda c: c.value)
    tap(app, f"card-{seat}-{card}", clock)
    h = m.state.hand
    assert not h.exposed[seat] and h.phase is HandPhase.DISCARD, "no illegal knock he did not confirm (G-8)"
    flash = app.scene.ui[seat].flash
    assert "No knock with" in flash and re.search(r"\d", flash), "refused on his panel while he looks"
    conceal(app, seat, clock)
    assert app.scene.ui[seat].flash == "" and ctl.input(seat).mode is Mode.NONE
    assert not hand_texts(app)
    app.close()


def test_knock_on_a_hidden_hand_with_a_legal_knock_knocks_when_he_looks(tmp_path):
    clock = FakeClock(500.0)
    app, seat = gin_at_discard(tmp_path, clock, knock=True)
    m = app.match
    knock = next(a for a in m.legal(seat) if a.kind == "knock")
    press(app, seat, "knock", clock)
    reveal(app, seat, clock, button="draw")
    tap(app, f"card-{seat}-{knock.card}", clock)
    last, _events = m.history[-1]
    assert last.kind == "knock" and last.card == knock.card
    app.close()


# -- 4. a look shows only in the seat's own panel -------------------------------------------------


def test_contract_a_look_shows_no_copy_of_the_hand_in_the_middle(tmp_path):
    """Issue 28: on a small screen a held look gave the seat in turn his cards again, big,
    in the table's middle (the hand tray), for everybody to read. With private hands they
    show only in his own panel; the tray stays for open hands (tests/test_display_touch_tray)."""
    from test_display_contract_table import make_app, start

    from display.table.match import make_player
    from rummy.contract.state import PLAY

    clock = FakeClock(500.0)
    app = make_app(tmp_path, (800, 480), clock=clock, layout="flat")
    start(app, 6)
    m, rng, bot = app.match, random.Random(1), make_player("contract")
    looked = 0
    for _ in range(600):
        if m.review_pending or not m.to_act() or looked >= 6:
            break
        seat = m.to_act()[0]
        if m.state.phase == PLAY and seat == m.state.turn and looked < 6:
            reveal(app, seat, clock, button="draw")
            app.scene.dirty = True
            app.frame(events=[])
            names = [t.name for t in app.scene.targets]
            assert not any(n.startswith("tray-") for n in names), f"seat {seat}: a copy of his hand in the middle"
            assert any(n.startswith(f"card-{seat}-") for n in names), "his own panel's cards are touched"
            conceal(app, seat, clock)
            looked += 1
        m.submit(bot.choose(m.engine, m.engine.view(m.state, seat), m.legal(seat), rng))
    assert looked >= 6
    app.close()


# -- 5. a review needs a confirm that cannot be a stray tap ---------------------------------------


def gin_review_app(tmp_path, clock: FakeClock) -> App:
    """A gin table just after a knock: its review on screen."""
    app, seat = gin_at_discard(tmp_path, clock, knock=True)
    m = app.match
    m.submit(next(a for a in m.legal(seat) if a.kind == "knock"))
    app.frame(events=[])
    assert app.scene.name == "gin_review"
    return app


def footer(app: App) -> str:
    return " | ".join(r.text for r in drawn_texts(app) if "DRAW" in r.text or "Continue in" in r.text)


def test_a_draw_tap_does_not_close_the_knock_review(tmp_path):
    """Issue 28: 1.8 s after a computer knocked, one DRAW tap dealt the next hand before the
    loser saw why. Now: nothing for [game] review_min_s, then a held DRAW (a look's 0.3 s)."""
    clock = FakeClock(500.0)
    app = gin_review_app(tmp_path, clock)
    review = app.scene
    assert app.config.game.review_min_s == 3.0
    press(app, 0, "draw", clock)  # a stray tap at once
    assert app.scene is review
    assert "Continue in" in footer(app)
    assert not app.hw.lamps[0]["draw"], "DRAW is dark while it does nothing"
    tap(app, "continue", clock)  # a touch on Continue before its time
    assert app.scene is review
    clock.t = review.t0 + 3.1
    app.frame(events=[])
    assert app.hw.lamps[0]["draw"]
    assert "hold DRAW" in footer(app), "the footer says how to go on"
    press(app, 1, "draw", clock)  # a tap, after the time: still nothing
    assert app.scene is review
    assert app.hw.press(0, "draw")  # held as long as a look: the next hand
    for _ in range(35):
        clock.t += 0.01
        app.hw.board.poll(clock.t)
    app.frame(events=[])
    assert app.scene.name == "gin_table"
    app.hw.release(0, "draw")
    clock.t += 0.05
    app.hw.board.poll(clock.t)
    app.frame(events=[])
    assert app.scene.name == "gin_table", "the release on the table is no call"
    app.close()


def test_continue_touched_after_the_minimum_time_goes_on(tmp_path):
    clock = FakeClock(500.0)
    app = gin_review_app(tmp_path, clock)
    review = app.scene
    clock.t = review.t0 + 3.1
    app.frame(events=[])
    tap(app, "continue", clock)
    assert app.scene.name == "gin_table"
    app.close()


def test_contract_deal_review_needs_the_confirm_too(tmp_path):
    from test_display_contract_table import make_app, start

    from display.table.match import make_player

    clock = FakeClock(500.0)
    app = make_app(tmp_path, clock=clock)
    start(app, 3)
    m, rng, bot = app.match, random.Random(2), make_player("contract")
    for _ in range(3000):
        if m.review_pending:
            break
        seat = m.to_act()[0]
        m.submit(bot.choose(m.engine, m.engine.view(m.state, seat), m.legal(seat), rng))
    app.frame(events=[])
    assert app.scene.name == "contract_review"
    review = app.scene
    press(app, 0, "draw", clock)
    assert app.scene is review
    clock.t = review.t0 + 3.1
    app.frame(events=[])
    press(app, 0, "draw", clock)
    assert app.scene is review, "a tap is no confirm"
    from display_input import confirm_review

    confirm_review(app, 0, clock)
    assert app.scene.name == "contract_table"
    app.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 60),
       rules=st.sampled_from([{"preset": "standard"}, {"preset": "knock_card"},
                              {"preset": "standard", "illegal_knock": "reject"},
                              {"preset": "standard", "illegal_knock": "opponent_option"}]),
       knock_mode=st.booleans())
def test_gin_a_hidden_hand_shows_the_same_whatever_cards_it_holds(seed, steps, rules, knock_mode):
    """Invariant: in any reached gin state, the lamps, the panel's buttons and the status
    line of a face-down hand are the same when his cards are swapped for others from the
    stock (same count, the card just taken kept), with or without the knock mode."""
    from dataclasses import replace

    from controller_helpers import EngineDriver, new_table

    from display.table.controller import GAMES, TableController
    from display.table.controller.gin import GinInput
    from display.table.hint_text import hint_text

    d, ctl, _clock = new_table("gin", rules, 2, {0, 1}, seed % 1000)
    rng = random.Random(seed)
    bot = GinBot()
    for _ in range(steps):
        to_act = d.to_act()
        if not to_act:
            break
        seat = to_act[0]
        legal = [a for a in d.legal(seat) if a.kind not in ("knock", "big_gin")] or d.legal(seat)
        assert d.try_submit(bot.choose(d.engine, d.engine.view(d.state, seat), legal, rng)) is None
    h = d.state.hand
    if h is None or not d.to_act():
        return
    seat = d.to_act()[0]
    if h.exposed[seat]:
        return  # G-8.2: his hand is open by the rules
    own = h.hands[seat]
    keep = [c for c in own if c == h.last_taken]
    pool = [c for c in (*own, *h.stock) if c not in keep]
    other = tuple(keep + rng.sample(pool, len(own) - len(keep)))
    hands = tuple(other if s == seat else h.hands[s] for s in (0, 1))
    rest = tuple(c for c in (*own, *h.stock) if c not in other)
    twin_state = replace(d.state, hand=replace(h, hands=hands, stock=rest))
    twin = TableController(GAMES["gin"], EngineDriver(d.engine, twin_state, {0, 1}), clock=ctl.clock, deal_grace=0.0)
    inp = GinInput(mode=Mode.KNOCK) if knock_mode else GinInput()

    def shown(c: TableController) -> tuple:
        c.set_input(seat, inp)
        return (c.lamp_states(seat, 0.0, face_up=False), c.screen_buttons(seat, face_up=False),
                hint_text(c.hint(seat, face_up=False), str, hidden=True))

    assert shown(ctl) == shown(twin), f"phase {h.phase}: {sorted(own)} vs {sorted(other)}"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 120), seats=st.integers(2, 5))
def test_contract_a_hidden_hand_shows_the_same_whatever_cards_it_holds(seed, steps, seats):
    """The same invariant at contract: every human seat's lamps, panel buttons and status
    line, his hand face down, with his cards swapped for others from the stock."""
    from dataclasses import replace

    from controller_helpers import EngineDriver, new_table

    from display.table.controller import GAMES, TableController
    from display.table.hint_text import hint_text
    from rummy.contract.bots import BasicPlayer as ContractBot

    d, ctl, _clock = new_table("contract", {"preset": "seed_002"}, seats, set(range(seats)), seed % 1000)
    rng = random.Random(seed)
    bot = ContractBot()
    for _ in range(steps):
        to_act = d.to_act()
        if not to_act:
            break
        s = to_act[0]
        assert d.try_submit(bot.choose(d.engine, d.engine.view(d.state, s), d.legal(s), rng)) is None
    st_ = d.state
    if not d.to_act() or not st_.hands:
        return
    for seat in range(seats):
        own = st_.hands[seat]
        if len(st_.stock) < len(own):
            return
        pool = list(st_.stock)
        other = tuple(rng.sample(pool, len(own)))
        left = list(pool)
        for c in other:
            left.remove(c)
        hands = tuple(other if s == seat else st_.hands[s] for s in range(seats))
        twin_state = replace(st_, hands=hands, stock=tuple(left) + tuple(own))
        twin = TableController(GAMES["contract"], EngineDriver(d.engine, twin_state, set(range(seats))),
                               clock=ctl.clock, deal_grace=0.0)

        def shown(c: TableController, seat: int = seat) -> tuple:
            return (c.lamp_states(seat, 0.0, face_up=False), c.screen_buttons(seat, face_up=False),
                    hint_text(c.hint(seat, face_up=False), str, hidden=True))

        assert shown(ctl) == shown(twin), f"seat {seat} phase {st_.phase}"
