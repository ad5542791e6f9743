package postgres_test

import (
	"context"
	"slices"
	"testing"

	"pbem/events/postgres/pgtest"
)

// TestAwaitedSinceKeepsTheVersionOfASeatStillAwaited is the table of
// migration 0084's awaited_since: the version since which each seat of a
// game's new to_move is awaited.
func TestAwaitedSinceKeepsTheVersionOfASeatStillAwaited(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	for _, tc := range []struct {
		oldToMove, toMove []int32
		oldSince          []int64
		version           int64
		want              []int64
	}{
		{nil, []int32{0}, nil, 1, []int64{1}},                                 // a new game
		{[]int32{0}, []int32{1}, []int64{1}, 2, []int64{2}},                   // the turn passes
		{[]int32{0, 1, 2}, []int32{1, 2}, []int64{5, 5, 5}, 6, []int64{5, 5}}, // one of three chose
		{[]int32{1, 2}, []int32{2, 0}, []int64{5, 7}, 9, []int64{7, 9}},       // order follows to_move
		{[]int32{3}, []int32{3}, []int64{4}, 8, []int64{4}},                   // the same seat again
		{[]int32{0, 1}, []int32{}, []int64{2, 3}, 10, []int64{}},              // the game ends
		{[]int32{0, 1}, []int32{0, 1}, []int64{}, 11, []int64{11, 11}},        // a rebuild without versions
	} {
		var got []int64
		if err := pool.QueryRow(context.Background(), `SELECT awaited_since($1, $2, $3, $4)`,
			tc.oldToMove, tc.oldSince, tc.toMove, tc.version).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("awaited_since(%v, %v, %v, %d) = %v, want %v", tc.oldToMove, tc.oldSince, tc.toMove, tc.version, got, tc.want)
		}
	}
}
