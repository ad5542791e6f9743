package projections

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"

	"pbem/events"
)

// ECorrupt is the code of a projection that does not match its events.
const ECorrupt = "corrupt"

// replay folds a game's whole stream into a Change, as a rebuild writes it.
// live gives the primary data (seats, admin token hash).
func (s *Service) replay(ctx context.Context, live *Game) (*Change, []events.Event, error) {
	evs, err := s.store.ReadStream(ctx, live.ID, 1)
	if err != nil {
		return nil, nil, err
	}
	if len(evs) == 0 {
		return nil, nil, Errorf(ECorrupt, "game %s has no events", live.ID)
	}
	shell := &Game{ID: live.ID, Seats: slices.Clone(live.Seats), AdminHash: live.AdminHash}
	p := &projector{games: s.games, g: shell, now: func(e events.Event) time.Time { return e.RecordedAt }}
	b, err := p.apply(evs, nil)
	if err != nil {
		return nil, nil, err
	}
	return &Change{Game: p.g, History: b.history}, evs, nil
}

// Rebuild recomputes game id's projections from its events alone and
// writes them. It is safe while the game is played: if a move commits
// between the read of the events and the write, it starts again.
// Errors: ENotFound, ECorrupt for a game without events, EConflict if the
// game kept moving through several attempts.
func (s *Service) Rebuild(ctx context.Context, id string) error {
	var err error
	for range 5 {
		var live *Game
		if live, err = s.repo.Game(ctx, id); err != nil {
			return err
		}
		var c *Change
		if c, _, err = s.replay(ctx, live); err != nil {
			return err
		}
		if err = s.repo.Replace(ctx, c); ErrorCode(err) != EConflict {
			return err
		}
	}
	return err
}

// RebuildAll rebuilds every game; progress, if set, is called after each
// game with the number done and the total. It stops at the first error.
func (s *Service) RebuildAll(ctx context.Context, progress func(done, total int)) (int, error) {
	ids, err := s.repo.GameIDs(ctx)
	if err != nil {
		return 0, err
	}
	for i, id := range ids {
		if err := s.Rebuild(ctx, id); err != nil {
			return i, fmt.Errorf("rebuild %s: %w", id, err)
		}
		if progress != nil {
			progress(i+1, len(ids))
		}
	}
	return len(ids), nil
}

// GameIDs lists every game, oldest first.
func (s *Service) GameIDs(ctx context.Context) ([]string, error) { return s.repo.GameIDs(ctx) }

// Verify replays game id from its events, checks their hash chain and the
// seed's hash, and compares the result with the stored projections. It
// returns nil, a *events.ChainError for a broken chain, or an *Error with
// code ECorrupt naming the first difference. Errors: ENotFound.
func (s *Service) Verify(ctx context.Context, id string) error {
	live, err := s.repo.Game(ctx, id)
	if err != nil {
		return err
	}
	if err := s.store.Verify(ctx, id); err != nil {
		return err
	}
	c, evs, err := s.replay(ctx, live)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return err
		}
		return Errorf(ECorrupt, "game %s does not replay: %v", id, err)
	}
	var created Created
	if err := json.Unmarshal(evs[0].Data, &created); err != nil || evs[0].Type != TypeCreated {
		return Errorf(ECorrupt, "game %s: first event is not a valid pbem.created", id)
	}
	seed, err := decodeSeed(created.Seed)
	if err != nil || seedHash(seed) != created.SeedHash || created.SeedHash != hex.EncodeToString(live.SeedHash) {
		return Errorf(ECorrupt, "game %s: the seed does not match its published hash", id)
	}
	if diff := diffGames(c.Game, live); diff != "" {
		return Errorf(ECorrupt, "game %s: projection differs from the events: %s", id, diff)
	}
	hist, err := s.repo.AllHistory(ctx, id)
	if err != nil {
		return err
	}
	if diff := diffHistory(c.History, hist); diff != "" {
		return Errorf(ECorrupt, "game %s: history differs from the events: %s", id, diff)
	}
	return nil
}

// diffGames names the first projected field where a and b differ ("" if none).
func diffGames(a, b *Game) string {
	type field struct {
		name string
		x, y any
	}
	fields := []field{
		{"game", a.Game, b.Game}, {"rules_version", a.RulesVersion, b.RulesVersion},
		{"language", a.Language, b.Language}, {"players", a.Players, b.Players},
		{"status", a.Status, b.Status}, {"version", a.Version, b.Version},
		{"to_move", nonNil(a.ToMove), nonNil(b.ToMove)}, {"seed_hash", a.SeedHash, b.SeedHash},
		{"result", a.Result, b.Result}, {"extensions", a.Extensions, b.Extensions},
		{"turn_deadline", a.TurnDeadline, b.TurnDeadline}, {"reminder_before", a.ReminderBefore, b.ReminderBefore},
		{"timeout_policy", a.TimeoutPolicy, b.TimeoutPolicy},
		{"created_at", a.CreatedAt.UnixMicro(), b.CreatedAt.UnixMicro()},
		{"updated_at", a.UpdatedAt.UnixMicro(), b.UpdatedAt.UnixMicro()},
		{"finished_at", micros(a.FinishedAt), micros(b.FinishedAt)},
	}
	for _, f := range fields {
		if !reflect.DeepEqual(f.x, f.y) {
			return fmt.Sprintf("%s: events give %v, projection has %v", f.name, f.x, f.y)
		}
	}
	if !sameJSON(a.State, b.State) {
		return "state"
	}
	if !sameJSON(a.Options, b.Options) {
		return "options"
	}
	return ""
}

func diffHistory(want, got []HistoryRow) string {
	if len(want) != len(got) {
		return fmt.Sprintf("%d rows from the events, %d stored", len(want), len(got))
	}
	for i := range want {
		w, g := want[i], got[i]
		if w.Version != g.Version || w.Seat != g.Seat || w.Type != g.Type || w.Actor != g.Actor ||
			w.Summary != g.Summary || !sameJSON(w.Data, g.Data) || !reflect.DeepEqual(w.Hash, g.Hash) ||
			!reflect.DeepEqual(w.PrevHash, g.PrevHash) || !w.RecordedAt.Equal(g.RecordedAt) {
			return fmt.Sprintf("version %d seat %d", w.Version, w.Seat)
		}
	}
	return ""
}

// sameJSON compares two JSON texts by value.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func micros(t *time.Time) int64 {
	if t == nil {
		return 0
	}
	return t.UnixMicro()
}
