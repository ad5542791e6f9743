//go:build !race

package lords

// randomGames is the number of complete random games TestRandomGames plays.
const randomGames = 10000
