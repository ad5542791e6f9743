DROP INDEX IF EXISTS seat_records_finished;
