UPDATE outbox SET next_attempt_at = greatest(next_attempt_at, leased_until) WHERE leased_until IS NOT NULL AND status = 'pending';
ALTER TABLE outbox DROP COLUMN leased_until;
