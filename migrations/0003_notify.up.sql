-- 0003 notify: the dev mailbox, mail preferences and digest bookkeeping.
-- The outbox itself is created by 0002 (games and projections); this file
-- only widens its status check with 'skipped' (a row not sent because of the
-- recipient's preference) and adds an index for the admin's "failed emails".

-- Messages "sent" while no PBEM_SMTP_URL is configured: shown at /dev/mail.
CREATE TABLE mailbox (
    id          bigserial PRIMARY KEY,
    outbox_id   bigint,
    message_id  text NOT NULL,
    from_addr   text NOT NULL,
    to_addr     text NOT NULL,
    subject     text NOT NULL,
    text_body   text NOT NULL,
    html_body   text NOT NULL,
    headers     jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Per-address mail preference: every event, a daily digest, or off.
-- Addresses are stored lower-cased. No row means 'every'.
CREATE TABLE mail_prefs (
    email       text PRIMARY KEY CHECK (email = lower(email)),
    mode        text NOT NULL CHECK (mode IN ('every', 'digest', 'off')),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- One digest per address and day: the primary key makes two serve
-- processes agree on who writes it.
CREATE TABLE mail_digests (
    email       text NOT NULL,
    day         date NOT NULL,
    outbox_id   bigint,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (email, day)
);

DO $$
BEGIN
    IF to_regclass('outbox') IS NOT NULL THEN
        ALTER TABLE outbox DROP CONSTRAINT IF EXISTS outbox_status_check;
        ALTER TABLE outbox ADD CONSTRAINT outbox_status_check
            CHECK (status IN ('pending', 'sent', 'failed', 'skipped'));
        CREATE INDEX IF NOT EXISTS outbox_failed ON outbox (game_id) WHERE status = 'failed';
    END IF;
END
$$;
