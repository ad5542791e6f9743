package enginetest

import (
	"fmt"
	"slices"
	"testing"

	"pbem/engine"
)

// GameTexts returns the labels of every listed move, the descriptions of
// every event (as played and as each seat and a spectator see it), the
// extra texts and the summary, for a whole game.
func TestGameTexts(t *testing.T) {
	extras := 0
	got, err := GameTexts(&toy{}, engine.Setup{Players: 2}, 1, func(st engine.State) []string {
		extras++
		return []string{fmt.Sprintf("pile %d", st.(*toyState).Pile)}
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Take 1", "Take 2", "seat 0 took 1", "seat 1 took 2", "pile 0"} {
		if !slices.Contains(got, want) {
			t.Errorf("GameTexts lacks %q: %q", want, got)
		}
	}
	// Each move's event is described 4 times (as played, spectator, seats 0 and 1).
	described := 0
	for _, s := range got {
		if len(s) > 5 && s[:5] == "seat " {
			described++
		}
	}
	if extras == 0 || described != 4*extras {
		t.Errorf("%d moves, %d descriptions", extras, described)
	}
	if _, err := GameTexts(&toy{}, engine.Setup{Players: 9}, 1, nil); err == nil {
		t.Error("a refused setup gives no error")
	}
}
