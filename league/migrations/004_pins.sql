-- 4: a PIN is checked by the server: the table hashes the typed PIN with the player's
-- salt (pin_salt) and the server compares (check_pin); five wrong tries lock the player
-- for ten minutes. The stored hash never leaves the server.
ALTER TABLE league.players ADD COLUMN pin_failures integer NOT NULL DEFAULT 0;
ALTER TABLE league.players ADD COLUMN locked_until timestamptz;

CREATE FUNCTION league.pin_salt(p_player integer) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = league, pg_temp AS $$
    SELECT split_part(pin_hash, '$', 1) || '$' || split_part(pin_hash, '$', 2) || '$'
           || split_part(pin_hash, '$', 3)
    FROM league.players WHERE id = p_player AND retired IS NULL
$$;

CREATE FUNCTION league.check_pin(p_player integer, p_digest text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = league, pg_temp AS $$
DECLARE
    want text;
    locked timestamptz;
BEGIN
    SELECT split_part(pin_hash, '$', 4), locked_until INTO want, locked
        FROM league.players WHERE id = p_player AND retired IS NULL FOR UPDATE;
    IF want IS NULL THEN
        RETURN 'unknown';
    END IF;
    IF locked IS NOT NULL AND locked > now() THEN
        RETURN 'locked';
    END IF;
    IF want = p_digest THEN
        UPDATE league.players SET pin_failures = 0, locked_until = NULL WHERE id = p_player;
        RETURN 'ok';
    END IF;
    UPDATE league.players
        SET pin_failures = CASE WHEN pin_failures + 1 >= 5 THEN 0 ELSE pin_failures + 1 END,
        locked_until = CASE WHEN pin_failures + 1 >= 5 THEN now() + interval '10 minutes' END
        WHERE id = p_player;
    RETURN 'wrong';
END $$;

REVOKE ALL ON FUNCTION league.pin_salt(integer), league.check_pin(integer, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION league.pin_salt(integer), league.check_pin(integer, text)
    TO league_table, league_operator;
