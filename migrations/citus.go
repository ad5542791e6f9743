package migrations

import _ "embed"

// CitusDistribute is migrations/citus/distribute.sql: the step an operator
// runs once on a Citus coordinator after the migrations, which distributes
// the game tables by game id and makes the shared tables reference tables
// (docs/SCALING.md). It is not a migration: plain PostgreSQL never runs it.
//
//go:embed citus/distribute.sql
var CitusDistribute string
