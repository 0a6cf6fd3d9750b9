"""Playing one game twice in lockstep: with the deck order known (virtual) and with every
card supplied as it is read (read mode), to check they are the same game (issue 10).

The virtual game decides: its players choose from its legal actions (after checking that the
read game offers the same actions and shows each seat the same view), the table deals a
shuffled pack. Each virtual step becomes read-mode actions: the deal's first cards as
``deal_read``, a stock draw with the card the virtual game drew, a contract buy followed by
its stock cards (the virtual ``bought`` event's) in random chunks via ``stock_cards`` (or
partly in the buy itself). Before reads, ``probe`` tries bad reads: each must raise the
right code and leave the state as it was.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummy.actions import TABLE, Action, ActionError, Event
from rummy.cards import ALL_CARDS, Card
from rummy.contract import reads as contract_reads
from rummy.contract.kinds import Phase
from rummy.contract.kinds import Refusal as CR
from rummy.gin import reads as gin_reads
from rummy.gin.kinds import Refusal as GR
from rummy.play import deal_action
from rummy.reads import ReadPurpose
from rummy.records import Header, JournalWriter
from rummy.session import state_digest

Chooser = Callable[[int, Any, Sequence[Action], random.Random], Action]


@dataclass
class Tally:
    """What a lockstep game reached (for the report and the coverage tests)."""

    reached: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)


@dataclass
class Lockstep:
    virt: Any
    read: Any
    virt_events: list[Event]
    read_events: list[Event]
    read_steps: list[tuple[Action, list[Event]]]
    tally: Tally


def _strip_read(view: Any) -> Any:
    return dataclasses.replace(view, read=False)


def _is_contract(engine: Any) -> bool:
    return engine.name == "contract"


def _places_gin(state: Any, card: Card) -> str:
    """Where a gin card is, worked out here (not with the engine's own helper)."""
    h = state.hand
    for seat in (0, 1):
        if card in h.hands[seat]:
            return f"hand:{seat}"
    if card in h.discard_pile:
        return "discard"
    if card in h.set_aside:
        return "set_aside"
    raise AssertionError(f"{card} is nowhere")


def _places_contract(state: Any, card: Card) -> str:
    out: list[str] = []
    for seat, hand in enumerate(state.hands):
        out += [f"hand:{seat}"] * list(hand).count(card)
    out += ["discard"] * [p.card for p in state.discard_pile].count(card)
    for m in state.table_melds:
        out += [f"meld:{m.id}"] * list(m.cards).count(card)
    return "+".join(out)


def _refused(engine: Any, state: Any, action: Action, code: Any, tally: Tally,
             **params: Any) -> None:
    """``action`` is refused with ``code`` (and ``params``) and changes nothing."""
    # the whole state in canonical form (any change would show), for the first few of a
    # code in a game; equality after that (the states are frozen values)
    deep = tally.refused[str(code)] < 3
    before = state_digest(state) if deep else state
    try:
        engine.apply(state, action)
    except ActionError as exc:
        assert exc.code == code, (action, exc.code, code, exc)
        for k, v in params.items():
            assert exc.params.get(k) == v, (action, k, exc.params, v)
        assert (state_digest(state) if deep else state) == before
        tally.refused[str(code)] += 1
        return
    raise AssertionError(f"{action} was accepted; expected {code}")


def _placed_cards(engine: Any, state: Any) -> list[Card]:
    """Cards that cannot come out of the stock now (every copy is elsewhere)."""
    if _is_contract(engine):
        return [c for c in ALL_CARDS if c not in state.stock]
    return [c for c in ALL_CARDS if c not in state.hand.stock]


def _probe_read(engine: Any, state: Any, seat: int, make: Callable[[tuple[Card, ...]], Action],
                due: int, rng: random.Random, tally: Tally) -> None:
    """Bad reads for a card or cards due from the stock: each refused, nothing changed."""
    contract = _is_contract(engine)
    R = CR if contract else GR
    placed = _placed_cards(engine, state)
    if contract and not state.stock and not (state.refills_used < state.rules.stock_refills
                                             and len(state.discard_pile) > 1):
        return
    if contract and not state.stock:
        # the refill comes first: only the cards under the pack's top can come out then
        under = Counter(p.card for p in state.discard_pile[:-1])
        placed = [c for c in ALL_CARDS if under[c] == 0]
        bad = rng.choice(placed)
        refilled = dataclasses.replace(state, discard_pile=state.discard_pile[-1:])
        _refused(engine, state, make((bad,)), CR.CARD_NOT_IN_STOCK, tally, card=bad,
                 place=_places_contract(refilled, bad))
        return
    if placed:
        bad = rng.choice(placed)
        if contract:
            code = CR.CARD_NOT_IN_STOCK if state.refills_used else CR.CARD_ALREADY_PLACED
            _refused(engine, state, make((bad,)), code, tally, card=bad,
                     place=_places_contract(state, bad))
        else:
            _refused(engine, state, make((bad,)), GR.CARD_ALREADY_PLACED, tally, card=bad,
                     place=_places_gin(state, bad))
    if contract and due:
        stock = list(state.stock)
        if len(stock) > due:  # one card too many (all possible ones)
            many = tuple(rng.sample(stock, due + 1))
            _refused(engine, state, make(many), R.READ_TOO_MANY, tally, got=due + 1)


def lockstep(
    engine: Any,
    rules: Any,
    seats: int,
    seed: int,
    choose: Chooser,
    *,
    first_dealer: int = 0,
    probe_rate: float = 0.2,
    journal: Path | None = None,
    max_actions: int = 4_000,
    max_deals: int | None = None,
) -> Lockstep:
    """Play the game both ways; assert at each step that they agree. The game stops at its
    end, or when ``max_deals`` hands have been played, or after ``max_actions`` steps."""
    rng = random.Random(seed)
    chunk_rng = random.Random(seed * 7919 + 1)
    probe_rng = random.Random(seed * 104_729 + 3)
    contract = _is_contract(engine)
    virt = engine.new_match(rules, seats, first_dealer=first_dealer)
    read = engine.new_match(rules, seats, first_dealer=first_dealer)
    virt_events: list[Event] = []
    read_events: list[Event] = []
    read_steps: list[tuple[Action, list[Event]]] = []
    tally = Tally()
    writer = None
    if journal is not None:
        header = Header(game=engine.name, rules=engine.rules_to_dict(rules),
                        seats=[{"name": f"P{s}", "kind": "computer"} for s in range(seats)],
                        seed=seed, first_dealer=first_dealer)
        writer = JournalWriter.create(journal, header, fsync=False)

    def apply_read(action: Action) -> list[Event]:
        nonlocal read
        read, events = engine.apply(read, action)
        read_steps.append((action, events))
        if writer is not None:
            writer.append(action)
        return events

    def probing() -> bool:
        return probe_rng.random() < probe_rate

    deals = 0
    for _ in range(max_actions):
        if engine.is_over(virt):
            break
        assert not engine.is_over(read)
        deal = deal_action(engine, virt, rng)
        got: list[Event] = []
        if deal is not None and max_deals is not None and deals >= max_deals:
            break
        if deal is not None:
            deals += 1
            before_deal = read
            virt, want = engine.apply(virt, deal)
            need = engine.expected(read)
            assert need is not None and need.purpose is ReadPurpose.DEAL and need.seat == TABLE
            cards = deal.cards[: need.count]
            if probing():
                _probe_deal(engine, read, cards, need.order, probe_rng, tally)
            got = apply_read(Action("deal_read", TABLE, cards=cards))
            tally.reached["deal"] += 1
            if probing():  # a misdeal: back to exactly the state before the deal
                voided, ev = engine.apply(read, Action("void_hand", TABLE))
                assert voided == before_deal and [e.kind for e in ev] == ["hand_voided"]
                tally.reached["void_hand"] += 1
        else:
            seat, legal = _decider(engine, virt)
            assert list(engine.to_act(read)) == list(engine.to_act(virt))
            assert engine.legal_actions(read, seat) == legal
            view = engine.view(virt, seat)
            assert _strip_read(engine.view(read, seat)) == view
            assert engine.view(read, seat).read and not view.read
            assert engine.expected(virt) is None
            action = choose(seat, view, legal, rng)
            if action.kind == "draw_stock" and probing():  # a virtual hand reads no card
                R = CR if contract else GR
                _refused(engine, virt, dataclasses.replace(action, card=ALL_CARDS[0]),
                         R.NOT_READ_HAND, tally)
            virt, want = engine.apply(virt, action)
            got = _read_step(engine, read, action, want, apply_read, probing, chunk_rng,
                             probe_rng, tally, lambda: read)
        assert got == want, (got, want)
        virt_events += want
        read_events += got
        if contract and engine.is_over(virt) is False:
            assert read.card_count() == 52 * rules.decks
    assert engine.is_over(read) == engine.is_over(virt)
    assert engine.outcome(read) == engine.outcome(virt)
    tally.reached["actions"] += len(read_steps)
    if writer is not None:
        if engine.is_over(read):
            writer.end("finished")
        writer.close()
    return Lockstep(virt, read, virt_events, read_events, read_steps, tally)


def _decider(engine: Any, state: Any) -> tuple[int, list[Action]]:
    for seat in engine.to_act(state):
        legal = engine.legal_actions(state, seat)
        if legal:
            return seat, legal
    raise AssertionError("no seat can act")


def _probe_deal(engine: Any, state: Any, cards: tuple[Card, ...], order: tuple[int, ...],
                rng: random.Random, tally: Tally) -> None:
    contract = _is_contract(engine)
    R = CR if contract else GR
    n = len(cards)
    short = cards[: rng.randrange(n)]
    _refused(engine, state, Action("deal_read", TABLE, cards=short), R.DEAL_READ_SIZE, tally,
             got=len(short), want=n)
    seen = Counter(cards)
    spare = next(c for c in ALL_CARDS if seen[c] == 0) if not contract else next(
        c for c in ALL_CARDS if seen[c] < 2)
    _refused(engine, state, Action("deal_read", TABLE, cards=(*cards, spare)), R.DEAL_READ_SIZE,
             tally, got=n + 1, want=n)
    # a card once more than the packs hold: refused where it comes, naming its copies' places
    copies = 2 if contract else 1
    i = rng.randrange(n - 3)
    card = cards[i]
    bad = list(cards)
    j = i
    while True:
        j += 1
        bad[j] = card
        if bad[: j + 1].count(card) > copies:
            break
    where = ["discard" if order[k] == TABLE else f"hand:{order[k]}"
             for k in range(j) if bad[k] == card]
    prefix = bad[: j + 1]
    check = (lambda cs: contract_reads.deal_problem(state, cs)) if contract else (
        lambda cs: gin_reads.deal_problem(state.rules, state.dealer, cs))
    assert check(bad[:j]) is None  # the table may check the deal card by card
    problem = check(prefix)
    assert problem is not None and problem.code == R.CARD_ALREADY_PLACED
    _refused(engine, state, Action("deal_read", TABLE, cards=tuple(bad)), R.CARD_ALREADY_PLACED,
             tally, card=card, place="+".join(where))


def _read_step(engine: Any, read: Any, action: Action, want: list[Event],
               apply_read: Callable[[Action], list[Event]], probing: Callable[[], bool],
               chunk_rng: random.Random, probe_rng: random.Random, tally: Tally,
               current: Callable[[], Any]) -> list[Event]:
    """The read-mode actions for one virtual step; their events, concatenated."""
    contract = _is_contract(engine)
    got: list[Event] = []
    if action.kind == "draw_stock":
        drew = [e for e in want if e.kind in ("drew", "drew_stock")]
        need = engine.expected(read)
        if drew:
            card = Card.parse(drew[0].data["card"])
            assert need is not None and need.seat == action.seat and need.count == 1
            refill = [e for e in want if e.kind == "stock_refilled"]
            if refill:
                assert need.purpose is ReadPurpose.REFILL and need.then is ReadPurpose.DRAW
                assert [str(c) for c in need.refill] == refill[0].data["shoe"]
                tally.reached["refill_draw"] += 1
            else:
                assert need.purpose is ReadPurpose.DRAW
            if probing():
                R = CR if contract else GR
                _refused(engine, read, action, R.CARD_READ_NEEDED, tally)
                _probe_read(engine, read, action.seat,
                            lambda cs: dataclasses.replace(action, card=cs[0]), 0, probe_rng,
                            tally)
            tally.reached["draw"] += 1
            return apply_read(dataclasses.replace(action, card=card))
        assert contract and need is None  # C-10.2: no stock, no refill: the deal ends
        tally.reached["stock_gone"] += 1
        return apply_read(action)
    bought = [e for e in want if e.kind == "bought"]
    if not contract or not bought:
        return apply_read(action)
    penalties = tuple(Card.parse(c) for c in bought[0].data["penalty_cards"])
    tally.reached["buy:" + bought[0].data["how"]] += 1
    tally.reached["penalty_cards"] += len(penalties)
    if any(e.kind == "stock_refilled" for e in want):
        tally.reached["refill_in_buy"] += 1
    if bought[0].data["waived"]:
        tally.reached["penalty_waived"] += 1
    first: tuple[Card, ...] = ()
    if action.kind in ("take_cards", "buy") and action.target and penalties and chunk_rng.random() < 0.3:
        first = penalties[: chunk_rng.randint(1, len(penalties))]
        tally.reached["cards_in_buy_action"] += 1
    got += apply_read(dataclasses.replace(action, cards=first) if first else action)
    rest = penalties[len(first):]
    while current().phase == Phase.PENALTY:
        state = current()
        need = engine.expected(state)
        assert need is not None and need.seat == state.buy.buyer
        assert need.purpose in (ReadPurpose.BUY, ReadPurpose.REFILL)
        if need.purpose is ReadPurpose.REFILL:
            assert need.then is ReadPurpose.BUY
            refill = [e for e in want if e.kind == "stock_refilled"]
            assert refill and [str(c) for c in need.refill] == refill[0].data["shoe"]
        if probing():
            wrong = (state.buy.buyer + 1) % state.seats
            _refused(engine, state, Action("stock_cards", wrong, cards=rest[:1]), CR.NOT_BUYING,
                     tally)
            buyer = need.seat
            _probe_read(engine, state, buyer,
                        lambda cs, buyer=buyer: Action("stock_cards", buyer, cards=cs),
                        contract_reads_due(state), probe_rng, tally)
        take = rest[: chunk_rng.randint(1, need.count)]
        rest = rest[len(take):]
        got += apply_read(Action("stock_cards", need.seat, cards=take))
        tally.reached["stock_cards"] += 1
    assert not rest
    return got


def contract_reads_due(state: Any) -> int:
    from rummy.contract.buying import cards_due

    return cards_due(state)


def described_and_counted(engine: Any, run: Any) -> None:
    """Every event of the read-mode game has a describe line; hypothesis counts what the game
    reached and which reads it refused (``event``), for the statistics."""
    from hypothesis import event

    for line in map(engine.describe, run.read_events):
        assert line
    for key in run.tally.reached:
        if key != "actions":
            event(f"reached {key}")
    for key in run.tally.refused:
        event(f"refused {key}")


def chooser(engine: Any, levels: Sequence[str], slip: float) -> Callable[..., Action]:
    """Each seat's computer player of ``engine``, with random legal moves mixed in at rate
    ``slip``."""
    players = [engine.player(level) for level in levels]

    def choose(seat: int, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        if rng.random() < slip:
            return rng.choice(list(legal))
        return players[seat].choose(engine, view, legal, rng)

    return choose
