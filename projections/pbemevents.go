package projections

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"pbem/engine"
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

var serviceText = map[string]map[string]string{
	"en": {
		TypeCreated:           "The game begins for %s.",
		TypeTimeout:           "Time ran out for %s (%s).",
		TypePaused:            "The game is paused.",
		TypeEmailChanged:      "The email address of %s was corrected; a new play link was sent.",
		TypePlayerReplaced:    "%s takes the seat of %s.",
		TypeRematch:           "A rematch begins: game %s.",
		"paused_reason":       "The game is paused: %s",
		TypeResumed:           "The game resumes.",
		TypeExtended:          "The deadline is extended by %s.",
		TypeAborted:           "The game is aborted.",
		TypeLinkResent:        "A new play link was sent to %s.",
		TypeChat:              "%s says: “%s”",
		TypeSeatBot:           "%s is now played by a bot (%s).",
		TypeSeatBot + ":back": "%s plays again.",
	},
	"fr": {
		TypeCreated:           "La partie commence pour %s.",
		TypeTimeout:           "Le temps est écoulé pour %s (%s).",
		TypePaused:            "La partie est en pause.",
		TypeEmailChanged:      "L'adresse e-mail de %s a été corrigée ; un nouveau lien de jeu a été envoyé.",
		TypePlayerReplaced:    "%s prend la place de %s.",
		TypeRematch:           "Une revanche commence : partie %s.",
		"paused_reason":       "La partie est en pause : %s",
		TypeResumed:           "La partie reprend.",
		TypeExtended:          "Le délai est prolongé de %s.",
		TypeAborted:           "La partie est abandonnée.",
		TypeLinkResent:        "Un nouveau lien de jeu a été envoyé à %s.",
		TypeChat:              "%s dit : « %s »",
		TypeSeatBot:           "%s est désormais joué par un robot (%s).",
		TypeSeatBot + ":back": "%s joue de nouveau.",
	},
	"it": {
		TypeCreated:           "La partita comincia per %s.",
		TypeTimeout:           "Il tempo è scaduto per %s (%s).",
		TypePaused:            "La partita è in pausa.",
		TypeEmailChanged:      "L'indirizzo e-mail di %s è stato corretto; è stato inviato un nuovo link di gioco.",
		TypePlayerReplaced:    "%s prende il posto di %s.",
		TypeRematch:           "Comincia una rivincita: partita %s.",
		"paused_reason":       "La partita è in pausa: %s",
		TypeResumed:           "La partita riprende.",
		TypeExtended:          "La scadenza è prorogata di %s.",
		TypeAborted:           "La partita è annullata.",
		TypeLinkResent:        "Un nuovo link di gioco è stato inviato a %s.",
		TypeChat:              "%s dice: «%s»",
		TypeSeatBot:           "%s ora è giocato da un robot (%s).",
		TypeSeatBot + ":back": "%s gioca di nuovo.",
	},
}

// DescribeService is the one-line summary of a service event in lang.
func DescribeService(typ string, data json.RawMessage, names []string, lang string) string {
	texts, ok := serviceText[lang]
	if !ok {
		texts = serviceText["en"]
	}
	f := texts[typ]
	if f == "" {
		return typ
	}
	name := func(seat int) string {
		if seat >= 0 && seat < len(names) {
			return names[seat]
		}
		return fmt.Sprintf("seat %d", seat)
	}
	switch typ {
	case TypeCreated:
		var c Created
		_ = json.Unmarshal(data, &c)
		return fmt.Sprintf(f, strings.Join(c.Players, ", "))
	case TypeTimeout:
		var t Timeout
		_ = json.Unmarshal(data, &t)
		who := make([]string, len(t.Seats))
		for i, s := range t.Seats {
			who[i] = name(s)
		}
		return fmt.Sprintf(f, strings.Join(who, ", "), t.Policy)
	case TypeExtended:
		var x Extended
		_ = json.Unmarshal(data, &x)
		return fmt.Sprintf(f, x.By)
	case TypeLinkResent:
		var l LinkResent
		_ = json.Unmarshal(data, &l)
		return fmt.Sprintf(f, name(l.Seat))
	case TypeSeatBot:
		var sb SeatBot
		_ = json.Unmarshal(data, &sb)
		if sb.Bot == "" {
			return fmt.Sprintf(texts[TypeSeatBot+":back"], name(sb.Seat))
		}
		return fmt.Sprintf(f, name(sb.Seat), sb.Bot)
	case TypeChat:
		var c Chat
		_ = json.Unmarshal(data, &c)
		return fmt.Sprintf(f, name(c.Seat), c.Text)
	case TypeEmailChanged:
		var x EmailChanged
		_ = json.Unmarshal(data, &x)
		return fmt.Sprintf(f, name(x.Seat))
	case TypePlayerReplaced:
		var x PlayerReplaced
		_ = json.Unmarshal(data, &x)
		return fmt.Sprintf(f, x.Name, x.Previous)
	case TypeRematch:
		var x Rematch
		_ = json.Unmarshal(data, &x)
		return fmt.Sprintf(f, x.Game)
	case TypePaused:
		var x Paused
		_ = json.Unmarshal(data, &x)
		if x.Reason != "" {
			return fmt.Sprintf(texts["paused_reason"], x.Reason)
		}
	}
	return f
}

// resultText holds the result line's formats: one winner, then a shared win.
var resultText = map[string][2]string{
	"en": {"%s wins with %d points.", "%s share the win with %d points."},
	"fr": {"%s gagne avec %d points.", "%s se partagent la victoire avec %d points."},
	"it": {"%s vince con %d punti.", "%s condividono la vittoria con %d punti."},
}

// ResultSummary is the one-line result of a finished game in lang, with the
// players' names (the engine's own Summary knows only seat numbers).
func ResultSummary(r *engine.Result, names []string, lang string) string {
	texts, ok := resultText[lang]
	if !ok {
		texts = resultText["en"]
	}
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
		return fmt.Sprintf(texts[0], winners[0], score)
	default:
		return fmt.Sprintf(texts[1], strings.Join(winners, ", "), score)
	}
}
