package bagpipes

import "math/rand/v2"

// A testBot picks a move for seat among the legal ones.
type testBot func(s *state, seat int, legal []Move, r *rand.Rand) Move

func randomBot(_ *state, _ int, legal []Move, r *rand.Rand) Move { return legal[r.IntN(len(legal))] }

// newGreedyBot returns a greedy bot for one game. It is a simple player
// that looks only at what its seat may know:
//   - side: greedyEngland weighs the expected gold of each side against
//     the daggers England costs and the risk of Scotland's fall; a draw
//     made once per seat and round (kept in the bot) turns that into a
//     choice, so the bot keeps its mind from the actions phase to the
//     choice unless the table changes;
//   - units: it commits to its camp what Scotland lacks (greedyCommit)
//     when it means to support Scotland, one unit otherwise;
//   - replenishment: troops (mercenaries with 4+ gold) when its castle
//     holds fewer than 2 units, taxes otherwise;
//   - badge: to the richest player who may take it (who then cannot
//     take the crown); Stay Home! token: to the smallest camp when it
//     supports Scotland (the fewest units lost to Scotland), to the
//     largest when it supports England;
//   - cards: every card that brings it gold, units or cards, or helps its
//     side (greedyLikes), at the most units it allows;
//   - 2 players: it offers its biggest dagger card and keeps the badge
//     when it supports Scotland.
func newGreedyBot() testBot {
	draws := map[[2]int]float64{}
	return func(s *state, seat int, legal []Move, r *rand.Rand) Move {
		k := [2]int{s.Round, seat}
		u, ok := draws[k]
		if !ok {
			u = r.Float64()
			draws[k] = u
		}
		return greedyMove(s, seat, legal, r, u)
	}
}
