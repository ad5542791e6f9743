-- 0071 outbox WAL: room on each outbox page for its rows' next versions,
-- and payloads stored as the JSON text they were written as.
--
-- The outbox worker updates every email twice after its insert: the claim
-- (attempts, next_attempt_at) and the outcome (status, sent_at,
-- message_id). A row is about 1 KB, most of it the payload, and an update
-- whose new version stays on the old one's page is logged as the bytes
-- that changed only (PostgreSQL's prefix and suffix compression), where one
-- that moves to another page logs the whole row. With pages filled to 30%,
-- the claim and the outcome of an email write 552 bytes of WAL instead of
-- 2,254 (bench/peers/outboxwal.sql: 1,500 your-turn emails claimed and
-- recorded sent ten at a time; 50% gives 1,466, 20% 605). The heap of those
-- emails is 6.0 MB instead of 4.2 while they are kept
-- (PBEM_OUTBOX_RETENTION). It applies to pages written from now on.
ALTER TABLE outbox SET (fillfactor = 30);

-- json, not jsonb (as events.data and history.data): the payload is written
-- once and read whole; jsonb stored a your-turn payload in 727 bytes, the
-- text takes 655 (75 bytes of WAL a move). The admin's list of failed
-- emails reads payload->'to'->>'email', which json answers as well.
ALTER TABLE outbox ALTER COLUMN payload TYPE json USING payload::json;
ALTER TABLE outbox ALTER COLUMN payload SET DEFAULT '{}'::json;
