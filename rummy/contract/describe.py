"""One English line per contract rummy event, for the replay printout."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummy.actions import Event
from rummy.contract.kinds import EventKind as E
from rummy.contract.rules import Contract
from rummy.describe_common import Line, describe_with
from rummy.describe_common import card_list as _list
from rummy.describe_common import seat_name as _seat


def _contract(c: Any) -> str:
    """``{"sets": 2, "sequences": 1}`` as "2 sets and 1 sequence" (older text passes through)."""
    if isinstance(c, Mapping):
        return Contract(int(c.get("sets", 0)), int(c.get("sequences", 0))).describe()
    return str(c)


def _dealt(d: Mapping[str, Any], who: str) -> str:
    return (
        f"deal {d['deal']}: {_seat(d['dealer'])} deals {d['cards_each']} cards each; "
        f"contract {_contract(d['contract'])}; upcard {d['upcard']}; {_seat(d['first'])} starts"
    )


def _turn_started(d: Mapping[str, Any], who: str) -> str:
    text = f"{who} to play (top of pack: {d.get('top') or 'none'})"
    # C-8.6: the seats that lose their turn; when play wraps round to the player in turn,
    # he plays at once and is not named.
    skipped = [_seat(s) for s in d.get("skipped") or () if _seat(s) != who]
    if skipped:
        text += f"; skipped by the buy: {', '.join(skipped)}"
    if d.get("stock_only"):
        text += "; resumes and must draw from the stock"
    return text


def _answered(d: Mapping[str, Any], who: str) -> str:
    word = "\"Можно\" (yes)" if d["flag"] else "\"Нельзя\" (no) and must buy it"
    return f"{who} answers {word}"


def _bought(d: Mapping[str, Any], who: str) -> str:
    how = {"in_turn": "in turn", "granted": "with permission", "refused": "after refusing"}
    pen = d.get("penalty_cards") or []
    text = f"{who} buys {_list(d['cards'])} {how.get(d['how'], d['how'])}"
    text += f" + {len(pen)} stock card(s) {_list(pen)}".rstrip() if pen else " with no stock card"
    if d.get("waived"):
        text += f" ({d['waived']} waived: stock empty)"
    return text + ", discards nothing"


def _melded(d: Mapping[str, Any], who: str) -> str:
    groups = "; ".join(f"#{m['id']} {m['cards']}" for m in d["melds"])
    return f"{who} lays down {groups}" + (" (contract complete)" if d.get("contract_down") else "")


def _laid_off(d: Mapping[str, Any], who: str) -> str:
    return f"{who} lays off {d['card']} on meld #{d['meld']} ({_seat(d['owner'])}'s)"


def _by_seat(values: list[Any], fmt: str = "{}") -> str:
    return ", ".join(f"{_seat(i)} {fmt.format(v)}" for i, v in enumerate(values))


def _hand_scored(d: Mapping[str, Any], who: str) -> str:
    """C-7: every seat's points with the cards that cost them, then the running totals."""
    fin = f"{_seat(d['finisher'])} went out" if d.get("finisher") is not None else "no finisher"
    left = d.get("left_in_hands") or [""] * len(d["points"])
    pts = ", ".join(
        f"{_seat(i)} {p:+d}" + (f" ({cards})" if cards else "")
        for i, (p, cards) in enumerate(zip(d["points"], left, strict=False))
    )
    return f"deal {d['deal']} scored ({fin}): {pts}; totals {_by_seat(d['scores'])}"


def _match_over(d: Mapping[str, Any], who: str) -> str:
    won = ", ".join(_seat(s) for s in d["winners"])
    return f"match over: totals {_by_seat(d['scores'])}; winner(s) {won}"


LINES: dict[str, Line] = {
    E.DEALT: _dealt,
    E.HAND_VOIDED: lambda d, who: (
        f"deal {d.get('deal')} voided (a misdeal): no score; {_seat(d.get('dealer'))} deals it again"
    ),
    E.TURN_STARTED: _turn_started,
    E.DREW_STOCK: "{who} draws {card} from the stock",
    E.TOOK_DISCARD: "{who} takes {card} from the pack",
    E.STOCK_REFILLED: lambda d, who: (
        f"the pack is turned into a new stock ({d.get('cards')} cards, refill {d.get('refill')})"
        + (f": {_list(d['shoe'])}" if d.get("shoe") else "")
    ),
    E.STOCK_EXHAUSTED: "the stock is exhausted: the deal ends without a finisher",
    E.ASKED_TO_BUY: "{who} asks \"Можно?\" (may I?) for {card}",
    E.QUESTION: lambda d, who: f"{who} is asked whether {_seat(d['asker'])} may buy {d['card']}",
    E.ANSWERED: _answered,
    E.BUY_GRANTED: "{who} may buy {card}",
    E.PASSED_ON_BUY: "{who} does not ask for {card}",
    E.BOUGHT: _bought,
    E.MELDED: _melded,
    E.LAID_OFF: _laid_off,
    E.DISCARDED: "{who} discards {card}",
    E.WENT_OUT: "{who} goes out",
    E.HAND_SCORED: _hand_scored,
    E.MATCH_OVER: _match_over,
}


def describe_event(event: Event) -> str:
    """English for a replay: every buy and every "Можно?" answer is visible."""
    return describe_with(LINES, event)
