package enginetest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"pbem/engine"
)

// CheckArbitraryMove decodes data as a move and decides it for seat on s:
// nothing may panic, every error must be a *engine.RuleError, and the state
// must not change. It is meant for fuzz targets. accepted reports whether
// the rules took the move; evs are its events.
func CheckArbitraryMove(g engine.Game, s engine.State, seat int, data []byte) (evs []engine.Event, accepted bool, err error) {
	before, err := json.Marshal(s)
	if err != nil {
		return nil, false, fmt.Errorf("marshal state: %v", err)
	}
	mv, err := g.DecodeMove(data)
	if err != nil {
		if !isRuleError(err) {
			return nil, false, fmt.Errorf("DecodeMove(%q) error is not a *RuleError: %v", data, err)
		}
		return nil, false, nil
	}
	evs, derr := s.Decide(seat, mv)
	if derr != nil && !isRuleError(derr) {
		return nil, false, fmt.Errorf("Decide(%q) error is not a *RuleError: %v", data, derr)
	}
	if after := mustJSON(s); !bytes.Equal(before, after) {
		return nil, false, fmt.Errorf("Decide(%q) changed the state", data)
	}
	return evs, derr == nil, nil
}
