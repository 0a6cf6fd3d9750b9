"""End to end: a whole five-deal contract game through the simulator's input path.

Two human seats and one computer seat. Nothing here calls the engine to act: the test
decides what a player would do (the basic bot's judgement, plus a nudge so the humans buy),
then does it the way a person would — the seat's arcade buttons (gpiozero MockFactory pins
behind the real ButtonBoard) and touches (mouse events into the app's main loop). Buys are
asked with BUY and answered "Можно" with DRAW, "Нельзя" with KNOCK, or by silence (C-8.4).
"""

from __future__ import annotations

import os
import random

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


from display_input import (  # noqa: E402
    FakeClock,
    click,
    confirm_review,
    held,
    humans,
    press,
    reveal,
    started_app,
    tap,
    target,
)

from display.app import App  # noqa: E402
from rummy.contract.bots import BasicPlayer  # noqa: E402
from rummy.contract.state import ASK, PLAY, TAKE, TURN  # noqa: E402


def frame(app: App, events=()) -> None:
    app.frame(events=list(events))


def touch_card(app: App, seat: int, card, clock: FakeClock) -> None:
    hand = app.match.state.hands[seat]
    k = hand.index(card)
    tap(app, f"card-{seat}-{k}", clock)


APP = {"size": (1280, 800), "seed": 21}  # started_app's App options


class Table:
    """The people at the table: they decide like the basic bot, but like to buy."""

    def __init__(self, app: App, clock: FakeClock) -> None:
        self.app, self.clock = app, clock
        self.bot = BasicPlayer()
        self.rng = random.Random(4)
        self.kinds: list[str] = []
        self.answers: list[tuple[str, bool]] = []
        self.timeouts = 0

    @property
    def m(self):
        return self.app.match

    def decide(self, seat: int):
        m = self.m
        legal = m.legal(seat)
        a = self.bot.choose(m.engine, m.engine.view(m.state, seat), legal, self.rng)
        # Humans ask "Можно?" now and then even for cards the bot would not want (C-8.3).
        if a.kind == "no_buy" and self.rng.random() < 0.25:
            a = next(x for x in legal if x.kind == "buy")
        return a

    def step(self) -> None:
        """One decision by a human seat, or let time pass for the computer."""
        m, st = self.m, self.m.state
        if self.app.scene.name == "contract_table" and self.app.scene.ctl.settling(self.clock.t):
            self.clock.t += 0.5  # just dealt: people look at their new cards before anyone buys
            frame(self.app)
            return
        humans = [s for s in m.to_act() if m.is_human(s)]
        if st.phase == TURN:
            for s in humans:
                if s == st.turn:
                    continue
                a = self.decide(s)
                if a.kind == "buy":
                    self.do(s, a)
                    return
            if st.turn in humans:
                self.do(st.turn, self.decide(st.turn))
                return
        elif humans:
            s = humans[0]
            self.do(s, self.decide(s))
            return
        assert m.thought_ready(), "the computer's thought is worked out within 10 s"
        self.clock.t += 1.0  # a computer seat thinks (and people may still press BUY)
        frame(self.app)

    def do(self, seat: int, a) -> None:
        app, clock, m = self.app, self.clock, self.m
        before = m.session.actions_applied
        k = a.kind
        if k == "draw_stock":
            press(app, seat, "draw", clock)
        elif k == "draw_discard":
            click(app, app.scene.pile_rect.center, clock)
        elif k == "buy" and seat == m.state.turn:
            press(app, seat, "buy", clock)
            reveal(app, seat, clock)  # a face-down hand's panel buttons only say how to look (issue 28)
            tap(app, f"take{a.target}-{seat}", clock)
        elif k == "buy":
            press(app, seat, "buy", clock)
        elif k == "answer":
            self.answers.append(("button", a.flag))
            if a.flag and self.timeouts == 0:
                # silence: the table answers "Можно" itself after the timeout (C-8.4)
                self.timeouts += 1
                clock.t += app.scene.answer_seconds - 0.5
                frame(app)
                assert m.session.actions_applied == before, "no answer before the timeout"
                clock.t += 0.6
                frame(app)
                last_action, events = m.history[-1]
                assert last_action.kind == "answer" and last_action.flag is True
                assert last_action.seat == seat
            else:
                press(app, seat, "draw" if a.flag else "knock", clock)
        elif k == "take_cards":
            if a.target == 1:
                press(app, seat, "draw", clock)
            else:
                reveal(app, seat, clock)
                tap(app, f"take{a.target}-{seat}", clock)
        elif k == "meld":
            reveal(app, seat, clock, button="buy")  # he looks with BUY held ...
            press(app, seat, "knock", clock)  # ... and taps KNOCK: the contract he sees is laid
        elif k == "lay_off":
            reveal(app, seat, clock)
            touch_card(app, seat, a.card, clock)
            rect = app.scene.meld_rects[a.target]
            assert app.scene.target_at(rect.center).name == f"table-meld-{a.target}"
            click(app, rect.center, clock)
        elif k == "discard":
            reveal(app, seat, clock)
            touch_card(app, seat, a.card, clock)
            touch_card(app, seat, a.card, clock)
        else:  # pragma: no cover
            pytest.fail(f"no input path for {k}")
        assert m.session.actions_applied >= before + 1, f"{k} by seat {seat} did not happen: {m.message}"
        self.kinds.append(k)


def test_a_whole_contract_game_with_buttons_touches_and_buying(tmp_path):
    app, clock = started_app(tmp_path, **APP)
    frame(app)
    tap(app, "play", clock)
    tap(app, "game-contract-seed_002", clock)
    assert app.scene.name == "seating"
    tap(app, "more", clock)  # three players: two people and a computer
    tap(app, "kind-1", clock)
    tap(app, "start", clock)
    assert app.scene.name == "contract_table"
    assert [s["kind"] for s in app.match.seats] == ["human", "human", "computer"]
    table = Table(app, clock)
    deals = 0
    asked_seen = False
    for _ in range(6000):
        if app.match is None:
            break
        if app.scene.name == "contract_review":
            deals += 1
            confirm_review(app, 0, clock)  # DRAW held continues (issue 28)
            continue
        assert app.scene.name == "contract_table"
        st = app.match.state
        if st.phase == ASK and app.match.is_human(st.buy.asked):
            asked_seen = True
            # the asked seat sees the question and the button mapping
            assert target(app, f"yes-{st.buy.asked}") and target(app, f"no-{st.buy.asked}")
            # both answer buttons lit, but for the one he holds to look (letting go is no tap)
            lamps, looking = app.hw.lamps[st.buy.asked], held(app, st.buy.asked)
            assert all(lamps[b] for b in ("draw", "knock") if b != looking), (lamps, looking)
        if st.phase in (TURN, PLAY, TAKE, ASK):
            table.step()
    assert app.match is None and app.scene.name == "seating", "the game ends; New game seats the players again"
    assert deals == 5 and app.matches_done == 1
    assert asked_seen and table.timeouts == 1
    assert "buy" in table.kinds and "answer" in table.kinds and "meld" in table.kinds
    assert "discard" in table.kinds
    archived = list((tmp_path / "archive").glob("*.jsonl"))
    assert len(archived) == 1
    app.close()


def test_buy_lamps_and_out_of_turn_calls(tmp_path):
    app, clock = started_app(tmp_path, **APP)
    app.start_match("contract", humans("Ann", "Bob", "Cy"))
    frame(app)
    st = app.match.state
    n = st.turn
    others = [s for s in range(3) if s != n]
    assert st.phase == TURN and app.hw.lamps[n]["draw"]
    # just dealt: nobody may ask yet, everyone looks at his new cards first ([game] deal_grace_s)
    assert not any(app.hw.lamps[s]["buy"] for s in others)
    clock.t += app.config.game.deal_grace_s + 0.1
    frame(app)
    # C-8.1: the upcard has no discarder, so both other seats may ask "Можно?"
    assert all(app.hw.lamps[s]["buy"] for s in others)
    # out of turn, DRAW does nothing but say what the seat may do: BUY
    before = app.match.session.actions_applied
    press(app, others[0], "draw", clock)
    assert app.match.session.actions_applied == before
    assert "BUY" in app.scene.ui[others[0]].flash
    # BUY from the far seat: the question goes to N first (C-8.3)
    far = others[-1]
    press(app, far, "buy", clock)
    st = app.match.state
    assert st.phase == ASK and st.buy.asker == far and st.buy.asked == n
    # KNOCK = "Нельзя": N buys the card himself, free (C-8.4)
    card = st.buy.card
    press(app, n, "knock", clock)
    st = app.match.state
    assert card in st.hands[n] and st.turn == (n + 1) % 3
    app.close()
