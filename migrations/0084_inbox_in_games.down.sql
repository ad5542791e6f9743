CREATE TABLE inbox (
    game_id  text NOT NULL,
    seat     int NOT NULL,
    version  bigint NOT NULL,
    PRIMARY KEY (game_id, seat)
);
INSERT INTO inbox (game_id, seat, version)
SELECT g.id, t.seat, t.since FROM games g, unnest(g.to_move, g.awaited_since) AS t(seat, since);
ALTER TABLE games DROP COLUMN awaited_since;
DROP FUNCTION awaited_since(int[], bigint[], int[], bigint);
