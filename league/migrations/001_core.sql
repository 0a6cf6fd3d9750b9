-- 1: venues, tables, league players, matches with their seats and hands; the table
-- roles' only way in (submit_match) and the operator's way to make a table's role.
CREATE SCHEMA league;
CREATE TABLE league.schema_version (
    version integer PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now());

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'league_operator') THEN
        CREATE ROLE league_operator NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'league_table') THEN
        CREATE ROLE league_table NOLOGIN;
    END IF;
    EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO league_operator, league_table',
                   current_database());
END $$;
REVOKE ALL ON SCHEMA league FROM PUBLIC;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA league TO league_operator, league_table;

CREATE TABLE league.venues (
    id serial PRIMARY KEY,
    name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 80),
    created timestamptz NOT NULL DEFAULT now());

CREATE TABLE league.tables (
    id serial PRIMARY KEY,
    venue_id integer NOT NULL REFERENCES league.venues,
    name text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    role_name name NOT NULL UNIQUE,
    created timestamptz NOT NULL DEFAULT now(),
    retired timestamptz,
    UNIQUE (venue_id, name));

CREATE TABLE league.players (
    id serial PRIMARY KEY,
    name text NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
    pin_hash text NOT NULL CHECK (pin_hash ~ '^pbkdf2\$[0-9]+\$[0-9a-f]+\$[0-9a-f]{64}$'),
    created timestamptz NOT NULL DEFAULT now(),
    retired timestamptz);
CREATE UNIQUE INDEX players_name ON league.players (lower(name));

CREATE TABLE league.matches (
    id bigserial PRIMARY KEY,
    table_id integer NOT NULL REFERENCES league.tables,
    match_uid text NOT NULL,
    game text NOT NULL CHECK (game IN ('gin', 'contract')),
    preset text NOT NULL DEFAULT '',
    season text NOT NULL,
    started timestamptz,
    finished timestamptz NOT NULL,
    reason text NOT NULL,
    digest text NOT NULL,
    winner_seat integer,
    received timestamptz NOT NULL DEFAULT now(),
    UNIQUE (table_id, match_uid));
CREATE INDEX matches_game_season ON league.matches (game, season);

CREATE TABLE league.match_seats (
    match_id bigint NOT NULL REFERENCES league.matches,
    seat integer NOT NULL CHECK (seat BETWEEN 0 AND 5),
    player_id integer REFERENCES league.players,  -- NULL: a guest or a computer
    name text NOT NULL,
    kind text NOT NULL,
    points integer,
    won boolean NOT NULL,
    PRIMARY KEY (match_id, seat));
CREATE INDEX match_seats_player ON league.match_seats (player_id);

CREATE TABLE league.match_hands (
    match_id bigint NOT NULL REFERENCES league.matches,
    hand_no integer NOT NULL,
    results jsonb NOT NULL,
    PRIMARY KEY (match_id, hand_no));

-- The table's one way to write: its own matches, identified by the login role, once.
CREATE FUNCTION league.submit_match(p_uid text, p jsonb) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = league, pg_temp AS $$
DECLARE
    t_id integer;
    m_id bigint;
    old_digest text;
    s jsonb;
    h jsonb;
    pid integer;
    fin timestamptz;
    n integer := 0;
BEGIN
    SELECT id INTO t_id FROM league.tables WHERE role_name = session_user AND retired IS NULL;
    IF t_id IS NULL THEN
        RAISE EXCEPTION 'role % is not an active league table', session_user
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_uid IS NULL OR p_uid !~ '^[0-9a-f]{16,128}$' THEN
        RAISE EXCEPTION 'bad match id' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT id, digest INTO m_id, old_digest FROM league.matches
        WHERE table_id = t_id AND match_uid = p_uid;
    IF m_id IS NOT NULL THEN  -- sent again (a lost acknowledgement): the same answer
        IF old_digest IS DISTINCT FROM p->>'digest' THEN
            RAISE EXCEPTION 'match % was submitted before with another digest', p_uid
                USING ERRCODE = 'unique_violation';
        END IF;
        RETURN m_id;
    END IF;
    IF jsonb_typeof(p->'seats') IS DISTINCT FROM 'array'
       OR jsonb_array_length(p->'seats') NOT BETWEEN 2 AND 6 THEN
        RAISE EXCEPTION 'a match has 2 to 6 seats' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    fin := (p->>'finished')::timestamptz;
    INSERT INTO league.matches (table_id, match_uid, game, preset, season, started, finished,
                                reason, digest, winner_seat)
    VALUES (t_id, p_uid, p->>'game', coalesce(p->>'preset', ''),
            to_char(fin AT TIME ZONE 'UTC', 'YYYY') || '-Q'
                || to_char(fin AT TIME ZONE 'UTC', 'Q'),
            (p->>'started')::timestamptz, fin, coalesce(p->>'reason', 'finished'),
            p->>'digest', (p->>'winner')::integer)
    ON CONFLICT (table_id, match_uid) DO NOTHING
    RETURNING id INTO m_id;
    IF m_id IS NULL THEN  -- the same match, sent at the same moment on another connection
        SELECT id INTO m_id FROM league.matches WHERE table_id = t_id AND match_uid = p_uid;
        RETURN m_id;
    END IF;
    FOR s IN SELECT * FROM jsonb_array_elements(p->'seats') LOOP
        SELECT id INTO pid FROM league.players
            WHERE id = (s->>'league_id')::integer AND retired IS NULL;
        INSERT INTO league.match_seats (match_id, seat, player_id, name, kind, points, won)
        VALUES (m_id, n, pid, left(coalesce(s->>'name', ''), 40), coalesce(s->>'kind', 'human'),
                (s->>'points')::integer, coalesce((s->>'won')::boolean, false));
        n := n + 1;
    END LOOP;
    n := 1;
    FOR h IN SELECT * FROM jsonb_array_elements(coalesce(p->'hands', '[]'::jsonb)) LOOP
        INSERT INTO league.match_hands VALUES (m_id, n, h);
        n := n + 1;
    END LOOP;
    RETURN m_id;
END $$;

-- The operator's way to make a table: its login role (a SCRAM verifier, never a password
-- in the clear) and its row, in one step.
CREATE FUNCTION league.create_table(p_venue text, p_name text, p_verifier text)
RETURNS TABLE (table_id integer, role_name name)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = league, pg_temp AS $$
DECLARE
    v_id integer;
    t_id integer;
    r name;
BEGIN
    IF p_verifier !~ '^SCRAM-SHA-256\$[0-9]+:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$' THEN
        RAISE EXCEPTION 'the password must be a SCRAM-SHA-256 verifier'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT id INTO v_id FROM league.venues WHERE name = p_venue;
    IF v_id IS NULL THEN
        RAISE EXCEPTION 'no venue %', p_venue USING ERRCODE = 'foreign_key_violation';
    END IF;
    t_id := nextval(pg_get_serial_sequence('league.tables', 'id'));
    r := 'rt_' || left(regexp_replace(current_database(), '[^a-z0-9_]', '_', 'g'), 40) || '_' || t_id;
    EXECUTE format('CREATE ROLE %I LOGIN IN ROLE league_table PASSWORD %L', r, p_verifier);
    INSERT INTO league.tables (id, venue_id, name, role_name) VALUES (t_id, v_id, p_name, r);
    RETURN QUERY SELECT t_id, r;
END $$;

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA league FROM PUBLIC;
GRANT EXECUTE ON FUNCTION league.submit_match(text, jsonb) TO league_table;
GRANT EXECUTE ON FUNCTION league.create_table(text, text, text) TO league_operator;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA league TO league_operator;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA league TO league_operator;
