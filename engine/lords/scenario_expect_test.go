package lords

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"pbem/engine"
)

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

func (sc *scenario) cardList(cards []int) string {
	var out []string
	for _, c := range cards {
		out = append(out, sc.cardName(c))
	}
	return strings.Join(out, " ")
}

func (sc *scenario) cardName(c int) string {
	if c == 0 {
		return "-"
	}
	d := sc.g.d
	return fmt.Sprintf("%s%d", d.clan(c), d.strength(c))
}

func (sc *scenario) armyString(army []Follower) string {
	var out []string
	for _, f := range army {
		s := sc.cardName(f.Card)
		if !f.FaceUp {
			s = "~" + s
		}
		if f.Kept {
			s += "+kept"
		} else if f.Power != noClan {
			s += "+" + f.Power.String()
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// normCards reads card names into the canonical "Clan7" form.
func (sc *scenario) normCards(toks []string) []string {
	var out []string
	for _, tok := range toks {
		prefix := ""
		if strings.HasPrefix(tok, "~") {
			prefix, tok = "~", tok[1:]
		}
		name, mods, hasMods := strings.Cut(tok, "+")
		s := prefix
		if name == "-" {
			s += "-"
		} else {
			s += sc.cardName(sc.rank(name))
		}
		if hasMods {
			s += "+" + mods
		}
		out = append(out, s)
	}
	return out
}

func (sc *scenario) expect(line string, toks []string) {
	sc.t.Helper()
	s := sc.s
	colon := func() (string, []string) {
		head, tail, _ := strings.Cut(strings.Join(toks, " "), ":")
		return strings.TrimSpace(head), strings.Fields(tail)
	}
	eqSorted := func(what string, got []string, want []string) {
		sc.t.Helper()
		g, w := slices.Clone(got), slices.Clone(want)
		sort.Strings(g)
		sort.Strings(w)
		if strings.Join(g, " ") != strings.Join(w, " ") {
			sc.fatalf("%s: got %q, want %q", what, strings.Join(got, " "), strings.Join(want, " "))
		}
	}
	switch strings.TrimSuffix(toks[0], ":") {
	case "army":
		head, want := colon()
		seat := sc.num(strings.Fields(head)[1])
		if got := sc.armyString(s.Armies[seat]); got != strings.Join(sc.normCards(want), " ") {
			sc.fatalf("army %d: got %q, want %q", seat, got, strings.Join(sc.normCards(want), " "))
		}
	case "hand":
		head, want := colon()
		seat := sc.num(strings.Fields(head)[1])
		eqSorted(head, strings.Fields(sc.cardList(s.Hands[seat])), sc.normCards(want))
	case "claimed":
		head, want := colon()
		seat := sc.num(strings.Fields(head)[1])
		eqSorted(head, strings.Fields(sc.cardList(s.Claimed[seat])), sc.normCards(want))
	case "supporters":
		_, want := colon()
		eqSorted("supporters", strings.Fields(sc.cardList(s.Supporters)), sc.normCards(want))
	case "recruits":
		_, want := colon()
		var got []string
		for _, r := range s.Recruits {
			n := sc.cardName(r.Card)
			if r.Card != 0 && !r.FaceUp {
				n = "~" + n
			}
			got = append(got, n)
		}
		if strings.Join(got, " ") != strings.Join(sc.normCards(want), " ") {
			sc.fatalf("recruits: got %q, want %q", strings.Join(got, " "), strings.Join(sc.normCards(want), " "))
		}
	case "discard":
		c := sc.rank(toks[2])
		if has := slices.Contains(s.Discard, c); has != (toks[1] == "has") {
			sc.fatalf("%s: discard is %s", line, sc.cardList(s.Discard))
		}
	case "points":
		if got := s.points(sc.num(toks[1])); got != sc.num(toks[2]) {
			sc.fatalf("%s: got %d", line, got)
		}
	case "tomove":
		got := "none"
		if a := s.awaited(); a >= 0 {
			got = strconv.Itoa(a)
		}
		if got != toks[1] {
			sc.fatalf("%s: got %s", line, got)
		}
	case "pending":
		got := "none"
		if s.Pending != nil {
			got = s.Pending.Kind
		}
		if got != toks[1] {
			sc.fatalf("%s: got %s", line, got)
		}
	case "phase":
		if string(s.Phase) != toks[1] {
			sc.fatalf("%s: got %s", line, s.Phase)
		}
	case "round", "turn", "initiative", "drawcount", "discardcount":
		got := map[string]int{"round": s.Round, "turn": s.Turn, "initiative": s.Initiative,
			"drawcount": len(s.Draw), "discardcount": len(s.Discard)}[toks[0]]
		if got != sc.num(toks[1]) {
			sc.fatalf("%s: got %d", line, got)
		}
	case "cards":
		n := len(s.Draw) + len(s.Discard) + len(s.Supporters)
		for q := range s.N {
			n += len(s.Hands[q]) + len(s.Armies[q]) + len(s.Claimed[q])
		}
		for _, r := range s.Recruits {
			if r.Card != 0 {
				n++
			}
		}
		if n != sc.num(toks[1]) {
			sc.fatalf("%s: got %d", line, n)
		}
	case "handcount":
		if got := len(s.Hands[sc.num(toks[1])]); got != sc.num(toks[2]) {
			sc.fatalf("%s: got %d", line, got)
		}
	case "order":
		var got []string
		for _, a := range s.Order {
			if len(a.Cards) > 0 {
				got = append(got, strconv.Itoa(a.Seat))
			}
		}
		if strings.Join(got, " ") != strings.Join(toks[1:], " ") {
			sc.fatalf("%s: got %v", line, got)
		}
	case "total":
		seat := sc.num(toks[1])
		for _, a := range s.Order {
			if a.Seat == seat {
				if a.Total != sc.num(toks[2]) {
					sc.fatalf("%s: got %d", line, a.Total)
				}
				return
			}
		}
		sc.fatalf("%s: no scored round", line)
	case "legal":
		seat := sc.num(toks[1])
		legal := s.Legal(seat)
		if toks[2] == "count" {
			if len(legal) != sc.num(toks[3]) {
				sc.fatalf("%s: got %s", line, mustJSON(legal))
			}
			return
		}
		want := withoutLabel(mustJSON(sc.move(toks[3:])))
		found := false
		for _, m := range legal {
			if withoutLabel(mustJSON(m)) == want {
				found = true
			}
		}
		if found != (toks[2] == "has") {
			sc.fatalf("%s: legal is %s", line, mustJSON(legal))
		}
	case "event", "noevent":
		var found bool
		for _, e := range sc.last {
			if e.EventType() != toks[1] {
				continue
			}
			var m map[string]json.RawMessage
			_ = json.Unmarshal([]byte(mustJSON(e)), &m)
			ok := true
			for _, kv := range toks[2:] {
				k, v, _ := strings.Cut(kv, "=")
				if string(m[k]) != v {
					ok = false
				}
			}
			found = found || ok
		}
		if found != (toks[0] == "event") {
			sc.fatalf("%s: events %s", line, mustJSON(sc.last))
		}
	case "describe":
		lang, typ := toks[1], toks[2]
		want := strings.Trim(strings.TrimSpace(strings.SplitN(line, typ, 2)[1]), `"`)
		for i := len(sc.last) - 1; i >= 0; i-- {
			if sc.last[i].EventType() == typ {
				got := sc.g.Describe(sc.g.Redact(sc.last[i], engine.Spectator), sc.names, lang)
				if got != want {
					sc.fatalf("describe: got %q, want %q", got, want)
				}
				return
			}
		}
		sc.fatalf("%s: no such event", line)
	case "view":
		seat := sc.num(toks[1])
		raw := mustJSON(s.View(seat))
		c := sc.rank(toks[3])
		cards, _ := cardsIn([]byte(raw), map[string]bool{"rank": true})
		if slices.Contains(cards, c) != (toks[2] == "shows") {
			sc.fatalf("%s: view %s", line, raw)
		}
	case "ranking", "winner", "over":
		if s.Final == nil {
			sc.fatalf("%s: the game is not over", line)
		}
		var got []string
		for _, st := range s.Final.Ranking {
			got = append(got, strconv.Itoa(st.Seat))
		}
		switch toks[0] {
		case "ranking":
			if strings.Join(got, " ") != strings.Join(toks[1:], " ") {
				sc.fatalf("%s: got %v", line, got)
			}
		case "winner":
			if got[0] != toks[1] {
				sc.fatalf("%s: got %v", line, got)
			}
		}
	default:
		sc.fatalf("unknown expectation %q", line)
	}
}

func withoutLabel(raw string) string {
	var m map[string]any
	_ = json.Unmarshal([]byte(raw), &m)
	delete(m, "label")
	return mustJSON(m)
}
