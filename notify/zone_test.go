package notify

import (
	"strings"
	"testing"
)

// TestResolveZoneReadsCitiesAndZoneNames: a zone name in any case, a city
// by its zone's last part or its French or Italian name; nothing else.
func TestResolveZoneReadsCitiesAndZoneNames(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Europe/Paris": "Europe/Paris", "europe/paris": "Europe/Paris", "  Paris ": "Europe/Paris",
		"new  york": "America/New_York", "Londres": "Europe/London", "ROMA": "Europe/Rome", "Milano": "Europe/Rome",
		"America/Argentina/Cordoba": "America/Argentina/Cordoba", "utc": "UTC", "Tokyo": "Asia/Tokyo",
	} {
		if got, ok := ResolveZone(in); !ok || got != want {
			t.Errorf("ResolveZone(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "   ", "Mars", "Mars/Olympus", "Local", "../../etc/passwd", "Europe/", strings.Repeat("a", 65)} {
		if got, ok := ResolveZone(in); ok {
			t.Errorf("ResolveZone(%q) = %q, want refused", in, got)
		}
	}
	for _, z := range ZoneChoices {
		if got, ok := ResolveZone(z); !ok || got != z {
			t.Errorf("the suggested zone %q reads as %q, %v", z, got, ok)
		}
	}
	for city, z := range zoneCities {
		if got, ok := ResolveZone(z); !ok || got != z {
			t.Errorf("the zone %q of %q reads as %q, %v", z, city, got, ok)
		}
	}
}
