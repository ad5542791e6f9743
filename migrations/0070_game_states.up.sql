-- 0070 game states: the engine state leaves the games row (issue #18, WAL
-- per move).
--
-- games.state (about 1.4 KB of JSON, 0.9 KB compressed) was rewritten with
-- its row on every move: 1,555 of the 4,215 bytes of WAL a move wrote
-- (bench/peers/walstats.sh). The state now lives in game_states, one row a
-- game holding a snapshot: the state after event `version`. The game
-- service writes it at creation, every projections.SnapshotEvery events and
-- when the game ends, and brings an older snapshot up to the game's version
-- by applying the events after it (events/game, catchUp). The games row
-- keeps only the narrow columns a move changes.
CREATE TABLE game_states (
    game_id text PRIMARY KEY,
    -- version: the game's version the snapshot was taken at.
    version bigint NOT NULL,
    state   json NOT NULL
);
INSERT INTO game_states (game_id, version, state) SELECT id, version, state FROM games;
ALTER TABLE games DROP COLUMN state;
