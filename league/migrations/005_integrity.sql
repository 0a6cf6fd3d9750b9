-- 5: the server accepts only what a table can honestly report (issue 31).
--   * players are enrolled at venues; a table sees, signs in and reports only its venue's;
--   * check_pin keeps no row lock: every try is a row of pin_attempts, counted, and a
--     right PIN hands back a seat token (a row of seat_tokens) that submit_match wants on
--     every league player's seat; a wrong PIN streak locks the player at that venue only;
--   * submit_match checks the payload against the rules' bounds (G-12, G-14, C-3, C-7),
--     the server's clock and size limits; a match id belongs to one table for good;
--   * table roles: a connection limit and timeouts; a changed password is noticed;
--   * the migration lock is a table that only the owner can lock.
-- Constants are in league.limits() (one place, documented in docs/league.md).

CREATE FUNCTION league.limits()
RETURNS TABLE (payload_bytes integer, name_chars integer, preset_chars integer,
               past interval, future interval, longest interval,
               seat_window interval, seat_skew interval,
               pin_failures integer, pin_window interval, table_failures integer,
               gin_hands integer, gin_hand_points integer, gin_hand_boxes integer,
               gin_games integer, gin_game_bonus integer,
               contract_deals integer, contract_finisher integer, contract_cards integer,
               table_connections integer)
LANGUAGE sql IMMUTABLE AS $$
    SELECT 262144, 40, 40,                       -- sizes: the whole payload, a seat's name, the preset
           interval '30 days', interval '10 minutes', interval '2 days',  -- finished: the server's clock
           interval '12 hours', interval '10 minutes',  -- a seat token: PIN check to the match's end
           5, interval '10 minutes', 20,         -- wrong PINs: per player and venue, per table
           1000,                                 -- gin hands in one match (dead hands included)
           300,   -- G-12: one hand's points ≤ (D ≤ 100 + the biggest bonus 50) × 2 (spades double)
           150,   -- G-12/G-14: its boxes ≤ (1 + 2 extra) × box bonus 25 × 2 (spades double boxes)
           5, 200,                               -- G-16: five games; G-14/G-15 game bonus ≤ 200
           5,                                    -- C-3: five deals
           20,                                   -- C-7.1: the finisher's +20
           792                                   -- C-7.3: a hand can hold at most two packs (2 × 396)
           , 4                                   -- connections per table role
$$;

-- -- enrolment ---------------------------------------------------------------------------
CREATE TABLE league.enrolments (
    player_id integer NOT NULL REFERENCES league.players,
    venue_id integer NOT NULL REFERENCES league.venues,
    created timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, venue_id));
-- players were league-wide until now: each stays enrolled wherever a table can see him
INSERT INTO league.enrolments (player_id, venue_id)
    SELECT p.id, v.id FROM league.players p CROSS JOIN league.venues v;

-- -- the table speaking ---------------------------------------------------------------------
ALTER TABLE league.tables ADD COLUMN verifier_sha text;
DO $$
BEGIN  -- the verifiers of the tables made so far (readable by a superuser only)
    IF has_table_privilege('pg_catalog.pg_authid', 'SELECT') THEN
        EXECUTE 'UPDATE league.tables t SET verifier_sha ='
                ' encode(sha256(convert_to(a.rolpassword, ''UTF8'')), ''hex'')'
                ' FROM pg_catalog.pg_authid a WHERE a.rolname = t.role_name';
    END IF;
END $$;

-- The active table of session_user (or an error). When the server can read the role's
-- stored verifier (the schema owner is a superuser) and it is not the one the operator
-- made, the role changed its own password (PostgreSQL always allows that): refused.
CREATE FUNCTION league.me() RETURNS league.tables
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = league, pg_temp AS $$
DECLARE
    t league.tables;
    now_sha text;
BEGIN
    SELECT * INTO t FROM league.tables WHERE role_name = session_user AND retired IS NULL;
    IF t.id IS NULL THEN
        RAISE EXCEPTION 'role % is not an active league table', session_user
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF t.verifier_sha IS NOT NULL AND has_table_privilege('pg_catalog.pg_authid', 'SELECT') THEN
        EXECUTE 'SELECT encode(sha256(convert_to(rolpassword, ''UTF8'')), ''hex'')'
                ' FROM pg_catalog.pg_authid WHERE rolname = $1' INTO now_sha USING session_user;
        IF now_sha IS DISTINCT FROM t.verifier_sha THEN
            RAISE EXCEPTION 'the password of table role % was changed on the server: the'
                ' operator must set a new one (rummy-table league reset-table %)',
                session_user, t.id USING ERRCODE = 'insufficient_privilege';
        END IF;
    END IF;
    RETURN t;
END $$;

-- -- PIN checks and seat tokens -------------------------------------------------------------
CREATE TABLE league.pin_attempts (
    id bigserial PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT clock_timestamp(),
    table_id integer NOT NULL REFERENCES league.tables,
    venue_id integer NOT NULL REFERENCES league.venues,
    player_id integer NOT NULL,
    ok boolean NOT NULL);
CREATE INDEX pin_attempts_player ON league.pin_attempts (player_id, venue_id, at);
CREATE INDEX pin_attempts_table ON league.pin_attempts (table_id, at);

CREATE TABLE league.seat_tokens (
    id bigserial PRIMARY KEY,
    token_sha text NOT NULL UNIQUE,  -- sha256 of the token: the token itself is not kept
    table_id integer NOT NULL REFERENCES league.tables,
    player_id integer NOT NULL REFERENCES league.players,
    checked timestamptz NOT NULL,    -- when the PIN was typed (the server's clock, or the
    issued timestamptz NOT NULL DEFAULT now(),  -- table's for a check sent later)
    late boolean NOT NULL DEFAULT false);

ALTER TABLE league.players DROP COLUMN pin_failures;
ALTER TABLE league.players DROP COLUMN locked_until;

CREATE OR REPLACE FUNCTION league.pin_salt(p_player integer) RETURNS text
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = league, pg_temp AS $$
DECLARE
    t league.tables := league.me();
BEGIN
    RETURN (SELECT split_part(pin_hash, '$', 1) || '$' || split_part(pin_hash, '$', 2) || '$'
                   || split_part(pin_hash, '$', 3)
            FROM league.players p JOIN league.enrolments e ON e.player_id = p.id
            WHERE p.id = p_player AND p.retired IS NULL AND e.venue_id = t.venue_id);
END $$;

DROP FUNCTION league.check_pin(integer, text);
-- ok/wrong/locked/unknown, and with ok a seat token for this table and player. p_typed:
-- a PIN typed while the server was out of reach, checked now (the token then starts then).
CREATE FUNCTION league.check_pin(p_player integer, p_digest text, p_typed timestamptz DEFAULT NULL,
                                 OUT answer text, OUT token text, OUT valid_until timestamptz)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = league, pg_temp AS $$
DECLARE
    t league.tables := league.me();
    lim record := league.limits();
    want text;
    last_ok timestamptz;
    fails integer;
    checked timestamptz := now();
BEGIN
    IF p_typed IS NOT NULL THEN
        IF p_typed < now() - lim.past OR p_typed > now() + lim.future THEN
            RAISE EXCEPTION 'a PIN typed at % is outside the sync window', p_typed
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
        checked := least(p_typed, now());
    END IF;
    -- the table: too many wrong PINs of any players lately (guessing across players)
    SELECT count(*) INTO fails FROM league.pin_attempts
        WHERE table_id = t.id AND NOT ok AND at > now() - lim.pin_window;
    IF fails >= lim.table_failures THEN
        answer := 'locked';
        RETURN;
    END IF;
    SELECT split_part(p.pin_hash, '$', 4) INTO want
        FROM league.players p JOIN league.enrolments e ON e.player_id = p.id
        WHERE p.id = p_player AND p.retired IS NULL AND e.venue_id = t.venue_id;
    IF want IS NULL THEN  -- not a player of this venue: nothing to lock
        INSERT INTO league.pin_attempts (table_id, venue_id, player_id, ok)
            VALUES (t.id, t.venue_id, coalesce(p_player, 0), false);
        answer := 'unknown';
        RETURN;
    END IF;
    -- the player at this venue: five wrong PINs in ten minutes since his last right one.
    -- Only this venue's tables count here, so another venue cannot lock him out.
    SELECT max(at) INTO last_ok FROM league.pin_attempts
        WHERE player_id = p_player AND venue_id = t.venue_id AND ok;
    SELECT count(*) INTO fails FROM league.pin_attempts
        WHERE player_id = p_player AND venue_id = t.venue_id AND NOT ok
          AND at > greatest(now() - lim.pin_window, coalesce(last_ok, '-infinity'));
    IF fails >= lim.pin_failures THEN
        answer := 'locked';
        RETURN;
    END IF;
    IF p_digest IS NULL OR length(p_digest) <> 64 OR want <> p_digest THEN
        INSERT INTO league.pin_attempts (table_id, venue_id, player_id, ok)
            VALUES (t.id, t.venue_id, p_player, false);
        answer := 'wrong';
        RETURN;
    END IF;
    INSERT INTO league.pin_attempts (table_id, venue_id, player_id, ok)
        VALUES (t.id, t.venue_id, p_player, true);
    token := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
    INSERT INTO league.seat_tokens (token_sha, table_id, player_id, checked, late)
        VALUES (encode(sha256(convert_to(token, 'UTF8')), 'hex'), t.id, p_player, checked,
                p_typed IS NOT NULL);
    answer := 'ok';
    valid_until := checked + lim.seat_window;
END $$;

CREATE OR REPLACE FUNCTION league.my_table()
RETURNS TABLE (table_id integer, table_name text, venue_id integer, venue text)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = league, pg_temp AS $$
DECLARE
    t league.tables := league.me();
BEGIN
    RETURN QUERY SELECT t.id, t.name, v.id, v.name FROM league.venues v WHERE v.id = t.venue_id;
END $$;

-- The players a table may seat: those enrolled at its venue (all of them for an operator).
CREATE OR REPLACE FUNCTION league.league_players()
RETURNS TABLE (player_id integer, name text)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = league, pg_temp AS $$
BEGIN
    IF pg_has_role(session_user, 'league_operator', 'MEMBER') THEN
        RETURN QUERY SELECT p.id, p.name FROM league.players p WHERE p.retired IS NULL
            ORDER BY lower(p.name);
        RETURN;
    END IF;
    RETURN QUERY SELECT p.id, p.name FROM league.players p
        JOIN league.enrolments e ON e.player_id = p.id
        WHERE p.retired IS NULL AND e.venue_id = (league.me()).venue_id ORDER BY lower(p.name);
END $$;

-- -- matches -------------------------------------------------------------------------------
-- A match id is the table's journal id (sha256 of its header): one table's, for good. Ids
-- sent by two tables before this version were replays: the later copies stop counting.
UPDATE league.matches m SET match_uid = m.match_uid || '.replayed.' || m.id, reason = 'replayed'
    WHERE EXISTS (SELECT 1 FROM league.matches o WHERE o.match_uid = m.match_uid AND o.id < m.id);
ALTER TABLE league.matches ADD CONSTRAINT matches_uid UNIQUE (match_uid);
ALTER TABLE league.match_seats ADD COLUMN token_id bigint REFERENCES league.seat_tokens;

CREATE OR REPLACE FUNCTION league.submit_match(p_uid text, p jsonb) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = league, pg_temp AS $$
DECLARE
    t league.tables := league.me();
    lim record := league.limits();
    m_id bigint;
    m_table integer;
    old_digest text;
    s jsonb;
    h jsonb;
    pid integer;
    tok league.seat_tokens;
    fin timestamptz;
    st timestamptz;
    game text;
    reason text;
    n integer := 0;
    nseats integer;
    nhands integer;
    winners integer := 0;
    won boolean;
    pts bigint;
    kind text;
    winner integer;
    seen integer[] := '{}';
    token_ids bigint[] := '{}';
    lo bigint;
    hi bigint;
BEGIN
    IF p_uid IS NULL OR p_uid !~ '^[0-9a-f]{16,128}$' THEN
        RAISE EXCEPTION 'bad match id' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF octet_length(p::text) > lim.payload_bytes THEN
        RAISE EXCEPTION 'a match is at most % bytes', lim.payload_bytes
            USING ERRCODE = 'program_limit_exceeded';
    END IF;
    SELECT id, table_id, digest INTO m_id, m_table, old_digest FROM league.matches
        WHERE match_uid = p_uid;
    IF m_id IS NOT NULL THEN
        IF m_table <> t.id THEN
            RAISE EXCEPTION 'match % belongs to another table', p_uid
                USING ERRCODE = 'unique_violation';
        END IF;
        IF old_digest IS DISTINCT FROM p->>'digest' THEN  -- sent again: the same answer
            RAISE EXCEPTION 'match % was submitted before with another digest', p_uid
                USING ERRCODE = 'unique_violation';
        END IF;
        RETURN m_id;
    END IF;
    -- the match
    game := p->>'game';
    reason := coalesce(p->>'reason', 'finished');
    IF game IS NULL OR game NOT IN ('gin', 'contract') THEN
        RAISE EXCEPTION 'unknown game' USING ERRCODE = 'check_violation';
    END IF;
    IF reason NOT IN ('finished', 'abandoned') THEN
        RAISE EXCEPTION 'a match is finished or abandoned' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF length(coalesce(p->>'preset', '')) > lim.preset_chars
       OR (p->>'digest') IS NULL OR p->>'digest' !~ '^[0-9a-f]{16,128}$' THEN
        RAISE EXCEPTION 'bad preset or digest' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    BEGIN
        fin := (p->>'finished')::timestamptz;
        st := coalesce((p->>'started')::timestamptz, fin);
    EXCEPTION WHEN others THEN
        RAISE EXCEPTION 'bad times' USING ERRCODE = 'invalid_parameter_value';
    END;
    IF fin IS NULL OR fin < now() - lim.past OR fin > now() + lim.future
       OR st > fin OR st < fin - lim.longest THEN
        RAISE EXCEPTION 'the match finished at % (the server''s clock says %): outside the'
            ' window', fin, now() USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF jsonb_typeof(p->'seats') IS DISTINCT FROM 'array'
       OR jsonb_array_length(p->'seats') NOT BETWEEN 2 AND 6
       OR (game = 'gin' AND jsonb_array_length(p->'seats') <> 2) THEN
        RAISE EXCEPTION 'gin has 2 seats, contract 2 to 6' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    nseats := jsonb_array_length(p->'seats');
    IF jsonb_typeof(coalesce(p->'hands', '[]'::jsonb)) <> 'array' THEN
        RAISE EXCEPTION 'hands are a list' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    nhands := jsonb_array_length(coalesce(p->'hands', '[]'::jsonb));
    IF (game = 'gin' AND nhands > lim.gin_hands)
       OR (game = 'contract' AND (nhands > lim.contract_deals
                                  OR (reason = 'finished' AND nhands <> lim.contract_deals))) THEN
        RAISE EXCEPTION '% hands: more than the rules allow (G-13, C-3)', nhands
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    BEGIN
        winner := (p->>'winner')::integer;
    EXCEPTION WHEN others THEN
        RAISE EXCEPTION 'bad winner' USING ERRCODE = 'invalid_parameter_value';
    END;
    IF winner IS NOT NULL AND (winner < 0 OR winner >= nseats) THEN
        RAISE EXCEPTION 'winner seat % is not a seat', winner USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- a seat's points: gin G-12/G-14/G-15 per hand, contract C-7 per deal
    IF game = 'gin' THEN
        lo := 0;
        hi := nhands::bigint * (2 * lim.gin_hand_points + lim.gin_hand_boxes)
              + least(nhands, lim.gin_games) * lim.gin_game_bonus;
    ELSE
        lo := -nhands::bigint * lim.contract_cards;
        hi := nhands::bigint * lim.contract_finisher;
    END IF;
    -- the seats (checked before anything is written)
    FOR s IN SELECT * FROM jsonb_array_elements(p->'seats') LOOP
        IF jsonb_typeof(s) <> 'object' THEN
            RAISE EXCEPTION 'a seat is an object' USING ERRCODE = 'invalid_parameter_value';
        END IF;
        kind := coalesce(s->>'kind', 'human');
        IF kind NOT IN ('human', 'computer') OR length(coalesce(s->>'name', '')) > lim.name_chars THEN
            RAISE EXCEPTION 'seat %: bad kind or a name over % characters', n, lim.name_chars
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
        BEGIN
            pts := (s->>'points')::bigint;
            won := coalesce((s->>'won')::boolean, false);
            pid := (s->>'league_id')::integer;
        EXCEPTION WHEN others THEN
            RAISE EXCEPTION 'seat %: bad points, won or league id', n
                USING ERRCODE = 'invalid_parameter_value';
        END;
        IF pts IS NOT NULL AND (pts < lo OR pts > hi) THEN
            RAISE EXCEPTION 'seat %: % points is outside what % hands allow (% to %)',
                n, pts, nhands, lo, hi USING ERRCODE = 'invalid_parameter_value';
        END IF;
        IF won THEN
            winners := winners + 1;
        END IF;
        IF pid IS NOT NULL THEN
            IF kind = 'computer' THEN
                RAISE EXCEPTION 'seat %: a computer is not a league player', n
                    USING ERRCODE = 'invalid_parameter_value';
            END IF;
            IF pid = ANY (seen) THEN
                RAISE EXCEPTION 'player % has two seats', pid USING ERRCODE = 'invalid_parameter_value';
            END IF;
            seen := seen || pid;
            PERFORM 1 FROM league.players p JOIN league.enrolments e ON e.player_id = p.id
                WHERE p.id = pid AND p.retired IS NULL AND e.venue_id = t.venue_id;
            IF NOT FOUND THEN
                RAISE EXCEPTION 'seat %: player % does not play at this venue', n, pid
                    USING ERRCODE = 'invalid_parameter_value';
            END IF;
            SELECT * INTO tok FROM league.seat_tokens
                WHERE token_sha = encode(sha256(convert_to(coalesce(s->>'token', ''), 'UTF8')), 'hex')
                  AND table_id = t.id AND player_id = pid;
            IF tok.id IS NULL OR fin < tok.checked - lim.seat_skew
               OR fin > tok.checked + lim.seat_window THEN
                RAISE EXCEPTION 'seat %: player % did not sign in with his PIN at this table'
                    ' for this match', n, pid USING ERRCODE = 'invalid_parameter_value';
            END IF;
            token_ids := token_ids || tok.id;
        ELSE
            token_ids := token_ids || NULL::bigint;
        END IF;
        n := n + 1;
    END LOOP;
    IF reason = 'finished' THEN
        IF winners = 0 OR (game = 'gin' AND winners <> 1)
           OR (winner IS NOT NULL AND NOT coalesce((p->'seats'->winner->>'won')::boolean, false)) THEN
            RAISE EXCEPTION 'a finished match has its winners (gin: one; G-14.3, C-7.4)'
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
        IF game = 'contract' THEN  -- C-7.4: the highest totals win, ties share
            PERFORM 1 FROM jsonb_array_elements(p->'seats') x
                WHERE coalesce((x->>'won')::boolean, false)
                      IS DISTINCT FROM (coalesce((x->>'points')::bigint, 0) = (
                          SELECT max(coalesce((y->>'points')::bigint, 0))
                          FROM jsonb_array_elements(p->'seats') y));
            IF FOUND THEN
                RAISE EXCEPTION 'contract: the winners are the highest totals (C-7.4)'
                    USING ERRCODE = 'invalid_parameter_value';
            END IF;
        END IF;
    ELSIF winners > 0 OR winner IS NOT NULL THEN
        RAISE EXCEPTION 'an abandoned match has no winner' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR h IN SELECT * FROM jsonb_array_elements(coalesce(p->'hands', '[]'::jsonb)) LOOP
        IF jsonb_typeof(h) <> 'array' THEN
            RAISE EXCEPTION 'a hand is a list of results' USING ERRCODE = 'invalid_parameter_value';
        END IF;
        IF game = 'gin' AND EXISTS (  -- G-12: one hand's points
                SELECT 1 FROM jsonb_array_elements(h) e
                WHERE e->>'kind' = 'hand_scored' AND jsonb_typeof(e->'data'->'points') = 'number'
                  AND ((e->'data'->>'points')::numeric < 0
                       OR (e->'data'->>'points')::numeric > lim.gin_hand_points)) THEN
            RAISE EXCEPTION 'a gin hand is worth 0 to % points (G-12)', lim.gin_hand_points
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
    END LOOP;
    INSERT INTO league.matches (table_id, match_uid, game, preset, season, started, finished,
                                reason, digest, winner_seat)
    VALUES (t.id, p_uid, game, coalesce(p->>'preset', ''),
            to_char(fin AT TIME ZONE 'UTC', 'YYYY') || '-Q'
                || to_char(fin AT TIME ZONE 'UTC', 'Q'),
            st, fin, reason, p->>'digest', winner)
    ON CONFLICT (match_uid) DO NOTHING
    RETURNING id INTO m_id;
    IF m_id IS NULL THEN  -- the same match, sent at the same moment on another connection
        SELECT id, table_id, digest INTO m_id, m_table, old_digest FROM league.matches
            WHERE match_uid = p_uid;
        IF m_table <> t.id OR old_digest IS DISTINCT FROM p->>'digest' THEN
            RAISE EXCEPTION 'match % was submitted before', p_uid USING ERRCODE = 'unique_violation';
        END IF;
        RETURN m_id;
    END IF;
    n := 0;
    FOR s IN SELECT * FROM jsonb_array_elements(p->'seats') LOOP
        INSERT INTO league.match_seats (match_id, seat, player_id, name, kind, points, won, token_id)
        VALUES (m_id, n, (s->>'league_id')::integer, coalesce(s->>'name', ''),
                coalesce(s->>'kind', 'human'), (s->>'points')::integer,
                coalesce((s->>'won')::boolean, false), token_ids[n + 1]);
        n := n + 1;
    END LOOP;
    n := 1;
    FOR h IN SELECT * FROM jsonb_array_elements(coalesce(p->'hands', '[]'::jsonb)) LOOP
        INSERT INTO league.match_hands VALUES (m_id, n, h);
        n := n + 1;
    END LOOP;
    RETURN m_id;
END $$;

-- -- table roles ---------------------------------------------------------------------------
-- Made with a connection limit and timeouts (in this database); the verifier's digest is
-- kept to notice a password the role set itself.
CREATE OR REPLACE FUNCTION league.create_table(p_venue text, p_name text, p_verifier text)
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
    EXECUTE format('CREATE ROLE %I LOGIN IN ROLE league_table PASSWORD %L CONNECTION LIMIT %s',
                   r, p_verifier, (league.limits()).table_connections);
    PERFORM league.role_settings(r);
    INSERT INTO league.tables (id, venue_id, name, role_name, verifier_sha)
        VALUES (t_id, v_id, p_name, r, encode(sha256(convert_to(p_verifier, 'UTF8')), 'hex'));
    RETURN QUERY SELECT t_id, r;
END $$;

CREATE FUNCTION league.role_settings(r name) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = league, pg_temp AS $$
BEGIN
    EXECUTE format('ALTER ROLE %I CONNECTION LIMIT %s', r, (league.limits()).table_connections);
    EXECUTE format('ALTER ROLE %I IN DATABASE %I SET statement_timeout = %L', r,
                   current_database(), '30s');
    EXECUTE format('ALTER ROLE %I IN DATABASE %I SET idle_in_transaction_session_timeout = %L',
                   r, current_database(), '30s');
    EXECUTE format('ALTER ROLE %I IN DATABASE %I SET lock_timeout = %L', r, current_database(),
                   '5s');
END $$;

-- A new password for a table (a SCRAM verifier, as create_table).
CREATE FUNCTION league.reset_table(p_table integer, p_verifier text) RETURNS name
LANGUAGE plpgsql SECURITY DEFINER SET search_path = league, pg_temp AS $$
DECLARE
    r name;
BEGIN
    IF p_verifier !~ '^SCRAM-SHA-256\$[0-9]+:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$' THEN
        RAISE EXCEPTION 'the password must be a SCRAM-SHA-256 verifier'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT t.role_name INTO r FROM league.tables t WHERE t.id = p_table;
    IF r IS NULL THEN
        RAISE EXCEPTION 'no table %', p_table USING ERRCODE = 'foreign_key_violation';
    END IF;
    EXECUTE format('ALTER ROLE %I PASSWORD %L', r, p_verifier);
    UPDATE league.tables SET verifier_sha = encode(sha256(convert_to(p_verifier, 'UTF8')), 'hex')
        WHERE id = p_table;
    RETURN r;
END $$;

SELECT league.role_settings(role_name) FROM league.tables;

-- -- the migration lock: a table only the owner can lock (league.schema.migrate) -----------
CREATE TABLE league.migration_lock (id integer PRIMARY KEY);

-- -- what PostgreSQL lets us take away from every role in this database (superuser only:
-- the catalogs belong to the bootstrap superuser; others get a warning and docs/league.md)
DO $$
DECLARE
    f regprocedure;
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE WARNING 'not a superuser: large objects and the role catalogs stay open to'
            ' table roles (see docs/league.md, "Least privilege")';
        RETURN;
    END IF;
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
             WHERE p.pronamespace = 'pg_catalog'::regnamespace
               AND (p.proname LIKE 'lo\_%' OR p.proname IN ('loread', 'lowrite')) LOOP
        EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
    END LOOP;
    REVOKE SELECT ON pg_catalog.pg_roles, pg_catalog.pg_user, pg_catalog.pg_group,
        pg_catalog.pg_auth_members, pg_catalog.pg_stat_activity,
        pg_catalog.pg_db_role_setting FROM PUBLIC;
    REVOKE EXECUTE ON FUNCTION pg_catalog.pg_stat_get_activity(integer) FROM PUBLIC;
    GRANT SELECT ON pg_catalog.pg_roles, pg_catalog.pg_user, pg_catalog.pg_group,
        pg_catalog.pg_auth_members, pg_catalog.pg_stat_activity TO league_operator;
    GRANT EXECUTE ON FUNCTION pg_catalog.pg_stat_get_activity(integer) TO league_operator;
END $$;

REVOKE ALL ON FUNCTION league.limits(), league.me(), league.check_pin(integer, text, timestamptz),
    league.role_settings(name), league.reset_table(integer, text),
    league.create_table(text, text, text), league.my_table(), league.league_players(),
    league.pin_salt(integer), league.submit_match(text, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION league.check_pin(integer, text, timestamptz), league.pin_salt(integer),
    league.my_table(), league.league_players(), league.submit_match(text, jsonb)
    TO league_table;
GRANT EXECUTE ON FUNCTION league.reset_table(integer, text), league.league_players()
    TO league_operator;
GRANT SELECT, INSERT, UPDATE, DELETE ON league.enrolments, league.pin_attempts,
    league.seat_tokens TO league_operator;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA league TO league_operator;
