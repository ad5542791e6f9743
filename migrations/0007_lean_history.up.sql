-- 0007 lean history: a history row keeps only what its seat sees of an
-- event (the redacted data and the summary line). The event's type, actor,
-- time and hashes, which every row copied (about 90 of its 250 bytes, and of
-- the WAL of each move), are read from the events table, joined on
-- (stream, version) through its unique index. Existing rows lose the copies;
-- their events hold the same values.
ALTER TABLE history DROP COLUMN type, DROP COLUMN actor, DROP COLUMN hash,
    DROP COLUMN prev_hash, DROP COLUMN recorded_at;
