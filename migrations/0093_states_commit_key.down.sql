-- Undoes 0093. Games created since keep format-2 chains, which nothing
-- older than 0093 can verify.
ALTER TABLE game_states DROP COLUMN commit_key;
