UPDATE games SET timeout_policy = 'default_move' WHERE timeout_policy = 'bot';
ALTER TABLE games DROP CONSTRAINT IF EXISTS games_timeout_policy_check;
ALTER TABLE games ADD CONSTRAINT games_timeout_policy_check
    CHECK (timeout_policy IN ('default_move', 'skip', 'pause'));
DROP INDEX IF EXISTS seats_bot;
ALTER TABLE seats DROP COLUMN IF EXISTS bot_lease, DROP COLUMN IF EXISTS bot;
