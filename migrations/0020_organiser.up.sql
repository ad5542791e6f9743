-- 0020 organiser (issue #15): games proposed by an organiser and confirmed
-- by a link emailed to them, addresses that refuse invitations, sign-in
-- links and sessions of "My games". All of it is primary data: none is
-- rebuilt from events (emails are personal data and never in events).

-- A game as its organiser proposed it. id is the game's id once confirmed
-- (the game's stream is created only then); request is the create request
-- (players with their emails, options, deadlines), read back to create it.
-- token_hash is SHA-256 of the confirmation link's token.
CREATE TABLE proposals (
    id              text PRIMARY KEY,
    token_hash      bytea NOT NULL UNIQUE,
    organiser_name  text NOT NULL,
    organiser_email text NOT NULL,
    request         jsonb NOT NULL,
    created_at      timestamptz NOT NULL,
    expires_at      timestamptz NOT NULL,
    confirmed_at    timestamptz
);
CREATE INDEX proposals_organiser ON proposals (lower(organiser_email));

-- Addresses that refuse every invitation (one click in an invitation),
-- lower-cased.
CREATE TABLE mail_blocks (
    email      text PRIMARY KEY CHECK (email = lower(email)),
    blocked_at timestamptz NOT NULL
);

-- Sign-in links: single use (used_at), short-lived (expires_at). Only the
-- token's hash is kept.
CREATE TABLE signin_links (
    id         text PRIMARY KEY,
    token_hash bytea NOT NULL UNIQUE,
    email      text NOT NULL CHECK (email = lower(email)),
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);

-- Sessions of "My games", opened by a sign-in link; the cookie holds the
-- token, the table its hash.
CREATE TABLE sessions (
    token_hash bytea PRIMARY KEY,
    email      text NOT NULL CHECK (email = lower(email)),
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_expiry ON sessions (expires_at);
