package play

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"pbem/events/pbemevent"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"pbem/engine"
	"pbem/events"
	"pbem/projections"
)

// Table talk limits.
const (
	// MaxChatRunes is the longest table-talk message, in characters.
	MaxChatRunes = 500
	// ChatPerHour is how many messages a seat may write to the table in
	// any hour, by page and email together.
	ChatPerHour = 20
)

// Chat writes a table-talk message of the seat that token opens (the play
// page). Errors: as ChatAs, and events.CodeUnauthorized.
func (s *Service) Chat(ctx context.Context, id, token, text, requestID string) error {
	g, seat, err := s.authSeat(ctx, id, token)
	if err != nil {
		return err
	}
	return s.chat(ctx, g, seat, text, events.Metadata{Actor: pbemevent.SeatActor(seat), RequestID: requestID})
}

// ChatAs writes a table-talk message of seat read from an email, for
// callers that authenticated the player otherwise. key is the message's
// key (see events.EmailRequestID): the same key appends once. The message
// becomes a pbem.chat event of the game's stream. Errors: events.CodeNotFound,
// events.CodeInvalid (empty, or longer than MaxChatRunes), events.CodeConflict (aborted game,
// or the seat wrote ChatPerHour messages in the last hour).
func (s *Service) ChatAs(ctx context.Context, id string, seat int, text, key string) error {
	g, err := s.game(ctx, id)
	if err != nil {
		return err
	}
	if g.SeatAt(seat) == nil {
		return events.Errorf(events.CodeNotFound, "game %s has no seat %d", id, seat)
	}
	meta := events.Metadata{Actor: pbemevent.SeatActor(seat), RequestID: events.EmailRequestID(key)}
	if key != "" {
		meta.IdempotencyKey = "chat:" + key
	}
	return s.chat(ctx, g, seat, text, meta)
}

func (s *Service) chat(ctx context.Context, g *projections.Game, seat int, text string, meta events.Metadata) error {
	clean, err := CleanChat(text)
	if err != nil {
		return err
	}
	if g.Status == projections.StatusAborted {
		return events.Errorf(events.CodeConflict, "the game was aborted")
	}
	// One line of a game at a time in this process: lines sent at once
	// would race each other for the game's version (each loser appending
	// again, up to 5 times, then refused though under the limit), and
	// each would count the quota without the others.
	mu := s.chatLock(g.ID)
	mu.Lock()
	defer mu.Unlock()
	if err := s.chatQuota(ctx, g.ID, seat); err != nil {
		return err
	}
	data, err := json.Marshal(pbemevent.Chat{Seat: seat, Text: clean})
	if err != nil {
		return fmt.Errorf("game: marshal chat: %w", err)
	}
	ev := events.NewEvent{Type: pbemevent.TypeChat, Data: data, Meta: meta}
	return s.appendAside(ctx, g, ev, nil)
}

// appendAside appends ev, a service event that does not depend on the
// game's state (a chat line, a language), to game g: when a move wins the
// race for the version, it appends again at the new one, up to 5 times.
// done (nil: never) says, of the game as it is now, that ev is no longer
// needed; appendAside then appends nothing.
func (s *Service) appendAside(ctx context.Context, g *projections.Game, ev events.NewEvent, done func(*projections.Game) bool) error {
	for try := 0; ; try++ {
		if done != nil && done(g) {
			return nil
		}
		_, st, err := s.state(ctx, g)
		if err != nil {
			return err
		}
		_, _, _, err = s.append(ctx, g, st, []events.NewEvent{ev}, []engine.Event{nil}, nil)
		if err == nil || ErrorCode(err) != events.CodeConflict || try == 4 {
			return err
		}
		if g, err = s.load(ctx, g.ID); err != nil {
			return err
		}
	}
}

// chatQuota refuses a message beyond ChatPerHour in the last hour.
func (s *Service) chatQuota(ctx context.Context, id string, seat int) error {
	evs, err := s.store.ReadStream(ctx, id, 1)
	if err != nil {
		return err
	}
	actor, since, n := pbemevent.SeatActor(seat), s.now().Add(-time.Hour), 0
	for _, e := range evs {
		if e.Type == pbemevent.TypeChat && e.Meta.Actor == actor && e.RecordedAt.After(since) {
			n++
		}
	}
	if n >= ChatPerHour {
		return events.Errorf(events.CodeConflict, "you wrote %d messages to the table in the last hour: wait a little", n)
	}
	return nil
}

// CleanChat returns a table-talk message as it is stored: control
// characters dropped, blanks collapsed, lines kept (at most 10), trimmed.
// Errors: events.CodeInvalid for an empty message, invalid UTF-8, or more than
// MaxChatRunes characters.
func CleanChat(text string) (string, error) {
	if !utf8.ValidString(text) {
		return "", events.Errorf(events.CodeInvalid, "the message is not valid text")
	}
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		l = strings.Join(strings.FieldsFunc(l, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }), " ")
		if l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return "", events.Errorf(events.CodeInvalid, "the message is empty")
	}
	if len(lines) > 10 {
		return "", events.Errorf(events.CodeInvalid, "a message has at most 10 lines")
	}
	out := strings.Join(lines, "\n")
	if n := utf8.RuneCountInString(out); n > MaxChatRunes {
		return "", events.Errorf(events.CodeInvalid, "the message has %d characters; at most %d", n, MaxChatRunes)
	}
	return out, nil
}

// chatLocks serialise the table-talk lines of a game (by a hash of its id:
// games may share a lock).
type chatLocks [64]sync.Mutex

// chatLock is the lock of game id's table talk.
func (s *Service) chatLock(id string) *sync.Mutex {
	return &s.chatMu[maphash.String(chatSeed, id)%uint64(len(s.chatMu))]
}

// chatSeed seeds the hash of chatLock.
var chatSeed = maphash.MakeSeed()
