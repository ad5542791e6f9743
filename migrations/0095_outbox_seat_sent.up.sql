-- 0095 the table-talk emails sent to a seat (issue #31): the worker
-- gathers table talk, at most one email per seat and game per quarter
-- hour, and starts each after the version the last one told; it finds
-- them by game and seat among the sent rows.
CREATE INDEX outbox_seat_sent ON outbox (game_id, seat, kind) WHERE status = 'sent';
