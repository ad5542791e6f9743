package main

import (
	"strings"
	"testing"
)

// TestMailGraceConfig: PBEM_MAIL_GRACE reaches the game service's
// configuration; a value that is no duration stops the command with a
// message naming the variable.
func TestMailGraceConfig(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"PBEM_MAIL_GRACE": "soon", "PBEM_SECRET": strings.Repeat("s", 32)}
	e := &env{cfg: loadConfig(func(k string) string { return vars[k] })}
	if e.cfg.MailGrace != "soon" {
		t.Fatalf("config MailGrace %q", e.cfg.MailGrace)
	}
	if _, err := newService(e, nil, nil); err == nil || !strings.Contains(err.Error(), "PBEM_MAIL_GRACE") {
		t.Fatalf("newService with PBEM_MAIL_GRACE=soon: %v", err)
	}
}
