package notify

import (
	"context"
	"fmt"
)

// Mode is a player's mail preference, per address.
type Mode string

// Mail preferences.
const (
	// Every sends an email for every event (the default).
	Every Mode = "every"
	// DailyDigest sends one email a day listing the games waiting for the
	// player, instead of one per event.
	DailyDigest Mode = "digest"
	// Off sends only invitations and link resends.
	Off Mode = "off"
)

// ParseMode checks a mode's name.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case Every, DailyDigest, Off:
		return m, nil
	}
	return "", fmt.Errorf("notify: mail preference %q, want every, digest or off", s)
}

// PrefStore keeps mail preferences. Addresses are compared lower-cased.
type PrefStore interface {
	// Modes returns the mode of each address that has one; addresses
	// missing from the map use Every.
	Modes(ctx context.Context, emails []string) (map[string]Mode, error)
	// SetMode records an address's mode.
	SetMode(ctx context.Context, email string, m Mode) error
}
