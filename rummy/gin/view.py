"""What one seat (or the public table) may see of a gin match (G-4.5, G-5.5, G-8.2).

Hidden: the opponent's hand and the stock's order. Shown: the knock card and knock limit
(public, G-4.5), the top of the discard pile (the whole pile under
``discard_pile_visible = all``), an illegal knocker's exposed hand (G-8.2), knock
declarations, and every hand once the hand is over.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rummy.actions import Event
from rummy.cards import Card
from rummy.gin.kinds import EventKind as E
from rummy.gin.rules import DiscardPileVisible, GinRules
from rummy.gin.state import (
    HandPhase,
    HandResult,
    HandState,
    Knock,
    MatchPhase,
    MatchState,
    Meld,
)


@dataclass(frozen=True)
class SeatView:
    seat: int | None  # None: a spectator / the public table display
    rules: GinRules
    match_phase: MatchPhase
    hand_phase: HandPhase | None
    turn: int | None
    dealer: int
    hand: tuple[Card, ...]  # own cards (empty for a spectator)
    opponent_hand: tuple[Card, ...] | None  # only when exposed (G-8.2) or the hand is over
    visible_hands: tuple[tuple[Card, ...] | None, tuple[Card, ...] | None]  # per seat
    hand_sizes: tuple[int, int]
    stock_size: int
    discard_top: Card | None
    discard_pile: tuple[Card, ...]  # (top,) or the whole pile per discard_pile_visible
    discard_size: int
    upcard: Card | None  # the knock card (G-4.5: public)
    knock_limit: int | None
    last_taken: Card | None  # taken from the pile this turn (everyone saw it)
    exposed: tuple[bool, bool]
    must_knock: tuple[bool, bool]
    knock: Knock | None
    table_melds: tuple[Meld, ...]
    result: HandResult | None
    scores: tuple[int, int]
    boxes: tuple[int, int]
    hands_won: tuple[int, int]
    game_number: int
    hand_number: int
    games_won: tuple[int, int]
    read: bool = False  # read mode: the hand's cards are read out of the shoe (issue 10)


def seat_view(state: MatchState, seat: int | None) -> SeatView:
    h = state.hand
    rules = state.rules
    own: tuple[Card, ...] = ()
    opp: tuple[Card, ...] | None = None
    visible: list[tuple[Card, ...] | None] = [None, None]
    if h is not None:
        over = h.phase is HandPhase.OVER
        for s in (0, 1):
            if s == seat or over or h.exposed[s]:
                visible[s] = h.hands[s]
        if seat in (0, 1):
            own = h.hands[seat]
            opp = visible[1 - seat]
        pile = h.discard_pile
        knock = h.knock
        if knock is not None and _face_down_knock(h) and seat != knock.seat:  # G-7.3: face down
            pile = pile[:-1]
            knock = dataclasses.replace(knock, discard=None)
        top = pile[-1] if pile else None
        if rules.discard_pile_visible != DiscardPileVisible.ALL:  # G-5.5
            pile = pile[-1:]
    return SeatView(
        seat=seat,
        rules=rules,
        match_phase=state.phase,
        hand_phase=h.phase if h else None,
        turn=h.turn if h and h.phase is not HandPhase.OVER else None,
        dealer=state.dealer if h is None else h.dealer,
        hand=own,
        opponent_hand=opp,
        visible_hands=(visible[0], visible[1]),
        hand_sizes=(len(h.hands[0]), len(h.hands[1])) if h else (0, 0),
        stock_size=len(h.stock) if h else 0,
        discard_top=top if h else None,
        discard_pile=pile if h else (),
        discard_size=len(h.discard_pile) if h else 0,
        upcard=h.upcard if h else None,
        knock_limit=h.knock_limit if h else None,
        last_taken=h.last_taken if h else None,
        exposed=h.exposed if h else (False, False),
        must_knock=h.must_knock if h else (False, False),
        knock=knock if h else None,
        table_melds=h.table_melds if h else (),
        result=h.result if h else None,
        scores=state.scores,
        boxes=state.boxes,
        hands_won=state.hands_won,
        game_number=state.game_number,
        hand_number=state.hand_number,
        games_won=state.games_won,
        read=h.read if h else False,
    )


def _face_down_knock(h: HandState) -> bool:
    """A knock is pending (layoffs, or the opponent's review of an illegal knock): its
    discard lies face down on the pile (G-7.3)."""
    return (
        h.knock is not None
        and h.knock.discard is not None
        and h.phase in (HandPhase.LAYOFF, HandPhase.KNOCK_REVIEW)
    )


def event_view(
    event: Event, seat: int | None, *, exposed: tuple[bool, bool] = (False, False)
) -> Event:
    """``event`` as ``seat`` may see it (``None``: the public table): the cards of the other
    hand in ``dealt``, another seat's face-down knock discard (G-7.3), and the card of
    another seat's stock draw become ``None``, the draw unless that seat's hand is exposed
    after an illegal knock (G-8.2)."""
    data = dict(event.data)
    if event.kind in (E.KNOCKED, E.GIN) and event.seat != seat and "card" in data:
        data["card"] = None  # G-7.3: the knock discard goes face down
    elif event.kind == E.DEALT and "hands" in data:
        data["hands"] = [
            h if s == seat else None for s, h in enumerate(data["hands"])
        ]
    elif (
        event.kind == E.DREW
        and data.get("pile") == "stock"
        and event.seat != seat
        and not (event.seat in (0, 1) and exposed[event.seat])
    ):
        data["card"] = None
    else:
        return event
    return Event(event.kind, event.seat, data)
