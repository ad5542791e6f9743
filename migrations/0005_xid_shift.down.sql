-- Back to 0004: positions from the transaction id alone.
DROP FUNCTION events_position_base();
DROP TABLE events_xid_shift;
