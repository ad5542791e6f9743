-- The event log: one row per event, every game's stream in one table.
--
-- position: the event's place in the global log. It is derived from the
-- inserting transaction's id (xid8 * 10000 + index within the append), so
-- that position order is transaction-id order: a reader that only returns
-- positions below pg_snapshot_xmin(pg_current_snapshot()) * 10000 never skips
-- an event that commits late (see events/postgres/store.go).
CREATE TABLE events (
    position        bigint      PRIMARY KEY,
    stream          text        NOT NULL CHECK (stream <> ''),
    version         bigint      NOT NULL CHECK (version > 0),
    type            text        NOT NULL CHECK (type <> ''),
    -- json (not jsonb) keeps the canonical text byte for byte, which the hash covers.
    data            json        NOT NULL,
    actor           text        NOT NULL DEFAULT '',
    request_id      text        NOT NULL DEFAULT '',
    idempotency_key text        NOT NULL DEFAULT '',
    -- append_key: the idempotency key of the append this event opened (set on
    -- an append's first event only, NULL otherwise).
    append_key      text,
    recorded_at     timestamptz NOT NULL,
    prev_hash       bytea       NOT NULL CHECK (length(prev_hash) = 32),
    hash            bytea       NOT NULL CHECK (length(hash) = 32),
    -- The real guard against concurrent appends: a lost race is a violation
    -- of this constraint, reported as a conflict.
    CONSTRAINT events_stream_version_key UNIQUE (stream, version)
);

CREATE UNIQUE INDEX events_append_key ON events (stream, append_key) WHERE append_key IS NOT NULL;

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
