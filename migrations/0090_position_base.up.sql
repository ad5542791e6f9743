-- 0090 position base with the shift given: the event store's append names
-- its database's xid shift (migration 0005), which it reads once with its
-- check of the stored positions, so that computing a position reads no
-- table. events_position_base(shift) is a single expression, which the
-- planner inlines into the calling statement: the zero-argument form of
-- 0005 (a SQL function reading events_xid_shift, which the planner cannot
-- inline and runs as a sub-plan at each call) cost an append about 40 µs of
-- PostgreSQL CPU, a third of its total (bench/peers/eventstore, 32 writers).
-- The zero-argument form stays, for bulk loaders that read the shift in
-- SQL, and now uses the same formula.
CREATE FUNCTION events_position_base(shift bigint) RETURNS bigint
LANGUAGE sql VOLATILE AS $$
    SELECT (pg_current_xact_id()::text::bigint + shift) * 10000
$$;

CREATE OR REPLACE FUNCTION events_position_base() RETURNS bigint
LANGUAGE sql VOLATILE AS $$
    SELECT events_position_base(s.shift) FROM events_xid_shift s
$$;
