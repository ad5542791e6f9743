-- Back to 0030: the state in the games row. A snapshot may be older than
-- its game's version: run `pbem rebuild` after migrating down.
ALTER TABLE games ADD COLUMN state json;
UPDATE games g SET state = s.state FROM game_states s WHERE s.game_id = g.id;
UPDATE games SET state = '{}' WHERE state IS NULL;
ALTER TABLE games ALTER COLUMN state SET NOT NULL;
DROP TABLE game_states;
