-- 0080 history from events: the history table (each event as each seat may
-- see it, a pure function of the event, the game's engine and language and
-- the players' names) is no longer stored: readers tell the lines they show
-- from the events (projections.SeatHistory). It was 1.65 rows, about 560
-- bytes of WAL, a move and 40% of a finished game's storage.
DROP TABLE history;
