-- 0006 one append path: the event store chains the hashes in Go (events.ChainHash,
-- from the stream's head it remembers or reads) and writes every append with one
-- plain INSERT (events/postgres appendSQL). The PL/pgSQL functions that chained
-- a second copy of the hashes in SQL (0001 events_append, 0004 events_append_at)
-- go. The events table keeps its rows and columns as they are: stored hashes were
-- computed over the same canonical bytes whichever path wrote them.
DROP FUNCTION IF EXISTS events_append_at(text, bigint, int, text[], text[], text[], text[], text[], bytea[], text, timestamptz);
DROP FUNCTION IF EXISTS events_append(text, bigint, text[], text[], text[], text[], text[], bytea[], text, timestamptz);
