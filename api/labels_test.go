package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"pbem/engine/lords"
)

// The REST view lists the moves with the engine's labels in the game's
// language, and a move posted back with another label (here English) is
// played all the same: labels are ignored.
func TestViewLabelsSpeakTheGamesLanguage(t *testing.T) {
	t.Parallel()
	g, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, g)
	var players []map[string]string
	for _, n := range []string{"Ann", "Bob"} {
		players = append(players, map[string]string{"name": n, "email": n + "@example.org"})
	}
	body := map[string]any{"game": lords.Name, "players": players, "language": "it",
		"organiser": map[string]string{"name": "Ann", "email": "Ann@example.org"}}
	c := e.createConfirmed(body)
	var v viewBody
	if st := e.do("GET", "/api/v1/games/"+c.ID+"/view", seatToken(c.ID, 0), nil, &v); st != http.StatusOK {
		t.Fatalf("view: %d", st)
	}
	var recruit map[string]any
	for _, raw := range v.LegalMoves {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		if m["label"] == "Recluta la carta coperta (posto 2)" {
			recruit = m
		}
	}
	if recruit == nil {
		t.Fatalf("no Italian label for the face-down recruit in %s", v.LegalMoves)
	}
	recruit["label"] = "Recruit the face-down card (place 2)"
	var nv viewBody
	if st := e.do("POST", "/api/v1/games/"+c.ID+"/moves", seatToken(c.ID, 0), map[string]any{"version": v.Version, "move": recruit}, &nv); st != http.StatusOK {
		t.Fatalf("move with an English label: %d", st)
	}
	if nv.Version <= v.Version {
		t.Fatalf("version %d after %d", nv.Version, v.Version)
	}
	// The cards' power texts are Italian too.
	var st struct {
		Hand []struct {
			Power string `json:"power"`
		} `json:"hand"`
	}
	if err := json.Unmarshal(nv.State, &st); err != nil || len(st.Hand) == 0 {
		t.Fatalf("view state: %v %s", err, nv.State)
	}
	italian := "Copia il|Pesca una|Resta nel|Rivendica due|Scambia questa|Scarta un'altra|Schiera un'altra|Vale come"
	for _, c := range st.Hand {
		ok := false
		for _, w := range strings.Split(italian, "|") {
			ok = ok || strings.HasPrefix(c.Power, w)
		}
		if !ok {
			t.Errorf("power text %q is not Italian", c.Power)
		}
	}
}
