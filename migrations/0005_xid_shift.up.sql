-- 0005 xid shift: positions survive a pg_dump restored into another server.
--
-- An event's position was xid8 * 10000 + offset (0001, 0004). Transaction
-- ids belong to one server's history: restored into a fresh cluster, whose
-- ids start low, new events got positions below the restored ones, so the
-- store refused every write until the new cluster's epoch was pushed past
-- the old one with pg_resetwal. Positions are now
--
--     (xid8 + shift) * 10000 + offset
--
-- with shift a per-database constant kept in events_xid_shift. It is 0 on
-- the server that created the database (positions are unchanged) and is
-- raised by the store, once, when it finds positions at or above what this
-- server's transaction ids can produce: a restored database (see "Moving a
-- database" in events/postgres). pg_dump carries the row along with the
-- events, so a second restore raises it again from there.
--
-- Readers compute the watermark with the same shift: order by position is
-- still order by transaction id, which is all the gap-free reading of the
-- global log needs.
CREATE TABLE events_xid_shift (
    one   boolean PRIMARY KEY DEFAULT true CHECK (one),
    shift bigint  NOT NULL DEFAULT 0 CHECK (shift >= 0)
);
INSERT INTO events_xid_shift DEFAULT VALUES;

-- events_position_base is the first position of the calling transaction:
-- (its xid8 + shift) * 10000. It assigns the transaction an id (like
-- pg_current_xact_id) and is meant to be evaluated once per statement:
-- write it as a scalar subquery, (SELECT events_position_base()).
CREATE FUNCTION events_position_base() RETURNS bigint
LANGUAGE sql VOLATILE AS $$
    SELECT (pg_current_xact_id()::text::bigint + s.shift) * 10000 FROM events_xid_shift s
$$;

-- events_append_at as in 0004, its positions from events_position_base.
CREATE OR REPLACE FUNCTION events_append_at(
    p_stream text, p_expected bigint, p_offset int, p_types text[], p_data text[], p_actors text[],
    p_request_ids text[], p_keys text[], p_canon bytea[], p_append_key text, p_recorded_at timestamptz)
RETURNS TABLE (o_position bigint, o_prev_hash bytea, o_hash bytea)
LANGUAGE plpgsql AS $$
DECLARE
    base bigint := events_position_base() + p_offset;
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
