-- Back to 0006: the copies of the events' columns, filled in from the events.
ALTER TABLE history ADD COLUMN type text, ADD COLUMN actor text NOT NULL DEFAULT '',
    ADD COLUMN hash bytea, ADD COLUMN prev_hash bytea, ADD COLUMN recorded_at timestamptz;
UPDATE history h SET type = e.type, actor = e.actor, hash = e.hash, prev_hash = e.prev_hash, recorded_at = e.recorded_at
FROM events e WHERE e.stream = h.game_id AND e.version = h.version;
ALTER TABLE history ALTER COLUMN type SET NOT NULL, ALTER COLUMN hash SET NOT NULL,
    ALTER COLUMN prev_hash SET NOT NULL, ALTER COLUMN recorded_at SET NOT NULL;
