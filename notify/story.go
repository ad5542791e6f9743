package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events/pbemevent"
	"pbem/projections/outbox"
)

// Story is what a seat's email tells beyond its payload: what happened
// since the seat last heard, the rounds it closes, and the player's time
// zone. The worker's SeatReader reads it when the email is rendered, not
// when its outbox row is written.
//
// Why at render time, from the seat's redacted history, and not in the
// outbox payload at projection time:
//
//   - The seat's history tells every event as that seat may see it (the
//     engine's Redact and Describe, in the game's language, with the
//     players' names), told from the events by projections.SeatHistory:
//     it is what the play page shows. Reading the email's lines from it
//     means the email and the page cannot disagree, and the email can
//     never hold more than the seat's own history.
//   - The projector sees one append at a time; the lines since a seat last
//     heard span many appends. Copying them into every payload would
//     repeat them in the outbox (and the WAL) move after move, and
//     finding them at projection time would add a read to every move.
//   - The range ends at the row's event version, or, for a your-turn email
//     the worker found fresh just before sending (see Freshness), at the
//     game's version then: moves that followed within the grace are told
//     by the one email. The time zone is the newest one known.
//
// Your-turn, round-end and game-over emails tell a story (Kind.TellsStory):
// the span of the seat's history it has not been told, so that no line is
// told twice across a seat's consecutive emails and none is skipped. It
// starts after the later of
//
//   - the seat's last move, its last game event whose actor is "seat:N"
//     that is not a step of the game (moves it made itself, from the page,
//     the API or an email; the steps its move set off, a round's end, the
//     next round's deal, are told: an email answering a reply did not tell
//     them), or its answer to the muster, with the start it set off
//     (pbemevent.EndsStory: what it answered, it knows);
//   - the version the seat's last such email that went out told up to
//     (a sent row's event version), or the one a row sent before it in
//     the same batch tells up to (StoryRequest.After).
//
// Moves made for the seat (a default move when its time ran out, a bot)
// are part of the story. The other players' table talk is part of it
// (issue #31: a table-talk email waiting for the seat is then not sent,
// see ChatGather), but for the lines a table-talk email sent already told;
// the seat's own lines and the game's creation are left out. A table-talk
// email's Events are the other players' lines the seat was not told yet.
type Story struct {
	// Events are the seat's redacted history it was not told, up to the
	// email's event version, oldest first: non-nil (possibly empty) when
	// the story was told (your-turn, round-end and game-over emails, and
	// table talk).
	Events []StoryEvent
	// AfterEmail: Events start after an email the seat was sent, not after
	// its last move (the email says "Since our last email").
	AfterEmail bool
	// Zone is the seat's time zone as its browser reported it ("" : UTC).
	Zone string
	// Rounds are the accounts of the rounds the email tells, built by the
	// game's engine from the seat's redacted history, oldest first: for a
	// round-end email the round it closes; for a game-over email every
	// round that ended after the seat's last email of a story went out
	// (the last round, and any whose round-end email did not go out).
	Rounds []*engine.RoundSummary
}

// StoryRequest asks for the Story of an email of Kind to Seat of GameID,
// written about version Upto. After is the version an email to the same
// seat, sent just before it in the same batch, tells up to (0: none): its
// story starts after it. RoundAt, for a round-end email told up to a
// later version than its own (Row.RoundAt), is the version of the round's
// end whose table it shows (0: Upto).
type StoryRequest struct {
	GameID  string
	Seat    int
	Upto    int64
	Kind    outbox.Kind
	After   int64
	RoundAt int64
}

// StoryEvent is one line of a seat's redacted history.
type StoryEvent struct {
	Version int64
	// Type is the event's type; Actor who acted ("seat:2", "bot:normal",
	// "system", "admin"); Seat the seat whose turn it belongs to (see
	// TurnSeat), -1 when none.
	Type  string
	Actor string
	Seat  int
	// Who names the person who held the acting seat when it acted ("":
	// the seat's current name is told, or none).
	Who string
	// Summary is the event's sentence as the seat's history has it.
	Summary string
	// Step tells a step the game took after the act whose append it is
	// part of (projections.HistoryRow.Step: a round's end, a battle, the
	// next seat's turn beginning), told under the game's heading rather
	// than the acting seat's.
	Step bool
}

// SeatReader reads what a seat's email needs at render time. Its
// PostgreSQL implementation is notify/postgres.Seats.
type SeatReader interface {
	// Stories returns, for each request (in its order), what an email of
	// its kind to its seat tells beyond its payload: always the seat's time
	// zone; for a your-turn, round-end or game-over email its history
	// since it last heard, up to Upto (see Story); for a round-end email
	// the summary of the round ended at or before Upto, for a game-over
	// email those of the rounds it was not told. One call serves a
	// claimed batch.
	Stories(ctx context.Context, reqs []StoryRequest) ([]*Story, error)
}

// CheckZone validates an IANA time zone name a browser reported
// (Intl.DateTimeFormat().resolvedOptions().timeZone) and returns its
// location. "UTC" is accepted; "Local", "" and names the time zone
// database does not know are refused.
func CheckZone(zone string) (*time.Location, error) {
	if zone == "" || len(zone) > 64 || zone == "Local" {
		return nil, fmt.Errorf("notify: time zone %q: give an IANA name such as Europe/Paris", zone)
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return nil, fmt.Errorf("notify: time zone %q: give an IANA name such as Europe/Paris", zone)
	}
	return loc, nil
}

// TurnSeat is the seat whose turn an event belongs to: its acting seat
// (pbemevent.ActingSeat: a seat's own act, a bot's move, a step played for
// a seat), else the seat its data names (a default move when time ran
// out), else -1. players is the number of seats.
func TurnSeat(actor, key string, data json.RawMessage, players int) int {
	if s := pbemevent.ActingSeat(actor, key); s >= 0 {
		return s
	}
	var d struct {
		Seat *int `json:"seat"`
	}
	if json.Unmarshal(data, &d) == nil && d.Seat != nil && *d.Seat >= 0 && *d.Seat < players {
		return *d.Seat
	}
	return -1
}

// storyTurn is one group of an email's story: consecutive events of one
// actor, under a heading naming it.
type storyTurn struct {
	Who   string
	Lines []string
}

// storyHeads are the headings of the groups of an email's story that no
// seat made, in the email's language.
type storyHeads struct {
	timeout string // the deadline's events (actor "system")
	admin   string // the organiser's
	game    string // anything else: the game's own steps
	// forced heads a forced step played for a seat (actor "forced:N"),
	// given that seat's player's name.
	forced func(name string) string
}

// storyTurns groups events by consecutive actor, each group headed by the
// name of the seat that acted (as of the act; names are the players by
// seat), or by one of heads. The game's own steps (StoryEvent.Step) go
// under the game's heading; another seatless event of the actor of the
// group before it stays in that group.
func storyTurns(evs []StoryEvent, names []string, heads storyHeads) []storyTurn {
	var out []storyTurn
	last, lastActor := "", ""
	for _, e := range evs {
		if e.Summary == "" {
			continue
		}
		key := e.Actor + "/" + strconv.Itoa(e.Seat)
		switch {
		case e.Step:
			key = "step" // the game's own step: under the game's heading
		case e.Seat < 0 && e.Actor == lastActor && strings.HasPrefix(e.Actor, "bot:"):
			key = last
		}
		forced, isForced := pbemevent.SeatOfForced(e.Actor)
		if len(out) == 0 || key != last {
			who := heads.game
			switch {
			case e.Step:
			case isForced && forced < len(names) && heads.forced != nil:
				who = heads.forced(names[forced])
			case e.Who != "":
				who = e.Who
			case e.Seat >= 0 && e.Seat < len(names):
				who = names[e.Seat]
			case e.Actor == "admin":
				who = heads.admin
			case e.Actor == "system":
				who = heads.timeout
			}
			out = append(out, storyTurn{Who: who})
			last = key
		}
		lastActor = e.Actor
		t := &out[len(out)-1]
		t.Lines = append(t.Lines, e.Summary)
	}
	return out
}
