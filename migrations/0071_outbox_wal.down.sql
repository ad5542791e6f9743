ALTER TABLE outbox ALTER COLUMN payload TYPE jsonb USING payload::jsonb;
ALTER TABLE outbox ALTER COLUMN payload SET DEFAULT '{}'::jsonb;
ALTER TABLE outbox RESET (fillfactor);
