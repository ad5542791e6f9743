CREATE OR REPLACE FUNCTION events_position_base() RETURNS bigint
LANGUAGE sql VOLATILE AS $$
    SELECT (pg_current_xact_id()::text::bigint + s.shift) * 10000 FROM events_xid_shift s
$$;

DROP FUNCTION events_position_base(bigint);
