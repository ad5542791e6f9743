package bagpipes

import (
	"encoding/json"
	"strings"
	"testing"

	"pbem/engine"
)

// TestOldAwardsReplay checks that events written under bagpipes-2 replay to
// the states they gave then: an Awards event without "daggers" lets only
// the supporters of England who fought draw a dagger card, one with it
// lets the seats it names draw; a BadgePassed without "round" leaves no
// badge_round in the state.
func TestOldAwardsReplay(t *testing.T) {
	deal := func() *state {
		st, err := Game{}.New(engine.Setup{Players: 4, Options: json.RawMessage(`{}`), Seed: engine.Seed{3}})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*state)
		s.Phase, s.Badge, s.Won = phAwards, 0, sideScotland
		for i := range s.P {
			s.P[i].Side, s.P[i].Camp, s.P[i].Hand, s.P[i].Daggers = sideScotland, 2, []int{}, []int{}
		}
		s.P[2].Side, s.P[2].Camp, s.P[2].Deserter = sideEngland, 0, true // an English deserter
		s.P[3].Side = sideEngland
		return s
	}
	var old Awards
	if err := json.Unmarshal([]byte(`{"gold":[2,2,0,3],"units":[0,0,0,0]}`), &old); err != nil {
		t.Fatal(err)
	}
	s := deal()
	s.Apply(old)
	if len(s.P[2].Daggers) != 0 || len(s.P[3].Daggers) != 1 {
		t.Errorf("old awards: daggers %v and %v, want none for the deserter and one for seat 3", s.P[2].Daggers, s.P[3].Daggers)
	}
	s = deal()
	s.Apply(s.awardsEvent())
	if len(s.P[2].Daggers) != 1 || len(s.P[3].Daggers) != 1 {
		t.Errorf("new awards: daggers %v and %v, want one each", s.P[2].Daggers, s.P[3].Daggers)
	}
	s = deal()
	s.Phase = phBadge
	s.Apply(BadgePassed{From: 0, To: 1})
	if raw, _ := json.Marshal(s); strings.Contains(string(raw), "badge_round") {
		t.Errorf("an old badge pass wrote badge_round: %s", raw)
	}
}
