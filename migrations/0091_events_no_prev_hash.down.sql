-- Back to a stored prev_hash: each event's is its predecessor's hash, 32
-- zero bytes for version 1. A stream with a gap (a deleted event, which
-- verify reports) gets NULL there, which NOT NULL refuses: repair first.
ALTER TABLE events ADD COLUMN prev_hash bytea;

UPDATE events e SET prev_hash = CASE WHEN e.version = 1 THEN decode(repeat('00', 32), 'hex')
    ELSE (SELECT p.hash FROM events p WHERE p.stream = e.stream AND p.version = e.version - 1) END;

ALTER TABLE events ALTER COLUMN prev_hash SET NOT NULL,
    ADD CONSTRAINT events_prev_hash_check CHECK (length(prev_hash) = 32);
