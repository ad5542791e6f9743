package enginetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"pbem/engine"
)

// toy is a tiny game to test the checks: players take 1 or 2 from a pile of
// 7 in turn; whoever takes the last wins. Its flaws are switched on to see
// that RandomGames notices them.
type toy struct {
	acceptThree bool // Decide accepts an unlisted move
	mutate      bool // Decide changes the state
	leakExplain bool // Explain tells the hidden marker
	allUndo     bool // Reversible says yes to every move, the last one too
}

type toyState struct {
	g      *toy
	N      int `json:"n"`
	Pile   int `json:"pile"`
	Next   int `json:"next"`
	Winner int `json:"winner"`
	// Marker is a hidden card no rule uses, changed by the tests' Plant.
	Marker int `json:"marker"`
}

type toyMove struct {
	Type string `json:"type"`
	N    int    `json:"n"`
}

func (m toyMove) Label() string     { return fmt.Sprintf("Take %d", m.N) }
func (toyMove) About() engine.About { return engine.About{Kind: "take"} }
func (m toyMove) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`{"type":"take","n":%d,"label":%q}`, m.N, m.Label())), nil
}

type took struct {
	Seat int `json:"seat"`
	N    int `json:"n"`
}

func (took) EventType() string { return "took" }

func (g *toy) Name() string { return "toy" }
func (g *toy) Settings(string) engine.Settings {
	return engine.Settings{MinPlayers: 2, MaxPlayers: 4}
}
func (g *toy) RulesVersion() string { return "1" }
func (g *toy) New(s engine.Setup) (engine.State, error) {
	if s.Players < 2 || s.Players > 4 {
		return nil, engine.Errorf(engine.CodeBadOptions, "toy is for 2 to 4 players")
	}
	return &toyState{g: g, N: s.Players, Pile: 7, Winner: -1}, nil
}
func (g *toy) DecodeState(data []byte) (engine.State, error) {
	s := &toyState{g: g}
	return s, json.Unmarshal(data, s)
}
func (g *toy) DecodeMove(data []byte) (engine.Move, error) {
	var m struct {
		Type  string `json:"type"`
		N     *int   `json:"n"`
		Label string `json:"label"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil || m.Type != "take" || m.N == nil {
		return nil, engine.Errorf(engine.CodeBadMove, "bad move")
	}
	return toyMove{Type: "take", N: *m.N}, nil
}
func (g *toy) DecodeEvent(typ string, data []byte) (engine.Event, error) {
	var e took
	return e, json.Unmarshal(data, &e)
}
func (g *toy) Redact(e engine.Event, seat int) engine.Event { return e }
func (g *toy) RoundEnd(e engine.Event) bool                 { return false }

// Reversible: taking from the pile reveals nothing, but the move that
// empties it ends the game, and the events do not say which one that is:
// the sound toy takes nothing back.
func (g *toy) Reversible(evs []engine.Event) bool { return g.allUndo && len(evs) > 0 }
func (g *toy) ChooseBot(engine.BotLevel, engine.SeatView, engine.SeatHistory, engine.BotKey, int) (engine.Move, error) {
	return nil, engine.Errorf(engine.CodeBadOptions, "the toy game has no bots")
}
func (g *toy) Describe(e engine.Event, names []string, lang string) string {
	return fmt.Sprintf("seat %d took %d", e.(took).Seat, e.(took).N)
}

func (s *toyState) Players() int { return s.N }
func (s *toyState) ToMove() []int {
	if s.Winner >= 0 {
		return nil
	}
	return []int{s.Next}
}
func (s *toyState) Legal(seat int) []engine.Move {
	if s.Winner >= 0 || seat != s.Next {
		return nil
	}
	var out []engine.Move
	for n := 1; n <= min(2, s.Pile); n++ {
		out = append(out, toyMove{Type: "take", N: n})
	}
	return out
}
func (s *toyState) Decide(seat int, m engine.Move) ([]engine.Event, error) {
	if s.Winner >= 0 {
		return nil, engine.Errorf(engine.CodeGameOver, "over")
	}
	if seat != s.Next {
		return nil, engine.Errorf(engine.CodeNotYourTurn, "not you")
	}
	mv, ok := m.(toyMove)
	max := min(2, s.Pile)
	if s.g.acceptThree {
		max = min(3, s.Pile)
	}
	if !ok || mv.N < 1 || mv.N > max {
		return nil, engine.Errorf(engine.CodeIllegalMove, "no")
	}
	if s.g.mutate {
		s.Pile++ // the flaw: Decide must not change the state
	}
	return []engine.Event{took{Seat: seat, N: mv.N}}, nil
}
func (s *toyState) Apply(e engine.Event) {
	t := e.(took)
	s.Pile -= t.N
	if s.Pile <= 0 {
		s.Winner = t.Seat
	}
	s.Next = (s.Next + 1) % s.N
}
func (s *toyState) View(seat int) engine.SeatView { return toyView{s} }

// toyView is the toy's view: its whole state (the toy hides nothing a
// rule uses).
type toyView struct{ *toyState }

func (v toyView) ViewSeat() int     { return v.Next }
func (toyView) Score() engine.Score { return engine.Score{} }
func (s *toyState) Standings() *engine.Standings {
	r := s.Result()
	if r == nil {
		return nil
	}
	out := &engine.Standings{Summary: "the last player wins", Columns: []string{"Won"}}
	for _, st := range r.Ranking {
		out.Rows = append(out.Rows, engine.StandingRow{Seat: st.Seat, Place: st.Place, Cells: []string{strconv.FormatBool(st.Place == 1)}})
	}
	return out
}
func (s *toyState) Result() *engine.Result {
	if s.Winner < 0 {
		return nil
	}
	r := &engine.Result{}
	r.Ranking = append(r.Ranking, engine.Standing{Seat: s.Winner, Place: 1})
	for q := range s.N {
		if q != s.Winner {
			r.Ranking = append(r.Ranking, engine.Standing{Seat: q, Place: 2})
		}
	}
	return r
}
func (s *toyState) DefaultMove(seat int) engine.Move {
	if l := s.Legal(seat); len(l) > 0 {
		return l[0]
	}
	return nil
}
func (s *toyState) Forced(int) engine.Move              { return nil }
func (s *toyState) Clone() engine.State                 { c := *s; return &c }
func (s *toyState) Speak(string, []string) engine.State { return s.Clone() }
func (s *toyState) Explain(seat int, lang string) []engine.Explanation {
	text := fmt.Sprintf("%d left in the pile: whoever takes the last one wins.", s.Pile)
	if s.g.leakExplain {
		text += fmt.Sprintf(" The marker is %d.", s.Marker)
	}
	return []engine.Explanation{{Kind: "pile", Text: text}}
}

// plantToy changes the toy's hidden marker.
func plantToy(st engine.State, seat, k int) (engine.State, bool) {
	c := st.Clone().(*toyState)
	c.Marker = 1000 + k
	return c, true
}

// failRecorder is a testing.TB that records a fatal failure.
type failRecorder struct {
	testing.TB
	msg string
}

func (r *failRecorder) Helper() {}
func (r *failRecorder) Fatalf(f string, a ...any) {
	r.msg = fmt.Sprintf(f, a...)
	runtime.Goexit()
}
func (r *failRecorder) Fatal(a ...any) {
	r.msg = fmt.Sprint(a...)
	runtime.Goexit()
}

func runRecorded(t *testing.T, g engine.Game) string {
	rec := &failRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		RandomGames(rec, g, Options{
			Games: 50, DeepEvery: 1, Workers: 2, Plant: plantToy,
			Setup: func(i int) engine.Setup { return engine.Setup{Players: 2 + i%3} },
		})
	}()
	<-done
	return rec.msg
}

func TestRandomGamesPassesASoundGame(t *testing.T) {
	stats := RandomGames(t, &toy{}, Options{
		Games: 100, DeepEvery: 3, Workers: 2, Plant: plantToy,
		Setup: func(i int) engine.Setup { return engine.Setup{Players: 2 + i%3} },
	})
	if stats.Games != 100 || stats.Deep != 34 || stats.Moves == 0 || stats.Rejected == 0 || stats.Explained["pile"] == 0 {
		t.Fatalf("stats %+v", stats)
	}
}

func TestRandomGamesCatchesFlaws(t *testing.T) {
	for name, g := range map[string]*toy{
		"accepts an unlisted move":    {acceptThree: true},
		"Decide changes the state":    {mutate: true},
		"Explain tells a hidden card": {leakExplain: true},
		"the last move is reversible": {allUndo: true},
	} {
		msg := runRecorded(t, g)
		if msg == "" {
			t.Errorf("%s: not caught", name)
		} else if !strings.Contains(msg, "game ") {
			t.Errorf("%s: odd message %q", name, msg)
		}
	}
}
func (g *toy) RoundSummary([]engine.Event, []string, string) *engine.RoundSummary { return nil }
