"""One line of English per gin event, for the replay printout (not player-facing UI)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummy.actions import Event


def _seat(n: Any) -> str:
    return f"seat {n}"


def _melds(data: Mapping[str, Any], key: str) -> str:
    melds = data.get(key) or []
    return " | ".join(melds) if melds else "no melds"


def _pair(v: Any) -> str:
    return f"{v[0]}-{v[1]}" if isinstance(v, list | tuple) and len(v) == 2 else str(v)


def _columns(d: Mapping[str, Any]) -> str:
    """Hollywood (G-17): the games this win went into and the three game scores."""
    if "columns" not in d:
        return ""
    games = ", ".join(str(g) for g in d.get("entered_games", [])) or "none"
    cols = " | ".join(_pair(c) for c in d["columns"])
    return f"; entered in game(s) {games}; Hollywood games {cols}"


def describe(event: Event) -> str:
    d = event.data
    k = event.kind
    who = _seat(event.seat)
    if k == "dealt":
        hands = d.get("hands", ["?", "?"])
        return (
            f"== game {d.get('game')} hand {d.get('hand')}: seat {d.get('dealer')} deals;"
            f" upcard {d.get('upcard')} (knock limit {d.get('knock_limit')});"
            f" seat 0: {hands[0]}; seat 1: {hands[1]}"
        )
    if k == "upcard_taken":
        return f"  {who} takes the upcard {d.get('card')}"
    if k == "upcard_passed":
        return f"  {who} passes the upcard {d.get('card')}"
    if k == "drew":
        extra = " (last chance, to knock)" if d.get("last_chance") else ""
        return f"  {who} draws {d.get('card')} from the {d.get('pile')}{extra}"
    if k == "discarded":
        return f"  {who} discards {d.get('card')}"
    if k == "knocked":
        return (
            f"  {who} KNOCKS discarding {d.get('card')}: melds {_melds(d, 'melds')};"
            f" deadwood {d.get('deadwood') or '-'} = {d.get('count')}"
        )
    if k == "gin":
        return f"  {who} goes GIN discarding {d.get('card')}: {_melds(d, 'melds')}"
    if k == "big_gin":
        return f"  {who} declares BIG GIN: {_melds(d, 'melds')}"
    if k == "illegal_knock":
        return (
            f"  {who} makes an ILLEGAL KNOCK with {d.get('card')} ({d.get('reason')}):"
            f" hand exposed, must knock when able"
        )
    if k == "knock_accepted":
        return f"  {who} accepts the illegal knock"
    if k == "knock_refused":
        return f"  {who} refuses the illegal knock"
    if k == "laid_off":
        return f"  {who} lays off {d.get('card')} on the knocker's meld {d.get('target')}"
    if k == "done_laying_off":
        return f"  {who} is done laying off"
    if k == "declined":
        return f"  {who} declines the last discard"
    if k == "hand_dead":
        return f"  hand dead ({d.get('reason')}): no score, redeal"
    if k == "hand_scored":
        if d.get("outcome") == "dead":
            return f"  result: dead hand; game score {_pair(d.get('scores'))}"
        lay = ", ".join(f"{c}->{i}" for c, i in d.get("layoffs", [])) or "none"
        doubled = " (spades double)" if d.get("doubled") else ""
        return (
            f"  result: {d.get('outcome')} by seat {d.get('knocker')} (count"
            f" {d.get('knocker_count')}) vs defender {d.get('defender_count')}"
            f" [melds {_melds(d, 'defender_melds')}; deadwood"
            f" {d.get('defender_deadwood') or '-'}; layoffs {lay}] -> seat {d.get('winner')}"
            f" +{d.get('points')}{doubled}, {d.get('boxes')} box(es);"
            f" game score {_pair(d.get('scores'))}, boxes {_pair(d.get('game_boxes'))}"
            + _columns(d)
        )
    if k == "game_over":
        return (
            f"## game {d.get('game')} won by seat {d.get('winner')}: hand points"
            f" {_pair(d.get('hand_points'))}, box points {_pair(d.get('box_points'))},"
            f" game bonus {_pair(d.get('game_bonus'))}"
            f"{', SHUTOUT' if d.get('shutout') else ''}; totals {_pair(d.get('totals'))}"
            f" (margin {d.get('margin')}); games {_pair(d.get('games_won'))}"
        )
    if k == "match_over":
        return (
            f"## match won by seat {d.get('winner')}: games {_pair(d.get('games_won'))},"
            f" totals {_pair(d.get('totals'))}"
        )
    return f"  {who} {k} {dict(d)}"
