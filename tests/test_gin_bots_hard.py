"""The hard gin player's mask helpers (issue 12): its arrangement, layoff estimate,
playouts and the opponent-hand weighting agree with the exact solvers and the rules."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.cards import ALL_CARDS
from rummy.gin.bots_hard import (
    _arrangement,
    _can_meld,
    _layoff_targets,
    _would_take,
    _would_throw,
    defender_count,
    explains,
    melds_masks,
    playout,
)
from rummy.gin.layoffs import best_defence
from rummy.gin.melds import arrange, hand_mask, mask_cards

DENSE = [c for c in ALL_CARDS if 3 <= c.rank <= 9]
decks = st.one_of(
    st.lists(st.sampled_from(ALL_CARDS), min_size=20, max_size=20, unique=True),
    st.lists(st.sampled_from(DENSE), min_size=20, max_size=20, unique=True),
)


@settings(max_examples=300, deadline=None)
@given(deck=decks, size=st.sampled_from([10, 11]))
def test_arrangement_matches_the_solver(deck, size) -> None:
    cards = deck[:size]
    m = hand_mask(cards)
    count, melded = _arrangement(m)
    assert count == arrange(cards)[0]
    assert melded & ~m == 0
    assert sum(c.value for c in mask_cards(m & ~melded)) == count


@settings(max_examples=300, deadline=None)
@given(deck=decks, limit=st.sampled_from([0, 5, 10]))
def test_the_quick_take_check_agrees_with_the_full_search(deck, limit) -> None:
    h, top = hand_mask(deck[:10]), deck[10].bit
    quick = _would_take(h, top, limit, _arrangement(h))
    assert quick == _would_take(h, top, limit)
    if not _can_meld(h, top):  # G-2.1, G-2.2: nothing to meld with, never melded
        assert _arrangement(h | top)[1] & top == 0


@settings(max_examples=300, deadline=None)
@given(deck=decks)
def test_defender_count_is_a_legal_defence_never_better_than_the_best(deck) -> None:
    _, melds, _ = arrange(deck[:10])
    opp = deck[10:]
    exact = best_defence(opp, melds).count
    assert exact <= defender_count(hand_mask(opp), *melds_masks(melds)) <= arrange(opp)[0]


def test_a_playout_knock_is_scored_after_the_defenders_layoffs() -> None:
    """G-11: the defender lays off on the knocker's runs (chains at either end) and on
    the fourth card of a set before the counts are compared."""
    from rummy.cards import parse_cards

    knocker = hand_mask(parse_cards("3S 4S 5S 7H 7D 7C 9D TD JD KC"))
    defender = hand_mask(parse_cards("2S 6S 7S QD KH QH 9C 8C 4H 2H"))
    top = parse_cards("AC")[0].bit  # he takes it, throws the king and knocks with 1
    runs, fourth = _layoff_targets(knocker ^ parse_cards("KC")[0].bit | top)
    assert runs == hand_mask(parse_cards("3S 4S 5S 9D TD JD"))
    assert fourth == hand_mask(parse_cards("7S"))
    # 2S 6S 7S and QD are laid off: 68 less 25 is 43 against his 1
    assert playout([knocker, defender], [], top, 0, 10, 0, 25, 25) == (0, 42)


def test_playouts_end_in_a_scored_or_dead_hand_and_repeat_exactly() -> None:
    rng = random.Random(7)
    for _ in range(200):
        deck = [c.bit for c in rng.sample(ALL_CARDS, 52)]
        args = ([sum(deck[:10]), sum(deck[10:20])], deck[21:], deck[20], 1, 10, 2, 25, 25)
        first = playout(*args)
        again = playout([sum(deck[:10]), sum(deck[10:20])], *args[1:])
        assert first == again
        winner, points = first
        assert winner in (-1, 0, 1) and points >= 0 and (winner != -1 or points == 0)


def test_explains_prefers_a_hand_that_would_have_thrown_the_card() -> None:
    """A greedy player throws his highest loose card: a hand holding a loose king does
    not explain throwing a loose seven; one whose other cards are melded or lower does."""
    from rummy.cards import parse_cards

    seven = parse_cards("7C")[0]
    low = hand_mask(parse_cards("AS 2S 3S 4H 5H 6H 2D 3C 4C 5D"))
    king = hand_mask(parse_cards("AS 2S 3S 4H 5H 6H 2D 3C 4C KD"))
    assert _would_throw(low | seven.bit, seven.bit, 0)
    assert not _would_throw(king | seven.bit, seven.bit, 0)
    assert not _would_throw(low | seven.bit, seven.bit, 14)  # 14 left: he would knock
    events = [("draw", None, seven)]
    assert explains(king, events, 0) < explains(low, events, 0)


def test_sampled_hands_hold_less_deadwood_once_he_has_played_turns(monkeypatch) -> None:
    """A greedy opponent throws his highest loose card each turn, so after a few turns his
    count is lower than unseen cards drawn at random; the worlds are tilted towards that
    (``TILT``): the same search, untilted, samples hands with more deadwood."""
    from rummy.actions import TABLE, Action
    from rummy.cards import shuffled_deck
    from rummy.games import get_engine
    from rummy.gin import bots_hard
    from rummy.gin.bots_hard import HardPlayer
    from rummy.gin.melds import mask_deadwood

    engine = get_engine("gin")
    found = None
    for seed in range(50):  # the first hand where he has played six turns
        rng = random.Random(seed)
        hard, basic = HardPlayer(), engine.player("basic")
        state = engine.new_match(engine.preset("standard"), 2, first_dealer=1)
        state, _ = engine.apply(state, Action("deal", TABLE, cards=tuple(shuffled_deck(rng, 1))))
        while not state.hand_results and engine.to_act(state):
            seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            view = engine.view(state, seat)
            if seat == 0 and any(a.kind == "discard" for a in legal) and len(hard.memory.opp_events) >= 6:
                hard.memory.observe(view)
                found = view
                break
            player = hard if seat == 0 else basic
            state, _ = engine.apply(state, player.choose(engine, view, legal, rng))
        if found is not None:
            break
    assert found is not None

    def mean_deadwood(tilt: float) -> float:
        monkeypatch.setattr(bots_hard, "TILT", tilt)
        worlds = hard.worlds_for(found, random.Random(1), 64)
        return sum(mask_deadwood(opp) for opp, _ in worlds) / len(worlds)

    assert mean_deadwood(bots_hard.TILT) < mean_deadwood(0.0) - 2


def test_taking_the_card_that_makes_gin_is_valued_as_that_gin() -> None:
    """The take-or-draw search (G-5.1): taking the ten of diamonds lets this hand throw
    its king and go gin (G-9) in every world, so taking is worth exactly the game chance
    of that gin against each world's hand; drawing blind is worth no more."""
    from rummy.actions import TABLE, Action
    from rummy.cards import parse_cards, shuffled_deck
    from rummy.games import get_engine
    from rummy.gin.bots_hard import HardPlayer
    from rummy.gin.melds import mask_deadwood

    engine = get_engine("gin")
    state = engine.new_match(engine.preset("standard"), 2, first_dealer=1)
    state, _ = engine.apply(state, Action("deal", TABLE, cards=tuple(shuffled_deck(random.Random(3), 1))))
    view = engine.view(state, 0)
    hand = parse_cards("AS 2S 3S 4H 4D 4C 7D 8D 9D KC")
    top = parse_cards("TD")[0]
    unseen = [c.bit for c in ALL_CARDS if c not in hand and c != top]
    rng = random.Random(5)
    worlds = []
    for _ in range(40):
        rng.shuffle(unseen)
        worlds.append((sum(unseen[:10]), unseen[10:40]))
    player = HardPlayer()
    value = player._valuer(view)
    take, draw = player.draw_values(view, hand, top, worlds, value)
    gin = view.rules.gin_bonus
    assert take == sum(value(0, mask_deadwood(opp) + gin) for opp, _ in worlds) / len(worlds)
    assert draw < take
