package enginetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"pbem/engine"
)

// deepStep runs the expensive checks on a state awaiting seat's move.
func deepStep(g engine.Game, s engine.State, seat int, legal []engine.Move, r *rand.Rand, o Options, stats *Stats) error {
	before, err := checkStateJSON(g, s)
	if err != nil {
		return err
	}
	listed := make(map[string]bool, len(legal))
	for _, mv := range legal {
		if mv.Label() == "" {
			return fmt.Errorf("listed move %s has no label", mustJSON(mv))
		}
		raw := mustJSON(mv)
		if !bytes.Contains(raw, []byte(`"label"`)) {
			return fmt.Errorf("listed move %s has no label field", raw)
		}
		listed[string(withoutLabel(raw))] = true
		dm, err := g.DecodeMove(raw)
		if err != nil {
			return fmt.Errorf("listed move %s does not decode: %v", raw, err)
		}
		if err := checkAbout(raw, mv, dm); err != nil {
			return err
		}
		if _, err := s.Decide(seat, dm); err != nil {
			return fmt.Errorf("listed move %s rejected: %v", raw, err)
		}
	}
	def := s.DefaultMove(seat)
	if def == nil {
		return fmt.Errorf("seat %d to move has no default move", seat)
	}
	if !listed[string(withoutLabel(mustJSON(def)))] {
		return fmt.Errorf("default move %s is not listed", mustJSON(def))
	}
	for _, raw := range o.Unlisted(r, legal) {
		if listed[string(withoutLabel(raw))] {
			continue
		}
		mv, err := g.DecodeMove(raw)
		if err != nil {
			if !isRuleError(err) {
				return fmt.Errorf("DecodeMove(%s) error is not a *RuleError: %v", raw, err)
			}
			stats.Rejected++
			continue
		}
		if listed[string(withoutLabel(mustJSON(mv)))] {
			continue
		}
		evs, err := s.Decide(seat, mv)
		if err == nil {
			return fmt.Errorf("unlisted move %s accepted: %s", raw, mustJSON(evs))
		}
		if !isRuleError(err) {
			return fmt.Errorf("unlisted move %s: error is not a *RuleError: %v", raw, err)
		}
		stats.Rejected++
	}
	for other := -1; other <= s.Players(); other++ {
		if slices.Contains(s.ToMove(), other) {
			continue
		}
		if l := s.Legal(other); len(l) != 0 {
			return fmt.Errorf("seat %d not to move has %d legal moves", other, len(l))
		}
		if s.DefaultMove(other) != nil {
			return fmt.Errorf("seat %d not to move has a default move", other)
		}
		_, err := s.Decide(other, legal[0])
		var re *engine.RuleError
		if !errors.As(err, &re) || re.Code != engine.CodeNotYourTurn {
			return fmt.Errorf("seat %d not to move: Decide gave %v, want %s", other, err, engine.CodeNotYourTurn)
		}
	}
	for _, m := range legal {
		if err := checkMarshalMove(m); err != nil {
			return err
		}
	}
	for seat := -1; seat < s.Players(); seat++ {
		if err := checkAppendView(s.View(seat)); err != nil {
			return fmt.Errorf("view of seat %d: %v", seat, err)
		}
		if err := checkViewMoves(s, seat); err != nil {
			return fmt.Errorf("view of seat %d: %v", seat, err)
		}
		v, err := seatJSON(s, seat)
		if err != nil {
			return fmt.Errorf("view of seat %d: %v", seat, err)
		}
		if o.CheckView != nil {
			if err := o.CheckView(s, seat, v); err != nil {
				return fmt.Errorf("view of seat %d: %w", seat, err)
			}
		}
	}
	k := r.IntN(1 << 16)
	if err := checkExplain(s, o, k, stats); err != nil {
		return err
	}
	if err := checkForced(s, o, k, stats); err != nil {
		return err
	}
	if after := mustJSON(s); !bytes.Equal(before, after) {
		return errors.New("the state changed in Decide, Legal, View, DefaultMove, Forced or Explain")
	}
	return nil
}

func checkEvent(g engine.Game, before, after engine.State, e engine.Event, o Options) error {
	if _, err := roundTripEvent(g, e); err != nil {
		return err
	}
	names := make([]string, after.Players())
	for i := range names {
		names[i] = fmt.Sprintf("P%d", i)
	}
	for seat := -1; seat < after.Players(); seat++ {
		re := g.Redact(e, seat)
		if re == nil || re.EventType() != e.EventType() {
			return fmt.Errorf("Redact(%s, %d) changed the event type", e.EventType(), seat)
		}
		raw, err := json.Marshal(re)
		if err != nil {
			return fmt.Errorf("redacted %s: %v", e.EventType(), err)
		}
		if _, err := g.DecodeEvent(re.EventType(), raw); err != nil {
			return fmt.Errorf("redacted %s does not decode: %v", raw, err)
		}
		for _, lang := range []string{"en", "fr", "it", "xx"} {
			if g.Describe(re, names, lang) == "" {
				return fmt.Errorf("no %s description of %s", lang, raw)
			}
		}
		if o.CheckRedacted != nil {
			if err := o.CheckRedacted(before, after, seat, e, raw); err != nil {
				return fmt.Errorf("event %s redacted for seat %d: %w", raw, seat, err)
			}
		}
	}
	return nil
}

// seatJSON is what a seat is shown of s: its view's JSON object with its
// legal moves added as "legal_moves" (the API sends the two side by side),
// so that CheckView sees the moves' labels too.
func seatJSON(s engine.State, seat int) ([]byte, error) {
	v, err := json.Marshal(s.View(seat))
	if err != nil {
		return nil, err
	}
	var shown map[string]json.RawMessage
	if err := json.Unmarshal(v, &shown); err != nil {
		return nil, fmt.Errorf("view is not a JSON object: %v", err)
	}
	if shown["legal_moves"], err = json.Marshal(append([]engine.Move{}, s.Legal(seat)...)); err != nil {
		return nil, fmt.Errorf("legal moves: %v", err)
	}
	return json.Marshal(shown)
}

// checkAppendView fails unless a view that appends its own JSON
// (engine.ViewAppender) gives encoding/json's bytes.
func checkAppendView(v engine.SeatView) error {
	va, ok := v.(engine.ViewAppender)
	if !ok {
		return nil
	}
	want, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if got := va.AppendJSON(nil); !bytes.Equal(got, want) {
		return fmt.Errorf("AppendJSON gave\n%s\nencoding/json\n%s", got, want)
	}
	return nil
}

// checkViewMoves fails unless a view that holds its seat's legal moves
// (engine.MovesView) holds the moves State.Legal lists, in its order, as
// the API lists the moves of the view it answers.
func checkViewMoves(s engine.State, seat int) error {
	mv, ok := s.View(seat).(engine.MovesView)
	if !ok {
		return nil
	}
	want, err := json.Marshal(s.Legal(seat))
	if err != nil {
		return err
	}
	got, err := json.Marshal(mv.Moves())
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("the view's Moves are\n%s\nState.Legal lists\n%s", got, want)
	}
	return nil
}

// checkAbout fails unless the listed move mv names its kind and is, posted
// back (decoded from its JSON raw: dm), about the same kind and card: a
// page groups and places moves by About, and the move it posts is the
// decoded one.
func checkAbout(raw []byte, mv, dm engine.Move) error {
	a := mv.About()
	if a.Kind == "" {
		return fmt.Errorf("listed move %s names no kind (About)", raw)
	}
	if d := dm.About(); d != a {
		return fmt.Errorf("listed move %s is about %+v, posted back about %+v", raw, a, d)
	}
	return nil
}

// checkMarshalMove fails unless engine.MarshalMove gives m's bytes by
// encoding/json, and engine.AppendMove appends the same after what its
// buffer holds.
func checkMarshalMove(m engine.Move) error {
	want, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("move %v: %v", m, err)
	}
	got, err := engine.MarshalMove(m)
	if err != nil || !bytes.Equal(got, want) {
		return fmt.Errorf("MarshalMove gave %s (%v), encoding/json %s", got, err, want)
	}
	got, err = engine.AppendMove([]byte("[{},"), m)
	if err != nil || !bytes.Equal(got, append([]byte("[{},"), want...)) {
		return fmt.Errorf("AppendMove after [{}, gave %s (%v), encoding/json %s", got, err, want)
	}
	return nil
}
