DROP TABLE IF EXISTS seat_visits;
