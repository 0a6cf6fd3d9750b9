"""Ratings per game with openskill (Plackett-Luce: any number of players per match).

``rate(conn)`` replays every finished match of each game in the order they finished and
rewrites ``league.ratings`` in one transaction, so it is repeatable and a late match
(from a table that was offline) lands in its place. Only league players are rated;
guests and computers still count for the ranks of the others. The rank of a seat: the
winners first, then the others by points (the direction the winner's points show: gin
and contract rummy totals count up; a penalty count would count down).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce


def seat_ranks(won: Sequence[bool], points: Sequence[int | None]) -> list[int]:
    """1-based ranks for one match (ties share a rank)."""
    pts = [p if p is not None else 0 for p in points]
    winners = [p for p, w in zip(pts, won, strict=True) if w]
    others = [p for p, w in zip(pts, won, strict=True) if not w]
    high_is_good = not winners or not others or max(winners) >= max(others)
    keys = [(0 if w else 1, -p if high_is_good else p) for p, w in zip(pts, won, strict=True)]
    order = sorted(set(keys))
    return [order.index(k) + 1 for k in keys]


def rate(conn: Any) -> dict[str, int]:
    """Recompute all ratings; returns the number of matches rated per game."""
    model = PlackettLuce()
    rows = conn.execute(
        "SELECT m.game, m.id, s.seat, s.player_id, s.won, s.points FROM league.matches m"
        " JOIN league.match_seats s ON s.match_id = m.id WHERE m.reason = 'finished'"
        " ORDER BY m.game, m.finished, m.id, s.seat").fetchall()
    matches: dict[tuple[str, int], list[tuple[int | None, bool, int | None]]] = defaultdict(list)
    for game, mid, _seat, pid, won, points in rows:
        matches[(game, mid)].append((pid, won, points))
    ratings: dict[tuple[str, int], Any] = {}
    played: dict[tuple[str, int], int] = defaultdict(int)
    counted: dict[str, int] = defaultdict(int)
    for (game, _mid), seats in matches.items():
        ranks = seat_ranks([w for _, w, _ in seats], [p for _, _, p in seats])
        league_seats = [(pid, r) for (pid, _, _), r in zip(seats, ranks, strict=True)
                        if pid is not None]
        if len(league_seats) < 2:
            continue  # nobody to compare with: a league player against guests only
        teams = [[ratings.get((game, pid)) or model.rating(name=str(pid))] for pid, _ in league_seats]
        new = model.rate(teams, ranks=[r for _, r in league_seats])
        for (pid, _), team in zip(league_seats, new, strict=True):
            ratings[(game, pid)] = team[0]
            played[(game, pid)] += 1
        counted[game] += 1
    with conn.transaction():
        conn.execute("DELETE FROM league.ratings")
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO league.ratings (game, player_id, mu, sigma, matches)"
                " VALUES (%s, %s, %s, %s, %s)",
                [(g, pid, r.mu, r.sigma, played[(g, pid)]) for (g, pid), r in ratings.items()])
    return dict(counted)
