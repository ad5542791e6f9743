-- Undoes 0094.
ALTER TABLE seat_visits DROP COLUMN visited_at;
