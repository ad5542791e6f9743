ALTER TABLE seat_records DROP COLUMN muster;
DROP INDEX games_muster;
UPDATE games SET status = 'aborted' WHERE status = 'muster';
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('active', 'paused', 'finished', 'aborted'));
