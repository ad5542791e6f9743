-- 0081 games HOT: a move's update of its game row stays on the row's page
-- and writes no index entry (a heap-only tuple, HOT).
--
-- Every move changes deadline_at (a new seat is awaited) and reminder_at,
-- which the partial indexes games_deadline and games_reminder (migration
-- 0002) keyed: each such update was logged whole and wrote an entry in
-- every index of games, the primary key included (176 bytes of index WAL
-- a move). The deadline scheduler and the reminders now find the active
-- games through games_active, whose key (id) and predicate (status) a move
-- leaves alone (status changes only when a game pauses, resumes or ends),
-- and filter and order deadline_at / reminder_at in the heap: with 10,000
-- active games that reads every active row, a few milliseconds a tick
-- (docs/SCALING.md, "History from the events, games HOT").
--
-- The row's next version needs room on its page: pages filled to 80%
-- leave it for 97% of the moves (50% for all of them, but a finished
-- game's row would then take 2.0 KB on disk instead of 1.1). It applies
-- to pages written from now on (VACUUM FULL rewrites the others).
DROP INDEX games_deadline;
DROP INDEX games_reminder;
CREATE INDEX games_active ON games (id) WHERE status = 'active';
ALTER TABLE games SET (fillfactor = 80);
