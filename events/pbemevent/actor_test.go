package pbemevent

import (
	"testing"
	"time"

	"pbem/events"
)

// TestSeatActorReadsBack checks that a seat's actor reads back as its seat
// and that the service's own actors and malformed ones read as no seat.
func TestSeatActorReadsBack(t *testing.T) {
	for _, seat := range []int{0, 1, 5, 12} {
		if got, ok := SeatOfActor(SeatActor(seat)); !ok || got != seat {
			t.Errorf("SeatOfActor(SeatActor(%d)) = %d, %v", seat, got, ok)
		}
	}
	for _, actor := range []string{"system", "admin", "bot:normal", ForcedActor(2), "seat:", "seat:x", "seat:-1", "Seat:1"} {
		if got, ok := SeatOfActor(actor); ok {
			t.Errorf("SeatOfActor(%q) = %d, want no seat", actor, got)
		}
	}
}

// TestLevelOfBot reads a bot's level from its actor, and no level from
// another actor.
func TestLevelOfBot(t *testing.T) {
	if got, ok := LevelOfBot("bot:strong"); !ok || got != "strong" {
		t.Errorf("LevelOfBot(bot:strong) = %q, %v", got, ok)
	}
	for _, actor := range []string{"system", "admin", "bot:", "seat:1", ForcedActor(0), "robot:easy"} {
		if got, ok := LevelOfBot(actor); ok {
			t.Errorf("LevelOfBot(%q) = %q, want no level", actor, got)
		}
	}
}

// TestGameStep: an event of the game is its actor's act when its data
// names the acting seat; a step of the game's own when it names no seat or
// another; a service event is always its actor's, but the muster's end,
// which is the game's.
func TestGameStep(t *testing.T) {
	for _, c := range []struct {
		typ  string
		seat int
		data string
		want bool
	}{
		{"played", 1, `{"seat":1,"card":"c7"}`, false},
		{"round_ended", 1, `{"round":2}`, true},
		{"turn_started", 0, `{"seat":1,"card":12}`, true},
		{"played", -1, `{"seat":1}`, false}, // a bot's move: no acting seat known
		{"round_ended", -1, `{}`, true},
		{TypeChat, 0, `{"text":"hi"}`, false},
		{"played", 0, `not json`, true},
		{TypeMustered, 2, `{"by":"all"}`, true}, // the muster's end follows the last answer
		{TypeAccepted, 2, `{"seat":2}`, false},
	} {
		if got := GameStep(c.typ, c.seat, []byte(c.data)); got != c.want {
			t.Errorf("GameStep(%q, %d, %s) = %v, want %v", c.typ, c.seat, c.data, got, c.want)
		}
	}
}

// TestActingSeat: a seat's own act, a step played for a seat and a bot's
// move (by its key) name their seat; the service's own events none.
func TestActingSeat(t *testing.T) {
	for _, c := range []struct {
		actor, key string
		want       int
	}{
		{"seat:2", "", 2},
		{"seat:1", "seat:1:k7", 1},
		{ForcedActor(3), "", 3},
		{"bot:normal", "seat:2:bot:v14", 2},
		{"bot:normal", "", -1},
		{"system", "", -1},
		{"admin", "chat:abc", -1},
		{"bot:easy", "seat:x:bot", -1},
		{"seat:0", "seat:0:page:v3:ab", 0},
		{"bot:normal", "seat:3:bot:v12", 3},
		{"admin", "", -1},
		{"seat:x", "", -1},
		{"seat:-1", "", -1},
	} {
		if got := ActingSeat(c.actor, c.key); got != c.want {
			t.Errorf("ActingSeat(%q, %q) = %d, want %d", c.actor, c.key, got, c.want)
		}
	}
}

// TestStepsCarryABotsSeatThroughItsAppend: a bot's append names its seat
// in its first event's key only; the next seat's turn that follows it is
// the game's step, the bot's own event is not.
func TestStepsCarryABotsSeatThroughItsAppend(t *testing.T) {
	ev := func(actor, key, data string) events.Event {
		return events.Event{Type: "x", Data: []byte(data), Meta: events.Metadata{Actor: actor, IdempotencyKey: key}}
	}
	var st Steps
	for i, c := range []struct {
		e    events.Event
		want bool
	}{
		{ev("seat:0", "", `{"seat":0}`), false},
		{ev("seat:0", "", `{"seat":1}`), true}, // the bot's turn begins
		{ev("bot:normal", "seat:1:bot:v3", `{"seat":1}`), false},
		{ev("bot:normal", "", `{"seat":1}`), false}, // the bot's move goes on
		{ev("bot:normal", "", `{"seat":0}`), true},  // Ann's turn begins
		{ev("bot:normal", "", `{"round":1}`), true},
	} {
		if got := st.Next(c.e); got != c.want {
			t.Errorf("event %d: Next = %v, want %v", i, got, c.want)
		}
	}
}

// TestStepsCreditADecisionsFirstEventToItsSeat (a user trial read "Alice
// gives the badge of honour to Giulia. · the game"): the first event of a
// seat's append is its act even where its data names another seat, and
// the events after it are the game's where they name no seat or another;
// a new append by the same seat (its own key, or another time) begins
// another act.
func TestStepsCreditADecisionsFirstEventToItsSeat(t *testing.T) {
	at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	ev := func(typ, key string, sec int, data string) events.Event {
		return events.Event{Type: typ, Data: []byte(data), RecordedAt: at.Add(time.Duration(sec) * time.Second),
			Meta: events.Metadata{Actor: "seat:0", IdempotencyKey: key}}
	}
	var st Steps
	for i, c := range []struct {
		e    events.Event
		want bool
	}{
		{ev("badge_passed", "seat:0:k1", 0, `{"from":0,"to":2}`), false}, // Alice gives the badge
		{ev("phase", "", 0, `{"phase":"choice"}`), true},
		{ev("badge_passed", "", 5, `{"from":0,"to":1}`), false}, // a later append, unkeyed
		{ev("turn_started", "", 5, `{"seat":1}`), true},
		{ev(TypeAccepted, "", 9, `{"seat":0}`), false},
		{ev(TypeMustered, "", 9, `{"by":"all"}`), true}, // everyone has answered: the game's
		{ev("turn_started", "", 9, `{"seat":2}`), true},
	} {
		if got := st.Next(c.e); got != c.want {
			t.Errorf("event %d (%s): Next = %v, want %v", i, c.e.Type, got, c.want)
		}
	}
}
