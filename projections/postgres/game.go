package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"pbem/engine"
	"pbem/events"
	"pbem/projections"
)

const gameColumns = `g.id, g.game, g.rules_version, g.language, g.options, g.players, g.status, g.version,
	st.state, st.version, g.to_move, g.seed_hash, g.admin_token_hash, g.result, g.created_at, g.updated_at, g.finished_at,
	g.turn_deadline, g.reminder_before, g.timeout_policy, g.deadline_at, g.reminder_at, g.reminded_version,
	g.extensions, s.seats, s.names, s.emails, s.gens, s.hashes, s.bots, s.langs, s.aways, st.commit_key, g.former, g.away_policy`

// gameFrom is the FROM clause of gameColumns: the game, its state snapshot
// (migration 0070) and its seats as
// arrays (cheaper to decode than one JSON document). The arrays are built in
// one pass over the seats' primary key, in seat order, without the five
// sorts that an ORDER BY in each aggregate costs; scanGame sorts the seats
// again in Go, so their order never depends on the plan.
const gameFrom = ` FROM games g JOIN game_states st ON st.game_id = g.id, LATERAL (SELECT array_agg(x.seat) AS seats, array_agg(x.name) AS names,
	array_agg(x.email) AS emails, array_agg(x.token_gen) AS gens, array_agg(x.token_hash) AS hashes,
	array_agg(x.bot) AS bots, array_agg(x.language) AS langs, array_agg(x.away) AS aways
	FROM (SELECT seat, name, email, token_gen, token_hash, coalesce(bot, '') AS bot, language, away FROM seats WHERE game_id = g.id ORDER BY seat) x) s`

// Game implements projections.Repository. Errors: events.CodeNotFound.
func (r *Repo) Game(ctx context.Context, id string) (*projections.Game, error) {
	return scanGame(r.pool.QueryRow(ctx, `SELECT `+gameColumns+gameFrom+` WHERE g.id = $1`, id), id)
}

// Versions implements projections.Repository.
func (r *Repo) Versions(ctx context.Context, ids []string) (map[string]int64, error) {
	rows, err := r.pool.Query(ctx, `SELECT id, version FROM games WHERE id = ANY ($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: versions: %w", err)
	}
	defer rows.Close()
	out := make(map[string]int64, len(ids))
	for rows.Next() {
		var id string
		var v int64
		if err := rows.Scan(&id, &v); err != nil {
			return nil, fmt.Errorf("projections/postgres: versions: %w", err)
		}
		out[id] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("projections/postgres: versions: %w", err)
	}
	return out, nil
}

func scanGame(row pgx.Row, id string) (*projections.Game, error) {
	var g projections.Game
	// Scanned as []byte: a json.RawMessage target would be re-validated.
	var players, result, options, state []byte
	var turn, rem pgtype.Interval
	var toMove, seats, gens []int32
	var names, emails, bots, langs, aways []string
	var hashes [][]byte
	var key, former []byte
	err := row.Scan(&g.ID, &g.Game, &g.RulesVersion, &g.Language, &options, &players, &g.Status, &g.Version,
		&state, &g.StateVersion, &toMove, &g.SeedHash, &g.AdminHash, &result, &g.CreatedAt, &g.UpdatedAt, &g.FinishedAt,
		&turn, &rem, &g.TimeoutPolicy, &g.DeadlineAt, &g.ReminderAt, &g.ReminderVersion, &g.Extensions,
		&seats, &names, &emails, &gens, &hashes, &bots, &langs, &aways, &key, &former, &g.AwayPolicy)
	if err != nil {
		return nil, notFound(err, id)
	}
	switch len(key) {
	case 0:
	case len(events.CommitKey{}):
		g.CommitKey = (*events.CommitKey)(key)
	default:
		return nil, fmt.Errorf("projections/postgres: commit key of %s is %d bytes", id, len(key))
	}
	g.Options, g.State = options, state
	if len(names) != len(seats) || len(emails) != len(seats) || len(gens) != len(seats) || len(hashes) != len(seats) || len(bots) != len(seats) || len(langs) != len(seats) || len(aways) != len(seats) {
		return nil, fmt.Errorf("projections/postgres: seats of %s: inconsistent arrays", id)
	}
	g.Seats = make([]projections.Seat, len(seats))
	for i := range seats {
		g.Seats[i] = projections.Seat{Seat: int(seats[i]), Name: names[i], Email: emails[i], TokenGen: int(gens[i]), TokenHash: hashes[i], Bot: bots[i], Language: langs[i]}
		if err := g.Seats[i].SetAwayText(aways[i]); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(g.Seats, func(a, b projections.Seat) int { return a.Seat - b.Seat })
	if err := json.Unmarshal(players, &g.Players); err != nil {
		return nil, fmt.Errorf("projections/postgres: players of %s: %w", id, err)
	}
	if len(former) > 0 {
		if err := json.Unmarshal(former, &g.Former); err != nil {
			return nil, fmt.Errorf("projections/postgres: former players of %s: %w", id, err)
		}
	}
	if len(result) > 0 && string(result) != "null" {
		g.Result = new(engine.Result)
		if err := json.Unmarshal(result, g.Result); err != nil {
			return nil, fmt.Errorf("projections/postgres: result of %s: %w", id, err)
		}
	}
	g.ToMove = make([]int, len(toMove))
	for i, s := range toMove {
		g.ToMove[i] = int(s)
	}
	g.TurnDeadline, g.ReminderBefore = duration(turn), duration(rem)
	utc(&g.CreatedAt)
	utc(&g.UpdatedAt)
	utcp(g.FinishedAt)
	utcp(g.DeadlineAt)
	utcp(g.ReminderAt)
	return &g, nil
}

func utc(t *time.Time) { *t = t.UTC() }

func utcp(t *time.Time) {
	if t != nil {
		*t = t.UTC()
	}
}

// GameIDs lists every game id, oldest first.
func (r *Repo) GameIDs(ctx context.Context) ([]string, error) {
	rows, err := r.pool.Query(ctx, `SELECT id FROM games ORDER BY created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: game ids: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: game ids: %w", err)
	}
	return ids, nil
}
