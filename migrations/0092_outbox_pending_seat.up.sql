-- 0092 outbox pending by seat: the outbox worker asks, just before it sends
-- a your-turn email or a reminder, whether a newer one to the same seat is
-- waiting (notify/postgres.Outbox.Freshness): then the older is stale and
-- is not sent. Only pending rows are indexed, so the index stays as small
-- as the queue; its columns are never updated, and status was already in
-- outbox_due's predicate, so the claim's update stays HOT (see 0083).
CREATE INDEX outbox_pending_seat ON outbox (game_id, seat) WHERE status = 'pending';
