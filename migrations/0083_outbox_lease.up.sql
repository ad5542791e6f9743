-- 0083 outbox lease: a worker's claim on an email is its own column, so
-- that claiming changes no indexed column and the update stays HOT.
--
-- The claim used to lease a row by moving next_attempt_at (the key of
-- outbox_due) to the lease's end: an update of an indexed column, which
-- writes a new entry in outbox_pkey and outbox_due, about 90 bytes of WAL
-- an email, 50 a move in the peers load test (bench/peers/walstats.sh). A
-- claimed row now keeps its place in outbox_due; the claim query skips the
-- rows whose lease runs, and the few in flight are all it reads twice.
ALTER TABLE outbox ADD COLUMN leased_until timestamptz;
