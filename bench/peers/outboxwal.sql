-- outboxwal.sql: the WAL an email costs in the outbox, from its insert to
-- its outcome, at a given fillfactor. Run on a migrated pbem database
-- (e.g. one left by `go run ./bench/storage -keep`):
--
--   psql -X -q -d DATABASE -v ff=30 -f bench/peers/outboxwal.sql
--
-- It copies the outbox's columns and indexes into a scratch table, inserts
-- 1,500 your-turn emails (a real payload of a four-player Lords of
-- Scotland game, 0.7 KB), then does what the worker does (notify/postgres
-- claimSQL and finishSQL): claims ten due rows and records them sent, until
-- none is left. It prints the WAL bytes per email of the inserts and of the
-- claims and outcomes, and the heap's size.
DROP TABLE IF EXISTS outboxwal;
CREATE TABLE outboxwal (LIKE outbox INCLUDING ALL);
ALTER TABLE outboxwal SET (fillfactor = :ff);
CHECKPOINT;
SELECT pg_current_wal_lsn() AS l0 \gset
INSERT INTO outboxwal (game_id, seat, kind, payload, event_version)
SELECT substr(md5(i::text), 1, 16), i % 4, 'your_turn', '{"to": {"name": "Bob", "seat": 1, "email": "Bob@example.org"},
  "game": {"id": "szgbde6xbgllau7x", "name": "lords-of-scotland", "players": ["Ann", "Bob", "Cid", "Dee"]},
  "lines": ["Ann mustered Wemyss 5 face-up"], "moves": ["Recruit the face-up Cochrane 6 (place 1)",
  "Recruit the face-down card (place 2)", "Recruit the face-down card (place 3)", "Recruit the face-down card (place 4)",
  "Recruit the face-down card (place 5)", "Muster Makgill 7 face-up", "Muster Makgill 7 face-down",
  "Muster MacDonnell 9 face-up", "Muster MacDonnell 9 face-down", "Muster Forsyth 9 face-up", "Muster Forsyth 9 face-down",
  "Muster Forsyth 11 face-up", "Muster Forsyth 11 face-down", "Muster Cockburn 12 face-up", "Muster Cockburn 12 face-down"],
  "choice": "94d7f8c2", "version": 2, "deadline": "2026-11-28T04:08:18Z", "language": "en", "token_gen": 0}'::json, i
FROM generate_series(1, 1500) AS i;
SELECT pg_current_wal_lsn() AS l1 \gset
DO $$
DECLARE ids bigint[];
BEGIN
    LOOP
        WITH due AS (SELECT id FROM outboxwal WHERE status = 'pending' AND next_attempt_at <= now()
                     ORDER BY next_attempt_at, id LIMIT 10 FOR UPDATE SKIP LOCKED)
        UPDATE outboxwal o SET next_attempt_at = now() + interval '5 minutes', attempts = o.attempts + 1
        FROM due WHERE o.id = due.id;
        SELECT array_agg(id) INTO ids FROM (SELECT id FROM outboxwal WHERE status = 'pending' AND attempts = 1) x;
        EXIT WHEN ids IS NULL;
        UPDATE outboxwal o SET status = 'sent', sent_at = now(), last_error = NULL,
            message_id = 'outbox-' || o.id || '.' || o.game_id || '@pbem.example.org'
        WHERE o.id = ANY (ids) AND o.status <> 'sent';
        COMMIT;
    END LOOP;
END
$$;
SELECT pg_current_wal_lsn() AS l2 \gset
SELECT :ff AS fillfactor, count(*) AS emails, round(pg_wal_lsn_diff(:'l1', :'l0') / count(*)) AS insert_bytes,
    round(pg_wal_lsn_diff(:'l2', :'l1') / count(*)) AS claim_and_outcome_bytes,
    pg_relation_size('outboxwal') / 1024 AS heap_kb
FROM outboxwal;
DROP TABLE outboxwal;
