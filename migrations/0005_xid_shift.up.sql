-- 0005 xid shift: positions survive a pg_dump restored into another server.
--
-- An event's position was xid8 * 10000 + offset (0001, 0004). Transaction
-- ids belong to one server's history: restored into a fresh cluster, whose
-- ids start low, new events got positions below the restored ones, so the
-- store refused every write until the new cluster's epoch was pushed past
-- the old one with pg_resetwal. Positions are now
--
--     (xid8 + shift) * 10000 + offset
--
-- with shift a per-database constant kept in events_xid_shift. It is 0 on
-- the server that created the database (positions are unchanged) and is
-- raised by the store, once, when it finds positions at or above what this
-- server's transaction ids can produce: a restored database (see "Moving a
-- database" in events/postgres). pg_dump carries the row along with the
-- events, so a second restore raises it again from there.
--
-- The store's append (events/postgres) takes its positions from
-- events_position_base; the PL/pgSQL append functions of 0001 and 0004,
-- which computed them from the transaction id alone, are dropped by 0006.
--
-- Readers compute the watermark with the same shift: order by position is
-- still order by transaction id, which is all the gap-free reading of the
-- global log needs.
CREATE TABLE events_xid_shift (
    one   boolean PRIMARY KEY DEFAULT true CHECK (one),
    shift bigint  NOT NULL DEFAULT 0 CHECK (shift >= 0)
);
INSERT INTO events_xid_shift DEFAULT VALUES;

-- events_position_base is the first position of the calling transaction:
-- (its xid8 + shift) * 10000. It assigns the transaction an id (like
-- pg_current_xact_id) and is meant to be evaluated once per statement:
-- write it as a scalar subquery, (SELECT events_position_base()).
CREATE FUNCTION events_position_base() RETURNS bigint
LANGUAGE sql VOLATILE AS $$
    SELECT (pg_current_xact_id()::text::bigint + s.shift) * 10000 FROM events_xid_shift s
$$;
