package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyAuditFile runs `pbem verify --audit` on the audit record of a
// finished Swords and Bagpipes game (a person against the normal bot, as
// GET /api/v1/games/{id}/audit gave it), then on copies with one byte
// changed: in an event's data, and in the revealed seed. No database.
func TestVerifyAuditFile(t *testing.T) {
	t.Parallel()
	good, err := os.ReadFile("testdata/audit_bagpipes.json")
	if err != nil {
		t.Fatal(err)
	}
	verifyFile := func(data []byte) (int, string) {
		f := filepath.Join(t.TempDir(), "audit.json")
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		code := run(context.Background(), []string{"verify", "--audit", f}, func(string) string { return "" }, &out, &out)
		return code, out.String()
	}
	if code, out := verifyFile(good); code != 0 || !strings.HasPrefix(out, "ok   tdpn4ixkojmyruks: 81 events, chain format 2") {
		t.Fatalf("the fair record: exit %d, %q", code, out)
	}
	for _, tc := range []struct {
		name   string
		change func(rec map[string]any)
		want   string
	}{
		// Version 41 (relocated) moves 1 unit; the copy says 2.
		{"v41's data", func(rec map[string]any) {
			rec["events"].([]any)[40].(map[string]any)["data"].(map[string]any)["units"] = 2
		}, "broken at version 41"},
		{"the seed", func(rec map[string]any) { rec["seed"] = "1" + rec["seed"].(string)[1:] }, "version 1: the revealed seed's SHA-256"},
		{"the key", func(rec map[string]any) { rec["commit_key"] = "7" + rec["commit_key"].(string)[1:] }, "version 1: the revealed commit_key"},
		// Issue #44: a record cut in half still says finished.
		{"the events cut in half", func(rec map[string]any) {
			evs := rec["events"].([]any)
			rec["events"] = evs[:len(evs)/2]
		}, "version 40: the record is not whole"},
		{"the status", func(rec map[string]any) { rec["status"] = "active" }, "an audit record is of a finished or aborted game"},
		{"the status, aborted", func(rec map[string]any) { rec["status"] = "aborted" }, "holds no pbem.aborted"},
	} {
		var rec map[string]any
		if err := json.Unmarshal(good, &rec); err != nil {
			t.Fatal(err)
		}
		tc.change(rec)
		changed, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		if code, out := verifyFile(changed); code != 1 || !strings.Contains(out, tc.want) {
			t.Errorf("%s changed: exit %d, %q, want %q", tc.name, code, out, tc.want)
		}
	}
}
