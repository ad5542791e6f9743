package bagpipes

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"pbem/engine"
)

// TestVariantsAreOffered checks that every variant Settings offers is
// accepted by New alone at that player count, that the 3-player variant
// is offered by name to three players only, and that every other option
// key is refused there by name.
func TestVariantsAreOffered(t *testing.T) {
	all := []string{"three_player", "stay_home", "together", "long_game", "precise_daggers"}
	for n := 2; n <= 6; n++ {
		vs := Game{}.Settings("fr").For(n)
		var keys []string
		for _, v := range vs {
			if v.Label == "" || v.Help == "" {
				t.Errorf("%d players: %s has no French name or summary", n, v.Key)
			}
			if v.Type == engine.OptionBool {
				keys = append(keys, v.Key)
			}
		}
		if (n == 3) != (len(keys) > 0 && keys[0] == "three_player") {
			t.Errorf("%d players: variants %v", n, keys)
		}
		for _, k := range all {
			_, err := Game{}.New(engine.Setup{Players: n, Options: json.RawMessage(fmt.Sprintf(`{%q: true}`, k))})
			switch {
			case slices.Contains(keys, k) && err != nil:
				t.Errorf("%d players: offered %s refused: %v", n, k, err)
			case !slices.Contains(keys, k) && !(k == "stay_home" && n == 6):
				re, ok := err.(*engine.RuleError)
				if !ok || re.Code != engine.CodeBadOptions || re.Message[:len(k)] != k {
					t.Errorf("%d players: %s not offered, got %v, want bad_options naming it", n, k, err)
				}
			}
		}
	}
	if v := (Game{}).Settings("en").For(6); !v[0].IsForced(6) || v[0].Key != "stay_home" {
		t.Errorf("6 players: %+v, want Stay Home! always on", v[0])
	}
	if s := (Game{}).Settings("en"); s.MinPlayers != 2 || s.MaxPlayers != 6 {
		t.Errorf("player range %d..%d, want 2..6", s.MinPlayers, s.MaxPlayers)
	}
}

// TestKingEdwardFiltered checks over many deals that the King Edward card
// at the bottom of the English army deck passes the same filters as the
// other English army cards.
func TestKingEdwardFiltered(t *testing.T) {
	for _, tc := range []struct {
		players int
		opts    string
	}{{3, `"three_player": true`}, {2, ``}} {
		saw := map[int]bool{}
		for seed := range byte(40) {
			s := newState(t, tc.players, `{"cards": "@kings"`+map[bool]string{true: ", " + tc.opts, false: ""}[tc.opts != ""]+`}`, seed)
			saw[s.ArmyDeck[0]] = true
		}
		if !saw[1] || saw[0] {
			t.Errorf("%d players %s: bottom cards %v, want King Two only", tc.players, tc.opts, saw)
		}
	}
	saw := map[int]bool{}
	for seed := range byte(40) {
		saw[newState(t, 4, `{"cards": "@kings"}`, seed).ArmyDeck[0]] = true
	}
	if !saw[0] || !saw[1] {
		t.Errorf("4 players: bottom cards %v, want both King Edward cards", saw)
	}
}
