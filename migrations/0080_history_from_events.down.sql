-- The history table as migration 0007 left it, empty: `pbem rebuild` of
-- the release before 0080 fills it from the events.
CREATE TABLE history (
    game_id     text NOT NULL,
    version     bigint NOT NULL,
    seat        int NOT NULL,
    data        json NOT NULL,
    summary     text NOT NULL,
    PRIMARY KEY (game_id, version, seat)
);
