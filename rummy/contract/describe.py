"""One English line per contract rummy event, for the replay printout."""

from __future__ import annotations

from rummy.actions import Event


def _seat(seat: object) -> str:
    return "the table" if seat in (None, -1) else f"seat {seat}"


def _list(items: object) -> str:
    return " ".join(str(x) for x in items) if isinstance(items, list | tuple) else str(items)


def describe_event(event: Event) -> str:
    """English for a replay: every buy and every "Можно?" answer is visible."""
    d = event.data
    who = _seat(event.seat)
    k = event.kind
    if k == "dealt":
        return (
            f"deal {d['deal']}: {_seat(d['dealer'])} deals {d['cards_each']} cards each; "
            f"contract {d['contract']}; upcard {d['upcard']}; {_seat(d['first'])} starts"
        )
    if k == "turn_started":
        text = f"{who} to play (top of pack: {d.get('top') or 'none'})"
        if d.get("skipped"):
            text += f"; skipped by the buy: {', '.join(_seat(s) for s in d['skipped'])}"
        if d.get("stock_only"):
            text += "; resumes and must draw from the stock"
        return text
    if k == "drew_stock":
        return f"{who} draws {d['card']} from the stock"
    if k == "took_discard":
        return f"{who} takes {d['card']} from the pack"
    if k == "stock_refilled":
        return f"the pack is turned into a new stock ({d['cards']} cards, refill {d['refill']})"
    if k == "stock_exhausted":
        return "the stock is exhausted: the deal ends without a finisher"
    if k == "asked_to_buy":
        return f"{who} asks \"Можно?\" (may I?) for {d['card']}"
    if k == "question":
        return f"{who} is asked whether {_seat(d['asker'])} may buy {d['card']}"
    if k == "answered":
        word = "\"Можно\" (yes)" if d["flag"] else "\"Нельзя\" (no) and must buy it"
        return f"{who} answers {word}"
    if k == "buy_granted":
        return f"{who} may buy {d['card']}"
    if k == "passed_on_buy":
        return f"{who} does not ask for {d['card']}"
    if k == "bought":
        how = {"in_turn": "in turn", "granted": "with permission", "refused": "after refusing"}
        pen = d.get("penalty_cards") or []
        text = f"{who} buys {_list(d['cards'])} {how.get(d['how'], d['how'])}"
        text += f" + {len(pen)} stock card(s) {_list(pen)}".rstrip() if pen else " with no stock card"
        if d.get("waived"):
            text += f" ({d['waived']} waived: stock empty)"
        return text + ", discards nothing"
    if k == "melded":
        groups = "; ".join(f"#{m['id']} {m['cards']}" for m in d["melds"])
        return f"{who} lays down {groups}" + (" (contract complete)" if d.get("contract_down") else "")
    if k == "laid_off":
        return f"{who} lays off {d['card']} on meld #{d['meld']} ({_seat(d['owner'])}'s)"
    if k == "discarded":
        return f"{who} discards {d['card']}"
    if k == "went_out":
        return f"{who} goes out"
    if k == "hand_scored":
        fin = f"{_seat(d['finisher'])} finished" if d.get("finisher") is not None else "no finisher"
        pts = ", ".join(f"{p:+d}" for p in d["points"])
        tot = ", ".join(str(s) for s in d["scores"])
        return f"deal {d['deal']} scored ({fin}): {pts}; totals {tot}"
    if k == "match_over":
        won = ", ".join(_seat(s) for s in d["winners"])
        return f"match over: totals {', '.join(map(str, d['scores']))}; winner(s) {won}"
    return f"{who} {k} {dict(d)}"
