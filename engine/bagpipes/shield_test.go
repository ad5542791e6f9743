package bagpipes

import (
	"encoding/json"
	"testing"

	"pbem/engine"
)

func TestChoosers(t *testing.T) {
	for _, tc := range []struct {
		n    int
		opts Options
		want int
	}{
		{2, Options{}, 2}, {3, Options{}, 2}, {3, Options{ThreePlayer: true}, 3}, {4, Options{}, 3},
		{4, Options{LongGame: true}, 3}, {5, Options{}, 4}, {5, Options{StayHome: true}, 3}, {6, Options{StayHome: true}, 4},
	} {
		if got := Choosers(tc.n, tc.opts); got != tc.want {
			t.Errorf("%d players %+v: %d choosers, want %d", tc.n, tc.opts, got, tc.want)
		}
	}
}

// TestShieldByChoosers: the army's strength in the battle and in the view
// follows the card's shield_by_choosers entry for the game, else shield.
func TestShieldByChoosers(t *testing.T) {
	cs := DefaultCards()
	for _, tc := range []struct {
		n    int
		opts string
	}{{2, `{}`}, {3, `{}`}, {3, `{"three_player":true}`}, {4, `{}`}, {5, `{}`}, {5, `{"stay_home":true}`}, {6, `{}`}} {
		st, err := Game{}.New(engine.Setup{Players: tc.n, Options: json.RawMessage(tc.opts), Seed: engine.Seed{7}})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*state)
		evs, err := s.Decide(s.ToMove()[0], s.legal(s.ToMove()[0])[0])
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			s.Apply(e)
		}
		a := s.army()
		want, ok := a.ShieldByChoosers[string(rune('0'+Choosers(tc.n, s.Opt)))]
		if !ok {
			want = a.Shield
		}
		if _, eng := s.forces(); eng != want+s.EngBonus {
			t.Errorf("%d players %s, %s: England's strength %d, want %d+%d", tc.n, tc.opts, a.ID, eng, want, s.EngBonus)
		}
		if v := s.View(0).(View); v.Army.Shield != want {
			t.Errorf("%d players %s, %s: view shows shield %d, want %d", tc.n, tc.opts, a.ID, v.Army.Shield, want)
		}
	}
	if got := cs.KingEdward[0].ShieldFor(9); got != cs.KingEdward[0].Shield {
		t.Errorf("no entry: shield %d, want the printed %d", got, cs.KingEdward[0].Shield)
	}
}
