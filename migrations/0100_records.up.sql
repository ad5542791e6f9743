-- 0100 records (issue #46), expand: a person's record and the ratings,
-- read models built from the events (projections.Stints, Rate) and
-- rebuilt by `pbem rebuild`; and who chose to be on the leaderboards.
--
-- record_games: each ended game whose stints are stored, and the version
-- of its stream they were folded from.
CREATE TABLE record_games (
    game_id text PRIMARY KEY,
    version bigint NOT NULL
);

-- seat_records: one row per holder of a seat of an ended game (stint 0
-- for the first, 1 after the first replacement...). email is the
-- holder's address, lower-cased ('' for a bot's own seat, or an address
-- the primary data lost): personal data, never shown to others.
CREATE TABLE seat_records (
    game_id   text NOT NULL,
    seat      int NOT NULL,
    stint     int NOT NULL,
    game      text NOT NULL,
    name      text NOT NULL,
    email     text NOT NULL DEFAULT '' CHECK (email = lower(email)),
    bot       text NOT NULL DEFAULT '',
    outcome   text NOT NULL CHECK (outcome IN ('active', 'finished', 'aborted', 'left')),
    handed    text NOT NULL DEFAULT '',
    place     int NOT NULL DEFAULT 0,
    timed_out int NOT NULL DEFAULT 0,
    move_ms   bigint[] NOT NULL DEFAULT '{}',
    ended_at  timestamptz,
    PRIMARY KEY (game_id, seat, stint)
);
CREATE INDEX seat_records_email ON seat_records (email) WHERE email <> '';

-- ratings: one Glicko-2 rating per game and player (an address, or
-- 'bot:LEVEL'); name is what leaderboards show.
CREATE TABLE ratings (
    game       text NOT NULL,
    player     text NOT NULL,
    name       text NOT NULL,
    bot        text NOT NULL DEFAULT '',
    rating     float8 NOT NULL,
    rd         float8 NOT NULL,
    volatility float8 NOT NULL,
    games      int NOT NULL,
    PRIMARY KEY (game, player)
);

-- rating_changes: each rated seat of a finished game, before and after.
CREATE TABLE rating_changes (
    game_id    text NOT NULL,
    seat       int NOT NULL,
    player     text NOT NULL,
    name       text NOT NULL,
    bot        text NOT NULL DEFAULT '',
    rating_before float8 NOT NULL,
    rd_before     float8 NOT NULL,
    vol_before    float8 NOT NULL,
    rating_after  float8 NOT NULL,
    rd_after      float8 NOT NULL,
    vol_after     float8 NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- leaderboard_listed: the addresses that chose to be listed on the
-- leaderboards (by name; off unless a row says so). Primary data: a
-- rebuild keeps it.
CREATE TABLE leaderboard_listed (
    email     text PRIMARY KEY CHECK (email = lower(email)),
    listed_at timestamptz NOT NULL
);
