"""The strong gin player: opponent modelling and sampled worlds (issue 12, level ``hard``).

From its seat's view only (:class:`rummy.gin.bots_model.Memory`) it knows which cards
the opponent took from the pile, passed and discarded. At every discard it samples
worlds consistent with everything seen — the opponent's hidden cards drawn from the
unseen ones, weighted by his pickups and passes (:func:`rummy.gin.bots_model.weight`),
by how well they explain his last turns and towards a low count (``TILT``), the rest
as the stock in a random order — and values, over the same worlds:

* each of the few best discards by the medium player's model, by playing the hand out
  with a fast greedy policy for both seats (:func:`playout`: take the discard only when
  it melds or lets one knock, throw the card that leaves the least deadwood, knock at
  once — the way the usual opponents play; a knock scored after the defender's layoffs);
* each legal knock (G-7.2) by the defender's count after his layoffs in that world
  (G-11), so a knock that leaves him an undercut is seen, and among equal counts the
  arrangement that leaves the fewest layoffs wins.

* each take-or-draw choice (G-5.1): taking the discard on offer, or drawing the next
  stock card of the world, each followed by the greedy discard and played out.

Outcomes are priced by the chance of winning the game (G-14.1), not by the hand's
points; it leaves the greedy move (the model's discard, a knock at once, the medium
player's draw) only when another is clearly better. Deterministic given the random
generator it is handed; masks are the solver's (:mod:`rummy.gin.melds`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence

from rummy.actions import Action, pick_kind
from rummy.cards import Card
from rummy.gin.bots import (
    CLOSING,
    TrackingPlayer,
    choose_draw,
    discard_score,
    live_cards,
    taker,
)
from rummy.gin.bots_model import game_win, weight
from rummy.gin.melds import (  # the solver's tables and loops
    _DW,
    _RUN,
    Meld,
    _choices,
    _split,
    best_melds,
    hand_mask,
    mask_cards,
)
from rummy.gin.melds import _dw_mask as dw  # masks in, no checks
from rummy.gin.rules import GinRules
from rummy.gin.view import SeatView

WORLDS = 256  # sampled worlds per decision (figures below PROPOSALS)
CANDIDATES = 6  # discards tried in playouts: the model's best few ...
CLOSE = 10.0  # ... whose model score is within this of the best
MARGIN = 0.005  # leaving the model's discard must gain this chance of winning the game
KNOCK_MARGIN = 0.01  # a knock is preferred to playing on by this much
DRAW_SEARCH = True  # take-or-draw decisions played out too (figures below PROPOSALS) ...
DRAW_MARGIN = 0.01  # ... leaving the model's choice when the other gains this much
LATE = 0  # with this few stock cards left (over the floor) it knocks at once

_SPREAD = 0x0001000100010001  # a rank bit copied into the four suits
_VALUE = {1 << (16 * s + r): min(r, 10) for s in range(4) for r in range(1, 14)}


def _best(h: int, barred: int) -> tuple[int, int]:
    """(card to discard, deadwood of the rest) for the 11 cards of mask ``h``: the least
    deadwood, ties to the highest card; never ``barred`` (the card just taken, G-5.3)."""
    best, best_card, best_key = 1000, 0, 0
    rest = h ^ barred if barred else h
    value = _VALUE
    while rest:
        b = rest & -rest
        rest ^= b
        v = dw(h ^ b)
        if v < best or v == best and value[b] > best_key:
            best, best_card, best_key = v, b, value[b]
    return best_card, best


def _greedy_discard(h11: int, barred: int) -> tuple[int, int, int]:
    """(ten kept, card thrown, their deadwood) for the eleven of mask ``h11``: the highest
    loose card of a best arrangement (never ``barred``, the card just taken, G-5.3)."""
    count, melded = _arrangement(h11)
    card = _highest(h11 & ~melded & ~barred)
    if card:
        count -= _VALUE[card]
    else:  # eleven cards melded: keep ten of them melded
        card, count = _best(h11, barred)
    return h11 ^ card, card, count


def _play_eleven(
    kept: int, card: int, count: int, opp: int, stock: Sequence[int], seat: int, limit: int,
    rules: GinRules,
) -> tuple[int, int]:
    """(winner or -1, points) after ``seat`` threw ``card`` and kept ``kept`` (deadwood
    ``count``): a knock at once when it may (G-7.2), else the hand played out from the
    other seat's draw (:func:`playout`)."""
    if count <= limit:
        return knock_result(seat, count, dw(opp), rules)
    hands = [0, 0]
    hands[seat], hands[1 - seat] = kept, opp
    return playout(hands, stock, card, 1 - seat, limit, rules.stock_floor, rules.gin_bonus,
                   rules.undercut_bonus)


def _arrangement(m: int) -> tuple[int, int]:
    """(deadwood, melded cards) of a best arrangement of every card of mask ``m``."""
    a, b, c, d = _split(m.to_bytes(8, "little"))
    t = (a & b & (c | d)) | (c & d & (a | b))  # ranks held 3+ times (G-2.1 sets)
    table, run = _DW, _RUN
    if not t:
        return table[a] + table[b] + table[c] + table[d], (
            run[a] | run[b] << 16 | run[c] << 32 | run[d] << 48
        )
    best, runs = 1000, m
    for x in _choices(m, t):  # x: the cards left for runs, m ^ x in sets
        a, b, c, d = _split(x.to_bytes(8, "little"))
        v = table[a] + table[b] + table[c] + table[d]
        if v < best:
            best, runs = v, x
    a, b, c, d = _split(runs.to_bytes(8, "little"))
    return best, m ^ runs | run[a] | run[b] << 16 | run[c] << 32 | run[d] << 48


def _layoff_targets(m: int) -> tuple[int, int]:
    """(cards melded in runs, the missing 4th cards of its sets) of a best arrangement of
    the knocker's mask ``m``: what the defender may lay off on (G-11.1). Its search is
    :func:`_arrangement`'s, written out again on purpose: sharing one helper put two more
    calls in the playouts' hottest loop (77-88 us a playout against 85-96, measured)."""
    a, b, c, d = _split(m.to_bytes(8, "little"))
    t = (a & b & (c | d)) | (c & d & (a | b))
    table, run = _DW, _RUN
    x = m
    if t:
        best = 1000
        for y in _choices(m, t):
            a, b, c, d = _split(y.to_bytes(8, "little"))
            v = table[a] + table[b] + table[c] + table[d]
            if v < best:
                best, x = v, y
        a, b, c, d = _split(x.to_bytes(8, "little"))
    sets = m ^ x
    fold = (sets | sets >> 16 | sets >> 32 | sets >> 48) & 0x3FFE
    return run[a] | run[b] << 16 | run[c] << 32 | run[d] << 48, fold * _SPREAD & ~sets


def _highest(dead: int) -> int:
    """The highest-ranked card of mask ``dead`` (ties: suit order), 0 for none."""
    fold = (dead | dead >> 16 | dead >> 32 | dead >> 48) & 0x3FFE
    if not fold:
        return 0
    same = dead & (1 << fold.bit_length() - 1) * _SPREAD
    return same & -same


def playout(
    hands: list[int], stock: Sequence[int], top: int, turn: int, limit: int, floor: int,
    gin_bonus: int, undercut_bonus: int,
) -> tuple[int, int]:
    """Play a hand out greedily from ``turn``'s draw; returns (winner or -1, points).

    Both seats play as the usual opponents do: take the discard when it melds in the best
    arrangement of the eleven or lets them knock, else draw; throw the highest deadwood
    card; knock at once (G-7.2). ``hands`` (two 10-card masks) is changed in place;
    ``stock`` is drawn in order, ``top`` is the discard on offer. Knocks are scored
    after the defender's layoffs (G-11, :func:`defender_count`)."""
    i, n = 0, len(stock) - floor
    value = _VALUE
    for _ in range(80):
        h = hands[turn] | top
        count, melded = _arrangement(h)
        card = _highest(h & ~melded & ~top)
        if top & melded or card and count - value[card] <= limit:  # take it
            if card:
                count -= value[card]
            else:
                card, count = _best(h, top)
        else:
            if i >= n:
                return -1, 0  # G-13: the hand is dead
            h ^= top | stock[i]
            i += 1
            count, melded = _arrangement(h)
            card = _highest(h & ~melded)
            if card:
                count -= value[card]
            else:  # eleven cards melded: keep ten of them melded
                card, count = _best(h, 0)
        h ^= card
        hands[turn] = h
        if count <= limit:  # knock at once
            if count == 0:
                return turn, dw(hands[1 - turn]) + gin_bonus  # G-9
            runs, fourth = _layoff_targets(h)
            other = defender_count(hands[1 - turn], [runs], fourth)  # G-11
            if other <= count:
                return 1 - turn, count - other + undercut_bonus  # G-12.1
            return turn, other - count
        top = card
        turn = 1 - turn
    return -1, 0


def melds_masks(melds: Sequence[Sequence[Card]]) -> tuple[list[int], int]:
    """(run masks, 4th-card mask of the sets) of a knocker's melds, for layoffs."""
    runs, fourth = [], 0
    for m in melds:
        bits = hand_mask(m)
        if len({c.rank for c in m}) == 1:
            if len(m) == 3:
                rank = (bits & -bits).bit_length() - 1 & 15
                fourth |= (1 << rank) * _SPREAD & ~bits
        else:
            runs.append(bits)
    return runs, fourth


def defender_count(opp: int, runs: list[int], fourth: int) -> int:
    """The defender's count in mask ``opp`` after laying off on the knocker's melds
    (G-11.1: the 4th of a set, chains at either end of a run); a close, fast estimate
    of :func:`rummy.gin.layoffs.best_defence`: all layoffs or none."""
    lay = opp & fourth
    for r in runs:
        grown = r
        while True:
            more = (grown << 1 | grown >> 1) & opp & ~grown
            if not more:
                break
            grown |= more
        lay |= grown & ~r
    if not lay:
        return dw(opp)
    return min(dw(opp), dw(opp & ~lay))


def knock_result(seat: int, count: int, other: int, rules: GinRules) -> tuple[int, int]:
    """(winner, points) of a knock by ``seat`` with ``count`` against the defender's count
    ``other`` (after his layoffs, none against gin): gin (G-9), an undercut (G-12.1) or
    the difference."""
    if count == 0:
        return seat, other + rules.gin_bonus
    if other < count or other == count and rules.undercut_on_tie:
        return 1 - seat, count - other + rules.undercut_bonus
    return seat, other - count


def knock_options(hand: list[Card], knocks: list[Action]) -> list[tuple[int, int, Action, list[Meld]]]:
    """Each legal knock (G-7.2) as (count, its index, the action, the melds of a best
    arrangement of the ten kept), lowest count first."""
    return sorted(
        (sum(c.value for c in dead), i, a, melds)
        for i, a in enumerate(knocks)
        for melds, dead in [best_melds([c for c in hand if c != a.card])]
    )


class HardPlayer(TrackingPlayer):
    """Sampled-world discards and knocks on top of the medium player's model."""

    name = "hard"

    def __init__(self, worlds: int | None = None) -> None:
        super().__init__()
        self.worlds = WORLDS if worlds is None else worlds  # (read now: a default argument
        # would keep the value WORLDS had at import, and setting it later changed nothing)

    def play(
        self, view: SeatView, legal: Sequence[Action], kinds: Mapping[str, Action],
        hand: list[Card], rng: random.Random,
    ) -> Action:
        discards = [a for a in legal if a.kind == "discard"]
        knocks = [a for a in legal if a.kind == "knock"]
        if discards or knocks:
            return self.discard_or_knock(view, hand, discards, knocks, rng)
        top = view.discard_top
        take = kinds.get("take_upcard") or kinds.get("draw_discard")
        other = kinds.get("pass_upcard") or kinds.get("draw_stock")
        if DRAW_SEARCH and take and other and top is not None and other.kind == "draw_stock":
            wants = taker(hand, view.knock_limit or 0)(top)
            return self.take_or_draw(view, hand, top, take, other, wants, rng)
        draw = choose_draw(kinds, top, taker(hand, view.knock_limit or 0))
        if draw is not None:
            return draw
        return pick_kind(kinds, CLOSING) or legal[0]

    def take_or_draw(
        self, view: SeatView, hand: list[Card], top: Card, take: Action, draw: Action,
        wants: bool, rng: random.Random,
    ) -> Action:
        """Take the discard or draw from the stock (G-5.1), by playing both out over the
        same worlds: the model's default (:func:`rummy.gin.bots.worth_taking`) unless the
        other is clearly better."""
        worlds = self.worlds_for(view, rng, self.worlds)
        t_v, d_v = self.draw_values(view, hand, top, worlds, self._valuer(view))
        if wants:
            return draw if d_v > t_v + DRAW_MARGIN else take
        return take if t_v > d_v + DRAW_MARGIN else draw

    @staticmethod
    def draw_values(
        view: SeatView, hand: list[Card], top: Card, worlds: list[tuple[int, list[int]]],
        value: Callable[[int, int], float],
    ) -> tuple[float, float]:
        """(taking ``top``, drawing from the stock) valued over ``worlds``, each followed by
        the greedy discard (never the card taken, G-5.3) and played out."""
        rules = view.rules
        seat = view.seat or 0
        limit = view.knock_limit or 0
        mine = hand_mask(hand)
        taken = _greedy_discard(mine | top.bit, top.bit)
        t_total = d_total = 0.0
        for opp, stock in worlds:
            t_total += value(*_play_eleven(*taken, opp, stock, seat, limit, rules))
            if not stock:
                d_total += value(-1, 0)
                continue
            drawn = _greedy_discard(mine | stock[0], 0)
            d_total += value(*_play_eleven(*drawn, opp, stock[1:], seat, limit, rules))
        n = len(worlds)
        return t_total / n, d_total / n

    def discard_or_knock(
        self, view: SeatView, hand: list[Card], discards: list[Action], knocks: list[Action],
        rng: random.Random,
    ) -> Action:
        """The model's best discard, unless a close one or a knock plays out clearly better."""
        close = self.close_discards(view, hand, discards)
        rules = view.rules
        if knocks:
            counts = knock_options(hand, knocks)
            if counts[0][0] == 0 or not close:
                return counts[0][2]  # gin (G-9): nothing beats it
            if view.stock_size <= rules.stock_floor + LATE:
                return counts[0][2]
        if not knocks and len(close) < 2:
            return close[0]
        worlds = self.worlds_for(view, rng, self.worlds)
        value = self._valuer(view)
        options: list[tuple[float, int, Action]] = []
        for k, a in enumerate(close):
            assert a.card is not None
            v = self._play_on(view, hand, a.card, worlds, value)
            options.append((v - (0 if k == 0 else MARGIN), -k, a))
        if knocks:
            seat = view.seat or 0
            for count, i, a, melds in counts[:3]:
                runs, fourth = melds_masks(melds)
                total = 0.0
                for opp, _stock in worlds:
                    total += value(*knock_result(seat, count, defender_count(opp, runs, fourth), rules))
                options.append((total / len(worlds) + KNOCK_MARGIN, 100 - i, a))
        return max(options, key=lambda o: (o[0], o[1]))[2]

    def close_discards(self, view: SeatView, hand: list[Card], discards: list[Action]) -> list[Action]:
        """The discards played out: the model's best first, then up to ``CANDIDATES`` in
        all whose model score is within ``CLOSE`` of it (none when ``discards`` is empty)."""
        live = live_cards(self.memory, view)
        scored = sorted(
            (discard_score(self.memory, view, hand, a.card, live), i, a)  # type: ignore[arg-type]
            for i, a in enumerate(discards)
        )
        return [a for sc, _, a in scored[:CANDIDATES] if sc <= scored[0][0] + CLOSE]

    def _valuer(self, view: SeatView) -> Callable[[int, int], float]:
        seat = view.seat or 0
        target = view.rules.game_target
        mine, theirs = view.scores[seat], view.scores[1 - seat]

        def value(winner: int, points: int) -> float:
            if winner == seat:
                return game_win(target, mine + points, theirs)
            if winner == 1 - seat:
                return game_win(target, mine, theirs + points)
            return game_win(target, mine, theirs)

        return value

    @staticmethod
    def _play_on(
        view: SeatView, hand: list[Card], discard: Card,
        worlds: list[tuple[int, list[int]]], value: Callable[[int, int], float],
    ) -> float:
        """The mean value over ``worlds`` of discarding ``discard`` and playing the hand out."""
        rules = view.rules
        seat = view.seat or 0
        me_mask = hand_mask([c for c in hand if c != discard])
        top = discard.bit
        limit = view.knock_limit or 0
        total = 0.0
        for opp, stock in worlds:
            hands = [0, 0]
            hands[seat] = me_mask
            hands[1 - seat] = opp
            w, pts = playout(hands, stock, top, 1 - seat, limit,
                             rules.stock_floor, rules.gin_bonus, rules.undercut_bonus)
            total += value(w, pts)
        return total / len(worlds)

    def worlds_for(
        self, view: SeatView, rng: random.Random, count: int
    ) -> list[tuple[int, list[int]]]:
        """Sampled (opponent's hand, stock order) as masks, consistent with the view.

        ``PROPOSALS`` times ``count`` hands are drawn: the cards he is known to hold, the
        rest from the unseen cards weighted by :func:`weight` (without replacement). Each
        is weighted by how well it explains his last turns as a greedy player's
        (:func:`explains`) and by ``exp(-tilt * deadwood)``: a player who throws his
        highest loose card every turn holds a lower count than unseen cards drawn at
        random (see ``TILT``); ``count`` are drawn by those weights; the other unseen
        cards are the stock, shuffled."""
        mem = self.memory
        seat = view.seat or 0
        size = view.hand_sizes[1 - seat]
        known = sorted(c for c in mem.opp_has if c not in view.hand)[:size]
        unknown = mem.unknown(view)
        bits = [c.bit for c in unknown]
        inv = [1.0 / weight(mem, c) for c in unknown]
        need = max(0, min(size - len(known), len(unknown)))
        keep = sum(c.bit for c in known)
        idx = range(len(unknown))
        rand = rng.random
        limit = view.knock_limit or 0
        events = mem.opp_events[-HISTORY:]
        tilt = TILT * min(1.0, (len(events) - 1) / TILT_RAMP) if events else 0.0
        hands: list[int] = []
        likes: list[float] = []
        for _ in range(count * PROPOSALS if events else count):
            key = [rand() ** e for e in inv]  # weighted, without replacement
            opp = keep + sum(bits[j] for j in sorted(idx, key=key.__getitem__, reverse=True)[:need])
            hands.append(opp)
            likes.append(explains(opp, events, limit) * math.exp(-tilt * dw(opp)) if events else 1.0)
        if events:
            hands = rng.choices(hands, weights=likes, k=count)
        return [world(opp, bits, view.stock_size, rng) for opp in hands]


def world(opp: int, unseen: Sequence[int], stock_size: int, rng: random.Random) -> tuple[int, list[int]]:
    """A world around the opponent's hand mask ``opp``: (``opp``, the stock), the stock the
    ``unseen`` card bits outside ``opp`` in a random order, ``stock_size`` of them."""
    rest = [b for b in unseen if not opp & b]
    rng.shuffle(rest)
    return opp, rest[: max(stock_size, 0)]


PROPOSALS = 8  # hands drawn per world kept (WORLDS x PROPOSALS = 2,048), weighed by his turns
# Measured against OpenSpiel's simple bot, benchmarks/bots.py, whose deals have come from
# their own generator since stop 25 (before, a player that drew one more random number
# changed every later deal, so two settings were never compared on the same deals and the
# older figures, kept in git history, differ by noise as much as by the setting). The same
# 600 games (seeds 7e9) for each row, games won and points per hand:
#   64 worlds, 4 candidates within 6, margin 0.03 (stop 22):          64.7 %  +2.08
#   ... with the take-or-draw search (DRAW_SEARCH)                    65.2 %  +2.17
#   ... with medium's OUTS_WEIGHT 0.5                                 63.2 %  +1.87
#   ... margin 0.01                                                   69.3 %  +3.21
#   ... margin 0.005                                                  68.3 %  +3.27
#   128 worlds (8 proposals each), margin 0.005                       69.5 %  +3.59
#   128 worlds, 6 candidates within 10, margin 0.005                  70.0 %  +3.86
#   256 worlds (4 proposals each), 6 within 10, margin 0.005          70.0 %  +3.79
#   the row above with KNOCK_MARGIN 0                                 68.7 %  +3.64
#   ... with every discard a candidate                                67.3 %  +3.62
#   ... with the take-or-draw search (DRAW_SEARCH)                    68.5 %  +3.65
# On 1,000 fresh games (seeds 21e9) 128 worlds won 68.3 % [65.4, 71.1], +3.26 a hand, and
# the stop-22 setting 63.2 %, +1.98 on the same deals: the 70.0 % above is partly chosen on
# those 600 deals, the gain over stop 22 holds.
# 256 worlds (8 proposals each; this setting): on the same 4,788 decisions of 100 games
# (benchmarks/hard_decisions.py, seeds 7.1e9) the real chance gained a decision over the
# model's discard was +0.0056 against +0.0048 and +0.0044 for 128 worlds (two rng seeds:
# the noise is about 0.0004), +0.0053 with 4 proposals, +0.0058 with 512 worlds (p99 over
# 150 ms); told his hand, +0.0236. Within the noise and not kept: margin 0 (+0.0047) or
# 0.01 (+0.0053), knock margin 0 or 0.02 (+0.0047), 10 candidates within 30 (+0.0050),
# 3 candidates (+0.0040), older turns explained by matching his loose cards to his later
# stock draws (+0.0053; its sampled hands held 3.95 of his cards against 3.92, and the
# per-card log loss of the worlds did not move: -0.5406 against -0.5398). On 1,000 fresh
# games (seeds 23e9): 69.6 % [66.7, 72.4], +3.59 a hand; decision time p99 87 ms, max
# 102 ms (benchmarks/bots.py --only times).
# The take-or-draw search (DRAW_SEARCH, on since stop 27): over 2,068 take-or-draw choices
# of 50 games (seeds 7.1e9, valued with his real hand as benchmarks/hard_decisions.py does)
# playing both out gained +0.00071 +- 0.00019 a choice over the medium player's draw with
# DRAW_MARGIN 0.01 (+0.00064 at 0, +0.00067 at 0.005, +0.00059 at 0.02); told his hand,
# +0.0030. Searched only where taking lowers the deadwood (as before stop 27): +0.0001.
# Until stop 27 its take was also valued with the eleven's count (a take that goes gin
# scored as a knock of 10). On 1,000 fresh games (seeds 25e9): 74.3 % [71.5, 76.9], +4.55
# a hand (69.6 % and +3.59 without it on seeds 23e9); decision time median 41 ms, p99 88 ms.
# Why the margin had hidden the search (benchmarks/hard_margin.py, run with the stop-22
# setting: 4 candidates within 6): at 240 close decisions of games against the simple
# bot, each candidate was valued in 1,024 sampled worlds and again with his real hand
# (1,024 random stocks). The two differences between a candidate and the model's discard
# correlate 0.41, and where the worlds said +0.01 or more the real gain was +0.034 on
# average; the real chance gained per close decision was +0.0005 with margin 0.03 and
# +0.003 with 0.005 to 0.01 (64 worlds), +0.004 with 1,024. Only 4.6 % of the discards left
# the model's at margin 0.03. With 64 worlds a difference carries a noise of 0.008.
# Earlier measurements (stops 18-22, unpaired deals): 92.7 % (+9.09) when the search is
# told his real ten (benchmarks/hard_oracle.py), 88.3 % with it for the discard playouts
# only: the discards are where the points are. Tilting the sampled hands to his real count
# (TILT) and scoring playout knocks after layoffs made the worlds match his real hand's
# count (benchmarks/hard_worlds.py). Tried and not kept there: a particle filter over his
# whole hand's history, a fitted model of his cards as the sampling weight, a fitted
# chance that he takes a discard as the danger, our seat in the playouts throwing the
# highest card the world's opponent would not take.
HISTORY = 8  # of his last turns weighed
TILT = 0.05  # a sampled hand's weight falls by exp(-TILT * its deadwood) once he has ...
TILT_RAMP = 4  # ... played this many turns after the first (a share of TILT before that)
# Without the tilt the sampled hands held 5-7 more deadwood than his real ones in mid-hand
# (benchmarks/hard_worlds.py, 60 games: stock 20-24 real 27.6, sampled 34.7; stock 15-19
# 22.0 against 27.4), so the playouts had him knock later than he does. With it (40 games):
# 28.0 against 27.9 and 22.4 against 22.7, 40.4 against 40.6 early in the hand.
_RANK_ABOVE = [0x3FFE & ~((2 << r) - 1) for r in range(16)]  # rank bits above r


def explains(opp: int, events: Sequence[tuple[str, Card | None, Card | None]], limit: int) -> float:
    """How well the 10-card hand ``opp`` explains his recent turns (``events``, oldest
    first) as a greedy player's: his newest discard the highest deadwood card of his
    eleven and no knock when he could have (G-7.2); at older turns no loose card of
    ``opp`` that outranks what he threw then; no card passed that melds with ``opp``.
    ``MISS`` for each turn it does not explain."""
    like = 1.0
    last = len(events) - 1
    arranged: tuple[int, int] | None = None  # ``opp``'s best arrangement, worked out once
    for k, (kind, card, out) in enumerate(events):
        if kind == "pass" or kind == "draw":
            if card is not None:
                if arranged is None:
                    arranged = _arrangement(opp)
                if _would_take(opp, card.bit, limit, arranged):
                    like *= MISS  # he passed a card that melds with his hand
        if out is None:
            continue
        x = out.bit
        if k == last:
            if not _would_throw(opp | x, x, limit):
                like *= MISS
        else:
            if arranged is None:
                arranged = _arrangement(opp)
            fold = opp & ~arranged[1]
            fold = (fold | fold >> 16 | fold >> 32 | fold >> 48) & 0x3FFE
            if fold & _RANK_ABOVE[(x.bit_length() - 1) & 15]:
                like *= 0.5 + 0.5 * MISS
    return like


def _would_take(h: int, top: int, limit: int, arranged: tuple[int, int] | None = None) -> bool:
    """A greedy player with hand ``h`` takes ``top``: it melds or lets him knock.

    ``arranged`` is ``h``'s own (deadwood, melded), when known: if ``top`` has no two
    cards of ``h`` to meld with (G-2.1), the eleven are arranged as the ten plus ``top``
    loose, and the search over the eleven is skipped (two thirds of the worlds' cost)."""
    if arranged is not None and not _can_meld(h, top):
        count, melded = arranged
        card = _highest(h & ~melded)
        return bool(card) and count + _VALUE[top] - _VALUE[card] <= limit
    m = h | top
    count, melded = _arrangement(m)
    if top & melded:
        return True
    card = _highest(m & ~melded & ~top)
    return bool(card) and count - _VALUE[card] <= limit


def _can_meld(h: int, top: int) -> bool:
    """Two cards of mask ``h`` make a set or a run with card ``top`` (G-2.1, G-2.2)."""
    same = h & top * _SPREAD >> 16 * ((top.bit_length() - 1) >> 4)  # its rank, any suit
    if same & same - 1:
        return True
    down, up = h & top >> 1, h & top << 1
    return bool(down and (up or h & top >> 2) or up and h & top << 2)


def _would_throw(h11: int, x: int, limit: int) -> bool:
    """A greedy player with the eleven ``h11`` throws ``x`` and does not knock."""
    count, melded = _arrangement(h11)
    dead = h11 & ~melded
    if not x & dead:
        return False
    top = _highest(dead)
    if (top.bit_length() - 1) & 15 > (x.bit_length() - 1) & 15:
        return False
    return count - _VALUE[x] > limit


MISS = 0.15  # a hand's weight for each choice of his it does not explain


__all__ = ["HardPlayer", "defender_count", "mask_cards", "playout"]
