package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestBackupUnitIsHardened: packaging/pbem-backup.service (run as
// postgres every night) carries every hardening setting of pbem.service
// (issue #44: it scored 8.5 EXPOSED in `systemd-analyze security`), and,
// where systemd-analyze can score a unit file offline, scores OK (at most
// 2.0; pbem.service scores 1.6) and no worse than pbem.service by more
// than a point. CapabilityBoundingSet and AmbientCapabilities must be
// there, empty: pbem.service's port capability is its own.
func TestBackupUnitIsHardened(t *testing.T) {
	t.Parallel()
	settings := func(path string) map[string][]string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]string{}
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(strings.TrimSpace(l), "="); ok && !strings.HasPrefix(k, "#") {
				out[k] = append(out[k], v)
			}
		}
		return out
	}
	unit, backup := settings("../../packaging/pbem.service"), settings("../../packaging/pbem-backup.service")
	hardening := regexp.MustCompile(`^(NoNewPrivileges|Protect|Private|Restrict|LockPersonality|MemoryDenyWriteExecute|RemoveIPC|SystemCall)`)
	for k, vs := range unit {
		if !hardening.MatchString(k) {
			continue
		}
		if strings.Join(backup[k], "\n") != strings.Join(vs, "\n") {
			t.Errorf("pbem-backup.service: %s=%v, pbem.service has %v", k, backup[k], vs)
		}
	}
	for _, k := range []string{"CapabilityBoundingSet", "AmbientCapabilities"} {
		if v := backup[k]; len(v) != 1 || v[0] != "" {
			t.Errorf("pbem-backup.service: %s=%v, want it present and empty", k, v)
		}
	}
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		t.Log("no systemd-analyze: the exposure scores are not checked")
		return
	}
	score := func(path string) float64 {
		out, err := exec.Command("systemd-analyze", "security", "--offline=true", path).CombinedOutput()
		m := regexp.MustCompile(`Overall exposure level for \S+: ([0-9.]+)`).FindSubmatch(out)
		if m == nil {
			t.Skipf("systemd-analyze security --offline cannot score %s here (%v): %s", path, err, out)
		}
		f, _ := strconv.ParseFloat(string(m[1]), 64)
		return f
	}
	b, m := score("../../packaging/pbem-backup.service"), score("../../packaging/pbem.service")
	t.Logf("exposure: pbem-backup.service %.1f, pbem.service %.1f", b, m)
	if b > 2.0 || b > m+1 {
		t.Errorf("pbem-backup.service scores %.1f (pbem.service %.1f), want at most 2.0", b, m)
	}
}
