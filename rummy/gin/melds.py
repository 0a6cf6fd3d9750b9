"""Gin rummy melds: validity, minimum deadwood, best arrangement, best discard.

G-1.2 values (A=1, 2-10 pips, J/Q/K=10), G-1.3 ace low only (no wrap), G-2 melds:
sets of 3-4 cards of one rank, runs of 3+ consecutive cards of one suit, a card in at
most one meld. Cards may be :class:`~rummy.cards.Card` or text like ``"TD"``.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable
from operator import attrgetter

from rummy.cards import ALL_CARDS, SUITS, Card, CardError, CardLike, parse_cards

Meld = tuple[Card, ...]


def _cards(cards: Iterable[CardLike]) -> list[Card]:
    """Parse cards (or one text like ``"AS 2S 3S"``) and refuse duplicates, clearly."""
    out = parse_cards(cards)
    if len(set(out)) != len(out):
        seen: set[Card] = set()
        for c in out:
            if c in seen:
                raise ValueError(f"card {c} appears more than once in the hand")
            seen.add(c)
    return out


def is_set(group: Iterable[CardLike]) -> bool:
    """3 or 4 cards of one rank (G-2.1)."""
    cs = _safe(group)
    return (
        cs is not None
        and 3 <= len(cs) <= 4
        and len({c.rank for c in cs}) == 1
        and len(set(cs)) == len(cs)
    )


def is_run(group: Iterable[CardLike]) -> bool:
    """3+ consecutive cards of one suit, ace low only, no wrap (G-1.3, G-2.1)."""
    cs = _safe(group)
    if cs is None or len(cs) < 3 or len({c.suit for c in cs}) != 1:
        return False
    ranks = sorted(c.rank for c in cs)
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:], strict=False))


def is_meld(group: Iterable[CardLike]) -> bool:
    """A set or a run (G-2.1)."""
    return is_set(group) or is_run(group)


def _safe(group: Iterable[CardLike]) -> list[Card] | None:
    try:
        return parse_cards(group)
    except CardError:
        return None


def count(cards: Iterable[CardLike], melds: Iterable[Iterable[CardLike]]) -> int:
    """Deadwood count (G-2.3) of ``cards`` outside the given melds (melds not checked)."""
    melded = {c for m in melds for c in parse_cards(m)}
    return sum(c.value for c in _cards(cards) if c not in melded)


def check_arrangement(cards: Iterable[CardLike], melds: Iterable[Iterable[CardLike]]) -> str | None:
    """None if ``melds`` are valid melds, disjoint and drawn from ``cards``; else why not."""
    try:
        hand = _cards(cards)
    except (CardError, ValueError) as exc:
        return f"the hand is not valid: {exc}"
    held = set(hand)
    used: set[Card] = set()
    if melds is None:
        return "no melds were given"
    for group in melds:
        try:
            meld = parse_cards(group)
        except CardError as exc:
            return str(exc)
        text = " ".join(str(c) for c in meld) or "(empty)"
        if not is_meld(meld):  # G-2.1
            return f"{text} is not a meld: a set is 3-4 cards of one rank, a run 3+ in suit"
        for c in meld:
            if c not in held:
                return f"{c} in meld {text} is not in the hand"
            if c in used:  # G-2.2
                return f"{c} is used in more than one meld"
            used.add(c)
    return None


# --- the solver -------------------------------------------------------------------------
#
# A hand is a bit mask: suit k (S, H, D, C) uses bits 16k+1 .. 16k+13, rank r at 16k + r.
# Runs only: within one suit every maximal block of 3+ consecutive ranks is melded whole
# (a block can always be one run, G-2.1), the rest is deadwood, so a table over the 8192
# suit masks gives the runs-only deadwood of a suit (_DW) and its melded cards (_RUN).
# Sets (G-2.1) are enumerated: only ranks held 3-4 times, and for each such rank only the
# choices that can matter (whole set, the set less one card that could be in a run, or
# no set when 2+ of its cards could be in runs). The suits are then independent.

_M = 0x3FFE  # rank bits 1..13 of one suit; G-1.3: A is bit 1 only, so no run wraps K-A
_SPREAD = 0x0001000100010001  # a rank bit copied into the four suits
_INF = 1000  # "no card to discard" in _D1


def _block_tables() -> tuple[list[int], list[int], list[int]]:
    """Per suit mask: runs-only deadwood, cards in runs, best change by one discard."""
    size = 1 << 14
    value = [0] * size  # G-1.2: A=1 .. 10, J/Q/K=10
    for m in range(2, size, 2):
        low = m & -m
        value[m] = value[m ^ low] + min(low.bit_length() - 1, 10)
    run = [0] * size
    dw = [0] * size
    for m in range(0, size, 2):
        three = m & m >> 1 & m >> 2  # G-2.1: lowest card of three consecutive ranks
        melded = three | three << 1 | three << 2
        run[m] = melded
        dw[m] = value[m ^ melded]
    d1 = [_INF] * size
    for m in range(2, size, 2):
        best, rest = _INF, m
        while rest:
            bit = rest & -rest
            rest ^= bit
            if dw[m ^ bit] < best:
                best = dw[m ^ bit]
        d1[m] = best - dw[m]
    return dw, run, d1


_DW, _RUN, _D1 = _block_tables()
_CARD_AT = {16 * SUITS.index(c.suit) + c.rank: c for c in ALL_CARDS}
_get_bit = attrgetter("bit")  # Card.bit: the card's bit in this layout
_split: Callable[[bytes], tuple[int, int, int, int]] = struct.Struct("<4H").unpack  # a mask's four suit fields S H D C, in one call


def _mask(cards: Iterable[CardLike]) -> int:
    """Slow path: parse, refuse duplicates (clear message), return the hand mask."""
    m = 0
    for c in _cards(cards):
        m |= c.bit
    return m


def _hand_mask(cards: Iterable[CardLike]) -> tuple[int, int]:
    """(mask, number of cards); fast for lists and tuples of ``Card``."""
    if isinstance(cards, str):
        cards = parse_cards(cards)
    elif not isinstance(cards, list | tuple):
        cards = list(cards)
    n = len(cards)
    try:
        m = sum(map(_get_bit, cards))
    except AttributeError:  # text among the cards
        return _mask(cards), n
    if m.bit_count() != n:  # a duplicate carries into another bit
        return _mask(cards), n
    return m, n


def _choices(m: int, t: int) -> list[int]:
    """The cards left for runs under every useful combination of set choices (G-2.1).

    ``t`` holds the ranks held 3+ times. Per such rank: the whole set; no set (only if a
    3-card rank has a card that could be in a run, or a 4-card rank has two); the set
    less one card that could be in a run (4-card ranks). The rest are never better.
    """
    run = _RUN
    runnable = run[m & _M] | run[m >> 16 & _M] << 16 | run[m >> 32 & _M] << 32
    runnable |= run[m >> 48] << 48
    rest = [m]
    while t:
        rb = t & -t
        t ^= rb
        full = m & rb * _SPREAD
        y = full & runnable
        if not y:  # no card of this rank can be in a run: the whole set
            rest = [x ^ full for x in rest]
        elif full.bit_count() == 3:
            rest += [x ^ full for x in rest]
        else:
            out = [x ^ full for x in rest]
            if y & (y - 1):
                out += rest
            while y:
                low = y & -y
                y ^= low
                keep = full ^ low
                out += [x ^ keep for x in rest]
            rest = out
    return rest


def _dw_mask(m: int) -> int:
    """Minimum deadwood of the cards in mask ``m`` (no discard)."""
    a, b, c, d = _split(m.to_bytes(8, "little"))
    dw = _DW
    v = dw[a] + dw[b] + dw[c] + dw[d]  # runs only
    t = (a & b & (c | d)) | (c & d & (a | b))  # ranks held 3+ times
    if not t:
        return v
    if not t & (t - 1) and not a & b & c & d:  # one rank held 3 times: a set or not
        t = ~t
        w = dw[a & t] + dw[b & t] + dw[c & t] + dw[d & t]
        return w if w < v else v
    return _dw_sets(m, a, b, c, d, t)


def _dw_sets(m: int, a: int, b: int, c: int, d: int, t: int) -> int:
    """:func:`_dw_mask` when ranks ``t`` (suit fields ``a`` .. ``d``) are held 3+ times."""
    dw = _DW
    if not t & (t - 1):  # one candidate rank: the suits' changes just add up
        nr = ~t
        fa, fb, fc, fd = dw[a & nr], dw[b & nr], dw[c & nr], dw[d & nr]
        ea, eb, ec, ed = dw[a] - fa, dw[b] - fb, dw[c] - fc, dw[d] - fd
        full = fa + fb + fc + fd
        if a & b & c & d:
            return full + min(0, ea, eb, ec, ed, ea + eb + ec + ed)
        return full + min(0, ea + eb + ec + ed)
    if not a & b & c & d and t.bit_count() == 2:  # two 3-card ranks: four choices
        r1 = t & -t
        n1, n2, n12 = ~r1, ~(t ^ r1), ~t
        return min(
            dw[a] + dw[b] + dw[c] + dw[d],
            dw[a & n1] + dw[b & n1] + dw[c & n1] + dw[d & n1],
            dw[a & n2] + dw[b & n2] + dw[c & n2] + dw[d & n2],
            dw[a & n12] + dw[b & n12] + dw[c & n12] + dw[d & n12],
        )
    return min(
        [
            dw[x & 0x3FFE] + dw[x >> 16 & 0x3FFE] + dw[x >> 32 & 0x3FFE] + dw[x >> 48]
            for x in _choices(m, t)
        ]
    )


def _dw11_mask(m: int) -> int:
    """Minimum over one discard of the deadwood of the rest (G-7.2)."""
    a, b, c, d = _split(m.to_bytes(8, "little"))
    t = (a & b & (c | d)) | (c & d & (a | b))
    dw, d1 = _DW, _D1
    v = dw[a] + dw[b] + dw[c] + dw[d] + min(d1[a], d1[b], d1[c], d1[d])  # runs only
    if not t:
        return v
    if not t & (t - 1) and not a & b & c & d:  # one rank held 3 times: a set or not
        t = ~t
        a, b, c, d = a & t, b & t, c & t, d & t
        w = dw[a] + dw[b] + dw[c] + dw[d] + min(d1[a], d1[b], d1[c], d1[d])
        return w if w < v else v
    best = _INF
    if not a & b & c & d and t.bit_count() <= 2:  # 3-card ranks only: set or not, each
        r1 = t & -t
        for n in (-1, ~r1, ~(t ^ r1), ~t) if t ^ r1 else (-1, ~t):
            w, x, y, z = a & n, b & n, c & n, d & n
            v = dw[w] + dw[x] + dw[y] + dw[z] + min(d1[w], d1[x], d1[y], d1[z])
            if v < best:
                best = v
        return best
    for x in _choices(m, t):
        a, b, c, d = x & _M, x >> 16 & _M, x >> 32 & _M, x >> 48
        v = dw[a] + dw[b] + dw[c] + dw[d] + min(d1[a], d1[b], d1[c], d1[d])
        if v < best:
            best = v
    # Every option left no card outside sets: 4+4+3 of three ranks, discard from a 4-set.
    return 0 if best >= _INF else best


def _deadwood_function() -> Callable[[Iterable[CardLike] | int], int]:
    """:func:`deadwood`, its tables bound as closure cells (faster than globals)."""
    get_bit, split, dw, d1 = _get_bit, _split, _DW, _D1
    dw_sets, dw11, hand_mask_ = _dw_sets, _dw11_mask, _hand_mask

    def deadwood(cards: Iterable[CardLike] | int) -> int:
        """Minimum deadwood: of 10 cards; of the best 10 of 11 (G-7.2); else of all cards.

        ``cards`` may also be the solver's hand mask (:func:`hand_mask`), the form the
        computer players' playouts keep hands in.
        """
        try:  # fast path: a list/tuple/set of Card objects, no duplicates
            n = len(cards)  # type: ignore[arg-type]  # not Sized: the slow path below
            m = sum(map(get_bit, cards))  # type: ignore[arg-type]  # Card.bit, the layout
        except (TypeError, AttributeError):
            if isinstance(cards, int):
                m, n = cards, cards.bit_count()
            else:
                m, n = hand_mask_(cards)
        else:
            if m.bit_count() != n:  # a duplicate carries into another bit
                m, n = hand_mask_(cards)  # type: ignore[arg-type]  # a list, not a mask
        a, b, c, d = split(m.to_bytes(8, "little"))
        v = dw[a] + dw[b] + dw[c] + dw[d]  # runs only
        t = (a & b & (c | d)) | (c & d & (a | b))  # some rank held 3+ times
        if n == 11:  # G-7.2: the best ten of eleven
            return v + min(d1[a], d1[b], d1[c], d1[d]) if not t else dw11(m)
        if not t:
            return v
        if not t & (t - 1) and not a & b & c & d:  # one rank held 3 times: a set or not
            t = ~t
            w = dw[a & t] + dw[b & t] + dw[c & t] + dw[d & t]
            return w if w < v else v
        return dw_sets(m, a, b, c, d, t)

    return deadwood


deadwood = _deadwood_function()


def _arrange(m: int) -> tuple[int, list[Meld], list[Card]]:
    """(deadwood, melds, deadwood cards) of a best arrangement of mask ``m``.

    Tie-break (G-2.4): least deadwood, then fewest cards in sets (prefer runs), then the
    first set choice in enumeration order. Runs are maximal blocks, sets sorted.
    """
    a, b, c, d = m & _M, m >> 16 & _M, m >> 32 & _M, m >> 48
    t = (a & b & (c | d)) | (c & d & (a | b))
    best: tuple[int, int] | None = None
    chosen = 0
    for x in _choices(m, t) if t else [m]:
        v = _DW[x & _M] + _DW[x >> 16 & _M] + _DW[x >> 32 & _M] + _DW[x >> 48]
        key = (v, (m ^ x).bit_count())
        if best is None or key < best:
            best, chosen = key, m ^ x
    assert best is not None
    x = m ^ chosen
    runs = _RUN[x & _M] | _RUN[x >> 16 & _M] << 16 | _RUN[x >> 32 & _M] << 32
    runs |= _RUN[x >> 48] << 48
    melds: list[Meld] = []
    run: list[Card] = []
    prev = -2
    for p in _positions(runs):  # ascending: split into maximal blocks
        if p != prev + 1 and run:
            melds.append(tuple(run))
            run = []
        run.append(_CARD_AT[p])
        prev = p
    if run:
        melds.append(tuple(run))
    while chosen:
        rank = (chosen & -chosen).bit_length() - 1 & 15
        group = chosen & (1 << rank) * _SPREAD
        chosen ^= group
        melds.append(tuple(sorted(_CARD_AT[p] for p in _positions(group))))
    return best[0], melds, sorted(_CARD_AT[p] for p in _positions(x ^ runs))


def _positions(m: int) -> list[int]:
    """Bit positions of ``m``, ascending."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


# Discard preference on ties: highest value, then highest rank, then suit order S H D C.
_DISCARD_KEY = {p: (-c.value, -c.rank, c.index) for p, c in _CARD_AT.items()}


def best_discard(cards11: Iterable[CardLike]) -> tuple[Card, list[Meld], list[Card]]:
    """(discard, melds, deadwood cards) keeping the 10 cards of least deadwood (G-7.2).

    Ties: discard the highest-value card, then the highest rank, then suit order S H D C.
    """
    m, n = _hand_mask(cards11)
    if not n:
        raise ValueError("best_discard needs at least one card")
    return _best_discard(m)


def _best_discard(m: int) -> tuple[Card, list[Meld], list[Card]]:
    best = min((_dw_mask(m ^ 1 << p), _DISCARD_KEY[p], p) for p in _positions(m))
    discard = best[2]
    _, melds, dead = _arrange(m ^ 1 << discard)
    return _CARD_AT[discard], melds, dead


def best_melds(cards: Iterable[CardLike]) -> tuple[list[Meld], list[Card]]:
    """(melds, deadwood cards) of a best arrangement; 11 cards: after the best discard."""
    m, n = _hand_mask(cards)
    if n == 11:
        _, melds, dead = _best_discard(m)
        return melds, dead
    _, melds, dead = _arrange(m)
    return melds, dead


def arrange(cards: Iterable[CardLike]) -> tuple[int, list[Meld], list[Card]]:
    """(deadwood, melds, deadwood cards) of a best arrangement of ALL cards (no discard)."""
    return _arrange(_hand_mask(cards)[0])


def all_melded(cards: Iterable[CardLike]) -> list[Meld] | None:
    """A partition of all the cards into melds (gin G-9.1, big gin G-10.1), or None."""
    dw, melds, _ = arrange(cards)
    return melds if dw == 0 else None


# --- masks for the computer players' playouts --------------------------------------------


def card_bit(card: Card) -> int:
    """The solver's bit of one card (``Card.bit``, the mask layout above)."""
    return card.bit


def hand_mask(cards: Iterable[CardLike]) -> int:
    """The solver's mask of a hand (duplicates refused)."""
    return _hand_mask(cards)[0]


def mask_cards(m: int) -> list[Card]:
    """The cards of mask ``m``, in mask order."""
    return [_CARD_AT[p] for p in _positions(m)]


def mask_deadwood(m: int) -> int:
    """Minimum deadwood of every card of mask ``m`` (no discard)."""
    return _dw_mask(m)


def mask_deadwood_discard(m: int) -> int:
    """Minimum over one discard of the deadwood of the rest of mask ``m`` (G-7.2)."""
    return _dw11_mask(m)


def swap_deadwood(m: int, dw: int, card_in: int, card_out: int) -> tuple[int, int]:
    """(mask, deadwood) after ``card_in`` comes into and ``card_out`` leaves mask ``m``
    whose deadwood is ``dw`` (bits from :func:`card_bit`): only the suits that changed
    are looked up again while no rank is held three times; else a full solve."""
    new = (m | card_in) ^ card_out
    a, b, c, d = new & _M, new >> 16 & _M, new >> 32 & _M, new >> 48
    if (a & b & (c | d)) | (c & d & (a | b)):
        return new, _dw_mask(new)
    a, b, c, d = m & _M, m >> 16 & _M, m >> 32 & _M, m >> 48
    if (a & b & (c | d)) | (c & d & (a | b)):
        return new, _dw_mask(new)
    table = _DW
    s_in = (card_in.bit_length() - 1) & ~15
    s_out = (card_out.bit_length() - 1) & ~15
    dw += table[new >> s_in & _M] - table[m >> s_in & _M]
    if s_out != s_in:
        dw += table[new >> s_out & _M] - table[m >> s_out & _M]
    return new, dw
