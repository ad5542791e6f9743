-- 0104 the move's UPDATE of games without per-row function calls (issue
-- #45), expand: new functions only; the previous release's calls of
-- turn_mail, turn_due and awaited_since keep working and return the same.
--
-- A scalar SQL function whose body has a FROM is never inlined: each call
-- runs its own executor. The batch's UPDATE of games (changesSQL in
-- projections/postgres) called awaited_since, turn_mail and turn_due for
-- every row, and that UPDATE was 43% of PostgreSQL's execution time in a
-- pbemload play (bench/peers/statements.sh, docs/performance.md), about 87
-- µs a row in its plan, mostly those calls. A set-returning SQL function
-- of one SELECT is inlined into the query that reads it in FROM, as a
-- subquery planned once with the statement: turn_mail_next and
-- awaited_next below are the same bodies written so, and turn_mail_next
-- also gives the merged array's turn_due from the same pass (turn_due
-- parsed the merged array again). The scalar functions now read them, so
-- each rule is written once.

-- turn_mail_next is turn_mail(owed, to_move, fresh, cancel_from, now_us)
-- (migration 0101: the elements of owed whose seat is still awaited, not
-- owed again in fresh, and not about a version at or after cancel_from,
-- then fresh's elements stamped with now_us; NULL when none is left) and
-- its turn_due (the earliest due_us; NULL for none), as one row.
CREATE FUNCTION turn_mail_next(owed json, to_move int[], fresh json, cancel_from bigint, now_us bigint)
RETURNS TABLE (turn_mail json, turn_due bigint) LANGUAGE sql IMMUTABLE AS $$
    SELECT json_agg(x.e ORDER BY x.k, x.i), min(x.due_us) FROM (
        SELECT o.e, 0 AS k, o.i, (o.e->>'due_us')::bigint AS due_us
        FROM json_array_elements(coalesce(owed, '[]'::json)) WITH ORDINALITY AS o(e, i)
        WHERE (o.e->>'seat')::int = ANY (to_move)
          AND (cancel_from = 0 OR (o.e->>'version')::bigint < cancel_from)
          AND NOT EXISTS (SELECT 1 FROM json_array_elements(coalesce(fresh, '[]'::json)) f
              WHERE (f->>'seat')::int = (o.e->>'seat')::int)
        UNION ALL
        SELECT json_build_object('seat', f.e->'seat', 'version', f.e->'version', 'at_us', now_us,
            'due_us', now_us + coalesce((f.e->>'delay_us')::bigint, 0), 'payload', f.e->'payload'), 1, f.i,
            now_us + coalesce((f.e->>'delay_us')::bigint, 0)
        FROM json_array_elements(coalesce(fresh, '[]'::json)) WITH ORDINALITY AS f(e, i)
    ) x
$$;

CREATE OR REPLACE FUNCTION turn_mail(owed json, to_move int[], fresh json, cancel_from bigint, now_us bigint)
RETURNS json LANGUAGE sql IMMUTABLE AS $$
    SELECT n.turn_mail FROM turn_mail_next(owed, to_move, fresh, cancel_from, now_us) AS n
$$;

-- awaited_next is awaited_since(old_to_move, old_since, to_move, version)
-- (migration 0084: a seat still awaited keeps its version, a newly awaited
-- seat gets this one) as one row.
CREATE FUNCTION awaited_next(old_to_move int[], old_since bigint[], to_move int[], version bigint)
RETURNS TABLE (awaited_since bigint[]) LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(array_agg(coalesce(old_since[array_position(old_to_move, t.seat)], version) ORDER BY t.i), '{}')
    FROM unnest(to_move) WITH ORDINALITY AS t(seat, i)
$$;

CREATE OR REPLACE FUNCTION awaited_since(old_to_move int[], old_since bigint[], to_move int[], version bigint)
RETURNS bigint[] LANGUAGE sql IMMUTABLE AS $$
    SELECT n.awaited_since FROM awaited_next(old_to_move, old_since, to_move, version) AS n
$$;
