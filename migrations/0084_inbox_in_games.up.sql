-- 0084 the inbox in the games row: which seats a game awaits, and since
-- which version, are read from games.to_move and games.awaited_since (one
-- version per seat of to_move, in its order), and the inbox table goes.
--
-- Every move deleted the mover's inbox row and inserted the next seat's:
-- four WAL records and 245 bytes a move in the peers load test
-- (bench/peers/walstats.sh), for a copy of to_move with a version per
-- seat. The games row is updated by every move anyway, HOT (0081), with
-- its changing columns last (0082): the versions ride along for a few
-- bytes. The readers (a player's inbox, digests, "waiting since") find the
-- games through seats' address index and test seat = ANY (to_move).

-- awaited_since is the awaited_since of a game whose to_move goes from
-- old_to_move to to_move at version: a seat still awaited keeps its
-- version, a newly awaited seat gets this one.
CREATE FUNCTION awaited_since(old_to_move int[], old_since bigint[], to_move int[], version bigint)
RETURNS bigint[] LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(array_agg(coalesce(old_since[array_position(old_to_move, t.seat)], version) ORDER BY t.i), '{}')
    FROM unnest(to_move) WITH ORDINALITY AS t(seat, i)
$$;

ALTER TABLE games ADD COLUMN awaited_since bigint[] NOT NULL DEFAULT '{}';

UPDATE games g SET awaited_since = (
    SELECT coalesce(array_agg(coalesce(i.version, g.version) ORDER BY t.i), '{}')
    FROM unnest(g.to_move) WITH ORDINALITY AS t(seat, i)
    LEFT JOIN inbox i ON i.game_id = g.id AND i.seat = t.seat);

DROP TABLE inbox;
