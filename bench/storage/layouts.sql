-- layouts.sql: the WAL and the disk the events of a database would take in
-- other layouts than pbem's (one row an event): what issue #45's goals on
-- storage and WAL would need of the event store. Run on a database with
-- played games, finished ones among them (a play of the load tool kept
-- with -db, or one left by `go run ./bench/storage -keep`):
--
--   psql -X -q -d DATABASE -f bench/storage/layouts.sql
--
-- It writes, in scratch tables it drops at the end:
--   rows:    the events as they are, one row an event, inserted one
--            statement an append as the event store does;
--   appends: one row an append (the events of one stream in one
--            transaction: their types and data in one JSON array, their
--            hashes end to end in one bytea), unique on (stream, version)
--            as the events are, inserted the same way;
--   log:     one row an append that also carries what a move now changes
--            in its games row (the seats awaited, since which versions,
--            the deadline and the reminder's time, the owed your-turn
--            email and when it is due, with today's types and sizes), so
--            that a move would write this row and no games update: unique
--            on (stream, version) alone, the global order kept by a BRIN
--            index on position (and the due times by one on turn_due);
--   lean:    the log carrying only when its your-turn email falls due
--            (turn_due): the seats awaited and since when follow from the
--            events, the deadline from the game's settings;
--   archive: each finished game's events in one row (JSONB, compressed
--            with lz4; the hashes end to end, uncompressible), as a job
--            that archived finished games would keep them.
-- and prints the WAL an append writes in the first four (with, for the
-- first, the games row's update of the same move: games_update, a HOT
-- update of the columns a move changes, on a copy of the active rows),
-- and the bytes a finished game takes in each (heap, TOAST and indexes).
\set ON_ERROR_STOP on
SET client_min_messages = warning;
DROP TABLE IF EXISTS layout_rows, layout_appends, layout_log, layout_lean, layout_games, layout_archive, layout_src;
CREATE TABLE layout_rows (LIKE events INCLUDING ALL);
CREATE TABLE layout_appends (
    position bigint PRIMARY KEY, stream text NOT NULL, version bigint NOT NULL, count int NOT NULL,
    recorded_at timestamptz NOT NULL, actor text NOT NULL, request_id text NOT NULL,
    idempotency_key text NOT NULL, append_key text, events json NOT NULL, hashes bytea NOT NULL,
    UNIQUE (stream, version));
CREATE TABLE layout_log (
    stream text NOT NULL, version bigint NOT NULL, count int NOT NULL, position bigint NOT NULL,
    recorded_at timestamptz NOT NULL, deadline_at timestamptz, reminder_at timestamptz, turn_due bigint,
    actor text NOT NULL, request_id text NOT NULL, idempotency_key text NOT NULL, append_key text,
    to_move int[] NOT NULL, awaited_since bigint[] NOT NULL, turn_mail json,
    events json NOT NULL, hashes bytea NOT NULL, PRIMARY KEY (stream, version));
CREATE INDEX ON layout_log USING brin (position);
CREATE INDEX ON layout_log USING brin (turn_due);
CREATE TABLE layout_lean (
    stream text NOT NULL, version bigint NOT NULL, count int NOT NULL, position bigint NOT NULL,
    recorded_at timestamptz NOT NULL, turn_due bigint, actor text NOT NULL, request_id text NOT NULL,
    idempotency_key text NOT NULL, append_key text, events json NOT NULL, hashes bytea NOT NULL,
    PRIMARY KEY (stream, version));
CREATE INDEX ON layout_lean USING brin (position);
CREATE INDEX ON layout_lean USING brin (turn_due);
-- The active games rows, to update as a move does (its HOT update).
CREATE TABLE layout_games (LIKE games INCLUDING ALL);
INSERT INTO layout_games SELECT * FROM games WHERE status = 'active';
CREATE TABLE layout_archive (stream text PRIMARY KEY, first_position bigint NOT NULL, events jsonb NOT NULL,
    hashes bytea NOT NULL);
ALTER TABLE layout_archive ALTER COLUMN events SET COMPRESSION lz4;
-- An append is the events of one stream whose positions share their
-- transaction's (position / 10000: events/postgres positionsPerTx).
CREATE TABLE layout_src AS
SELECT min(position) AS position, stream, min(version) AS version, count(*)::int AS count,
    min(recorded_at) AS recorded_at, min(actor) AS actor, min(request_id) AS request_id,
    min(idempotency_key) AS idempotency_key, min(append_key) AS append_key,
    json_agg(json_build_object('type', type, 'data', data) ORDER BY version) AS events,
    string_agg(hash, ''::bytea ORDER BY version) AS hashes
FROM events GROUP BY stream, position / 10000;
CREATE INDEX ON layout_src (position);
CHECKPOINT;
SELECT pg_current_wal_lsn() AS a \gset
DO $$ DECLARE p bigint; BEGIN
    FOR p IN SELECT position FROM layout_src ORDER BY position LOOP
        INSERT INTO layout_rows SELECT * FROM events WHERE position >= p AND position < p - p % 10000 + 10000
            AND stream = (SELECT stream FROM layout_src WHERE position = p);
    END LOOP; END $$;
SELECT pg_current_wal_lsn() AS b \gset
DO $$ DECLARE p bigint; BEGIN
    FOR p IN SELECT position FROM layout_src ORDER BY position LOOP
        INSERT INTO layout_appends SELECT * FROM layout_src WHERE position = p;
    END LOOP; END $$;
SELECT pg_current_wal_lsn() AS c \gset
-- The log: the game's fields as a move writes them today (one seat
-- awaited since this append, a deadline three days on, a your-turn email
-- owed with the 86-byte element of migration 0105, due a minute on).
DO $$ DECLARE p bigint; BEGIN
    FOR p IN SELECT position FROM layout_src ORDER BY position LOOP
        INSERT INTO layout_log SELECT s.stream, s.version, s.count, s.position, s.recorded_at,
            s.recorded_at + interval '72 hours', s.recorded_at + interval '48 hours',
            (extract(epoch FROM s.recorded_at) * 1e6)::bigint + 60000000,
            s.actor, s.request_id, s.idempotency_key, s.append_key,
            ARRAY[(s.version % 4)::int], ARRAY[s.version + s.count - 1],
            format('[{"seat":%s,"version":%s,"from":%s,"at_us":%s,"due_us":%s}]', s.version % 4, s.version + s.count - 1,
                s.version, (extract(epoch FROM s.recorded_at) * 1e6)::bigint,
                (extract(epoch FROM s.recorded_at) * 1e6)::bigint + 60000000)::json,
            s.events, s.hashes
        FROM layout_src s WHERE s.position = p;
    END LOOP; END $$;
SELECT pg_current_wal_lsn() AS d \gset
DO $$ DECLARE p bigint; BEGIN
    FOR p IN SELECT position FROM layout_src ORDER BY position LOOP
        INSERT INTO layout_lean SELECT s.stream, s.version, s.count, s.position, s.recorded_at,
            (extract(epoch FROM s.recorded_at) * 1e6)::bigint + 60000000,
            s.actor, s.request_id, s.idempotency_key, s.append_key, s.events, s.hashes
        FROM layout_src s WHERE s.position = p;
    END LOOP; END $$;
SELECT pg_current_wal_lsn() AS f \gset
-- The games update a move writes today, once an append, on the active
-- rows in turn (the same columns and values as the log's).
DO $$ DECLARE p bigint; g text; n bigint; BEGIN
    SELECT count(*) INTO n FROM layout_games;
    FOR p IN SELECT position FROM layout_src ORDER BY position LOOP
        SELECT id INTO g FROM layout_games ORDER BY id OFFSET (p / 10000) % greatest(n, 1) LIMIT 1;
        UPDATE layout_games SET version = version + 1, to_move = ARRAY[(version % 4)::int],
            updated_at = now(), deadline_at = now() + interval '72 hours', reminder_at = now() + interval '48 hours',
            awaited_since = ARRAY[version + 1],
            turn_mail = format('[{"seat":%s,"version":%s,"from":%s,"at_us":%s,"due_us":%s}]', version % 4, version + 1,
                version + 1, (extract(epoch FROM now()) * 1e6)::bigint, (extract(epoch FROM now()) * 1e6)::bigint + 60000000)::json,
            turn_due = (extract(epoch FROM now()) * 1e6)::bigint + 60000000
        WHERE id = g;
    END LOOP; END $$;
SELECT pg_current_wal_lsn() AS e \gset
INSERT INTO layout_archive
SELECT e.stream, min(e.position),
    jsonb_agg(jsonb_build_array(e.version, e.position, e.type, e.data, e.actor, e.request_id, e.recorded_at) ORDER BY e.version),
    string_agg(e.hash, ''::bytea ORDER BY e.version)
FROM events e JOIN games g ON g.id = e.stream AND g.status = 'finished' GROUP BY e.stream;
VACUUM FULL layout_rows;
VACUUM FULL layout_appends;
VACUUM FULL layout_log;
VACUUM FULL layout_lean;
VACUUM FULL layout_archive;
\echo 'WAL an append (the events of one stream in one transaction), inserted one statement an append:'
SELECT count(*) AS appends, round(avg(count), 2) AS events_an_append,
    round(pg_wal_lsn_diff(:'b', :'a') / nullif(count(*), 0)) AS "rows: bytes",
    round(pg_wal_lsn_diff(:'e', :'f') / nullif(count(*), 0)) AS "games_update: bytes",
    round(pg_wal_lsn_diff(:'c', :'b') / nullif(count(*), 0)) AS "appends: bytes",
    round(pg_wal_lsn_diff(:'d', :'c') / nullif(count(*), 0)) AS "log: bytes",
    round(pg_wal_lsn_diff(:'f', :'d') / nullif(count(*), 0)) AS "lean: bytes"
FROM layout_src;
\echo 'A finished game (its events only; heap, TOAST and indexes):'
WITH f AS (SELECT id FROM games WHERE status = 'finished'),
    n AS (SELECT (SELECT count(*) FROM f) AS games,
        (SELECT count(*) FROM events WHERE stream IN (SELECT id FROM f)) AS events,
        (SELECT count(*) FROM events) AS all_events,
        (SELECT count(*) FROM layout_src) AS all_appends)
SELECT games, round(events::numeric / nullif(games, 0)) AS events_a_game,
    round(pg_total_relation_size('layout_rows')::numeric / nullif(all_events, 0) * events / nullif(games, 0) / 1024, 1) AS "rows: KB",
    round(pg_total_relation_size('layout_appends')::numeric / nullif(all_events, 0) * events / nullif(games, 0) / 1024, 1) AS "appends: KB",
    round(pg_total_relation_size('layout_log')::numeric / nullif(all_events, 0) * events / nullif(games, 0) / 1024, 1) AS "log: KB",
    round(pg_total_relation_size('layout_lean')::numeric / nullif(all_events, 0) * events / nullif(games, 0) / 1024, 1) AS "lean: KB",
    round(pg_total_relation_size('layout_archive')::numeric / nullif(games, 0) / 1024, 1) AS "archive: KB"
FROM n;
DROP TABLE layout_rows, layout_appends, layout_log, layout_lean, layout_games, layout_archive, layout_src;
