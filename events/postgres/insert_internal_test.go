package postgres

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A batch's events go in as few power-of-two statements as add up to their
// number, largest first, and each statement names its rows' parameters.
func TestInsertStatementsSplitABatch(t *testing.T) {
	t.Parallel()
	for n, want := range map[int][]int{1: {1}, 3: {2, 1}, 13: {8, 4, 1}, 32: {32}, 40: {32, 8}, 71: {32, 32, 4, 2, 1}} {
		var got []int
		for left := n; left > 0; left -= got[len(got)-1] {
			got = append(got, rowsFor(left))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%d events: statements of %v rows, want %v", n, got, want)
		}
	}
	for n := 1; n <= insertRows; n *= 2 {
		sql := insertSQL(n)
		last := fmt.Sprintf("$%d)", 1+n*(insertParams+1))
		if rows := strings.Count(sql, "events_position_base($1)"); rows != n || !strings.Contains(sql, last) {
			t.Errorf("insertSQL(%d) has %d rows (want %d) or lacks %s: %s", n, rows, n, last, sql)
		}
	}
}
