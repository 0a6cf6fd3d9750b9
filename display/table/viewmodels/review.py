"""View-models of the reviews (pygame-free): a finished gin hand (G-11, G-12, G-14) and a
finished contract deal (C-7), with their score sheets.

Who won the match is the engine's word (``engine.outcome(state)``, a
:class:`rummy.outcome.MatchOutcome`), never worked out here from the state or the events;
a hand's result is its ``HandResult`` (``outcome`` a :class:`rummy.gin.kinds.HandOutcome`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from display.table.contract_text import contract_words, points_text
from display.table.gin_text import OUTCOME_TITLES, verdict
from display.table.i18n import _
from rummy.cards import Card
from rummy.gin.kinds import HandOutcome
from rummy.gin.state import MatchPhase
from rummy.outcome import MatchOutcome, OutcomeReason

Melds = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class CardRow:
    """A labelled row of melds then deadwood (underlined); ``laid`` cards are outlined."""

    label: str
    melds: Melds
    dead: tuple[Card, ...] = ()
    laid: tuple[Card, ...] = ()


@dataclass(frozen=True)
class SheetRow:
    """A score sheet's row: cells (one cell: a line across the sheet), ink, bold."""

    cells: tuple[str, ...]
    ink: str = "ink"  # "ink" | "gold" | "dim" | "warn"
    bold: bool = False


@dataclass(frozen=True)
class GinReviewVM:
    title: str
    rows: tuple[CardRow, ...]  # the knocker's and the defender's, or the winner's alone
    verdict: str
    sheet_head: SheetRow
    hands: tuple[SheetRow, ...]  # hand by hand (the painter shows the last that fit)
    sheet_foot: tuple[SheetRow, ...]
    tally: bool  # a game just ended: the tally instead of hand by hand
    far_text: str  # the verdict on the far seat's strip (a flat table)
    far_strip: bool
    next_label: str
    four_colour: bool


def _short(c: Card) -> str:
    return f"{c.rank_label}{'♠♥♦♣'['SHDC'.index(c.suit)]}"


def match_outcome(match: Any) -> MatchOutcome:
    """The match's result as its engine says (winners, totals; ties share, C-7.4)."""
    result: MatchOutcome = match.engine.outcome(match.state)
    return result


def match_winners(match: Any) -> tuple[int, ...]:
    """The seats that won the match (one, or several sharing a win); () before it is won."""
    result = match_outcome(match)
    return result.winners if result.reason is OutcomeReason.WON else ()


def game_ended(st: Any) -> Any:
    """The game tally when the hand just ended a game (G-14.4)."""
    if st.game_results and (st.phase is MatchPhase.OVER or st.hand_number == 0):
        return st.game_results[-1]
    return None


def gin_review(match: Any, *, far_strip: bool, four_colour: bool) -> GinReviewVM:
    st = match.state
    h = st.hand
    r = h.result if h is not None else None
    over = match.is_over
    won = match_winners(match)
    winner = won[0] if len(won) == 1 else None  # gin: one match winner (G-16, G-17)
    tally = game_ended(st)
    hand_title = OUTCOME_TITLES[r.outcome]() if r is not None else ""
    if over:
        title = _("{hand} · Match over").format(hand=hand_title) if hand_title else _("Match over")
    elif tally is not None:
        title = _("{hand} · Game over").format(hand=hand_title) if hand_title else _("Game over")
    else:
        title = hand_title or _("Score sheet")
    rows: list[CardRow] = []
    if r is not None and r.outcome is not HandOutcome.DEAD and r.knocker is not None:
        kn, df = r.knocker, 1 - r.knocker
        if r.outcome is HandOutcome.GIN:
            k_label = _("{name} went gin: no deadwood").format(name=match.name(kn))
        elif r.outcome is HandOutcome.BIG_GIN:
            k_label = _("{name}: Big Gin, all eleven cards melded").format(name=match.name(kn))
        else:
            k_label = _("{name} (knocked): {n} deadwood").format(name=match.name(kn), n=r.knocker_count)
        # G-11: the defender's layoffs shown on the knocker's melds they extend (outlined)
        shown = tuple(tuple(sorted([*meld, *(c for c, j in r.layoffs if j == i)], key=lambda c: (c.rank, c.suit)))
                      for i, meld in enumerate(r.knocker_melds))
        laid = tuple(c for c, _i in r.layoffs)
        rows.append(CardRow(k_label, shown, tuple(r.knocker_deadwood), laid))
        label = _("{name}: {n} deadwood").format(name=match.name(df), n=r.defender_count)
        if r.outcome in (HandOutcome.GIN, HandOutcome.BIG_GIN):
            label += "  · " + _("no laying off on gin")  # G-9.2
        elif laid:
            label += "  · " + _("laid off {cards}").format(cards=" ".join(_short(c) for c in laid))
        rows.append(CardRow(label, tuple(tuple(m) for m in r.defender_melds), tuple(r.defender_deadwood)))
    elif r is not None and r.knocker is None and r.winner is not None:  # Big Gin has no knocker
        rows.append(CardRow(match.name(r.winner), tuple(tuple(m) for m in r.knocker_melds)))
    text = ""
    if r is not None:
        text = verdict(match, r)
        if r.doubled:
            text += " " + _("Spade knock card: the score is doubled.")
    far = verdict(match, r) if r is not None else ""
    if over and winner is not None:
        far = _("{name} wins the match!").format(name=match.name(winner))
    names = [match.name(0), match.name(1)]
    head = SheetRow((_("Game {n}").format(n=st.game_number if tally is None else len(st.game_results)),
                     names[0], names[1]), "gold", True)
    hands: list[SheetRow] = []
    foot: list[SheetRow] = []
    if tally is not None:
        foot += [SheetRow((_("Hand points"), *map(str, tally.hand_points))),
                 SheetRow((_("Boxes"), *map(str, tally.boxes))),
                 SheetRow((_("Box bonus"), *map(str, tally.box_points))),
                 SheetRow((_("Game bonus"), *map(str, tally.game_bonus)))]
        if tally.shutout:
            foot.append(SheetRow((_("Shutout!"),), "warn", True))
        foot.append(SheetRow((_("Total"), *map(str, tally.totals)), "gold", True))
        foot.append(SheetRow((_("{name} wins the game").format(name=names[tally.winner]),), "gold", True))
        if over and winner is not None:
            if len(st.game_results) > 1:
                foot.append(SheetRow((_("Games won"), *map(str, st.games_won)), "ink", True))
            foot.append(SheetRow((_("{name} wins the match!").format(name=names[winner]),), "gold", True))
    else:
        for i, hr in enumerate(st.hand_results):
            cells = [f"{i + 1}. {OUTCOME_TITLES[hr.outcome]()}", "", ""]
            if hr.winner is not None:
                cells[1 + hr.winner] = f"+{hr.points}"
            hands.append(SheetRow(tuple(cells)))
        foot += [SheetRow((_("Points"), *map(str, st.scores)), "gold", True),
                 SheetRow((_("Boxes"), *map(str, st.boxes))),
                 SheetRow((_("Target"), str(st.rules.game_target), ""), "dim")]
    return GinReviewVM(title, tuple(rows), text, head, tuple(hands), tuple(foot), tally is not None, far,
                       far_strip, _("New game") if over else _("Next hand"), four_colour)


@dataclass(frozen=True)
class SeatCards:
    """A seat's line in the deal's result: its points, and the cards left in its hand."""

    text: str
    finisher: bool
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class ContractReviewVM:
    title: str
    seats: tuple[SeatCards, ...]  # () before the first deal's result
    head: str  # the sheet's first column's title
    names: tuple[str, ...]
    sheet: tuple[SheetRow, ...]  # a row per deal (cells: the contract, then the seats' points)
    total: SheetRow
    deals: int
    next_label: str
    four_colour: bool
    far_strip: bool = False  # a flat table: a strip turned to the far side repeats the result
    far_text: str = ""  # the totals on that strip


def contract_review(match: Any, *, four_colour: bool, far_strip: bool = False) -> ContractReviewVM:
    st = match.state
    r = st.results[-1] if st.results else None
    n = len(match.seats)
    if r is None:
        title = _("Score sheet")
    elif match.is_over and (won := match_winners(match)):
        names = [match.name(s) for s in won]  # C-7.4: highest total; ties share
        title = (_("{name} wins the match!").format(name=names[0]) if len(names) == 1
                 else _("Shared win: {names}").format(names=", ".join(names)))
    elif r.finisher is None:
        title = _("Deal {n}: the stock ran out").format(n=r.deal_number)
    else:
        title = _("Deal {n}: {name} went out").format(n=r.deal_number, name=match.name(r.finisher))
    seats: list[SeatCards] = []
    if r is not None:
        for seat in range(n):
            text = f"{match.name(seat)}: {points_text(r.points[seat])}"
            if r.finisher == seat:
                text += " · " + _("went out")
            seats.append(SeatCards(text, r.finisher == seat, tuple(st.hands[seat]) if st.hands else ()))
    sheet = []
    for i, contract in enumerate(st.rules.contracts):
        res = st.results[i] if i < len(st.results) else None
        label = f"{i + 1}. {contract_words(contract)}"
        if res is None:
            sheet.append(SheetRow((label, *[""] * n), "dim"))
        else:
            sheet.append(SheetRow((label, *[f"{p:+d}" for p in res.points])))
    far = _("Total") + ": " + " · ".join(f"{match.name(s)} {st.scores[s]}" for s in range(n))
    return ContractReviewVM(title, tuple(seats), _("Deal"), tuple(match.name(s) for s in range(n)), tuple(sheet),
                            SheetRow((_("Total"), *map(str, st.scores)), "gold", True), st.rules.deals,
                            _("New game") if match.is_over else _("Next deal"), four_colour, far_strip, far)
