"""Our gin players against OpenSpiel's ``SimpleGinRummyBot``, hand by hand in lockstep.

Every hand is dealt in our engine (``standard`` preset) and the same cards are dealt to
an OpenSpiel ``gin_rummy`` state (non-dealer = OpenSpiel player 0; OpenSpiel deals the
first ten cards to player 0, the next ten to player 1, then the upcard; every stock draw
is the chance outcome our stock gives). Our player acts in our engine from its seat's
view; OpenSpiel's bot acts in OpenSpiel's state; each action is applied to both. A knock
is scored by our engine (automatic arrangement and the defender's best layoffs for
both sides), so whole games to 100 are scored by our rules. open_spiel is a
benchmark-only dependency (the ``bench`` extra).
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel  # type: ignore[import-not-found]

from rummy.actions import TABLE, Action
from rummy.cards import parse_card, shuffled_deck
from rummy.games import get_engine
from rummy.gin.state import HandPhase, MatchPhase
from rummy.play import paired_rngs

GIN = pyspiel.gin_rummy
UTILS = GIN.GinRummyUtils(13, 4, 10)
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK = (
    GIN.DRAW_UPCARD_ACTION, GIN.DRAW_STOCK_ACTION, GIN.PASS_ACTION, GIN.KNOCK_ACTION,
)
TO_OS = {parse_card(UTILS.card_string(i).upper()): i for i in range(52)}
FROM_OS = {i: c for c, i in TO_OS.items()}


class Mismatch(RuntimeError):
    """The two engines disagree on what is legal (counted, the hand is dropped)."""


def _os_actions(a: Action) -> list[int]:
    """Our action as OpenSpiel player actions (chance outcomes are added by the caller)."""
    k = a.kind
    if k in ("take_upcard", "draw_discard"):
        return [DRAW_UPCARD]
    if k in ("pass_upcard", "decline"):
        return [PASS]
    if k == "draw_stock":
        return [DRAW_STOCK]
    if k == "discard":
        return [TO_OS[a.card]]  # type: ignore[index]
    if k == "knock":
        return [KNOCK, TO_OS[a.card]]  # type: ignore[index]
    if k == "take_and_knock":
        return [DRAW_UPCARD, KNOCK, TO_OS[a.card]]  # type: ignore[index]
    return []


def openspiel_game(args: tuple[str, int], player: Any = None) -> tuple[int, float, int, int, int]:
    """One game to 100 of ``level`` (or ``player``) against SimpleGinRummyBot (same result
    tuple as ``bots.gin_game``)."""
    level, seed = args
    state = openspiel_match(level, seed, player)
    me = seed % 2
    pts = 0.0
    won = lost = 0
    for r in state.hand_results:
        if r.winner is None:
            continue
        pts += r.points if r.winner == me else -r.points
        won += r.winner == me
        lost += r.winner != me
    return int(state.winner == me), pts, len(state.hand_results), won, lost


def openspiel_match(level: str, seed: int, player: Any = None) -> Any:
    """The final match state of one game to 100 of ``level`` (in seat ``seed % 2``)
    against SimpleGinRummyBot; ``player`` plays instead of the level's when given."""
    engine = get_engine("gin")
    game = pyspiel.load_game("gin_rummy")
    play_rng, rng = paired_rngs(seed)  # the deals from ``rng`` alone: compared players
    # meet the same hands, not deals that drift apart after their first different choice
    me = seed % 2
    ours = engine.player(level) if player is None else player
    state = engine.new_match(engine.preset("standard"), 2, first_dealer=(seed // 2) % 2)
    mismatches = 0
    while state.phase is not MatchPhase.OVER:
        order = shuffled_deck(rng, 1)
        state, _ = engine.apply(state, Action("deal", TABLE, cards=tuple(order)))
        try:
            state = _hand(engine, game, state, order, ours, me, play_rng)
        except Mismatch as exc:
            mismatches += 1
            print(f"mismatch (hand replayed with basic): {exc}", flush=True)
            if mismatches > 20:
                raise
            # replay the hand with our basic player in the other seat instead
            hand_state = state
            while hand_state.phase is MatchPhase.HAND:
                seat = engine.to_act(hand_state)[0]
                legal = engine.legal_actions(hand_state, seat)
                p = ours if seat == me else _BASIC
                hand_state, _ = engine.apply(hand_state, p.choose(engine, engine.view(hand_state, seat), legal, play_rng))
            state = hand_state
    return state


_BASIC = get_engine("gin").player("basic")


def _hand(engine: Any, game: Any, state: Any, order: list, ours: Any, me: int, rng: random.Random) -> Any:
    hand = state.hand
    dealer = hand.dealer
    os_of = {1 - dealer: 0, dealer: 1}  # OpenSpiel player of our seat
    os_state = game.new_initial_state()
    for c in (*hand.hands[1 - dealer], *hand.hands[dealer], hand.upcard):
        os_state.apply_action(TO_OS[c])
    bot = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), os_of[1 - me])
    start_results = len(state.hand_results)
    while state.phase is MatchPhase.HAND and state.hand.phase is not HandPhase.OVER:
        h = state.hand
        seat = h.turn
        legal = engine.legal_actions(state, seat)
        if seat == me:
            tell = getattr(ours, "tell", None)  # only benchmarks/hard_oracle.py's player has it
            if tell is not None:
                tell(h.hands[1 - me])
            a = ours.choose(engine, engine.view(state, seat), legal, rng)
        else:
            a = _from_bot(bot, os_state, legal, h)
        stock_top = h.stock[0] if h.stock else None
        if os_state.current_player() != os_of[seat]:
            raise Mismatch(f"OpenSpiel waits for {os_state.current_player()}, we for {seat}")
        for x in _os_actions(a):
            if x not in os_state.legal_actions():
                raise Mismatch(f"{a} is not legal in OpenSpiel")
            os_state.apply_action(x)
            if os_state.is_chance_node():
                assert stock_top is not None
                os_state.apply_action(TO_OS[stock_top])
        state, _ = engine.apply(state, a)
        if a.kind in ("knock", "take_and_knock", "big_gin") or len(state.hand_results) > start_results:
            break
    return state


def _from_bot(bot: Any, os_state: Any, legal: list[Action], h: Any) -> Action:
    """The bot's next move in OpenSpiel, as one of our legal actions (not applied yet)."""
    x = bot.step(os_state)
    kinds = {a.kind: a for a in legal}
    if x == DRAW_UPCARD:
        for k in ("take_upcard", "draw_discard"):
            if k in kinds:
                return kinds[k]
        if any(a.kind == "take_and_knock" for a in legal):
            child = os_state.clone()
            child.apply_action(DRAW_UPCARD)
            child.apply_action(bot.step(child))  # KNOCK
            d = FROM_OS[bot.step(child)]
            for a in legal:
                if a.kind == "take_and_knock" and a.card == d:
                    return a
            return next(a for a in legal if a.kind == "take_and_knock")
    if x == PASS:
        for k in ("pass_upcard", "decline"):
            if k in kinds:
                return kinds[k]
    if x == DRAW_STOCK and "draw_stock" in kinds:
        return kinds["draw_stock"]
    if x == KNOCK:
        child = os_state.clone()
        child.apply_action(KNOCK)
        d = FROM_OS[bot.step(child)]
        for a in legal:
            if a.kind == "knock" and a.card == d:
                return a
        if "big_gin" in kinds:
            return kinds["big_gin"]
        raise Mismatch(f"OpenSpiel knocks discarding {d}; we do not allow it")
    if 0 <= x < 52:
        c = FROM_OS[x]
        for a in legal:
            if a.kind == "discard" and a.card == c:
                return a
    raise Mismatch(f"OpenSpiel action {x} ({os_state.action_to_string(x)}) has no match in {legal}")
