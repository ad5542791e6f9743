package play

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections"
)

// replay folds a game's whole stream into a Change (projections.Replay).
func (s *Service) replay(ctx context.Context, live *projections.Game) (*projections.Change, []events.Event, error) {
	return projections.Replay(ctx, s.games, s.store, live)
}

// Rebuild recomputes game id's projections from its events alone and
// writes them. It is safe while the game is played: if a move commits
// between the read of the events and the write, it starts again.
// Errors: events.CodeNotFound, events.CodeCorrupt for a game without events, events.CodeConflict if the
// game kept moving through several attempts.
func (s *Service) Rebuild(ctx context.Context, id string) error {
	var err error
	for range 5 {
		var live *projections.Game
		if live, err = s.repo.Game(ctx, id); err != nil {
			return err
		}
		var c *projections.Change
		if c, _, err = s.replay(ctx, live); err != nil {
			return err
		}
		if err = s.repo.Replace(ctx, c); ErrorCode(err) != events.CodeConflict {
			s.cache.drop(id)
			return err
		}
	}
	return err
}

// GameIDs lists every game, oldest first.
func (s *Service) GameIDs(ctx context.Context) ([]string, error) { return s.repo.GameIDs(ctx) }

// Verify replays game id from its events, checks their hash chain and the
// seed's hash, and compares the result with the stored projections. It
// returns nil, a *events.ChainError for a broken chain, or an *events.Error with
// code events.CodeCorrupt naming the first difference. Errors: events.CodeNotFound.
func (s *Service) Verify(ctx context.Context, id string) error {
	live, err := s.repo.Game(ctx, id)
	if err != nil {
		return err
	}
	// The chain is checked on the events the replay read (one read of the
	// stream); a stream that does not replay may have a broken chain,
	// which is the better report.
	c, evs, err := s.replay(ctx, live)
	if err == nil {
		err = events.VerifyChain(id, evs, c.Game.CommitKey)
		if err != nil {
			return err
		}
	} else if verr := s.store.Verify(ctx, id, live.CommitKey); verr != nil {
		return verr
	}
	if err != nil {
		why := err.Error()
		if e := events.AsError(err); e != nil {
			why = e.Message // a game without events
		}
		return events.Errorf(events.CodeCorrupt, "game %s does not replay: %s", id, why)
	}
	var created pbemevent.Created
	if err := json.Unmarshal(evs[0].Data, &created); err != nil || evs[0].Type != pbemevent.TypeCreated {
		return events.Errorf(events.CodeCorrupt, "game %s: first event is not a valid pbem.created", id)
	}
	seed, err := pbemevent.DecodeSeed(created.Seed)
	if err != nil || pbemevent.SeedHash(seed) != created.SeedHash || created.SeedHash != hex.EncodeToString(live.SeedHash) {
		return events.Errorf(events.CodeCorrupt, "game %s: the seed does not match its published hash", id)
	}
	// The stored snapshot and the events after it must give the replayed state.
	st, err := s.advance(live, evs)
	if err != nil {
		return events.Errorf(events.CodeCorrupt, "game %s: the state snapshot does not catch up: %v", id, err)
	}
	now := live.Clone()
	if now.State, err = projections.MarshalState(st); err != nil {
		return fmt.Errorf("play: marshal state of %s: %w", id, err)
	}
	if diff := diffGames(c.Game, now); diff != "" {
		return events.Errorf(events.CodeCorrupt, "game %s: projection differs from the events: %s", id, diff)
	}
	return nil
}

// diffGames names the first projected field where a and b differ ("" if none).
func diffGames(a, b *projections.Game) string {
	type field struct {
		name string
		x, y any
	}
	fields := []field{
		{"game", a.Game, b.Game}, {"rules_version", a.RulesVersion, b.RulesVersion},
		{"language", a.Language, b.Language}, {"players", a.Players, b.Players},
		{"status", a.Status, b.Status}, {"version", a.Version, b.Version},
		{"to_move", projections.NonNil(a.ToMove), projections.NonNil(b.ToMove)}, {"seed_hash", a.SeedHash, b.SeedHash},
		{"result", a.Result, b.Result}, {"extensions", a.Extensions, b.Extensions},
		{"turn_deadline", a.TurnDeadline, b.TurnDeadline}, {"reminder_before", a.ReminderBefore, b.ReminderBefore},
		{"timeout_policy", a.TimeoutPolicy, b.TimeoutPolicy}, {"bots", a.Bots(), b.Bots()},
		{"away_policy", a.AwayPolicy, b.AwayPolicy}, {"aways", awayTexts(a), awayTexts(b)},
		{"created_at", a.CreatedAt.UnixMicro(), b.CreatedAt.UnixMicro()},
		{"updated_at", a.UpdatedAt.UnixMicro(), b.UpdatedAt.UnixMicro()},
		{"finished_at", micros(a.FinishedAt), micros(b.FinishedAt)},
		{"commit_key", keyName(a.CommitKey), keyName(b.CommitKey)},
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

// awayTexts are the seats' aways of g as stored (seats.away), by seat.
func awayTexts(g *projections.Game) []string {
	out := make([]string, len(g.Seats))
	for i := range g.Seats {
		t, err := g.Seats[i].AwayText()
		if err != nil {
			t = err.Error()
		}
		out[i] = t
	}
	return out
}

// keyName names a commitment key in a report without telling it: "none",
// or the start of its SHA-256.
func keyName(k *events.CommitKey) string {
	if k == nil {
		return "none"
	}
	h := sha256.Sum256(k[:])
	return "key " + hex.EncodeToString(h[:4])
}

// sameJSON compares two JSON texts by value. Equal texts are equal values
// (the json columns keep the text the projector wrote, so this is the
// common case and skips decoding: a third of verify's CPU otherwise).
func sameJSON(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return json.Valid(a)
	}
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
