-- The columns keep their place at the end of the row: the order changes
-- nothing but the WAL of an update.
SELECT 1;
