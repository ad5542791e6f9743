package projections

import (
	"encoding/json"
	"strings"
	"time"

	"pbem/engine"
	"pbem/engine/i18n"
	"pbem/events"
)

// The service's own event types, stored in each game's stream beside the
// engine's events.
const (
	TypeCreated    = "pbem.created"
	TypeTimeout    = "pbem.timeout"
	TypePaused     = "pbem.paused"
	TypeResumed    = "pbem.resumed"
	TypeExtended   = "pbem.extended"
	TypeAborted    = "pbem.aborted"
	TypeLinkResent = "pbem.link_resent"
	// TypeEmailChanged, TypePlayerReplaced and TypeRematch are the
	// organiser's corrections and rematches (issue #15).
	TypeEmailChanged   = "pbem.email_changed"
	TypePlayerReplaced = "pbem.player_replaced"
	TypeRematch        = "pbem.rematch"
	TypeSeatBot        = "pbem.seat_bot"
	// TypeTakeback is a seat taking back its last move (issue #14).
	TypeTakeback = "pbem.takeback"
)

func IsServiceEvent(typ string) bool { return strings.HasPrefix(typ, "pbem.") }

// Created is the data of pbem.created: everything needed to deal the game
// again. Seed is the secret hex seed; every redacted copy has it emptied,
// leaving SeedHash (hex SHA-256 of the 32 seed bytes).
type Created struct {
	Game           string          `json:"game"`
	RulesVersion   string          `json:"rules_version"`
	Players        []string        `json:"players"`
	Options        json.RawMessage `json:"options"`
	Language       string          `json:"language"`
	Seed           string          `json:"seed,omitempty"`
	SeedHash       string          `json:"seed_hash"`
	TurnDeadline   string          `json:"turn_deadline"`
	ReminderBefore string          `json:"reminder_before"`
	TimeoutPolicy  string          `json:"timeout_policy"`
	// Bots holds, by seat, the level of the bot that plays it ("" for a
	// person); absent when every seat is a person's. Public: everyone may
	// know who is a bot.
	Bots []string `json:"bots,omitempty"`
	// ChainFormat is the hash chain format of the game's stream:
	// events.FormatCommitted (2) for every game created since commitments,
	// the data of its events hashed only as HMACs under the key derived
	// from Seed (events.CommitKeyFrom); absent (format 1, data in clear)
	// in older games. Public.
	ChainFormat int `json:"chain_format,omitempty"`
}

// CommitKey is the commitment key of the game c creates, derived from its
// seed: nil for a format-1 game. Errors: a bad seed.
func (c *Created) CommitKey() (*events.CommitKey, error) {
	if c.ChainFormat < events.FormatCommitted {
		return nil, nil
	}
	seed, err := DecodeSeed(c.Seed)
	if err != nil {
		return nil, err
	}
	k := events.CommitKeyFrom(seed)
	return &k, nil
}

// Timeout is the data of pbem.timeout: the awaited seats whose deadline passed.
type Timeout struct {
	Seats  []int  `json:"seats"`
	Policy string `json:"policy"`
}

// Paused is the data of pbem.paused.
type Paused struct {
	By string `json:"by"` // "admin" or "timeout"
	// Reason is the organiser's word to the players (optional).
	Reason string `json:"reason,omitempty"`
	// Left is the time the awaited seats had left before the deadline
	// when the game was paused (a Go duration, extensions included;
	// absent in pauses recorded before it was kept, and in a timeout's
	// pause, which comes at the deadline): a resume gives it back, or the
	// game's turn deadline if that is longer.
	Left string `json:"left,omitempty"`
}

// EmailChanged is the data of pbem.email_changed: a seat's address was
// corrected (the address itself is personal data, kept in seats only) and
// the seat got a new token generation.
type EmailChanged struct {
	Seat     int `json:"seat"`
	TokenGen int `json:"token_gen"`
}

// PlayerReplaced is the data of pbem.player_replaced: a new person takes
// the seat, under Name, with a new token generation.
type PlayerReplaced struct {
	Seat     int    `json:"seat"`
	Name     string `json:"name"`
	Previous string `json:"previous"`
	TokenGen int    `json:"token_gen"`
}

// Rematch is the data of pbem.rematch: the new game of the same players.
type Rematch struct {
	Game string `json:"game"`
}

// Resumed is the data of pbem.resumed, with the new deadline.
type Resumed struct {
	DeadlineAt time.Time `json:"deadline_at"`
}

// Extended is the data of pbem.extended.
type Extended struct {
	By         string    `json:"by"`
	DeadlineAt time.Time `json:"deadline_at"`
}

// Aborted is the data of pbem.aborted.
type Aborted struct{}

// LinkResent is the data of pbem.link_resent: the seat's new token generation.
type LinkResent struct {
	Seat     int `json:"seat"`
	TokenGen int `json:"token_gen"`
}

// RedactService returns the public form of a service event's data: the seed
// of pbem.created is removed.
func RedactService(typ string, data json.RawMessage) json.RawMessage {
	if typ != TypeCreated {
		return data
	}
	var c Created
	if err := json.Unmarshal(data, &c); err != nil {
		return json.RawMessage(`{}`)
	}
	c.Seed = ""
	b, err := json.Marshal(c)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

// DescribeService is the one-line summary of a service event in lang. A
// payload that does not decode (a corrupt record: verify reports it) gets
// a line saying so rather than a summary with empty fields.
func DescribeService(typ string, data json.RawMessage, names []string, lang string) string {
	p := texts.In(lang)
	line, err := describeService(p, typ, data, names)
	if err != nil {
		return p.T("unreadable")
	}
	return line
}

// describeService formats a service event; an error when data does not
// decode. An event type without a text describes as itself.
func describeService(p i18n.Printer, typ string, data json.RawMessage, names []string) (string, error) {
	name := func(seat int) string {
		if seat >= 0 && seat < len(names) {
			return names[seat]
		}
		return p.T("seat", seat)
	}
	decode := func(v any) error {
		if len(data) == 0 {
			return nil
		}
		return json.Unmarshal(data, v)
	}
	switch typ {
	case TypeCreated:
		var c Created
		err := decode(&c)
		return p.T(typ, strings.Join(c.Players, ", ")), err
	case TypeTimeout:
		var t Timeout
		err := decode(&t)
		who := make([]string, len(t.Seats))
		for i, s := range t.Seats {
			who[i] = name(s)
		}
		return p.T(typ, strings.Join(who, ", "), word(p, "policy.", t.Policy)), err
	case TypeExtended:
		var x Extended
		err := decode(&x)
		by, perr := time.ParseDuration(x.By)
		if err == nil && perr != nil {
			err = perr
		}
		return p.T(typ, duration(p, by)), err
	case TypeLinkResent:
		var l LinkResent
		err := decode(&l)
		return p.T(typ, name(l.Seat)), err
	case TypeSeatBot:
		var sb SeatBot
		err := decode(&sb)
		if sb.Bot == "" {
			return p.T(TypeSeatBot+".back", name(sb.Seat)), err
		}
		return p.T(typ, name(sb.Seat), word(p, "bot.", sb.Bot)), err
	case TypeChat:
		var c Chat
		err := decode(&c)
		return p.T(typ, name(c.Seat), c.Text), err
	case TypeEmailChanged:
		var x EmailChanged
		err := decode(&x)
		return p.T(typ, name(x.Seat)), err
	case TypePlayerReplaced:
		var x PlayerReplaced
		err := decode(&x)
		return p.T(typ, x.Name, x.Previous), err
	case TypeRematch:
		var x Rematch
		err := decode(&x)
		return p.T(typ, x.Game), err
	case TypeTakeback:
		var x Takeback
		err := decode(&x)
		return p.T(typ, name(x.Seat), x.Version), err
	case TypePaused:
		var x Paused
		err := decode(&x)
		if x.Reason != "" {
			return p.T(TypePaused+".reason", x.Reason), err
		}
		return p.T(typ), err
	case TypeResumed, TypeAborted:
		return p.T(typ), nil
	}
	return typ, nil
}

// duration is d in words: whole days, else whole hours, else minutes.
func duration(p i18n.Printer, d time.Duration) string {
	switch {
	case d >= 24*time.Hour && d%(24*time.Hour) == 0:
		return p.T("days", int(d/(24*time.Hour)))
	case d >= time.Hour && d%time.Hour == 0:
		return p.T("hours", int(d/time.Hour))
	}
	return p.T("minutes", int(d.Round(time.Minute)/time.Minute))
}

// ResultSummary is the one-line result of a finished game in lang, with the
// players' names (the engine's own Summary knows only seat numbers).
func ResultSummary(r *engine.Result, names []string, lang string) string {
	var winners []string
	score := 0
	for _, s := range r.Ranking {
		if s.Place != 1 {
			continue
		}
		score = s.Score
		if s.Seat >= 0 && s.Seat < len(names) {
			winners = append(winners, names[s.Seat])
		}
	}
	switch len(winners) {
	case 0:
		return r.Summary
	case 1:
		return texts.T(lang, "result.win", winners[0], score)
	default:
		return texts.T(lang, "result.shared", strings.Join(winners, ", "), score)
	}
}
