-- distribute.sql: spreads a migrated pbem database over a Citus cluster
-- (docs/SCALING.md, "Running on Citus"). Run it once, on the coordinator,
-- after `pbem migrate up`, in a database where `CREATE EXTENSION citus`
-- has run and the workers are added (citus_add_node):
--   psql -v ON_ERROR_STOP=1 -d "$DATABASE_URL" -f migrations/citus/distribute.sql
-- Every table keyed by game is hash-distributed by its game column,
-- co-located with games, so all the rows of one game live on one worker and
-- a move is a single-node transaction; the small tables shared by every
-- game are reference tables (a copy on every node). pbem applies it to its
-- test databases when PBEM_TEST_CITUS is set (events/postgres/pgtest).

-- Unique keys must contain the distribution column (SCALING.md, point 1):
-- ids stay unique through their sequences.
ALTER TABLE events DROP CONSTRAINT events_pkey, ADD PRIMARY KEY (stream, position);
ALTER TABLE outbox DROP CONSTRAINT outbox_pkey, ADD PRIMARY KEY (game_id, id);

SELECT create_distributed_table('games', 'id');
SELECT create_distributed_table('events', 'stream', colocate_with => 'games');
SELECT create_distributed_table('archived_streams', 'stream', colocate_with => 'games');
SELECT create_distributed_table('game_states', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('seats', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('move_requests', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('outbox', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('inbound_mail', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('seat_visits', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('record_games', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('seat_records', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('rating_changes', 'game_id', colocate_with => 'games');

-- Small tables read across games: a copy on every node.
SELECT create_reference_table('mail_prefs');
SELECT create_reference_table('mail_digests');
SELECT create_reference_table('mail_bounces');
SELECT create_reference_table('mail_blocks');
SELECT create_reference_table('proposals');
SELECT create_reference_table('signin_links');
SELECT create_reference_table('sessions');
SELECT create_reference_table('ratings');
SELECT create_reference_table('leaderboard_listed');
-- events_xid_shift and schema_migrations stay on the coordinator: one row
-- per database, read by the coordinator's processes only. So does
-- mailbox, the dev mailbox (only without PBEM_SMTP_URL), which no
-- statement joins to another table: as a reference table every email
-- rendered into it was written on every node, a two-phase commit an email.
