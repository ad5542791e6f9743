-- 0101 turn mail (expand): a your-turn email is owed by the game row, not
-- written to the outbox by every move (issue #45, part 2).
--
-- Every move wrote the next seat's your-turn email into the outbox, about
-- 1,078 bytes of WAL and four index entries a move, and with the mail
-- grace (PBEM_MAIL_GRACE, 2 minutes) most of those rows were later claimed
-- only to be skipped as stale: the seat had played meanwhile. Now the move
-- keeps the your-turn emails it owes on the games row it updates anyway
-- (HOT, migration 0081), in turn_mail: a JSON array of
-- {"seat", "version", "at_us", "due_us", "payload"} (the payload exactly
-- as the outbox row would hold it; at_us and due_us microseconds since
-- 1970: when it was owed and when its grace ends). A later move replaces a
-- seat's element, drops those of seats no longer awaited and, at a
-- take-back, those of the moves taken back (turn_mail below). turn_due is
-- the earliest due_us of the array (NULL: none owed). The mail worker
-- (notify/postgres.Outbox.Claim) writes each due element's outbox row and
-- removes it from the array in one transaction, then claims as before: an
-- email owed is sent once, after its grace, across crashes.
--
-- No index keys either column (a move changes both): the worker finds the
-- owing games through games_active and filters turn_due in the heap, and
-- only when its clock says one is due (notify.Worker's wake-ups).

-- turn_mail is the turn_mail of a game whose to_move becomes to_move: the
-- elements of owed whose seat is still awaited, not owed again in fresh,
-- and not about a version at or after cancel_from (a take-back's first
-- version; 0: none), then fresh's elements stamped with now_us (each
-- carries its delay_us). NULL when none is left.
CREATE FUNCTION turn_mail(owed json, to_move int[], fresh json, cancel_from bigint, now_us bigint)
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

-- turn_due is the earliest due_us of owed (NULL for none).
CREATE FUNCTION turn_due(owed json) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
    SELECT min((e->>'due_us')::bigint) FROM json_array_elements(coalesce(owed, '[]'::json)) e
$$;

ALTER TABLE games ADD COLUMN turn_mail json, ADD COLUMN turn_due bigint;
