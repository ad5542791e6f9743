-- 0002 games: the game service's projections (game state + lobby, inbox,
-- per-seat history), its primary data (seats with emails and token hashes),
-- remembered answers of keyed moves, and the email outbox.

-- One row per game: the lobby and the game-state projection. Rebuilt from
-- the events, except admin_token_hash (primary data) and the scheduler
-- columns deadline_at, reminder_at, reminded_version (see package projections).
CREATE TABLE games (
    id               text PRIMARY KEY,
    game             text NOT NULL,
    rules_version    text NOT NULL,
    language         text NOT NULL,
    options          jsonb NOT NULL DEFAULT '{}',
    players          jsonb NOT NULL,
    status           text NOT NULL CHECK (status IN ('active', 'paused', 'finished', 'aborted')),
    version          bigint NOT NULL,
    -- json, not jsonb: written on every move, read whole, never queried inside.
    state            json NOT NULL,
    to_move          int[] NOT NULL DEFAULT '{}',
    seed_hash        bytea NOT NULL,
    admin_token_hash bytea NOT NULL,
    result           jsonb,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    finished_at      timestamptz,
    turn_deadline    interval NOT NULL DEFAULT '72 hours',
    reminder_before  interval NOT NULL DEFAULT '24 hours',
    timeout_policy   text NOT NULL DEFAULT 'default_move'
                     CHECK (timeout_policy IN ('default_move', 'skip', 'pause')),
    deadline_at      timestamptz,
    reminder_at      timestamptz,
    reminded_version bigint,
    paused           boolean NOT NULL DEFAULT false,
    extensions       int NOT NULL DEFAULT 0
);
CREATE INDEX games_deadline ON games (deadline_at) WHERE status = 'active';
CREATE INDEX games_reminder ON games (reminder_at) WHERE status = 'active';

-- The players: primary data (emails are personal data and never in events).
CREATE TABLE seats (
    game_id    text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       int NOT NULL,
    name       text NOT NULL,
    email      text NOT NULL,
    token_gen  int NOT NULL DEFAULT 0,
    token_hash bytea NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_email ON seats (lower(email));

-- The projections below have no foreign key to games: they are written in
-- the same statement as their game row, and a key check per row would cost
-- every move (games are never deleted).

-- Inbox: one row per seat whose decision a game awaits.
CREATE TABLE inbox (
    game_id  text NOT NULL,
    seat     int NOT NULL,
    version  bigint NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- History: each event as the public (seat -1) sees it, plus a row for each
-- seat that sees it differently (its own hidden cards).
CREATE TABLE history (
    game_id     text NOT NULL,
    version     bigint NOT NULL,
    seat        int NOT NULL,
    type        text NOT NULL,
    actor       text NOT NULL DEFAULT '',
    data        json NOT NULL,
    summary     text NOT NULL,
    hash        bytea NOT NULL,
    prev_hash   bytea NOT NULL,
    recorded_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, version, seat)
);

-- Answers of moves posted with an idempotency key.
CREATE TABLE move_requests (
    game_id  text NOT NULL,
    seat     int NOT NULL,
    key      text NOT NULL,
    version  bigint NOT NULL,
    response json NOT NULL, -- json, not jsonb: the bytes of the first answer
    PRIMARY KEY (game_id, seat, key)
);

-- Emails to send, written in the same transaction as the events that cause
-- them; sent by the notify worker.
CREATE TABLE outbox (
    id bigserial PRIMARY KEY,
    game_id text NOT NULL,
    seat int,
    kind text NOT NULL,
    payload jsonb NOT NULL DEFAULT '{}',
    event_version bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','sent','failed')),
    attempts int NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error text,
    sent_at timestamptz,
    message_id text
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'pending';
