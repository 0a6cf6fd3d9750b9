-- 2: standings per game and season (all venues and per venue), and what a table may
-- know about itself and the league's players (names only, never a PIN).
CREATE VIEW league.standings AS
SELECT m.game, m.season, s.player_id, p.name,
       count(*)::integer AS played,
       count(*) FILTER (WHERE s.won)::integer AS won,
       coalesce(sum(s.points), 0)::integer AS points
FROM league.matches m
JOIN league.match_seats s ON s.match_id = m.id
JOIN league.players p ON p.id = s.player_id
WHERE m.reason = 'finished'
GROUP BY m.game, m.season, s.player_id, p.name;

CREATE VIEW league.venue_standings AS
SELECT t.venue_id, v.name AS venue, m.game, m.season, s.player_id, p.name,
       count(*)::integer AS played,
       count(*) FILTER (WHERE s.won)::integer AS won,
       coalesce(sum(s.points), 0)::integer AS points
FROM league.matches m
JOIN league.tables t ON t.id = m.table_id
JOIN league.venues v ON v.id = t.venue_id
JOIN league.match_seats s ON s.match_id = m.id
JOIN league.players p ON p.id = s.player_id
WHERE m.reason = 'finished'
GROUP BY t.venue_id, v.name, m.game, m.season, s.player_id, p.name;

CREATE FUNCTION league.my_table()
RETURNS TABLE (table_id integer, table_name text, venue_id integer, venue text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = league, pg_temp AS $$
    SELECT t.id, t.name, v.id, v.name FROM league.tables t JOIN league.venues v ON v.id = t.venue_id
    WHERE t.role_name = session_user AND t.retired IS NULL
$$;

CREATE FUNCTION league.league_players()
RETURNS TABLE (player_id integer, name text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = league, pg_temp AS $$
    SELECT id, name FROM league.players WHERE retired IS NULL ORDER BY lower(name)
$$;

REVOKE ALL ON FUNCTION league.my_table(), league.league_players() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION league.my_table(), league.league_players() TO league_table, league_operator;
GRANT SELECT ON league.standings, league.venue_standings TO league_table, league_operator;
