-- 0095 seat language (issue #31), expand: the language its player reads
-- ('en', 'fr' or 'it'), chosen by the organiser for the seat
-- (players[i].language) and changed by the player from any page (the event
-- pbem.language). Pages, emails and answers to replies follow it. '' (the
-- previous release's seats, and its inserts) means the game's language.
ALTER TABLE seats ADD COLUMN language text NOT NULL DEFAULT ''
    CHECK (language IN ('', 'en', 'fr', 'it'));
