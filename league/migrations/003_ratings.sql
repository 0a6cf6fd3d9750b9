-- 3: ratings per game (openskill, computed by `rummy-table league rate`), in the standings.
CREATE TABLE league.ratings (
    game text NOT NULL,
    player_id integer NOT NULL REFERENCES league.players,
    mu double precision NOT NULL,
    sigma double precision NOT NULL,
    matches integer NOT NULL,
    updated timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game, player_id));
GRANT SELECT, INSERT, UPDATE, DELETE ON league.ratings TO league_operator;

CREATE OR REPLACE VIEW league.standings AS
SELECT m.game, m.season, s.player_id, p.name,
       count(*)::integer AS played,
       count(*) FILTER (WHERE s.won)::integer AS won,
       coalesce(sum(s.points), 0)::integer AS points,
       max(r.mu - 3 * r.sigma) AS rating
FROM league.matches m
JOIN league.match_seats s ON s.match_id = m.id
JOIN league.players p ON p.id = s.player_id
LEFT JOIN league.ratings r ON r.game = m.game AND r.player_id = s.player_id
WHERE m.reason = 'finished'
GROUP BY m.game, m.season, s.player_id, p.name;

CREATE OR REPLACE VIEW league.venue_standings AS
SELECT t.venue_id, v.name AS venue, m.game, m.season, s.player_id, p.name,
       count(*)::integer AS played,
       count(*) FILTER (WHERE s.won)::integer AS won,
       coalesce(sum(s.points), 0)::integer AS points,
       max(r.mu - 3 * r.sigma) AS rating
FROM league.matches m
JOIN league.tables t ON t.id = m.table_id
JOIN league.venues v ON v.id = t.venue_id
JOIN league.match_seats s ON s.match_id = m.id
JOIN league.players p ON p.id = s.player_id
LEFT JOIN league.ratings r ON r.game = m.game AND r.player_id = s.player_id
WHERE m.reason = 'finished'
GROUP BY t.venue_id, v.name, m.game, m.season, s.player_id, p.name;
