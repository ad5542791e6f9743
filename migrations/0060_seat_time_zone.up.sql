-- 0060 seat time zone (issue #14): the IANA time zone a seat's browser
-- reported when its player opened the play page (for instance
-- 'Europe/Paris'), so that emails tell deadlines in the player's own time.
-- '' until the page has been opened with a zone: emails then say UTC. It is
-- primary data, like the seat's email: no event records it and a rebuild
-- keeps it.
ALTER TABLE seats ADD COLUMN time_zone text NOT NULL DEFAULT ''
    CHECK (length(time_zone) <= 64);
