package play

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections"
)

// History is one seat's redacted history of a game.
type History struct {
	GameID string                   `json:"game_id"`
	Seat   int                      `json:"seat"`
	Events []projections.HistoryRow `json:"events"`
	// Language is the language the seat's player reads, the summaries'.
	Language string `json:"language"`
}

// History returns the history of the seat that token opens: every event as
// that seat may see it, with a one-line summary in the seat's language and
// the event's hash (checkable against the audit once the game has ended).
// Errors: events.CodeNotFound, events.CodeUnauthorized.
func (s *Service) History(ctx context.Context, id, token string) (*History, error) {
	g, seat, err := s.authSeat(ctx, id, token)
	if err != nil {
		return nil, err
	}
	rows, err := s.seatHistory(ctx, g, seat, 0)
	if err != nil {
		return nil, err
	}
	return &History{GameID: g.ID, Seat: seat, Events: projections.NonNil(rows), Language: g.SeatLanguage(seat)}, nil
}

// ChatLine is one line of a game's table talk (a pbem.chat event).
type ChatLine struct {
	Version    int64
	Seat       int
	Text       string
	RecordedAt time.Time
}

// TableTalk returns the table talk of a game, oldest first, as the seat
// that token opens reads it in its history (table talk is public).
// Errors: those of History.
func (s *Service) TableTalk(ctx context.Context, id, token string) ([]ChatLine, error) {
	h, err := s.History(ctx, id, token)
	if err != nil {
		return nil, err
	}
	var out []ChatLine
	for _, r := range h.Events {
		if r.Type != pbemevent.TypeChat {
			continue
		}
		var c pbemevent.Chat
		if err := json.Unmarshal(r.Data, &c); err != nil {
			return nil, fmt.Errorf("play: chat line v%d: %w", r.Version, err)
		}
		out = append(out, ChatLine{Version: r.Version, Seat: c.Seat, Text: c.Text, RecordedAt: r.RecordedAt})
	}
	return out, nil
}

// seatHistory is game g's history after version after (0: all of it) as
// seat sees it (engine.Spectator: the public one), told from its events
// (projections.SeatHistory: the history is not stored). g is read before
// the events, which reach its version.
func (s *Service) seatHistory(ctx context.Context, g *projections.Game, seat int, after int64) ([]projections.HistoryRow, error) {
	evs, err := s.store.ReadStream(ctx, g.ID, after+1)
	if err != nil {
		return nil, err
	}
	return projections.SeatHistory(s.games, g, evs, seat)
}

// Audit is a finished game's full record: every event with its hash, and the
// seed, so that anyone can re-deal the game and check every shuffle.
type Audit struct {
	GameID   string `json:"game_id"`
	Game     string `json:"game"`
	Rules    string `json:"rules_version"`
	Status   string `json:"status"`
	Seed     string `json:"seed"`
	SeedHash string `json:"seed_hash"`
	// ChainFormat is the format of the events' hash chain (see package
	// events): 2 (commitments under CommitKey) or 1 (data in clear).
	ChainFormat int `json:"chain_format"`
	// CommitKey is the hex commitment key of a format-2 chain, revealed
	// with the seed (from which it derives) now that the game has ended.
	CommitKey string         `json:"commit_key,omitempty"`
	Events    []events.Event `json:"events"`
	// HowToCheck explains the checks in English.
	HowToCheck string `json:"how_to_check"`
}

const howToCheck = "Every event's hash is SHA-256 over the previous event's hash (32 zero bytes before version 1) " +
	"followed by the event's canonical bytes; in chain format 2 those bytes hold, instead of the data, its commitment " +
	"HMAC-SHA256(commit_key, \"pbem/events commit v2\" 0x00 data), and commit_key is HKDF-SHA256 of the seed " +
	"(info \"pbem commit key v2\"): see package pbem/events and docs/events.md. A changed event breaks the chain. " +
	"The seed is the hex 32 bytes whose SHA-256 (seed_hash) was shown to every player from the start: deal the game " +
	"again with the named rules version, the players and the options of the pbem.created event and this seed, " +
	"apply the events in order, and compare; `pbem verify GAME` does all of this."

// Audit returns the full record of an ended game (finished or aborted).
// Errors: events.CodeNotFound, events.CodeForbidden before the end.
func (s *Service) Audit(ctx context.Context, id string) (*Audit, error) {
	g, err := s.game(ctx, id)
	if err != nil {
		return nil, err
	}
	if !g.Ended() {
		return nil, events.Errorf(events.CodeForbidden, "the audit opens when the game has ended")
	}
	evs, err := s.store.ReadStream(ctx, id, 1)
	if err != nil {
		return nil, err
	}
	a := &Audit{GameID: id, Game: g.Game, Rules: g.RulesVersion, Status: g.Status,
		SeedHash: hex.EncodeToString(g.SeedHash), ChainFormat: g.CommitKey.Format(), Events: evs, HowToCheck: howToCheck}
	if g.CommitKey != nil {
		a.CommitKey = hex.EncodeToString(g.CommitKey[:])
	}
	if len(evs) > 0 && evs[0].Type == pbemevent.TypeCreated {
		var c pbemevent.Created
		if err := json.Unmarshal(evs[0].Data, &c); err == nil {
			a.Seed = c.Seed
		}
	}
	for i := range a.Events {
		a.Events[i].RecordedAt = a.Events[i].RecordedAt.UTC().Truncate(time.Microsecond)
	}
	return a, nil
}
