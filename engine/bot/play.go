package bot

import (
	"fmt"
	"time"

	"pbem/engine"
)

// Decision is one bot decision of a game played by Play.
type Decision struct {
	Seat    int
	Level   Level
	Legal   int           // how many moves were legal
	Elapsed time.Duration // the bot's time by Play's clock (0 without one)
}

// Play plays a whole game between bots without a server, as the service
// would: each seat's bot gets its View and its redacted history, and its
// move goes through Decide and Apply. levels gives each seat's level.
// observe, if not nil, is called after each decision, timed by clock if
// not nil (the engine has no clock of its own: the caller brings one, such
// as the thread's CPU time). The versions passed to the bots count the
// events so far, plus one for the game's creation.
// It returns the final state, or an error if a bot fails or picks a move
// that is not legal.
func Play(g engine.Game, su engine.Setup, levels []Level, clock func() time.Duration, observe func(Decision)) (engine.State, error) {
	if clock == nil {
		clock = func() time.Duration { return 0 }
	}
	if len(levels) != su.Players {
		return nil, fmt.Errorf("bot: %d levels for %d players", len(levels), su.Players)
	}
	st, err := g.New(su)
	if err != nil {
		return nil, err
	}
	hist := make([]engine.SeatHistory, su.Players)
	for q := range hist {
		hist[q] = engine.Redacted(g, nil, q)
	}
	key := su.Seed.BotKey()
	version := 1
	for moves := 0; st.Result() == nil; moves++ {
		if moves > 100000 {
			return nil, fmt.Errorf("bot: the game does not end")
		}
		tm := st.ToMove()
		if len(tm) == 0 {
			return nil, fmt.Errorf("bot: nobody to move in an unfinished game")
		}
		seat := tm[0]
		legal := st.Legal(seat)
		start := clock()
		m, err := Choose(g, levels[seat], st.View(seat), hist[seat], key, version)
		elapsed := clock() - start
		if err != nil {
			return nil, fmt.Errorf("bot: seat %d (%s): %w", seat, levels[seat], err)
		}
		if !listed(legal, m) {
			return nil, fmt.Errorf("bot: seat %d (%s) chose %q, not a listed move", seat, levels[seat], m.Label())
		}
		evs, err := st.Decide(seat, m)
		if err != nil {
			return nil, fmt.Errorf("bot: seat %d (%s): %w", seat, levels[seat], err)
		}
		for _, e := range evs {
			st.Apply(e)
			for q := range hist {
				hist[q] = hist[q].Append(g, e)
			}
			version++
		}
		if observe != nil {
			observe(Decision{Seat: seat, Level: levels[seat], Legal: len(legal), Elapsed: elapsed})
		}
	}
	return st, nil
}

// listed reports whether m is one of legal, as the view listed it: the
// same move value (a pointer identical, or a value equal as JSON).
func listed(legal []engine.Move, m engine.Move) bool {
	for _, l := range legal {
		if sameMove(l, m) {
			return true
		}
	}
	return false
}
