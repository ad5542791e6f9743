-- 0104 down: the scalar functions' own bodies again (migrations 0084 and
-- 0101), then the set-returning ones go.
CREATE OR REPLACE FUNCTION awaited_since(old_to_move int[], old_since bigint[], to_move int[], version bigint)
RETURNS bigint[] LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(array_agg(coalesce(old_since[array_position(old_to_move, t.seat)], version) ORDER BY t.i), '{}')
    FROM unnest(to_move) WITH ORDINALITY AS t(seat, i)
$$;

CREATE OR REPLACE FUNCTION turn_mail(owed json, to_move int[], fresh json, cancel_from bigint, now_us bigint)
RETURNS json LANGUAGE sql IMMUTABLE AS $$
    SELECT json_agg(x.e ORDER BY x.k, x.i) FROM (
        SELECT o.e, 0 AS k, o.i
        FROM json_array_elements(coalesce(owed, '[]'::json)) WITH ORDINALITY AS o(e, i)
        WHERE (o.e->>'seat')::int = ANY (to_move)
          AND (cancel_from = 0 OR (o.e->>'version')::bigint < cancel_from)
          AND NOT EXISTS (SELECT 1 FROM json_array_elements(coalesce(fresh, '[]'::json)) f
              WHERE (f->>'seat')::int = (o.e->>'seat')::int)
        UNION ALL
        SELECT json_build_object('seat', f.e->'seat', 'version', f.e->'version', 'at_us', now_us,
            'due_us', now_us + coalesce((f.e->>'delay_us')::bigint, 0), 'payload', f.e->'payload'), 1, f.i
        FROM json_array_elements(coalesce(fresh, '[]'::json)) WITH ORDINALITY AS f(e, i)
    ) x
$$;

DROP FUNCTION IF EXISTS awaited_next(int[], bigint[], int[], bigint);
DROP FUNCTION IF EXISTS turn_mail_next(json, int[], json, bigint, bigint);
