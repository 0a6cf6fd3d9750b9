"""The contract table scene: buying by buttons (C-8.2, C-8.4), laying one's own groups (C-3),
the answer timeout (C-8.4), lamps, and the layout for 2–6 seats at every size."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
from display_input import FakeClock, click, conceal, drawn_texts, press, reveal, target, text_log  # noqa: E402

from display.app import App  # noqa: E402
from display.layout import MIN_TOUCH_PX  # noqa: E402
from display.table.config import load_config  # noqa: E402
from display.table.refusal_text import refusal_text  # noqa: E402
from rummy.actions import Action  # noqa: E402
from rummy.contract.bots import BasicPlayer  # noqa: E402
from rummy.contract.kinds import Refusal as ContractRefusal  # noqa: E402
from rummy.contract.state import ASK, PLAY, TURN  # noqa: E402

NAMES = ("Anastasia", "Bartholomew", "Guilherme", "Wulandari", "Oleksandr", "Maximiliano")


def make_app(tmp_path, size=(1280, 800), *, clock=None, grace=0.0, **display) -> App:
    config, errors = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    assert not errors
    config = replace(config, game=replace(config.game, deal_grace_s=grace))
    if display:
        config = replace(config, display=replace(config.display, **display))
    kw = {"clock": clock} if clock is not None else {}
    return App(config, mode="sim", size=size, state_dir=tmp_path, seed=9, **kw)


def start(app: App, n: int, kinds=None) -> None:
    kinds = kinds or ["human"] * n
    app.start()
    app.start_match("contract", [{"name": NAMES[i], "kind": kinds[i]} for i in range(n)])
    app.frame(events=[])


def answer_app(tmp_path, clock: FakeClock, buy_answer_s: float) -> App:
    """Three humans at a contract match where an asked seat has ``buy_answer_s`` to answer
    (no grace after a deal)."""
    config, _ = load_config(None, env={"RUMMY_TABLE_STATE_DIR": str(tmp_path)})
    config = replace(config, game=replace(config.game, buy_answer_s=buy_answer_s, deal_grace_s=0.0))
    app = App(config, mode="sim", size=(800, 480), state_dir=tmp_path, seed=9, clock=clock)
    start(app, 3)
    return app


def tap(app: App, name: str, clock: FakeClock) -> None:
    """Touch the target called ``name``, which nothing may cover."""
    t = target(app, name)
    hit = app.scene.target_at(t.rect.center)
    assert hit is t, f"{name} is covered by {hit.name}"
    click(app, t.rect.center, clock)


def tap_group(app: App, seat: int, group, hand: list, used: set[int], clock: FakeClock) -> None:
    """Touch the group's cards in the seat's hand (each a place not ``used`` yet), then Group."""
    for c in group:
        k = next(i for i, x in enumerate(hand) if x == c and i not in used)
        used.add(k)
        tap(app, f"card-{seat}-{k}", clock)
    tap(app, f"group-{seat}", clock)


def bot_turn(app: App) -> None:
    """The seat in turn draws from the stock and discards as the basic bot would."""
    m = app.match
    seat = m.state.turn
    m.submit(next(a for a in m.legal(seat) if a.kind == "draw_stock"))
    m.submit(BasicPlayer().choose(m.engine, m.engine.view(m.state, seat), m.legal(seat), None))
    app.frame(events=[])


def test_c_8_2_in_turn_buy_with_buy_then_a_card_count(tmp_path):
    clock = FakeClock(500.0)
    app = make_app(tmp_path, clock=clock, privacy="open")
    start(app, 3)
    bot_turn(app)  # the pile now holds the upcard and a discard: two cards for N
    m = app.match
    n = m.state.turn
    pile = [p.card for p in m.state.discard_pile[-2:]]
    before = len(m.state.hands[n])
    press(app, n, "buy", clock)
    assert app.scene.ui[n].choose_take
    # the buttons say what comes with the pack cards and that the turn ends (issue 28)
    with text_log() as log:
        app.scene.invalidate()
        app.render()
    words = [r.text for r in log]
    assert any(w.endswith(" +1") or "+1 from the stock, your turn ends" in w for w in words), words
    assert "Buy how many? “+n”: cards from the stock come too; then your turn ends" in words
    tap(app, f"take2-{n}", clock)
    st = m.state
    # C-8.2: both pack cards and one stock card for the second; no discard; the turn passes
    assert len(st.hands[n]) == before + 3
    assert all(c in st.hands[n] for c in pile)
    assert st.turn == (n + 1) % 3 and st.phase == TURN
    app.close()


def test_c_8_4_refusal_by_the_on_screen_button_and_lamps(tmp_path):
    clock = FakeClock(500.0)
    app = make_app(tmp_path, clock=clock)
    start(app, 4)
    m = app.match
    n = m.state.turn
    far = (n + 2) % 4
    press(app, far, "buy", clock)
    st = m.state
    assert st.phase == ASK and st.buy.asked == n
    lamps = app.hw.lamps
    assert lamps[n]["draw"] and lamps[n]["knock"] and not lamps[n]["buy"]
    assert not lamps[far]["buy"], "the asker has asked; his lamp goes out"
    # the question and the mapping are on the asked seat's panel
    with text_log() as log:
        app.scene.dirty = True
        app.frame(events=[])
    assert any("Можно?" in r.text for r in log)
    card = st.buy.card
    reveal(app, n, clock, button="buy")  # a touch on a face-down hand's panel answers nothing (issue 28)
    tap(app, f"no-{n}", clock)  # "Нельзя": N buys it himself, free (C-8.4)
    st = m.state
    assert card in st.hands[n] and st.turn == (n + 1) % 4
    app.close()


def test_c_8_4_silence_is_permission_after_the_configured_time(tmp_path):
    clock = FakeClock(500.0)
    app = answer_app(tmp_path, clock, 3.0)
    m = app.match
    n = m.state.turn
    asker = (n + 1) % 3
    press(app, asker, "buy", clock)
    assert m.state.phase == ASK and app.scene.answer_seconds == 3.0
    clock.t += 2.5
    app.frame(events=[])
    assert m.state.phase == ASK, "no answer before the time is up"
    clock.t += 0.6
    app.frame(events=[])
    action, events = m.history[-1]
    assert action.kind == "answer" and action.flag is True and action.seat == n
    assert any(e.kind == "bought" and e.seat == asker for e in events)
    app.close()


def test_c_3_a_player_lays_his_own_groups_by_touch(tmp_path):
    """Pick the cards of each group, Group, then Meld; a wrong contract is refused in words."""
    clock = FakeClock(500.0)
    app = make_app(tmp_path, clock=clock, privacy="open")
    start(app, 3)
    m = app.match
    rng = __import__("random").Random(1)
    bot = BasicPlayer()
    for _ in range(2000):  # play on until a seat in PLAY may lay its contract
        st = m.state
        if st.phase == PLAY and any(a.kind == "meld" for a in m.legal(st.turn)):
            break
        if m.review_pending:
            m.continue_after_review()
            continue
        seat = m.to_act()[0]
        legal = [a for a in m.legal(seat) if a.kind != "meld"] or m.legal(seat)
        m.submit(bot.choose(m.engine, m.engine.view(m.state, seat), legal, rng))
    app.frame(events=[])
    st = m.state
    seat = st.turn
    meld = next(a for a in m.legal(seat) if a.kind == "meld")
    hand = list(st.hands[seat])
    # first a wrong contract: one group only
    first = meld.melds[0]
    used: set[int] = set()
    tap_group(app, seat, first, hand, used, clock)
    tap(app, f"meld-{seat}", clock)
    assert m.state.phase == PLAY and not m.state.contract_down[seat]
    # the engine's reason (C-15.3: the whole contract in one turn), in the table's words
    want = refusal_text(ContractRefusal.CONTRACT_TOO_FEW,
                        {"sets": st.contract.sets, "sequences": st.contract.sequences})
    assert app.scene.ui[seat].flash == want and want.startswith("Lay the whole contract at once")
    # the first group stays grouped: add the others, then Meld
    assert len(app.scene.ui[seat].groups) == 1
    for group in meld.melds[1:]:
        tap_group(app, seat, group, hand, used, clock)
    tap(app, f"meld-{seat}", clock)
    st = m.state
    assert st.contract_down[seat]
    assert sorted(sorted(t.cards) for t in st.table_melds if t.owner == seat) == sorted(
        sorted(g) for g in meld.melds)
    app.close()


# -- layout for every seat count ----------------------------------------------------------------

SIZES = [(800, 480), (1280, 800), (1920, 1080)]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("layout", ["flat", "upright"])
def test_contract_table_fits_for_every_seat_count(tmp_path, n, layout):
    for size in SIZES:
        app = make_app(tmp_path / f"{size[0]}", size, layout=layout, privacy="open")
        app.headless = True
        start(app, n)
        scene = app.scene
        log = drawn_texts(app)
        w, h = size
        bad = [(r.text, r.box.size) for r in log if not r.fits]
        assert not bad, f"{n} seats {layout} {size}: text overflows: {bad[:3]}"
        screen = pygame.Rect(0, 0, w, h)
        assert all(screen.contains(r.drawn) for r in log)
        small = [(t.name, t.rect.size) for t in scene.targets if t.action is not None
                 and not t.name.startswith("card-") and min(t.rect.size) < MIN_TOUCH_PX]
        assert not small, f"{n} seats {layout} {size}: targets under 9 mm: {small[:4]}"
        panels = scene.panels()
        for p in panels:
            cards = scene.hand_screen_rects[p.seat]
            assert len(cards) == len(app.match.state.hands[p.seat])
            assert all(p.rect.contains(c) for c in cards), f"a card leaves panel {p.seat} at {size}"
            for q in panels:
                assert p is q or not p.rect.colliderect(q.rect)
        for name in ("stock", "pile"):
            t = next(t for t in scene.targets if t.name == name)
            assert scene.target_at(t.rect.center) is t
        app.close()


def test_c_8_4_the_answer_deadline_survives_a_scene_rebuild(tmp_path):
    """The deadline is the match's (its table controller's), not the scene's: opening the
    operator menu and coming back keeps it, and silence is "Можно" at the same moment."""
    clock = FakeClock(500.0)
    app = answer_app(tmp_path, clock, 6.0)
    m = app.match
    n = m.state.turn
    press(app, (n + 1) % 3, "buy", clock)
    deadline = m.controller.answer_deadline
    assert m.state.phase == ASK and deadline == pytest.approx(clock.t + 6.0)  # asked at the tap (its release)
    clock.t += 4.0
    app.frame(events=[])
    app.open_operator()
    assert app.scene.name == "operator"
    app.frame(events=[])
    app.goto(app.table_scene_name())  # back at the table: a new scene
    app.frame(events=[])
    assert m.controller.answer_deadline == deadline
    assert app.scene.answer_left() == pytest.approx(deadline - clock.t)
    clock.t = deadline - 0.05
    app.frame(events=[])
    assert m.state.phase == ASK
    clock.t = deadline + 0.01
    app.frame(events=[])
    action, _events = m.history[-1]
    assert action == Action("answer", n, flag=True)


def test_the_buy_window_survives_a_scene_rebuild(tmp_path):
    """A computer in turn waits the buy window from the start of its turn (people may still
    press BUY), and a rebuilt scene does not start the window again."""
    clock = FakeClock(500.0)
    app = make_app(tmp_path, clock=clock)
    app.start()
    app.start_match("contract", [{"name": "Cy", "kind": "computer"}, {"name": "Ann", "kind": "human"},
                                 {"name": "Bob", "kind": "human"}])
    app.frame(events=[])
    m = app.match
    for _ in range(200):  # people play until the computer's turn
        if m.state.phase == TURN and m.state.turn == 0:
            break
        seat = next(s for s in m.to_act() if m.is_human(s)) if any(m.is_human(s) for s in m.to_act()) else None
        if seat is None:
            clock.t += 1.0
            app.frame(events=[])
            continue
        legal = [a for a in m.legal(seat) if a.kind != "buy"] or m.legal(seat)
        m.submit(BasicPlayer().choose(m.engine, m.engine.view(m.state, seat), legal, None))
        app.frame(events=[])
    assert m.state.phase == TURN and m.state.turn == 0
    start_t = m.controller.window.t0
    window = m.controller.window.seconds
    assert window == 2.5 and any(a.kind == "buy" for s in (1, 2) for a in m.legal(s))
    done = m.session.actions_applied
    clock.t = start_t + 1.5
    app.frame(events=[])
    app.goto(app.table_scene_name())  # a new scene
    clock.t = start_t + window - 0.1
    app.frame(events=[])
    assert m.session.actions_applied == done, "the computer waits out the window"
    assert m.thought_ready(), "its thought is worked out (fake seconds pass at once, a search's do not)"
    clock.t = start_t + window + 0.01
    app.frame(events=[])
    assert m.session.actions_applied > done, "and not a new window from the rebuild"
    app.close()


# -- the recent moves and groups through a hide (issue 11) ----------------------------------------

def test_the_last_moves_are_listed_in_the_middle_in_the_tables_language(tmp_path):
    """The centre lists the last few moves, oldest first, each drawn; a language change
    words them again (no line twice, none left in the old language)."""
    from display.scenes.table_base import RECENT_MOVES
    from display.table import i18n
    from display.table.contract_text import event_text

    clock = FakeClock(500.0)
    app = make_app(tmp_path, clock=clock, privacy="open")
    start(app, 4)
    m = app.match
    said: list = []
    for _ in range(RECENT_MOVES + 1):
        bot_turn(app)
        said += [ev for ev in m.events if event_text(m, ev)]
    scene = app.scene
    want = [event_text(m, ev) for ev in said[-RECENT_MOVES:]]
    assert len(want) == RECENT_MOVES and scene.recent == want
    scene.invalidate()
    log = drawn_texts(app)
    drawn = [r.text for r in log if r.text in want]
    assert len(drawn) >= 2 and drawn == want[-len(drawn):], "the newest moves, in order, as many as there is room for"
    try:
        app.set_language("ru")
        scene._version = -1  # the same events worded again
        scene.update(clock())
        ru = [event_text(m, ev) for ev in said[-RECENT_MOVES:]]
        assert scene.recent == ru and ru != want
    finally:
        app.set_language("en")
    assert i18n.language() == "en"
    app.close()


def test_groups_survive_a_hidden_hand_and_show_again_on_the_next_peek(tmp_path):
    """Issue 11: a hand that hides (its owner lets go of his button) drops its picked cards
    but keeps the groups the player arranged; they are underlined again when he looks."""
    clock = FakeClock(500.0)
    app = make_app(tmp_path, clock=clock, privacy="peek")
    start(app, 3)
    m, scene = app.match, app.scene
    seat = m.state.turn
    m.submit(next(a for a in m.legal(seat) if a.kind == "draw_stock"))
    app.frame(events=[])
    assert m.state.phase == PLAY
    reveal(app, seat, clock)
    assert scene.face_up(seat)
    for k in (0, 1):
        tap(app, f"card-{seat}-{k}", clock)
    tap(app, f"group-{seat}", clock)
    tap(app, f"card-{seat}-2", clock)
    assert scene.ui[seat].groups == [[0, 1]] and scene.ui[seat].selected == [2]
    conceal(app, seat, clock)  # he lets go: the hand hides
    assert not scene.face_up(seat)
    assert scene.ui[seat].groups == [[0, 1]], "the groups stay"
    assert scene.ui[seat].selected == [], "the picks are dropped"
    panels = scene.panels()
    _centre, seats = scene.view_models(panels, pygame.Rect(0, 0, 1, 1))
    hidden = seats[seat][0].hand
    assert not hidden.up and not hidden.groups, "a hidden hand shows no groups"
    reveal(app, seat, clock)
    _centre, seats = scene.view_models(scene.panels(), pygame.Rect(0, 0, 1, 1))
    shown = seats[seat][0].hand
    assert shown.up and shown.groups, "the next look shows them underlined again"
    app.close()
