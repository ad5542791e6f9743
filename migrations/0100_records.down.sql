DROP TABLE IF EXISTS leaderboard_listed;
DROP TABLE IF EXISTS rating_changes;
DROP TABLE IF EXISTS ratings;
DROP TABLE IF EXISTS seat_records;
DROP TABLE IF EXISTS record_games;
