-- placeholder replaced by the events store work
SELECT 1;
