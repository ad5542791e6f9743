DROP INDEX IF EXISTS outbox_pending_seat;
