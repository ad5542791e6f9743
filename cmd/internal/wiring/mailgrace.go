package wiring

import (
	"fmt"
	"strings"
	"time"
)

// DefaultMailGrace is how long the emails of a move wait when
// PBEM_MAIL_GRACE is unset: time enough to take back a mis-tap.
const DefaultMailGrace = 2 * time.Minute

// MailGrace reads the value v of PBEM_MAIL_GRACE: how long the emails a
// player's move causes wait before they are sent, so that a move taken
// back sends none (a Go duration from 0s, which sends at once, to 1h).
// Empty: DefaultMailGrace.
func MailGrace(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return DefaultMailGrace, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > time.Hour {
		return 0, fmt.Errorf("PBEM_MAIL_GRACE=%q: give a duration from 0s to 1h, like 2m", v)
	}
	return d, nil
}
