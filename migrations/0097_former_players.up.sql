-- 0097 former players (issue #31), expand: the people who played a seat
-- until the organiser gave it to someone else, as a JSON array of seats
-- ({"seat", "name", "email", "language", ...}); NULL while nobody left.
-- They are primary data, like the seats (a rebuild keeps them), and are
-- told of a pause, a resume and the end of the game.
ALTER TABLE games ADD COLUMN former jsonb;
