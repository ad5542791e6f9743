package bagpipes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pbem/engine"
)

// scenario is a golden test: a setup, an optional patch of the first
// state (a prestate), moves, and the expected poststate (a subset of the
// state's JSON) and result.
type scenario struct {
	About   string          `json:"about"`
	Players int             `json:"players"`
	Options json.RawMessage `json:"options"`
	Seed    int             `json:"seed"`
	// Patch is merged into the state's JSON: objects key by key, arrays of
	// objects element by element, anything else replaced.
	Patch json.RawMessage `json:"patch"`
	Steps []step          `json:"steps"`
	// Expect is a subset of the final state's JSON.
	Expect json.RawMessage `json:"expect"`
	// ExpectView is a subset of the final JSON view of seat ViewSeat.
	ExpectView json.RawMessage `json:"expect_view"`
	ViewSeat   int             `json:"view_seat"`
	// NewError is the rule error code New must return (no steps then);
	// NewErrorText, if given, a part of its message.
	NewError     string `json:"new_error"`
	NewErrorText string `json:"new_error_text"`
	// Language is the setup's language (labels, texts, errors).
	Language string `json:"language"`
	// Reached names the rows of doc.go's coverage table (their tags) that
	// the final assertions (expect, expect_view or new_error) show the
	// scenario reached; each is set only once those assertions pass.
	Reached []string `json:"reached"`
}

type step struct {
	Seat   int             `json:"seat"`
	Move   json.RawMessage `json:"move"`
	Error  string          `json:"error"`  // expected rule error code
	Events []string        `json:"events"` // expected event types, if given
	// Expect is a subset of the state's JSON after this step.
	Expect json.RawMessage `json:"expect"`
	// Reached names coverage tags set once this step's assertions (error,
	// events or expect; at least one is needed) pass.
	Reached []string `json:"reached"`
}

func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.json")
	if len(files) == 0 {
		t.Fatal("no golden scenarios")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) { runScenario(t, f) })
	}
}

// runScenario plays the golden scenario file and returns the coverage
// tags its passing assertions set.
func runScenario(t *testing.T, file string) map[string]bool {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var sc scenario
	reached := map[string]bool{}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sc); err != nil {
		t.Fatalf("scenario: %v", err)
	}
	// "cards": "@NAME" stands for the card set testdata/cards-NAME.json.
	opts := sc.Options
	if m := cardFileRef.FindSubmatch(opts); m != nil {
		cards, err := os.ReadFile("testdata/cards-" + string(m[1]) + ".json")
		if err != nil {
			t.Fatal(err)
		}
		opts = bytes.Replace(opts, m[0], cards, 1)
	}
	var seed engine.Seed
	seed[0], seed[1] = byte(sc.Seed), byte(sc.Seed>>8)
	g := Game{}
	st, err := g.New(engine.Setup{Players: sc.Players, Options: opts, Seed: seed, Language: sc.Language})
	if sc.NewError != "" {
		var re *engine.RuleError
		if !errors.As(err, &re) || re.Code != sc.NewError || !strings.Contains(re.Message, sc.NewErrorText) {
			t.Fatalf("new: error %v, want code %s with %q", err, sc.NewError, sc.NewErrorText)
		}
		for _, tag := range sc.Reached {
			reached[tag] = true
		}
		return reached
	}
	if err != nil {
		t.Fatalf("new: %v", err)
	}
	if len(sc.Patch) > 0 {
		var base, patch any
		mustUnmarshal(t, mustMarshal(t, st), &base)
		mustUnmarshal(t, sc.Patch, &patch)
		if st, err = g.DecodeState(mustMarshal(t, merge(base, patch))); err != nil {
			t.Fatalf("patched state: %v", err)
		}
	}
	check := func(what string, want json.RawMessage, v any) { t.Helper(); checkSubset(t, what, want, v) }
	for i, sp := range sc.Steps {
		mv, err := g.DecodeMove(sp.Move)
		if err == nil {
			var evs []engine.Event
			evs, err = st.Decide(sp.Seat, mv)
			if err == nil {
				var types []string
				for _, e := range evs {
					st.Apply(e)
					types = append(types, e.EventType())
				}
				if sp.Events != nil && strings.Join(types, " ") != strings.Join(sp.Events, " ") {
					t.Fatalf("step %d: events %v, want %v", i, types, sp.Events)
				}
			}
		}
		var re *engine.RuleError
		switch {
		case sp.Error == "" && err != nil:
			t.Fatalf("step %d (%s): %v", i, sp.Move, err)
		case sp.Error != "" && (!errors.As(err, &re) || re.Code != sp.Error):
			t.Fatalf("step %d (%s): error %v, want code %s", i, sp.Move, err, sp.Error)
		}
		check(fmt.Sprintf("state after step %d", i), sp.Expect, st)
		if len(sp.Reached) > 0 && sp.Error == "" && sp.Events == nil && len(sp.Expect) == 0 {
			t.Fatalf("step %d: a reached tag needs an assertion (error, events or expect)", i)
		}
		for _, tag := range sp.Reached {
			reached[tag] = true
		}
	}
	check("state", sc.Expect, st)
	// The seat is shown its view and, beside it, its legal moves.
	var shown map[string]any
	mustUnmarshal(t, mustMarshal(t, st.View(sc.ViewSeat)), &shown)
	shown["legal_moves"] = append([]engine.Move{}, st.Legal(sc.ViewSeat)...)
	check("view", sc.ExpectView, shown)
	if len(sc.Reached) > 0 && len(sc.Expect) == 0 && len(sc.ExpectView) == 0 {
		t.Fatalf("a reached tag needs an assertion (expect or expect_view)")
	}
	for _, tag := range sc.Reached {
		reached[tag] = true
	}
	return reached
}

// checkSubset fails t unless want (JSON) is a subset of v's JSON.
func checkSubset(t *testing.T, what string, want json.RawMessage, v any) {
	t.Helper()
	check := func(what string, want json.RawMessage, v any) {
		if len(want) == 0 {
			return
		}
		var got, exp any
		mustUnmarshal(t, mustMarshal(t, v), &got)
		mustUnmarshal(t, want, &exp)
		if err := subset(exp, got, what); err != nil {
			t.Fatalf("%v\n%s: %s", err, what, mustMarshal(t, v))
		}
	}
	check(what, want, v)
}

var cardFileRef = regexp.MustCompile(`"@([a-z0-9-]+)"`)

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// merge applies patch to base (see scenario.Patch).
func merge(base, patch any) any {
	switch p := patch.(type) {
	case map[string]any:
		b, ok := base.(map[string]any)
		if !ok {
			return p
		}
		for k, v := range p {
			b[k] = merge(b[k], v)
		}
		return b
	case []any:
		b, ok := base.([]any)
		if !ok || len(p) == 0 {
			return p
		}
		if _, objs := p[0].(map[string]any); !objs || len(b) != len(p) {
			return p
		}
		for i := range p {
			b[i] = merge(b[i], p[i])
		}
		return b
	}
	return patch
}

// subset checks that every value of want is in got.
func subset(want, got any, path string) error {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: got %v, want an object", path, got)
		}
		for k, v := range w {
			if err := subset(v, g[k], path+"."+k); err != nil {
				return err
			}
		}
	case []any:
		g, ok := got.([]any)
		// A last element "..." checks only the first elements.
		if n := len(w); ok && n > 0 && w[n-1] == "..." && len(g) >= n-1 {
			w, g = w[:n-1], g[:n-1]
		}
		if !ok || len(g) != len(w) {
			return fmt.Errorf("%s: got %v, want %v", path, got, w)
		}
		for i := range w {
			if err := subset(w[i], g[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case string:
		// "lenN" checks only the length of an array.
		if n, ok := strings.CutPrefix(w, "len"); ok {
			if g, isArr := got.([]any); isArr {
				if fmt.Sprint(len(g)) != n {
					return fmt.Errorf("%s: got %d elements, want %s", path, len(g), n)
				}
				return nil
			}
		}
		if w != fmt.Sprint(got) {
			return fmt.Errorf("%s: got %v, want %v", path, got, want)
		}
	default:
		if fmt.Sprint(want) != fmt.Sprint(got) {
			return fmt.Errorf("%s: got %v, want %v", path, got, want)
		}
	}
	return nil
}
