-- 0050 seat visits: when each seat last opened its play page (issue #14).
--
-- The play page's "Since your last turn" tells the events after the later
-- of the seat's last move and its previous visit. seen is the version of
-- the last page served to the seat; since is the version it had seen
-- before that one (0 before any visit). Serving the page at a version
-- above seen moves seen to since and the new version to seen (one UPDATE
-- only when the version changed), so that reloading a page shows the same
-- lines again. This is bookkeeping of the pages, not game state: it is not
-- rebuilt from events.
CREATE TABLE seat_visits (
    game_id text   NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    int    NOT NULL CHECK (seat >= 0),
    seen    bigint NOT NULL CHECK (seen >= 0),
    since   bigint NOT NULL CHECK (since >= 0 AND since <= seen),
    PRIMARY KEY (game_id, seat)
);
