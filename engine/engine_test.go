package engine

import (
	"slices"
	"testing"
)

// mark is an event named by its type: "end" ends a round.
type mark string

func (m mark) EventType() string { return string(m) }

// TestLastRound: the events from after the round end before the last one
// to the last round end.
func TestLastRound(t *testing.T) {
	ended := func(e Event) bool { return e.EventType() == "end" }
	for _, tc := range []struct{ evs, want []Event }{
		{nil, nil},
		{[]Event{mark("a"), mark("b")}, nil},
		{[]Event{mark("a"), mark("end")}, []Event{mark("a"), mark("end")}},
		{[]Event{mark("a"), mark("end"), mark("b"), mark("c"), mark("end"), mark("d")}, []Event{mark("b"), mark("c"), mark("end")}},
		{[]Event{mark("end"), mark("end")}, []Event{mark("end")}},
	} {
		if got := LastRound(tc.evs, ended); !slices.Equal(got, tc.want) {
			t.Errorf("LastRound(%v) = %v, want %v", tc.evs, got, tc.want)
		}
	}
}
