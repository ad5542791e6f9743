package main

import (
	"strings"
	"testing"
	"time"
)

func TestBotDelayReadsPBEM_BOT_DELAY(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{{"", defaultBotDelay, true}, {"0s", 0, true}, {" 5s ", 5 * time.Second, true}, {"-1s", 0, false}, {"soon", 0, false}, {"2h", 0, false}} {
		d, err := botDelay(tc.in)
		if (err == nil) != tc.ok || d != tc.want {
			t.Fatalf("botDelay(%q) = %v, %v", tc.in, d, err)
		}
		if err != nil && !strings.Contains(err.Error(), "PBEM_BOT_DELAY") {
			t.Fatalf("error does not name the variable: %v", err)
		}
	}
}

func TestDecisionPauseReadsPBEM_DECISION_PAUSE(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{{"", defaultDecisionPause, true}, {"0s", 0, true}, {" 250ms ", 250 * time.Millisecond, true}, {"-1s", 0, false}, {"soon", 0, false}, {"2m", 0, false}} {
		d, err := decisionPause(tc.in)
		if (err == nil) != tc.ok || d != tc.want {
			t.Fatalf("decisionPause(%q) = %v, %v", tc.in, d, err)
		}
		if err != nil && !strings.Contains(err.Error(), "PBEM_DECISION_PAUSE") {
			t.Fatalf("error does not name the variable: %v", err)
		}
	}
}
