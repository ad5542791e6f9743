//go:build race

package lords

// randomGames is lower under the race detector, which slows play tenfold.
const randomGames = 2000
