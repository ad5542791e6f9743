DROP FUNCTION IF EXISTS events_append(text, bigint, text[], text[], text[], text[], text[], bytea[], text, timestamptz);
DROP TABLE IF EXISTS events;
