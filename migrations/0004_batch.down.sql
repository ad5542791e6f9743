-- Back to 0001's events_append.
DROP FUNCTION events_append_at(text, bigint, int, text[], text[], text[], text[], text[], bytea[], text, timestamptz);

-- events_append writes one append: the events of p_types (and the other
-- arrays, one element per event) to p_stream after version p_expected, and
-- returns each event's position and hashes. It returns no row, writing
-- nothing, when the stream has no event at version p_expected (p_expected 0
-- means a new stream); an existing version or idempotency key raises
-- unique_violation. Each hash is sha256(previous hash || canonical bytes),
-- the canonical bytes being computed by the caller (events.Canonical).
--
-- A function rather than one big statement: PL/pgSQL caches the plans of
-- its statements, where a recursive CTE was planned again at every call.
CREATE FUNCTION events_append(
    p_stream text, p_expected bigint, p_types text[], p_data text[], p_actors text[],
    p_request_ids text[], p_keys text[], p_canon bytea[], p_append_key text, p_recorded_at timestamptz)
RETURNS TABLE (o_position bigint, o_prev_hash bytea, o_hash bytea)
LANGUAGE plpgsql AS $$
DECLARE
    base bigint := pg_current_xact_id()::text::bigint * 10000;
    prev bytea;
    h bytea;
BEGIN
    IF p_expected = 0 THEN
        prev := decode(repeat('00', 32), 'hex');
    ELSE
        SELECT e.hash INTO prev FROM events e WHERE e.stream = p_stream AND e.version = p_expected;
        IF NOT FOUND THEN
            RETURN;
        END IF;
    END IF;
    FOR i IN 1 .. cardinality(p_types) LOOP
        h := sha256(prev || p_canon[i]);
        INSERT INTO events (position, stream, version, type, data, actor, request_id, idempotency_key,
                            append_key, recorded_at, prev_hash, hash)
        VALUES (base + i - 1, p_stream, p_expected + i, p_types[i], p_data[i]::json, p_actors[i],
                p_request_ids[i], p_keys[i], CASE WHEN i = 1 THEN p_append_key END, p_recorded_at, prev, h);
        o_position := base + i - 1;
        o_prev_hash := prev;
        o_hash := h;
        RETURN NEXT;
        prev := h;
    END LOOP;
END
$$;
