package enginetest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"pbem/engine"
)

// CheckArbitraryMove decodes data as a move and decides it for seat on s:
// nothing may panic, every error must be a *engine.RuleError, and the state
// must not change. It is meant for fuzz targets. It returns the events of
// an accepted move.
func CheckArbitraryMove(g engine.Game, s engine.State, seat int, data []byte) ([]engine.Event, error) {
	before, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("marshal state: %v", err)
	}
	mv, err := g.DecodeMove(data)
	if err != nil {
		if !isRuleError(err) {
			return nil, fmt.Errorf("DecodeMove(%q) error is not a *RuleError: %v", data, err)
		}
		return nil, nil
	}
	evs, derr := s.Decide(seat, mv)
	if derr != nil && !isRuleError(derr) {
		return nil, fmt.Errorf("Decide(%q) error is not a *RuleError: %v", data, derr)
	}
	if after := mustJSON(s); !bytes.Equal(before, after) {
		return nil, fmt.Errorf("Decide(%q) changed the state", data)
	}
	return evs, nil
}
