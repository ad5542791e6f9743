package bot

import (
	"fmt"
	"math"
	"math/rand/v2"

	"pbem/engine"
)

// Problem is one decision of the strong bot, as its game describes it to
// Search. Every function gets only what the seat may know: Sample builds
// its worlds from the seat's view and history alone.
type Problem struct {
	// Seat is the deciding seat.
	Seat int
	// Moves is the number of the seat's legal moves (the root's moves).
	Moves int
	// Sample returns a full state consistent with what Seat has seen (a
	// "world": the hidden cards dealt at random among the places they may
	// be), in which Seat is to move.
	Sample func(r *rand.Rand) (engine.State, error)
	// Index is the position among the root's moves of m, one of the sampled
	// state's legal moves for Seat, or -1.
	Index func(m engine.Move) int
	// Policy picks the index of a move in legal, the moves of seat in st,
	// for the playouts.
	Policy func(st engine.State, seat int, legal []engine.Move, r *rand.Rand) int
	// Cutoff reports whether a playout stops at st after steps moves (a
	// finished game always stops it).
	Cutoff func(st engine.State, steps int) bool
	// Eval scores st for every seat: out[seat] in [0, 1], 1 for a win.
	Eval func(st engine.State, out []float64)
}

// Budget is the fixed amount of search of one decision: Iterations tree
// descents in all, shared out between Worlds sampled states. It never
// depends on the clock, so that a decision is the same on any machine.
type Budget struct {
	Worlds     int
	Iterations int
	// Explore is the UCT exploration constant (0: √2 / 2).
	Explore float64
}

// node is one position of a world's tree, reached by move from its parent.
type node struct {
	visits   int32
	children int32 // index of the first child in the arena; -1 until expanded
	nChild   int32
	mover    int8 // the seat that played the move leading here
	reward   float64
}

// Search runs a determinized Monte Carlo tree search and returns the index
// of the chosen root move. For each of b.Worlds sampled worlds it grows a
// UCT tree (multi-player: each node keeps the reward of the seat that moved
// into it) with b.Iterations/b.Worlds descents, each ending with a playout
// by p.Policy up to p.Cutoff and scored by p.Eval. The worlds then vote:
// each root move gets the visits it had in every world, and the most
// visited wins (ties: the lower index). Memory is bounded by the budget: at
// most one tree at a time, of at most Iterations expanded nodes.
func Search(p Problem, b Budget, r *rand.Rand) (int, error) {
	if p.Moves <= 0 {
		return 0, fmt.Errorf("bot: search without moves")
	}
	if p.Moves == 1 {
		return 0, nil
	}
	worlds := max(b.Worlds, 1)
	per := max(b.Iterations/worlds, 1)
	c := b.Explore
	if c == 0 {
		c = math.Sqrt2 / 2
	}
	votes := make([]int64, p.Moves)
	t := &tree{p: &p, r: r, c: c}
	for range worlds {
		st, err := p.Sample(r)
		if err != nil {
			return 0, err
		}
		if err := t.run(st, per, votes); err != nil {
			return 0, err
		}
	}
	best := 0
	for i, v := range votes {
		if v > votes[best] {
			best = i
		}
	}
	return best, nil
}

// tree is the search of one world; its buffers are reused between worlds.
type tree struct {
	p     *Problem
	r     *rand.Rand
	c     float64
	nodes []node
	path  []int32
	out   []float64
}

func (t *tree) run(world engine.State, iterations int, votes []int64) error {
	p := t.p
	if len(t.out) != world.Players() {
		t.out = make([]float64, world.Players())
	}
	t.nodes = append(t.nodes[:0], node{children: -1, mover: -1})
	rootMap := []int(nil)
	for range iterations {
		st := world.Clone()
		t.path = append(t.path[:0], 0)
		n := int32(0)
		fresh := false
		for st.Result() == nil && !fresh {
			seat := st.ToMove()[0]
			if n == 0 {
				seat = p.Seat // simultaneous choices: the root is the bot's
			}
			legal := st.Legal(seat)
			if len(legal) == 0 {
				return fmt.Errorf("bot: seat %d to move without legal moves", seat)
			}
			nd := &t.nodes[n]
			if nd.children < 0 {
				nd.children, nd.nChild = int32(len(t.nodes)), int32(len(legal))
				for range legal {
					t.nodes = append(t.nodes, node{children: -1, mover: int8(seat)})
				}
				if n == 0 {
					rootMap = make([]int, len(legal))
					for i, m := range legal {
						rootMap[i] = p.Index(m)
					}
				}
				nd = &t.nodes[n]
			}
			if int(nd.nChild) != len(legal) {
				return fmt.Errorf("bot: a world's moves changed between descents")
			}
			i := t.pick(n)
			child := t.nodes[n].children + int32(i)
			fresh = t.nodes[child].visits == 0
			if err := play(st, seat, legal[i]); err != nil {
				return err
			}
			n = child
			t.path = append(t.path, n)
		}
		for steps := 0; st.Result() == nil && !p.Cutoff(st, steps); steps++ {
			seat := st.ToMove()[0]
			legal := st.Legal(seat)
			if err := play(st, seat, legal[p.Policy(st, seat, legal, t.r)]); err != nil {
				return err
			}
		}
		p.Eval(st, t.out)
		for _, k := range t.path {
			nd := &t.nodes[k]
			nd.visits++
			if nd.mover >= 0 {
				nd.reward += t.out[nd.mover]
			}
		}
	}
	root := t.nodes[0]
	for i := range root.nChild {
		if k := rootMap[i]; k >= 0 && k < len(votes) {
			votes[k] += int64(t.nodes[root.children+i].visits)
		}
	}
	return nil
}

// pick chooses a child of n: an unvisited one at random, else the best by
// UCB1.
func (t *tree) pick(n int32) int {
	nd := t.nodes[n]
	kids := t.nodes[nd.children : nd.children+nd.nChild]
	unvisited := 0
	for _, k := range kids {
		if k.visits == 0 {
			unvisited++
		}
	}
	if unvisited > 0 {
		j := t.r.IntN(unvisited)
		for i, k := range kids {
			if k.visits == 0 {
				if j == 0 {
					return i
				}
				j--
			}
		}
	}
	logN := math.Log(float64(nd.visits))
	best, bestV := 0, math.Inf(-1)
	for i, k := range kids {
		v := k.reward/float64(k.visits) + t.c*math.Sqrt(logN/float64(k.visits))
		if v > bestV {
			best, bestV = i, v
		}
	}
	return best
}

// play decides and applies one move in st.
func play(st engine.State, seat int, m engine.Move) error {
	evs, err := st.Decide(seat, m)
	if err != nil {
		return fmt.Errorf("bot: a listed move was refused in a sampled world: %w", err)
	}
	for _, e := range evs {
		st.Apply(e)
	}
	return nil
}

// ScoreFinished is Eval for a finished game: 1 for each seat in first
// place of r, 0 for the others.
func ScoreFinished(r *engine.Result, out []float64) {
	clear(out)
	for _, st := range r.Ranking {
		if st.Place == 1 {
			out[st.Seat] = 1
		}
	}
}
