-- 0105 a your-turn email owed by its identity (issue #45, part 2), expand:
-- a new body for turn_mail_next (migration 0104), same signature.
--
-- A games row owed its your-turn emails with their payloads packed
-- (deflate, base64: 480 to 570 bytes), and every move rewrites the row,
-- so the WAL logged them move after move: about 620 of the ~1,730 bytes
-- a move wrote. Now the row owes only what identifies the email: the
-- seat, the version that made it awaited ("version") and the first
-- version of that append ("from": its events are what the email tells),
-- when it was owed and when its grace ends (at_us, due_us). The mail
-- worker writes the payload when it claims the due element
-- (notify/postgres.(*Outbox).Claim, projections.TurnRow), from the game
-- as it stands then. The element is written without the blanks
-- json_build_object puts around its keys and values: 86 bytes where that
-- wrote 100 (a 4-digit version), and every move writes it again.
--
-- An element the previous release writes with its payload keeps it
-- (the new worker sends that payload as it is), so both releases' moves
-- are merged here; the previous release's worker cannot read an element
-- without one, and leaves it owed until the new worker claims it.

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
        SELECT CASE WHEN f.e->'payload' IS NULL
            THEN format('{"seat":%s,"version":%s,"from":%s,"at_us":%s,"due_us":%s}', (f.e->>'seat')::int,
                (f.e->>'version')::bigint, coalesce((f.e->>'from')::bigint, 0), now_us,
                now_us + coalesce((f.e->>'delay_us')::bigint, 0))::json
            ELSE json_build_object('seat', f.e->'seat', 'version', f.e->'version', 'at_us', now_us,
                'due_us', now_us + coalesce((f.e->>'delay_us')::bigint, 0), 'payload', f.e->'payload') END,
            1, f.i, now_us + coalesce((f.e->>'delay_us')::bigint, 0)
        FROM json_array_elements(coalesce(fresh, '[]'::json)) WITH ORDINALITY AS f(e, i)
    ) x
$$;
