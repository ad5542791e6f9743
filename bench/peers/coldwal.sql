-- coldwal.sql: the WAL of a move's update of its game row at a club's pace,
-- where the row's page is cold: changed for the first time since the last
-- checkpoint, so that PostgreSQL logs the whole page (full_page_writes),
-- at each setting of wal_compression. Run as a superuser (the script sets
-- wal_compression for its session) on a migrated pbem database with games
-- (one left by `go run ./bench/storage -keep`, or a load test's kept with
-- `pbemload -db`):
--
--   psql -X -q -d DATABASE -f bench/peers/coldwal.sql
--
-- It copies the games rows 30 times into a scratch table, then, after a
-- CHECKPOINT, updates 2,000 of them picked at random (version and
-- updated_at, as a move does: a HOT update), one transaction each, and
-- prints the WAL an update wrote. The load tests' plays (bench/peers,
-- walstats.sh) update a few hot pages many times between checkpoints and
-- log no whole page.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
DROP TABLE IF EXISTS coldwal_games;
CREATE TABLE coldwal_games AS SELECT * FROM games, generate_series(1, 30) k;
UPDATE coldwal_games SET id = id || lpad(k::text, 5, '0');
ALTER TABLE coldwal_games DROP COLUMN k;
VACUUM FULL coldwal_games;
ALTER TABLE coldwal_games ADD PRIMARY KEY (id);
SELECT count(*) AS rows, pg_relation_size('coldwal_games') / 8192 AS pages FROM coldwal_games;
CREATE TEMP TABLE coldwal_picks AS SELECT id FROM coldwal_games ORDER BY random() LIMIT 2000;
CREATE TEMP TABLE coldwal_result (wal_compression text, bytes_an_update numeric);
CREATE PROCEDURE pg_temp.coldwal_round(setting text) LANGUAGE plpgsql AS $$
DECLARE r text; a pg_lsn;
BEGIN
    PERFORM set_config('wal_compression', setting, false);
    CHECKPOINT;
    a := pg_current_wal_lsn();
    FOR r IN SELECT id FROM coldwal_picks LOOP
        UPDATE coldwal_games SET version = version + 1, updated_at = now() WHERE id = r;
        COMMIT;
    END LOOP;
    INSERT INTO coldwal_result VALUES (setting, round(pg_wal_lsn_diff(pg_current_wal_lsn(), a) / 2000));
    COMMIT;
END $$;
CALL pg_temp.coldwal_round('off');
CALL pg_temp.coldwal_round('pglz');
CALL pg_temp.coldwal_round('lz4');
SELECT * FROM coldwal_result;
DROP TABLE coldwal_games;
