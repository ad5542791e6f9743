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
