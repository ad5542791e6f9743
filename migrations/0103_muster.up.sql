-- 0103 muster (issue #46), expand: a game may wait for its invited people
-- to accept before its first turn (status 'muster'; events/play/muster.go),
-- and a person's record says which seats they declined or never answered
-- at a muster (seat_records.muster; projections.Stints).
--
-- The previous release never writes 'muster' and reads no new column. The
-- deadline scheduler finds the mustering games through games_muster, as it
-- finds the active ones through games_active (migration 0081).
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('active', 'paused', 'finished', 'aborted', 'muster'));
CREATE INDEX games_muster ON games (id) WHERE status = 'muster';
ALTER TABLE seat_records ADD COLUMN muster text NOT NULL DEFAULT ''
    CHECK (muster IN ('', 'declined', 'silent'));
