-- 0105 down: turn_mail_next as migration 0104 wrote it (every fresh
-- element with its payload).
CREATE OR REPLACE FUNCTION turn_mail_next(owed json, to_move int[], fresh json, cancel_from bigint, now_us bigint)
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
