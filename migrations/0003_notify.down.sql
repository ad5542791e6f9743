DO $$
BEGIN
    IF to_regclass('outbox') IS NOT NULL THEN
        DROP INDEX IF EXISTS outbox_failed;
        UPDATE outbox SET status = 'sent' WHERE status = 'skipped';
        ALTER TABLE outbox DROP CONSTRAINT IF EXISTS outbox_status_check;
        ALTER TABLE outbox ADD CONSTRAINT outbox_status_check
            CHECK (status IN ('pending', 'sent', 'failed'));
    END IF;
END
$$;
DROP TABLE IF EXISTS mail_digests;
DROP TABLE IF EXISTS mail_prefs;
DROP TABLE IF EXISTS mailbox;
