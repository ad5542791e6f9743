-- 0030 bot seats: a seat may be played by a bot (issue #19).
--
-- seats.bot is the level ('easy', 'normal', 'strong') of the bot that plays
-- the seat, NULL for a person: written at creation from pbem.created and
-- changed by pbem.seat_bot (the organiser hands a seat to a bot and back).
-- seats.bot_lease is the bot worker's claim (see notify/postgres.BotWorker):
-- a worker takes an awaited bot seat with FOR UPDATE SKIP LOCKED and leases
-- it until this time, so that several servers play each decision once.
ALTER TABLE seats
    ADD COLUMN bot text CHECK (bot IN ('easy', 'normal', 'strong')),
    ADD COLUMN bot_lease timestamptz;
CREATE INDEX seats_bot ON seats (game_id, seat) WHERE bot IS NOT NULL;

-- The timeout policy "bot": the normal bot plays each awaited seat.
ALTER TABLE games DROP CONSTRAINT IF EXISTS games_timeout_policy_check;
ALTER TABLE games ADD CONSTRAINT games_timeout_policy_check
    CHECK (timeout_policy IN ('default_move', 'skip', 'pause', 'bot'));
