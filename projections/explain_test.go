package projections_test

import (
	"testing"

	"pbem/engine"
	"pbem/events"
	"pbem/events/play"
	"pbem/projections"
)

// TestExplainError checks an error's explanation: the service's message
// in English, the code's sentence in the other languages.
func TestExplainError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang, code, want string
	}{
		{"en", events.CodeConflict, "game is paused"},
		{"fr", events.CodeConflict, "La partie ne permet pas cela maintenant (elle a avancé, ou elle est en pause, terminée ou abandonnée)."},
		{"it", engine.CodeNotYourTurn, "Non è il tuo turno."},
		{"fr", "too_weak", "game is paused"},
		{"it", "", "game is paused"},
		{"xx", events.CodeConflict, "game is paused"},
	} {
		if got := projections.ExplainError(tc.lang, tc.code, "game is paused"); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.lang, tc.code, got, tc.want)
		}
	}
	if c := play.ServiceErrorCode(events.Errorf(events.CodeConflict, "x")); c != events.CodeConflict {
		t.Errorf("service error code %q", c)
	}
	if c := play.ServiceErrorCode(&engine.RuleError{Code: engine.CodeIllegalMove, Message: "x"}); c != "" {
		t.Errorf("rule error code %q, want none: the engine words its message", c)
	}
}
