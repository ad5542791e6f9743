-- 0082 games: the columns a move changes last in the row.
--
-- A HOT update (migration 0081) logs only the bytes between the first and
-- the last that changed (PostgreSQL's prefix and suffix compression of an
-- update on the same page). Every move changes version, to_move,
-- updated_at, deadline_at and reminder_at; with the seed and token hashes,
-- the intervals, the timeout policy and created_at between them, each
-- move logged those too. Moved to the end of the row (re-added, copied,
-- the old ones dropped: a dropped column costs a row nothing but its
-- null bit), a move's update of a real game row logs 124 bytes instead of
-- 220 (pg_walinspect). No index or view names them.
ALTER TABLE games ADD COLUMN version_ bigint, ADD COLUMN to_move_ int[], ADD COLUMN updated_at_ timestamptz,
    ADD COLUMN deadline_at_ timestamptz, ADD COLUMN reminder_at_ timestamptz;
UPDATE games SET version_ = version, to_move_ = to_move, updated_at_ = updated_at,
    deadline_at_ = deadline_at, reminder_at_ = reminder_at;
ALTER TABLE games DROP COLUMN version, DROP COLUMN to_move, DROP COLUMN updated_at,
    DROP COLUMN deadline_at, DROP COLUMN reminder_at;
ALTER TABLE games RENAME COLUMN version_ TO version;
ALTER TABLE games RENAME COLUMN to_move_ TO to_move;
ALTER TABLE games RENAME COLUMN updated_at_ TO updated_at;
ALTER TABLE games RENAME COLUMN deadline_at_ TO deadline_at;
ALTER TABLE games RENAME COLUMN reminder_at_ TO reminder_at;
ALTER TABLE games ALTER COLUMN version SET NOT NULL, ALTER COLUMN to_move SET NOT NULL,
    ALTER COLUMN to_move SET DEFAULT '{}', ALTER COLUMN updated_at SET NOT NULL;
