-- 0094 when each seat last opened its play page (issue #31): the admin
-- page's seat table tells the organiser each player's last visit. NULL for
-- visits recorded before this column. Page bookkeeping like the rest of
-- seat_visits, not rebuilt from events.
ALTER TABLE seat_visits ADD COLUMN visited_at timestamptz;
