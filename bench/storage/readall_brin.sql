-- readall_brin.sql: what the global order costs without a B-tree on
-- position (issue #45's redesign: a BRIN index in place of events_pkey
-- saves about 75 bytes of WAL a move). Run on a database with played
-- games (a play of the load tool kept with -db):
--
--   psql -X -q -d DATABASE -f bench/storage/readall_brin.sql
--
-- It copies the events twenty times over (positions shifted, streams
-- renamed) into two scratch tables in position order, one with a B-tree
-- on position and one with a BRIN index, then reads each whole in
-- position order as ReadAll does, in batches of 1,000 and of 5,000: the
-- B-tree by "position > last ORDER BY position LIMIT n", the BRIN by
-- windows of positions ("position > last AND position <= last + span"),
-- the span halved after a full batch and doubled after a short one (a
-- BRIN index keeps no order: without a window, every batch would read the
-- rest of the table). It prints the events a second each read, in the
-- server alone (no rows leave it), and drops the tables.
\set ON_ERROR_STOP on
SET client_min_messages = notice;
DROP TABLE IF EXISTS readall_btree, readall_brin;
CREATE TABLE readall_btree AS
SELECT e.position + k::bigint * (m.hi - m.lo + 10000) AS position, e.stream || '.' || k AS stream, e.version, e.type, e.data,
    e.actor, e.request_id, e.idempotency_key, e.append_key, e.recorded_at, e.hash
FROM generate_series(0, 19) k, (SELECT min(position) AS lo, max(position) AS hi FROM events) m,
    LATERAL (SELECT * FROM events ORDER BY position) e
ORDER BY 1;
ALTER TABLE readall_btree ADD PRIMARY KEY (position);
CREATE TABLE readall_brin AS SELECT * FROM readall_btree ORDER BY position;
CREATE INDEX ON readall_brin USING brin (position);
VACUUM ANALYZE readall_btree;
VACUUM ANALYZE readall_brin;
CREATE FUNCTION pg_temp.read_btree(batch int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE last bigint := 0; n int; m bigint; chk bigint; total bigint := 0; t0 timestamptz := clock_timestamp();
BEGIN
    LOOP
        SELECT count(*), max(position), sum(length(data::text) + length(hash)) INTO n, m, chk
        FROM (SELECT * FROM readall_btree WHERE position > last ORDER BY position LIMIT batch) s;
        total := total + n;
        EXIT WHEN n < batch;
        last := m;
    END LOOP;
    RETURN format('B-tree, batches of %s: %s events, %s events/s', batch, total,
        round(total / extract(epoch FROM clock_timestamp() - t0)));
END $$;
CREATE FUNCTION pg_temp.read_brin(batch int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE last bigint := 0; top bigint; span bigint; n int; m bigint; chk bigint; total bigint := 0;
    t0 timestamptz := clock_timestamp();
BEGIN
    -- ReadAll's watermark stands in for top; the first span assumes the
    -- table's mean density.
    SELECT max(position), (max(position) - min(position)) / count(*) * batch INTO top, span FROM readall_btree;
    LOOP
        SELECT count(*), max(position), sum(length(data::text) + length(hash)) INTO n, m, chk
        FROM (SELECT * FROM readall_brin WHERE position > last AND position <= last + span
            ORDER BY position LIMIT batch) s;
        total := total + n;
        IF n = batch THEN last := m; span := greatest(span / 2, 10000);
        ELSE last := last + span; span := span * 2; END IF;
        EXIT WHEN last >= top;
    END LOOP;
    RETURN format('BRIN windows, batches of %s: %s events, %s events/s', batch, total,
        round(total / extract(epoch FROM clock_timestamp() - t0)));
END $$;
SELECT pg_size_pretty(pg_relation_size('readall_btree')) AS heap,
    pg_size_pretty(pg_indexes_size('readall_btree')) AS "B-tree",
    pg_size_pretty(pg_indexes_size('readall_brin')) AS "BRIN";
SELECT pg_temp.read_btree(1000) AS read UNION ALL SELECT pg_temp.read_brin(1000)
UNION ALL SELECT pg_temp.read_btree(5000) UNION ALL SELECT pg_temp.read_brin(5000);
DROP TABLE readall_btree, readall_brin;
