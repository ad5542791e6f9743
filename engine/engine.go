// Package engine is the contract between a game's rules and the rest of pbem.
//
// A game is pure: no I/O, no clock, no package-level state. All randomness
// comes from a ChaCha8 PRNG seeded with the game's 32-byte Seed and carried
// inside the State, so that replaying a game's events from its setup always
// gives the same State, bit for bit.
//
// The life of a game, as the service drives it:
//
//	st, _ := g.New(Setup{Players: 4, Options: opts, Seed: seed, Names: names, Language: "fr"})
//	for st.Result() == nil {
//		seat := st.ToMove()[0]
//		mv, err := g.DecodeMove(body)    // strict JSON: unknown fields are rejected
//		evs, err := st.Decide(seat, mv)  // validates; returns events or a *RuleError
//		for _, e := range evs {
//			st.Apply(e)                  // never fails
//		}
//	}
//
// Events are stored as (EventType(), json.Marshal(event)) and read back with
// Game.DecodeEvent. Moves are plain JSON objects; every move in Legal carries a
// human label, and posting a listed move back verbatim (label included) plays it.
// Move.Label is written in the setup's Language and names the players by
// their Names (a neutral "Player 2" without them); it names only what the
// seat to move may see. A posted move's label is ignored, so a change of
// wording or language never breaks a client that posts a listed move back.
// A multi-step action (a power's target, a supporter to claim) is a further
// decision of the same seat, listed by Legal in the same way.
//
// Hidden information: View(seat) holds only what that seat may know, and
// Game.Redact gives the version of any event a seat may see. Events may carry
// secrets (a drawn card); nothing else may.
//
// # The whole contract
//
// Game and State below are everything an engine must provide: every method
// is required. Two optional interfaces are found by type assertion, and
// both only give the same bytes faster: a view (SeatView) that is also a
// ViewAppender writes its own JSON (events/play.View.AppendJSON; other
// views go through encoding/json), and a State or Move that implements
// json.Marshaler is written by its own MarshalJSON without encoding/json's
// second pass over it (projections.MarshalState, MarshalMove). The
// conformance suite (enginetest) checks an appended view's and a move's
// bytes against encoding/json's.
//
// # Adding a third game
//
// docs/adding-a-game.md names every file a new game touches, from this
// contract to its page, and the conformance suite it must pass.
//
// It imports nothing of pbem's and does no I/O; the engines under it import
// only engine and engine/bot (checked by cmd/pbem/layering_test.go).
package engine

import (
	"encoding/json"
	"fmt"
)

// Seed is the 32-byte secret from which a game's randomness is derived.
type Seed [32]byte

// Spectator is the seat number for a view or redaction with no private
// knowledge at all (an outsider, a public summary).
const Spectator = -1

// Setup is everything a game needs to deal its first state.
type Setup struct {
	// Players is the number of seats, numbered 0..Players-1 in clockwise order.
	Players int
	// Options is the game's own JSON options object; nil or "{}" means defaults.
	Options json.RawMessage
	// Seed seeds the game's PRNG.
	Seed Seed
	// Names are the players' names by seat, for move labels and the result
	// summary. Optional: a missing or empty name gives a neutral fallback
	// such as "Player 2".
	Names []string
	// Language is the language of move labels and the result summary: "en",
	// "fr" or "it". Optional: empty or unknown means "en".
	Language string
	// Rules is the rules version the game was created under (its
	// pbem.created's), for a game dealt again to be replayed or audited:
	// a game keeps playing as the version it began with where a later one
	// changed which moves are legal. Empty means this implementation's
	// (Game.RulesVersion), as for a new game.
	Rules string
}

// Game is one kind of game: its name, its rules version and its decoders.
type Game interface {
	// Name is the stable identifier used in the API, e.g. "lords-of-scotland".
	Name() string
	// RulesVersion names the rules implementation; a game records the version
	// it started with, so an old game can be replayed under its own rules.
	RulesVersion() string
	// New deals the first state. It returns a *RuleError with code
	// CodeBadOptions for an unsupported player count or invalid options.
	New(s Setup) (State, error)
	// DecodeState reads a state written with json.Marshal(state).
	DecodeState(data []byte) (State, error)
	// DecodeMove parses a move posted by a client. Unknown fields are
	// rejected with a *RuleError of code CodeBadMove.
	DecodeMove(data []byte) (Move, error)
	// DecodeEvent reads an event stored as (typ, json.Marshal(event)).
	DecodeEvent(typ string, data []byte) (Event, error)
	// Redact returns the version of e that seat may see (Spectator: the
	// public version). The result is safe to marshal and show to that seat.
	Redact(e Event, seat int) Event
	// Describe gives a one-line human summary of a (possibly redacted) event
	// in the language lang ("en", "fr", "it"; unknown languages fall back to
	// English). names holds the players' names by seat.
	Describe(e Event, names []string, lang string) string
	// Reversible reports whether the events one Decide returned (in order,
	// unredacted) may be taken back by the seat that made the move: only
	// when they revealed nothing that seat did not know and drew on no
	// chance. No card drawn or dealt, nothing turned face-up (a card played
	// face-up included), no secret choice revealed, no shuffle, no new
	// round, no end of the game. Taking the move back restores the state
	// before it, PRNG included, so a reversible move must not have used the
	// PRNG. The service asks it before it appends a pbem.takeback event;
	// pages ask it of a listed move's events (Decide leaves the state
	// unchanged) to confirm a move that cannot be taken back. An empty
	// list is not reversible.
	Reversible(evs []Event) bool
	// RoundEnd reports whether e closes a round (the service sends the
	// round's result email after it). A game without rounds answers false.
	RoundEnd(e Event) bool
	// RoundSummary is the account of a round for the round-end email: each
	// seat's figures (an army's total, a side, rewards...) under column
	// headings, and sentences for the rest, in lang ("en", "fr", "it";
	// English otherwise) with the players' names. round holds that round's
	// events as one seat sees them (Redact), oldest first, ending with the
	// event RoundEnd reports; it may start earlier (the events before the
	// round's own are ignored). A summary is public: it tells only what
	// every seat may know, so it is the same for every seat. Nil when round
	// holds no ended round, or not the events that scored it (and always
	// for a game without rounds).
	RoundSummary(round []Event, names []string, lang string) *RoundSummary
	// ChooseBot is a bot's decision for the seat whose view is given: one
	// of that view's legal moves, verbatim, to be played through Decide like
	// a person's. view is what State.View(seat) returned and history every
	// event so far as that seat sees it (Redacted): a bot never sees the
	// State, nor the seed. key (Seed.BotKey) and version key the bot's
	// randomness, so replaying a game gives the same bot moves (package
	// engine/bot has the shared parts). The types say so: see SeatView,
	// SeatHistory and BotKey. Errors are *RuleError: CodeBadOptions for an
	// unknown level, a foreign view or a history of another seat,
	// CodeNotYourTurn when the view lists no move.
	ChooseBot(level BotLevel, view SeatView, history SeatHistory, key BotKey, version int) (Move, error)
	// Settings describes the player range and the options a creator may
	// choose, labelled in lang ("en", "fr", "it"; English otherwise). The
	// service checks a request against it (CheckOptions) before New, and
	// the lobby builds its form from it; New still refuses combinations
	// (with a *RuleError whose Field names an option).
	Settings(lang string) Settings
}

// BotLevel is how well a bot plays.
type BotLevel int

// The bot levels. The zero BotLevel is not a level.
const (
	// BotEasy plays a uniformly random legal move.
	BotEasy BotLevel = iota + 1
	// BotNormal plays the best move by a one-step heuristic of its game.
	BotNormal
	// BotStrong searches over hidden cards sampled from what its seat has
	// seen, with a fixed budget.
	BotStrong
)

var botLevelNames = [...]string{BotEasy: "easy", BotNormal: "normal", BotStrong: "strong"}

// String is the level's name: "easy", "normal" or "strong".
func (l BotLevel) String() string {
	if !l.Valid() {
		return fmt.Sprintf("level(%d)", int(l))
	}
	return botLevelNames[l]
}

// Valid reports whether l is one of the levels.
func (l BotLevel) Valid() bool { return l >= BotEasy && l <= BotStrong }

// State is one game's current state. Its JSON form (json.Marshal) round-trips
// exactly through Game.DecodeState, PRNG included.
type State interface {
	// Players is the number of seats.
	Players() int
	// ToMove lists the seats whose decision is awaited: one seat, several for
	// simultaneous choices, none once the game has ended.
	ToMove() []int
	// Legal lists the moves seat may make now (empty if none is awaited from it).
	Legal(seat int) []Move
	// Decide validates a move of seat and returns the events it causes. It
	// never modifies the state. Errors are *RuleError.
	Decide(seat int, m Move) ([]Event, error)
	// Apply changes the state by one event. It never fails: events come from
	// Decide, so they are valid by construction.
	Apply(e Event)
	// View is what seat may see, JSON-marshalable: its hand, the table and
	// the counts of what others hold. Spectator gives the public view. Its
	// JSON leaves out the legal moves, which the API lists beside it (a
	// bot's view may hold them as a Go field).
	View(seat int) SeatView
	// Result is nil until the game has ended.
	Result() *Result
	// Standings tells the result to a player (nil until the game has
	// ended), in the state's language with its names (Speak gives
	// another's): what decided the ranking, in a sentence, and the
	// figures that decided it. It is read, never stored: the recorded
	// Result keeps the words it was written with.
	Standings() *Standings
	// DefaultMove is the move played for seat when its turn deadline passes
	// under the "default_move" policy: a sensible, harmless choice. It
	// returns nil when nothing is awaited from seat.
	DefaultMove(seat int) Move
	// Forced is the move played for seat at once, without asking it: its
	// only legal move, and only where every other seat can tell from what
	// it sees (its own view) that this is so, so that playing it at once
	// reveals nothing hidden. It returns nil when seat has several moves
	// or none, and also when it has one only because of what is hidden
	// from the others (no playable card in a hidden hand: playing that for
	// it at once would tell the table its hand by the timing). The service
	// plays a forced move in the same append as the move that led to it,
	// and so on while one follows (events/play: "forced:N" actors).
	// docs/playing.md says, game by game, which steps are forced.
	Forced(seat int) Move
	// Clone returns a deep copy, so a caller can keep a state before Apply.
	Clone() State
	// Explain tells seat, in a few short sentences in lang ("en", "fr",
	// "it"; English otherwise), how the rules apply to its situation now:
	// why a power cannot be used, how a score or a battle is counted. It
	// names only what seat may know (Spectator: only public things), so a
	// change in another seat's hidden cards never changes it. It returns
	// nil when there is nothing to explain, and never changes the state.
	Explain(seat int, lang string) []Explanation
	// Speak returns a copy of the state whose move labels, view texts and
	// card names are in lang ("en", "fr", "it"; English otherwise), as the
	// rulebook of that language names them, and whose labels, texts and
	// explanations name the players by names (by seat): what a player who
	// reads lang is shown while those people hold the seats (a seat given
	// to a new player is named after them; nil or a missing name keeps the
	// setup's). Names a creator wrote (players, custom cards) stay as
	// written. The state itself is unchanged; the result is for reading
	// and is never stored, and may be the state itself when lang and
	// names are already its own.
	Speak(lang string, names []string) State
}

// Explanation is one sentence of State.Explain.
type Explanation struct {
	// Kind names what is explained, in the game's own terms (for example
	// "power_blocked", "round_scores", "shield"), so that a page may place
	// or style it and a test may find it.
	Kind string `json:"kind"`
	// Text is the sentence, in the language asked for, naming players by
	// the setup's Names (or those of Speak).
	Text string `json:"text"`
}

// Move is one decision of a seat. It marshals to a JSON object with a
// "label"; a MarshalJSON method writes it valid and compact (MoveJSON
// does), as MarshalMove relies on.
type Move interface {
	// Label is the human description of the move, in the setup's language
	// and with the players' names. It is ignored when a move is posted back.
	Label() string
	// About says what kind of move it is and which card of the table it is
	// about, so that a page can group the moves by kind and offer each on
	// its card without reading the move's JSON. A move posted back verbatim
	// decodes to one About the same as the listed one's.
	About() About
}

// About is what a move is: its kind and the card of the table it is
// about.
type About struct {
	// Kind names the kind of move, as its JSON does ("recruit", "play"); a
	// page groups the moves of a kind under one title.
	Kind string
	// Card names the card of the table the move is about, by a key the
	// game's package gives its cards (lords.HandCard, bagpipes.HandCard:
	// the page names the cards of the view by the same functions); "" for
	// a move about no card (a yes or no, a turn's action).
	Card string
}

// Event is one fact of a game. It marshals to JSON; EventType names its kind.
type Event interface {
	EventType() string
}

// Result is the outcome of a finished game.
type Result struct {
	// Ranking lists every seat, best first.
	Ranking []Standing `json:"ranking"`
	// Summary is a one-line account of the end ("Ann wins with 42"), in the
	// setup's language and with the players' names.
	Summary string `json:"summary,omitempty"`
}

// LastRound returns the events of the last round evs hold: from just after
// the round end before the last one (or from the first event) to the last
// round end, included; nil when no event of evs ends a round. ended tells
// a round's end (Game.RoundEnd).
func LastRound(evs []Event, ended func(Event) bool) []Event {
	end := -1
	for i := len(evs) - 1; i >= 0; i-- {
		if !ended(evs[i]) {
			continue
		}
		if end >= 0 {
			return evs[i+1 : end+1]
		}
		end = i
	}
	if end < 0 {
		return nil
	}
	return evs[:end+1]
}

// RoundSummary is the account of one ended round (Game.RoundSummary).
type RoundSummary struct {
	// Round is the round's number, from 1.
	Round int `json:"round"`
	// Columns are the headings of each row's cells, in the summary's
	// language (the player's name comes before them, unheaded).
	Columns []string `json:"columns"`
	// Rows hold one seat each, in the game's order for the round (best
	// first where the round ranks the seats).
	Rows []RoundRow `json:"rows"`
	// Notes are sentences about the round as a whole (a battle's outcome).
	Notes []string `json:"notes,omitempty"`
}

// RoundRow is one seat's line of a RoundSummary: one cell per column.
type RoundRow struct {
	Seat  int      `json:"seat"`
	Cells []string `json:"cells"`
}

// Standings is a finished game's result as a player reads it
// (State.Standings): never a figure that did not decide the order.
type Standings struct {
	// Summary says who won and what decided the ranking ("Scotland fell:
	// the fewest daggers win. Ann wins with 4 daggers.").
	Summary string `json:"summary"`
	// Columns head the figures that ranked the seats, the deciding one
	// first; each row holds one cell under each.
	Columns []string `json:"columns"`
	// Rows hold every seat, best first, as the Result ranks them.
	Rows []StandingRow `json:"rows"`
}

// StandingRow is one seat's line of Standings.
type StandingRow struct {
	Seat  int      `json:"seat"`
	Place int      `json:"place"`
	Cells []string `json:"cells"`
}

// Standing is one seat's place in a Result.
type Standing struct {
	Seat int `json:"seat"`
	// Place is 1 for the winner; tied seats share a place.
	Place int `json:"place"`
	// Score is the game's main score (supporter strength, gold...).
	Score int `json:"score"`
	// Detail holds game-specific figures (daggers, tie-break rank...).
	Detail map[string]int `json:"detail,omitempty"`
}

// Registry maps game names to games. Build one in main; it is not global.
type Registry map[string]Game

// NewRegistry returns a registry of the given games, keyed by Name.
func NewRegistry(games ...Game) Registry {
	r := make(Registry, len(games))
	for _, g := range games {
		r[g.Name()] = g
	}
	return r
}
