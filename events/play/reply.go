package play

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"pbem/events"
	"pbem/events/pbemevent"
	"slices"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events/tokens"
	"pbem/projections"
)

// Reply addresses.
//
// Every email to a seat carries a Reply-To address that names the game and
// the seat and holds a per-seat secret, the reply tag (tokens.ReplyTag): 80 bits of
// HMAC-SHA256 over the game id, the seat and the seat's token generation,
// derived from PBEM_SECRET like the play-link token (and independent of
// it: neither can be computed from the other). Holding a reply address is
// the same trust as holding the play link, and resending the link (a new
// generation) revokes both. The tag is lowercase base32 because mail
// systems may fold the case of an address's local part.

// ReplySeat is what the mail listener needs to read and answer a reply
// from a seat: the seat's own legal moves and its email address, never
// anything of another seat.
type ReplySeat struct {
	GameID   string
	Game     string
	Language string
	Players  []string
	// Bots holds, by seat, the level of the bot that plays it ("" for a
	// person; nil when no seat is a bot's): the answer marks bots as every
	// email does.
	Bots     []string
	Status   string
	Version  int64
	Deadline *time.Time
	Seat     int
	Name     string
	Email    string
	TokenGen int
	// Legal lists the seat's legal moves now (empty unless the game is
	// active and awaits the seat); Choice is their projections.ChoiceTag.
	Legal  []engine.Move
	Choice string
	// ToMove names the seats whose move the game awaits (public: every
	// seat's page shows whose turn it is), for the answer to a player who
	// is not one of them.
	ToMove []string
	// Bot is the level of the bot that plays the seat for its person
	// (pbem.seat_bot), "" when the person plays it: such a seat awaits no
	// move from its person (Legal is empty; issue #43).
	Bot string
}

// Reply checks a reply address's tag for seat of game id against the
// seat's current token generation and the version the tag covers (0: an
// address written before tags covered versions, tokens.ReplyTag; else
// tokens.ReplyTagAt) and returns the seat's context. Errors: events.CodeNotFound
// (no such game or seat), events.CodeUnauthorized (a forged tag, one a resent link
// revoked, or an address whose version was rewritten or deleted).
func (s *Service) Reply(ctx context.Context, id string, seat int, tag string, version int64) (*ReplySeat, error) {
	g, err := s.game(ctx, id)
	if err != nil {
		return nil, err
	}
	st := g.SeatAt(seat)
	if st == nil {
		return nil, events.Errorf(events.CodeNotFound, "game %s has no seat %d", id, seat)
	}
	want := tokens.ReplyTag(s.secret, id, seat, st.TokenGen)
	if version > 0 {
		want = tokens.ReplyTagAt(s.secret, id, seat, st.TokenGen, version)
	}
	if !hmac.Equal([]byte(strings.ToLower(tag)), []byte(want)) {
		return nil, events.Errorf(events.CodeUnauthorized, "this reply address does not open game %s (a newer email may have replaced it)", id)
	}
	_, state, err := s.state(ctx, g)
	if err != nil {
		return nil, err
	}
	r := &ReplySeat{GameID: g.ID, Game: g.Game, Language: g.SeatLanguage(seat), Players: g.Players, Bots: g.Bots(), Status: g.Status,
		Version: g.Version, Deadline: g.DeadlineAt, Seat: seat, Name: st.Name, Email: st.Email, TokenGen: st.TokenGen,
		Legal: []engine.Move{}, Bot: st.Bot}
	if g.Status == projections.StatusActive && st.Bot == "" {
		r.Legal = projections.NonNil(projections.SpeakTo(g, state, seat).Legal(seat))
	}
	if g.Status == projections.StatusActive {
		for _, n := range g.ToMove {
			if s := g.SeatAt(n); s != nil {
				r.ToMove = append(r.ToMove, s.Name)
			}
		}
	}
	r.Choice = projections.ChoiceTag(r.Legal)
	return r, nil
}

// ReplyStale reports whether a reply to an email of seat about version
// (the version the email answered: its reply address holds it) comes too
// late to play a move: after version, a move was taken back (pbem.takeback:
// the position the email told of is gone, although the seat's list of
// moves may be the same again), the seat itself moved (by the page or by
// another reply), or the seat's deadline passed (pbem.timeout naming it).
// A chat line, a resent link or another seat's move leaves a reply valid:
// the caller compares the seat's list of moves with the email's
// (projections.ChoiceTag) for what others changed. Events whose request id
// starts with except (the reply's own earlier lines, delivered again) do
// not count. Errors: those of the store.
func (s *Service) ReplyStale(ctx context.Context, id string, seat int, version int64, except string) (bool, error) {
	evs, err := s.store.ReadStream(ctx, id, version+1)
	if err != nil {
		return false, err
	}
	me := pbemevent.SeatActor(seat)
	for _, e := range evs {
		if except != "" && strings.HasPrefix(e.Meta.RequestID, except) {
			continue
		}
		switch {
		case e.Type == pbemevent.TypeTakeback:
			return true, nil
		case e.Type == pbemevent.TypeTimeout:
			var t pbemevent.Timeout
			if err := json.Unmarshal(e.Data, &t); err != nil || slices.Contains(t.Seats, seat) {
				return true, nil
			}
		case !pbemevent.IsServiceEvent(e.Type) && e.Meta.Actor == me:
			return true, nil
		}
	}
	return false, nil
}

// PlayedFor is what the game played for a seat by itself, without its
// player: the turns that ended without their move.
type PlayedFor struct {
	// TimedOut is the policy the deadline applied when the seat's time ran
	// out (pbem.timeout naming it: a default move, a skip, a bot's turn,
	// a pause); "" when it did not.
	TimedOut string
	// Forced tells each step played for the seat as its only move (actor
	// "forced:N"), as the seat's history tells it (in the seat's
	// language), without the game's own steps that followed it;
	// ForcedMoves are the labels of those moves, one each, as the seat's
	// list of moves would have named them (in the seat's language): a
	// reply's next line that names one asks for what the game did.
	Forced      []string
	ForcedMoves []string
}

// PlayedFor tells what game id played by itself for seat after version
// after, up to version upto: the answer to a reply says it, since the
// player's turn then ended without the move they sent (a deadline that
// passed before the reply came), or after it (a step forced on them that
// followed their move). Errors: events.CodeNotFound, and those of the
// store.
func (s *Service) PlayedFor(ctx context.Context, id string, seat int, after, upto int64) (*PlayedFor, error) {
	g, err := s.game(ctx, id)
	if err != nil {
		return nil, err
	}
	rows, err := s.seatHistory(ctx, g, seat, after)
	if err != nil {
		return nil, err
	}
	out := &PlayedFor{}
	var all []events.Event // the whole stream, read for the first forced step
	for _, r := range rows {
		if r.Version > upto {
			break
		}
		switch forced, ok := pbemevent.SeatOfForced(r.Actor); {
		case r.Type == pbemevent.TypeTimeout:
			var t pbemevent.Timeout
			if json.Unmarshal(r.Data, &t) == nil && slices.Contains(t.Seats, seat) {
				out.TimedOut = t.Policy
			}
		case ok && forced == seat && !r.Step && r.Summary != "":
			if all == nil {
				if all, err = s.store.ReadStream(ctx, id, 1); err != nil {
					return nil, err
				}
			}
			label, err := s.forcedLabel(g, all, seat, r.Version)
			if err != nil {
				return nil, err
			}
			out.Forced, out.ForcedMoves = append(out.Forced, r.Summary), append(out.ForcedMoves, label)
		}
	}
	return out, nil
}

// forcedLabel is the label, in seat's language, of the move forced on
// seat at version (the first event of a forced step), from the state
// before it replayed from the stream evs ("" if the state then forced
// nothing on the seat: a stream written otherwise).
func (s *Service) forcedLabel(g *projections.Game, evs []events.Event, seat int, version int64) (string, error) {
	_, st, err := pbemevent.StateBefore(s.games, evs, version)
	if err != nil {
		return "", err
	}
	if mv := projections.SpeakTo(g, st, seat).Forced(seat); mv != nil {
		return mv.Label(), nil
	}
	return "", nil
}
