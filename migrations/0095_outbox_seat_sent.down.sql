-- Undoes 0095.
DROP INDEX IF EXISTS outbox_seat_sent;
