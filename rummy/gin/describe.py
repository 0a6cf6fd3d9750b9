"""One line of English per gin event, for the replay printout (not player-facing UI).

Lines inside a hand are indented; a hand's result line names the outcome, both counts,
the defender's melds, deadwood and layoffs (which card went on which of the knocker's
melds), the points with how they were made, the boxes and the running game score.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummy.actions import Event
from rummy.describe_common import Line, describe_with, pair, seat_name
from rummy.gin.kinds import EventKind as E
from rummy.gin.kinds import Refusal

_OUTCOMES = {"knock": "knock", "undercut": "UNDERCUT", "gin": "GIN", "big_gin": "BIG GIN"}
_DEAD = {
    "stock_exhausted": "the stock is down to its last cards",  # G-13
    "declined": "the last discard was not taken",  # G-13.3
}


def _melds(melds: Any) -> str:
    return " | ".join(melds) if melds else "no melds"


def _boxes(n: Any) -> str:
    return f"{n} box" if n == 1 else f"{n} boxes"


def _dealt(d: Mapping[str, Any], who: str) -> str:
    hands = d.get("hands") or ["?", "?"]
    limit = d.get("knock_limit")
    limit_text = "gin only" if limit == 0 else f"knock limit {limit}"  # G-6.3
    return (
        f"== game {d.get('game')} hand {d.get('hand')}: {seat_name(d.get('dealer'))} deals;"
        f" upcard {d.get('upcard')} ({limit_text}); seat 0: {hands[0]}; seat 1: {hands[1]}"
    )


def _drew(d: Mapping[str, Any], who: str) -> str:
    extra = " (the last discard, to knock with it)" if d.get("last_chance") else ""
    return f"  {who} draws {d.get('card')} from the {d.get('pile')}{extra}"


def _knocked(d: Mapping[str, Any], who: str) -> str:
    return (
        f"  {who} KNOCKS with {d.get('count')}, discarding {d.get('card')} face down:"
        f" melds {_melds(d.get('melds'))}; deadwood {d.get('deadwood') or '-'}"
    )


def _illegal(d: Mapping[str, Any], who: str) -> str:
    then = (
        "the opponent may accept or refuse it"
        if d.get("review")
        else f"{d.get('card')} stands face up as the discard; the hand stays exposed and"
        " must knock as soon as it can"
    )
    reason = str(d.get("reason"))
    if reason in Refusal.__members__.values():
        reason = Refusal(reason).english(d.get("reason_params") or {})
    return (
        f"  {who} makes an ILLEGAL KNOCK with {d.get('card')} ({reason}):"
        f" melds {_melds(d.get('melds'))}; deadwood {d.get('deadwood') or '-'}; {then}"
    )


def _laid_off(d: Mapping[str, Any], who: str) -> str:
    onto = d.get("meld") or f"the knocker's meld {d.get('target')}"
    return f"  {who} lays off {d.get('card')} on {onto}"


def _layoffs(d: Mapping[str, Any]) -> str:
    """``7H 8H on 4H 5H 6H, 7C on 4C 5C 6C``: laid-off cards grouped by knocker meld."""
    melds = d.get("knocker_melds") or []
    groups: dict[int, list[str]] = {}
    for card, i in d.get("layoffs") or []:
        groups.setdefault(i, []).append(str(card))
    if not groups:
        return "nothing laid off"
    parts = []
    for i, laid in groups.items():
        onto = melds[i] if isinstance(i, int) and 0 <= i < len(melds) else f"meld {i}"
        parts.append(f"{' '.join(laid)} on {onto}")
    return "laid off " + ", ".join(parts)


def _how(d: Mapping[str, Any]) -> str:
    """How the points were made (G-12): difference, bonus, spades double."""
    kc, dc, points = d.get("knocker_count"), d.get("defender_count"), d.get("points")
    outcome, doubled = d.get("outcome"), d.get("doubled")
    if not (isinstance(kc, int) and isinstance(dc, int) and isinstance(points, int)):
        return ""
    base = points // 2 if doubled else points
    if outcome == "knock":
        how = f"{dc} - {kc}"
    elif outcome == "undercut":
        how = f"{kc} - {dc} + undercut bonus {base - (kc - dc)}"
    else:
        name = "big gin" if outcome == "big_gin" else "gin"
        how = f"deadwood {dc} + {name} bonus {base - dc}"
    return f" ({how}, doubled: spade knock card)" if doubled else f" ({how})"


def _scored(d: Mapping[str, Any], who: str) -> str:
    if d.get("outcome") == "dead":
        return f"  result: dead hand, no score; game score {pair(d.get('scores'))}"
    knocker = d.get("knocker")
    defender = 1 - knocker if isinstance(knocker, int) else "?"
    outcome = d.get("outcome")
    lay = "" if outcome in ("gin", "big_gin") else f"; {_layoffs(d)}"
    return (
        f"  result: {_OUTCOMES.get(str(outcome), outcome)} by seat {knocker}"
        f" ({d.get('knocker_count')}) against seat {defender} ({d.get('defender_count')}:"
        f" melds {_melds(d.get('defender_melds'))}; deadwood"
        f" {d.get('defender_deadwood') or '-'}{lay}) -> seat {d.get('winner')}"
        f" +{d.get('points')}{_how(d)}, {_boxes(d.get('boxes'))};"
        f" game score {pair(d.get('scores'))}, boxes {pair(d.get('game_boxes'))}"
        + _columns(d)
    )


def _columns(d: Mapping[str, Any]) -> str:
    """Hollywood (G-17): the games this win went into and the three game scores."""
    if "columns" not in d:
        return ""
    games = ", ".join(str(g) for g in d.get("entered_games", [])) or "none"
    cols = " | ".join(pair(c) for c in d["columns"])
    return f"; entered in game(s) {games}; Hollywood games {cols}"


def _game_over(d: Mapping[str, Any], who: str) -> str:
    return (
        f"## game {d.get('game')} won by seat {d.get('winner')}: hand points"
        f" {pair(d.get('hand_points'))}{', SHUTOUT' if d.get('shutout') else ''};"
        f" boxes {pair(d.get('boxes'))} = box points {pair(d.get('box_points'))};"
        f" game bonus {pair(d.get('game_bonus'))}; totals {pair(d.get('totals'))}"
        f" (margin {d.get('margin')}); games won {pair(d.get('games_won'))}"
    )


def _match_over(d: Mapping[str, Any], who: str) -> str:
    return (
        f"## match won by seat {d.get('winner')}: games won {pair(d.get('games_won'))},"
        f" totals {pair(d.get('totals'))}"
    )


def _dead(d: Mapping[str, Any], who: str) -> str:
    reason = d.get("reason")
    return f"  hand dead ({_DEAD.get(str(reason), reason)}): no score, redeal"


LINES: dict[str, Line] = {
    E.DEALT: _dealt,
    E.UPCARD_TAKEN: "  {who} takes the upcard {card}",
    E.UPCARD_PASSED: "  {who} passes the upcard {card}",
    E.DREW: _drew,
    E.DISCARDED: "  {who} discards {card}",
    E.KNOCKED: _knocked,
    E.GIN: lambda d, who: f"  {who} goes GIN, discarding {d.get('card')} face down:"
    f" {_melds(d.get('melds'))}",
    E.BIG_GIN: lambda d, who: f"  {who} declares BIG GIN with eleven cards: {_melds(d.get('melds'))}",
    E.ILLEGAL_KNOCK: _illegal,
    E.KNOCK_ACCEPTED: "  {who} accepts the illegal knock (scored with the true count)",
    E.KNOCK_REFUSED: (
        "  {who} refuses the illegal knock: the discard stands face up, the knocker's hand"
        " stays exposed and must knock as soon as it can"
    ),
    E.LAID_OFF: _laid_off,
    E.DONE_LAYING_OFF: "  {who} is done laying off",
    E.DECLINED: "  {who} does not take the last discard",
    E.HAND_DEAD: _dead,
    E.HAND_VOIDED: lambda d, who: (
        f"  hand {d.get('hand')} voided (a misdeal): no score; {seat_name(d.get('dealer'))}"
        " deals it again"
    ),
    E.HAND_SCORED: _scored,
    E.GAME_OVER: _game_over,
    E.MATCH_OVER: _match_over,
}


def describe(event: Event) -> str:
    return describe_with(LINES, event)
