"""The last-hands recall (GLI-11) in words: each recorded hand as people read it.

Built from a :class:`rummy.store.HandRecord` (its players, steps and result events), for
the recall screen (``display.scenes.recall``) and ``rummy-table records recall``:

- :func:`summary_lines`: one block per hand. Gin: who dealt, both players' melds and
  deadwood, the layoffs, knock / gin / undercut and the score (G-12). Contract: the deal's
  contract, then per player the melds, the cards laid off, the cards left and the
  penalty points (C-7), and the scores.
- :func:`step_lines`: every step of the hand with names, numbered from 1 within the hand;
  the deal shows both gin hands, a knock shows the whole showdown.

Recall is after the fact, so it names the cards drawn from the stock too. Pure text:
no pygame, every word through gettext.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any

from display.table.gin_text import card_name, cards_line
from display.table.i18n import _, ngettext
from display.table.names import record_names
from rummy.contract.kinds import EventKind as CE
from rummy.gin.kinds import EventKind as GE
from rummy.gin.kinds import HandOutcome
from rummy.outcome import MatchOutcome, OutcomeReason


class Names:
    """The little of a match driver that the event texts need: names and seats
    (``players``: the names as shown, :func:`display.table.names.record_names` of a record)."""

    def __init__(self, players: Sequence[str]) -> None:
        self.seats = [{"name": p} for p in players]

    def name(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.seats):
            return str(self.seats[seat]["name"])
        return _("the table")


def _voided() -> str:
    return _("Voided as a misdeal: no score; the same dealer deals again.")


def points(n: int) -> str:
    return ngettext("{n} point", "{n} points", abs(n)).format(n=n)


def melds_line(melds: Any) -> str:
    """Melds as the table writes them, ``5♣ 6♣ 7♣ · 4♦ 4♥ 4♠``; "none" when there are none."""
    groups = []
    for m in melds or []:
        cards = m.get("cards", "") if isinstance(m, Mapping) else m
        if cards:
            groups.append(cards_line(cards))
    return " · ".join(groups) if groups else _("none")


def _cards_or_none(cards: Any) -> str:
    return cards_line(cards) if cards else _("none")


def scores_line(names: Names, scores: Sequence[int] | None) -> str:
    return ", ".join(f"{names.name(i)} {s}" for i, s in enumerate(scores or []))


def hand_label(rec: Any) -> str:
    """"Gin · hand 3" / "Contract · deal 2" (the game, the hand in its match); "… · not
    finished" for a hand an abandoned match stopped."""
    if rec.game == "contract":
        label = _("Contract · deal {n}").format(n=rec.hand_no)
    else:
        label = _("Gin · hand {n}").format(n=rec.hand_no)
    if not rec.results:  # every hand played out has a result: this one stopped (an abandoned match)
        label = _("{hand} · not finished").format(hand=label)
    return label


def hand_title(rec: Any) -> str:
    """"Gin · hand 3 · Ann – Bob" (the game, the hand in its match, the players)."""
    return f"{hand_label(rec)} · {' – '.join(record_names(rec))}"


def match_winners(rec: Any) -> tuple[int, ...]:
    """Who won the match, said on its last hand: the engine's outcome as the store recorded
    it (``HandRecord.outcome``, from :meth:`rummy.games.GameEngine.outcome`), never the
    events' data.
    () on any other hand, and for a match given up (abandoned: no winner)."""
    result: MatchOutcome | None = getattr(rec, "outcome", None)
    if result is None or result.reason is not OutcomeReason.WON:
        return ()
    return result.winners


def _events(rec: Any, kind: str) -> list[dict[str, Any]]:
    return [e for s in rec.steps for e in s.events if e.get("kind") == kind]


def _first(rec: Any, kind: str) -> dict[str, Any]:
    found = _events(rec, kind)
    return dict(found[0].get("data") or {}) if found else {}


# -- gin ------------------------------------------------------------------------------------
OUTCOMES: dict[str, Callable[[], str]] = {
    HandOutcome.KNOCK: lambda: _("{name} knocked"),
    HandOutcome.GIN: lambda: _("{name} went gin"),
    HandOutcome.BIG_GIN: lambda: _("{name} made Big Gin"),
    HandOutcome.UNDERCUT: lambda: _("{name} knocked and was undercut"),
}
NO_LAYOFFS = (HandOutcome.GIN, HandOutcome.BIG_GIN)  # G-9.2, G-10: nothing is laid off on gin


def _gin_layoffs(d: Mapping[str, Any]) -> str:
    """``7♥ on 4♥ 5♥ 6♥``: the defender's cards laid off on the knocker's melds (G-11)."""
    melds = d.get("knocker_melds") or []
    groups: dict[int, list[str]] = {}
    for card, i in d.get("layoffs") or []:
        groups.setdefault(int(i), []).append(str(card))
    parts = []
    for i, laid in groups.items():
        onto = cards_line(melds[i]) if 0 <= i < len(melds) else "?"
        parts.append(_("{cards} on {meld}").format(cards=cards_line(laid), meld=onto))
    return ", ".join(parts)


def gin_result_lines(names: Names, d: Mapping[str, Any]) -> list[str]:
    """A gin hand's showdown and score from its ``hand_scored`` data (G-10..G-12)."""
    if d.get("outcome") == HandOutcome.DEAD:
        return [_("Dead hand: nobody knocked before the stock ran out. No score.")]
    knocker = d.get("knocker")
    defender = 1 - knocker if isinstance(knocker, int) else None
    outcome = str(d.get("outcome"))
    lines = [OUTCOMES.get(outcome, OUTCOMES[HandOutcome.KNOCK])().format(name=names.name(knocker))]
    lines.append(_("{name}: melds {melds}; deadwood {cards} ({count})").format(
        name=names.name(knocker), melds=melds_line(d.get("knocker_melds")),
        cards=_cards_or_none(d.get("knocker_deadwood")), count=d.get("knocker_count", 0)))
    lines.append(_("{name}: melds {melds}; deadwood {cards} ({count})").format(
        name=names.name(defender), melds=melds_line(d.get("defender_melds")),
        cards=_cards_or_none(d.get("defender_deadwood")), count=d.get("defender_count", 0)))
    if outcome not in NO_LAYOFFS:
        laid = _gin_layoffs(d)
        lines.append(_("{name} laid off {layoffs}").format(name=names.name(defender), layoffs=laid)
                     if laid else _("{name} laid nothing off").format(name=names.name(defender)))
    score = _("{name} scores {points}").format(name=names.name(d.get("winner")),
                                               points=points(int(d.get("points") or 0)))
    if d.get("doubled"):
        score += " " + _("(doubled: a spade knock card)")
    lines.append(score + ". " + _("Game score: {scores}").format(
        scores=scores_line(names, d.get("scores"))))
    return lines


def _gin_game_lines(names: Names, rec: Any) -> list[str]:
    lines = []
    for e in _events(rec, GE.GAME_OVER):
        d = e.get("data") or {}
        lines.append(_("{name} won game {n}. Totals: {scores}").format(
            name=names.name(d.get("winner")), n=d.get("game", "?"),
            scores=scores_line(names, d.get("totals"))))
    for w in match_winners(rec):  # gin: one match winner (G-16, G-17)
        lines.append(_("{name} won the match").format(name=names.name(w)))
    return lines


def _gin_summary(names: Names, rec: Any) -> list[str]:
    dealt = _first(rec, GE.DEALT)
    lines = []
    if dealt:
        lines.append(_("{name} dealt. The upcard was {card}.").format(
            name=names.name(dealt.get("dealer")), card=card_name(dealt.get("upcard"))))
    scored = _first(rec, GE.HAND_SCORED)
    if scored:
        lines += gin_result_lines(names, scored)
    elif _events(rec, GE.HAND_DEAD):
        lines.append(_("Dead hand: nobody knocked before the stock ran out. No score."))
    elif _events(rec, GE.HAND_VOIDED):
        lines.append(_voided())
    else:
        lines.append(_("The hand was not finished"))
    return lines + _gin_game_lines(names, rec)


# -- contract -------------------------------------------------------------------------------
def _contract_summary(names: Names, rec: Any) -> list[str]:
    from display.table.contract_text import contract_words

    dealt = _first(rec, CE.DEALT)
    lines = []
    if dealt:
        c = dealt.get("contract") or {}
        contract = SimpleNamespace(sets=int(c.get("sets", 0)), sequences=int(c.get("sequences", 0)))
        each = int(dealt.get("cards_each") or 0)
        lines.append(ngettext("Deal {n}: {contract}. {name} dealt {cards} card each.",
                              "Deal {n}: {contract}. {name} dealt {cards} cards each.", each).format(
            n=dealt.get("deal", rec.hand_no), contract=contract_words(contract),
            name=names.name(dealt.get("dealer")), cards=each))
    melds: dict[int, list[Any]] = {}
    laid: dict[int, list[str]] = {}
    for e in _events(rec, CE.MELDED):
        melds.setdefault(int(e.get("seat", -1)), []).extend((e.get("data") or {}).get("melds") or [])
    for e in _events(rec, CE.LAID_OFF):
        laid.setdefault(int(e.get("seat", -1)), []).append(str((e.get("data") or {}).get("card")))
    scored = _first(rec, CE.HAND_SCORED)
    left = scored.get("left_in_hands") or []
    pts = scored.get("points") or []
    for seat in range(len(names.seats)):
        parts = [_("melds {melds}").format(melds=melds_line(melds.get(seat)))]
        if laid.get(seat):
            parts.append(_("laid off {cards}").format(cards=cards_line(laid[seat])))
        if scored:
            cards = left[seat] if seat < len(left) else ""
            parts.append(_("left in hand {cards}").format(cards=_cards_or_none(cards)))
            if seat < len(pts):
                parts.append(points(int(pts[seat])))
        lines.append(f"{names.name(seat)}: " + "; ".join(parts))
    if scored and isinstance(scored.get("finisher"), int):
        lines.append(_("{name} went out").format(name=names.name(scored["finisher"])))
    elif _events(rec, CE.STOCK_EXHAUSTED):
        lines.append(_("The stock ran out: the deal ends with no finisher"))
    if scored:
        lines.append(_("Scores: {scores}").format(scores=scores_line(names, scored.get("scores"))))
    elif _events(rec, CE.HAND_VOIDED):
        lines.append(_voided())
    else:
        lines.append(_("The deal was not finished"))
    if winners := match_winners(rec):  # C-7.4: the highest total; ties share
        lines.append(ngettext("{names} won the match", "{names} share the win", len(winners)).format(
            names=", ".join(names.name(w) for w in winners)))
    return lines


# -- the public API ---------------------------------------------------------------------------
def summary_lines(rec: Any) -> list[str]:
    """The hand in one block (the ``--brief`` recall and the screen's summary)."""
    names = Names(record_names(rec))
    return _contract_summary(names, rec) if rec.game == "contract" else _gin_summary(names, rec)


def _event_text(game: str, names: Names, ev: Mapping[str, Any]) -> list[str]:
    """Lines for one recorded event ([] when not worth a line)."""
    kind, seat, d = ev.get("kind", ""), ev.get("seat", -1), ev.get("data") or {}
    who = names.name(seat)
    if kind == GE.HAND_VOIDED:  # a misdeal (CE.HAND_VOIDED is the same word) (real cards): the same dealer deals again
        return [_voided()]
    if game != "contract":
        if kind == GE.DEALT:
            lines = [_("{name} dealt. The upcard is {card}.").format(
                name=names.name(d.get("dealer")), card=card_name(d.get("upcard")))]
            for i, hand in enumerate(d.get("hands") or []):
                lines.append(_("{name}'s cards: {cards}").format(name=names.name(i), cards=cards_line(hand)))
            return lines
        if kind == GE.DREW and d.get("pile") == "stock" and d.get("card"):
            return [_("{name} drew {card} from the stock").format(name=who, card=card_name(d["card"]))]
        if kind == GE.KNOCKED:
            return [_("{name} knocked, discarding {card}").format(name=who, card=card_name(d.get("card")))]
        if kind in (GE.GIN, GE.BIG_GIN):
            return []  # the hand_scored lines say it with the melds
        if kind == GE.HAND_SCORED:  # after "X knocked, discarding …" the knock is said
            lines = gin_result_lines(names, d)
            return lines[1:] if d.get("outcome") == HandOutcome.KNOCK else lines
        if kind == GE.HAND_DEAD:
            return [_("Dead hand: nobody knocked before the stock ran out. No score.")]
        if kind in (GE.GAME_OVER, GE.MATCH_OVER):
            return []  # in the summary
    else:
        if kind == CE.DREW_STOCK and d.get("card"):
            return [_("{name} drew {card} from the stock").format(name=who, card=card_name(d["card"]))]
        if kind == CE.MELDED:
            return [_("{name} laid the contract: {melds}").format(name=who, melds=melds_line(d.get("melds")))]
        if kind == CE.HAND_SCORED:
            return [_("Scores: {scores}").format(scores=scores_line(names, d.get("scores")))]
        if kind == CE.MATCH_OVER:
            return []
    from display.table.contract_text import event_text as contract_event
    from display.table.gin_text import event_text as gin_event

    text_of = contract_event if game == "contract" else gin_event
    try:
        text = text_of(names, SimpleNamespace(kind=kind, seat=seat, data=d))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        text = ""
    return [text] if text else []


def step_text_lines(game: str, players: Sequence[str], step: Any) -> list[str]:
    """One step in words (translated): its events, or who did what when they say nothing."""
    names = Names(players)
    lines = [line for ev in step.events for line in _event_text(game, names, ev)]
    if not lines:
        kind = str(step.action.get("kind", "?")).replace("_", " ")
        lines.append(f"{names.name(step.seat)}: {kind}")
    return lines


def step_lines(rec: Any) -> list[tuple[int, list[str]]]:
    """Every step of the hand, numbered from 1 within the hand, with its lines."""
    names = record_names(rec)
    return [(n, step_text_lines(rec.game, names, s)) for n, s in enumerate(rec.steps, start=1)]


def hand_lines(rec: Any, *, brief: bool = False) -> list[str]:
    """The hand for a terminal: a title, the summary block, then (unless ``brief``) the steps."""
    when = str(rec.finished).replace("T", " ")[:16]
    head = f"== {hand_title(rec)} ({_('match #{n}').format(n=rec.match_id)}, {when})"
    lines = [head] + [f"   {line}" for line in summary_lines(rec)]
    if brief:
        return lines
    lines.append("   " + ngettext("{n} step:", "{n} steps:", len(rec.steps)).format(n=len(rec.steps)))
    for n, texts in step_lines(rec):
        lines.append(f"   {n:>4}. {texts[0]}")
        lines.extend(f"         {t}" for t in texts[1:])
    return lines
