ALTER TABLE games RESET (fillfactor);
DROP INDEX games_active;
CREATE INDEX games_deadline ON games (deadline_at) WHERE status = 'active';
CREATE INDEX games_reminder ON games (reminder_at) WHERE status = 'active';
