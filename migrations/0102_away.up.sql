-- 0102 away (issue #43 part 8), expand: a person away until a date, in
-- each of their games by the game's away policy.
--
-- games.away_policy: what an away does in the game, chosen at setup
-- (pbem.created's away_policy): 'wait' (the deadlines wait), 'bot' (a bot
-- plays the seat until its person is back) or 'forbid'.
ALTER TABLE games ADD COLUMN away_policy text NOT NULL DEFAULT 'wait';

-- seats.away: the seat's away going on and those that ended, as JSON
-- (projections.Seat.AwayText; '' when its person was never away in the
-- game); seats.away_until: when the away going on ends (NULL: none), for
-- the scheduler that ends aways (events/play/postgres.Deadlines.DueBacks).
ALTER TABLE seats ADD COLUMN away text NOT NULL DEFAULT '',
    ADD COLUMN away_until timestamptz;
CREATE INDEX seats_away_until ON seats (away_until) WHERE away_until IS NOT NULL;
