-- Back to 0005: events_append_at as 0004 created it (0005 left it alone).
CREATE FUNCTION events_append_at(
    p_stream text, p_expected bigint, p_offset int, p_types text[], p_data text[], p_actors text[],
    p_request_ids text[], p_keys text[], p_canon bytea[], p_append_key text, p_recorded_at timestamptz)
RETURNS TABLE (o_position bigint, o_prev_hash bytea, o_hash bytea)
LANGUAGE plpgsql AS $$
DECLARE
    base bigint := pg_current_xact_id()::text::bigint * 10000 + p_offset;
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
                p_request_ids[i], p_keys[i], CASE WHEN i = 1 THEN p_append_key END, p_recorded_at, prev, h)
        ON CONFLICT DO NOTHING;
        IF NOT FOUND THEN
            IF i = 1 THEN
                RETURN;
            END IF;
            -- Versions after a free first one cannot be taken: something
            -- wrote a stream with a gap.
            RAISE unique_violation USING MESSAGE = format(
                'events_append_at: version %s of stream %s is taken but %s was free',
                p_expected + i, p_stream, p_expected + 1);
        END IF;
        o_position := base + i - 1;
        o_prev_hash := prev;
        o_hash := h;
        RETURN NEXT;
        prev := h;
    END LOOP;
END
$$;
