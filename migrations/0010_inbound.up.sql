-- 0010 inbound: replies to emails read by the mail listener (issue #17).

-- One row per message read for a seat, keyed by a digest of its
-- Message-ID: the same message delivered twice is handled once. claimed_at
-- lets a message whose handling died (a crash before done) be handled again
-- when it is delivered again; answered rows count against the seat's
-- hourly bound of answers.
CREATE TABLE inbound_mail (
    game_id     text NOT NULL,
    key         text NOT NULL,
    seat        int NOT NULL,
    received_at timestamptz NOT NULL,
    claimed_at  timestamptz NOT NULL,
    done        boolean NOT NULL DEFAULT false,
    outcome     text NOT NULL DEFAULT '',
    answered    boolean NOT NULL DEFAULT false,
    PRIMARY KEY (game_id, key)
);
CREATE INDEX inbound_mail_answered ON inbound_mail (game_id, seat, received_at) WHERE answered;

-- Addresses that bounced for good, for the organiser (the seat's latest
-- email is also marked failed, so it shows in the admin's failed emails).
CREATE TABLE mail_bounces (
    email       text PRIMARY KEY CHECK (email = lower(email)),
    game_id     text NOT NULL,
    seat        int NOT NULL,
    reason      text NOT NULL,
    bounced_at  timestamptz NOT NULL
);
