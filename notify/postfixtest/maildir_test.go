package postfixtest

import (
	"slices"
	"testing"
)

// TestMailboxSortsByDelivery: emails delivered in the same second sort by
// Postfix's microseconds, not by their inode numbers; then by second.
func TestMailboxSortsByDelivery(t *testing.T) {
	t.Parallel()
	earlier := "new/1764685525.V801I9f3aM94.relay"      // the larger inode
	later := "cur/1764685525.V801I1c2M918200.relay:2,S" // the smaller inode
	next := "new/1764685526.V801I1M5.relay"
	names := []string{next, later, earlier}
	sortByDelivery(names)
	if want := []string{earlier, later, next}; !slices.Equal(names, want) {
		t.Fatalf("sorted %v, want %v", names, want)
	}
	if s, u := deliveredAt("1764685526.P123.relay"); s != 1764685526 || u != 0 {
		t.Fatalf("a name without microseconds: %d.%d", s, u)
	}
}
