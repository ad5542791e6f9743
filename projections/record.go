package projections

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
)

// A person's record (issue #46) is projected from the events of their
// games: Stints folds one game's stream into the time each holder spent
// at each seat, and PersonRecord adds up the stints of one address.
//
// What counts, and why:
//
//   - A turn is owed when a seat its person plays enters the awaited
//     seats (at the end of an append: the moves of one decision are one
//     step), when the organiser gives a seat back from a bot or to a new
//     person while it is awaited, and when a paused game resumes. It ends
//     with the seat's first decision (a move: its time to move, paused
//     time left out) or with a pbem.timeout naming the seat (timed out).
//     A turn that ends otherwise (the seat handed to a bot, its person
//     replaced, the game over) is owed by nobody. So turns owed = moves
//     made in turn + turns timed out; a seat's several decisions in one
//     awaited stretch (a clan power's target) are one turn.
//   - A seat a bot plays (from the start, or for its person after the
//     organiser's hand-off) owes the person nothing: neither its turns
//     nor its timeouts are theirs.
//   - A take-back takes the move's turn back too: it is open again, since
//     the time it began.
//   - A person replaced before the end abandoned the game (outcome
//     "left"); the game's result belongs to whoever played the seat at
//     the end: its person, or the bot playing for them (Handed).
//   - A game with a muster owes no turn before it begins (pbem.mustered).
//     A person who declined at the muster, or never answered it, did not
//     play the game (Muster "declined" or "silent"; the bot that took the
//     seat plays and is rated in their stead): PersonRecord counts such
//     games apart, and a muster never answered as one turn owed and timed
//     out (the muster is the first thing a player owes the table).

// Stint outcomes.
const (
	OutcomeActive   = "active"   // the game goes on
	OutcomeFinished = "finished" // the game finished with this holder at the seat
	OutcomeAborted  = "aborted"  // the organiser aborted it
	OutcomeLeft     = "left"     // replaced by another person before the end
)

// Stint is one holder's time at one seat of one game: a person's (Bot
// "") or a bot's own seat. Email is primary data, filled in by
// AttachAddresses (lower-case; "" for a bot).
type Stint struct {
	GameID string `json:"game_id"`
	Game   string `json:"game"`
	Seat   int    `json:"seat"`
	// Stint counts the seat's holders: 0 for the first, 1 after the first
	// replacement...
	Stint   int    `json:"stint"`
	Name    string `json:"name"`
	Bot     string `json:"bot,omitempty"`
	Email   string `json:"-"`
	Outcome string `json:"outcome"`
	// Handed is the level of the bot that played the seat for its person
	// when the game ended ("" if the person played it).
	Handed string `json:"handed,omitempty"`
	// Place is the seat's place in a finished game (1 is a win; ties
	// share a place), 0 otherwise.
	Place    int `json:"place,omitempty"`
	TimedOut int `json:"timed_out"`
	// MoveMillis holds the time to move of each turn played in time, in
	// milliseconds, in order.
	MoveMillis []int64 `json:"move_ms"`
	// EndedAt is when the stint ended (nil while the game goes on).
	EndedAt *time.Time `json:"ended_at,omitempty"`
	// Muster is MusterDeclined or MusterSilent when the holder declined
	// or never answered the game's muster ("" otherwise).
	Muster string `json:"muster,omitempty"`
}

// A stint's muster: its holder declined, or never answered.
const (
	MusterDeclined = "declined"
	MusterSilent   = "silent"
)

// Owed is how many turns the stint's holder owed: those played and those
// that timed out.
func (s *Stint) Owed() int { return len(s.MoveMillis) + s.TimedOut }

// Person reports whether a person holds the stint (not a bot's own seat).
func (s *Stint) Person() bool { return s.Bot == "" }

// seatTurn is the fold's state of one seat.
type seatTurn struct {
	cur    int        // index in out of the seat's current stint
	handed string     // the bot playing for the person ("" : the person plays)
	open   *time.Time // when the turn being waited for began (nil: none)
	// last is when the turn of the seat's last move began, for a take-back.
	last *time.Time
	// away: the seat's person is away (pbem.away to pbem.back). An away
	// turn is not theirs to owe: it times nothing and its timeout does not
	// count (issue #43); back, a turn they are awaited for begins then.
	away bool
}

// owes reports whether the seat's person owes its turns now.
func (t *seatTurn) owes(out []Stint) bool { return out[t.cur].Person() && t.handed == "" && !t.away }

// Stints folds a game's whole stream evs into its stints, in seat order
// and then stint order. Errors: a stream that does not replay.
func Stints(games engine.Registry, evs []events.Event) ([]Stint, error) {
	if len(evs) == 0 || evs[0].Type != pbemevent.TypeCreated {
		return nil, fmt.Errorf("projections: records: the stream does not begin with pbem.created")
	}
	c, _, err := pbemevent.Opening(evs)
	if err != nil {
		return nil, err
	}
	eng, st, err := pbemevent.Deal(games, evs)
	if err != nil {
		return nil, err
	}
	f := &stintFold{games: games, evs: evs, eng: eng, st: st}
	for i, name := range c.Players {
		bot := ""
		if i < len(c.Bots) {
			bot = c.Bots[i]
		}
		f.out = append(f.out, Stint{GameID: evs[0].Stream, Game: c.Game, Seat: i, Name: name, Bot: bot,
			Outcome: OutcomeActive, MoveMillis: []int64{}})
		f.seats = append(f.seats, seatTurn{cur: i})
	}
	// The seats awaited from the start owe their first turn since the
	// game's creation, or since its muster ended (pbem.mustered).
	created := evs[0].RecordedAt.UTC()
	f.mustering = c.Muster != ""
	for _, s := range st.ToMove() {
		if s >= 0 && s < len(f.seats) && f.seats[s].owes(f.out) && !f.mustering {
			f.seats[s].open = &created
		}
	}
	if !f.mustering {
		f.awaited = slices.Clone(st.ToMove())
	}
	if err := f.run(); err != nil {
		return nil, err
	}
	slices.SortStableFunc(f.out, func(a, b Stint) int {
		if a.Seat != b.Seat {
			return a.Seat - b.Seat
		}
		return a.Stint - b.Stint
	})
	return f.out, nil
}

// stintFold is Stints' state while it reads the stream.
type stintFold struct {
	games    engine.Registry
	evs      []events.Event
	eng      engine.Game
	st       engine.State
	out      []Stint
	seats    []seatTurn
	awaited  []int      // the seats awaited after the last step
	pausedAt *time.Time // set while the game is paused
	ended    bool
	// mustering: the game waits for its muster (no turn is owed yet).
	mustering bool
}

// run reads the stream step by step: a step is a run of events of one
// append (same time, actor and request, no idempotency key inside).
func (f *stintFold) run() error {
	evs := f.evs
	for i := 1; i < len(evs) && !f.ended; {
		j := i + 1
		for j < len(evs) && pbemevent.SameAppend(evs[j-1], evs[j]) {
			j++
		}
		if err := f.step(evs[i:j]); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// step folds one append's events, then opens the turns it owes.
func (f *stintFold) step(step []events.Event) error {
	at := step[0].RecordedAt.UTC()
	fresh := map[int]bool{} // seats that owe a turn from now if awaited
	for _, e := range step {
		if !pbemevent.IsServiceEvent(e.Type) {
			ev, err := pbemevent.Decode(f.eng, e)
			if err != nil {
				return err
			}
			f.st.Apply(ev)
			if seat, ok := pbemevent.SeatOfActor(e.Meta.Actor); ok && seat < len(f.seats) {
				f.moved(seat, at)
			}
			continue
		}
		err := f.service(e, at, fresh)
		if e.Type == pbemevent.TypeMustered {
			err = f.mustered(e, fresh)
		}
		if err != nil {
			return err
		}
	}
	if f.ended || f.mustering {
		return nil
	}
	if r := f.st.Result(); r != nil {
		f.finish(r, at)
		return nil
	}
	now := f.st.ToMove()
	for _, s := range now {
		if s < 0 || s >= len(f.seats) {
			continue
		}
		t := &f.seats[s]
		if t.open == nil && t.owes(f.out) && (fresh[s] || !slices.Contains(f.awaited, s)) {
			t.open = &at
		}
	}
	for s := range f.seats {
		if !slices.Contains(now, s) {
			f.seats[s].open = nil
		}
	}
	f.awaited = slices.Clone(now)
	return nil
}

// moved closes the open turn of seat with a move at time at.
func (f *stintFold) moved(seat int, at time.Time) {
	t := &f.seats[seat]
	if t.open == nil || !t.owes(f.out) {
		return
	}
	s := &f.out[t.cur]
	s.MoveMillis = append(s.MoveMillis, at.Sub(*t.open).Milliseconds())
	t.last, t.open = t.open, nil
}

// service folds one of the service's events.
func (f *stintFold) service(e events.Event, at time.Time, fresh map[int]bool) error {
	bad := func(err error) error { return fmt.Errorf("projections: records: %s v%d: %w", e.Stream, e.Version, err) }
	switch e.Type {
	case pbemevent.TypeTimeout:
		var x pbemevent.Timeout
		if err := json.Unmarshal(e.Data, &x); err != nil {
			return bad(err)
		}
		for _, seat := range x.Seats {
			if seat < 0 || seat >= len(f.seats) {
				continue
			}
			t := &f.seats[seat]
			if t.open != nil && t.owes(f.out) {
				f.out[t.cur].TimedOut++
				t.open, t.last = nil, nil
			}
		}
	case pbemevent.TypePaused:
		if f.pausedAt == nil {
			f.pausedAt = &at
		}
	case pbemevent.TypeResumed:
		if f.pausedAt != nil {
			gap := at.Sub(*f.pausedAt)
			for s := range f.seats {
				if o := f.seats[s].open; o != nil {
					shifted := o.Add(gap)
					f.seats[s].open = &shifted
				}
			}
			f.pausedAt = nil
		}
		for s := range f.seats {
			fresh[s] = true
		}
	case pbemevent.TypeAborted:
		for s := range f.seats {
			f.out[f.seats[s].cur].Outcome = OutcomeAborted
			f.closeStint(s, at)
		}
		f.ended = true
	case pbemevent.TypePlayerReplaced:
		var x pbemevent.PlayerReplaced
		if err := json.Unmarshal(e.Data, &x); err != nil {
			return bad(err)
		}
		if x.Seat < 0 || x.Seat >= len(f.seats) {
			return bad(fmt.Errorf("no seat %d", x.Seat))
		}
		f.replaced(x, at, fresh)
	case pbemevent.TypeSeatBot:
		var x pbemevent.SeatBot
		if err := json.Unmarshal(e.Data, &x); err != nil {
			return bad(err)
		}
		if x.Seat < 0 || x.Seat >= len(f.seats) {
			return bad(fmt.Errorf("no seat %d", x.Seat))
		}
		t := &f.seats[x.Seat]
		if !f.out[t.cur].Person() {
			f.out[t.cur].Bot = x.Bot // a bot's own seat: another level
			break
		}
		t.handed, t.open, t.last = x.Bot, nil, nil
		fresh[x.Seat] = x.Bot == ""
	case pbemevent.TypeAway, pbemevent.TypeBack:
		return f.away(e, fresh)
	case pbemevent.TypeTakeback:
		var x pbemevent.Takeback
		if err := json.Unmarshal(e.Data, &x); err != nil {
			return bad(err)
		}
		if err := f.takenBack(x); err != nil {
			return bad(err)
		}
	}
	return nil
}

// away folds pbem.away or pbem.back e: the seat's person owes no turn
// while away; back, a turn they are awaited for begins (fresh).
func (f *stintFold) away(e events.Event, fresh map[int]bool) error {
	var x pbemevent.Back // pbemevent.Away's seat is its Seat too
	if err := json.Unmarshal(e.Data, &x); err != nil {
		return fmt.Errorf("projections: records: %s v%d: %w", e.Stream, e.Version, err)
	}
	if x.Seat < 0 || x.Seat >= len(f.seats) {
		return fmt.Errorf("projections: records: %s v%d: no seat %d", e.Stream, e.Version, x.Seat)
	}
	t := &f.seats[x.Seat]
	t.away, t.open = e.Type == pbemevent.TypeAway, nil
	fresh[x.Seat] = !t.away
	return nil
}

// replaced folds pbem.player_replaced x at time at: the seat's stint ends
// (its person left) and the new player's begins.
func (f *stintFold) replaced(x pbemevent.PlayerReplaced, at time.Time, fresh map[int]bool) {
	old := f.out[f.seats[x.Seat].cur]
	f.out[f.seats[x.Seat].cur].Outcome = OutcomeLeft
	f.closeStint(x.Seat, at)
	f.out = append(f.out, Stint{GameID: old.GameID, Game: old.Game, Seat: x.Seat, Stint: old.Stint + 1, Name: x.Name,
		Outcome: OutcomeActive, MoveMillis: []int64{}})
	f.seats[x.Seat] = seatTurn{cur: len(f.out) - 1}
	fresh[x.Seat] = true
}

// takenBack folds pbem.takeback x: the state before the move, and the
// move's time taken off its seat's stint (the seat's turn is open again).
func (f *stintFold) takenBack(x pbemevent.Takeback) error {
	_, st, err := pbemevent.StateBefore(f.games, f.evs, x.From)
	if err != nil {
		return err
	}
	f.st = st
	if x.Seat >= 0 && x.Seat < len(f.seats) {
		t := &f.seats[x.Seat]
		s := &f.out[t.cur]
		if t.last != nil && t.owes(f.out) && len(s.MoveMillis) > 0 {
			s.MoveMillis = s.MoveMillis[:len(s.MoveMillis)-1]
			t.open, t.last = t.last, nil
		}
	}
	return nil
}

// finish ends every seat's stint with the game's result r.
func (f *stintFold) finish(r *engine.Result, at time.Time) {
	for _, p := range r.Ranking {
		if p.Seat >= 0 && p.Seat < len(f.seats) {
			f.out[f.seats[p.Seat].cur].Place = p.Place
		}
	}
	for s := range f.seats {
		f.out[f.seats[s].cur].Outcome = OutcomeFinished
		f.out[f.seats[s].cur].Handed = f.seats[s].handed
		f.closeStint(s, at)
	}
	f.ended = true
}

// closeStint ends the current stint of seat at time at; its open turn is
// owed by nobody.
func (f *stintFold) closeStint(seat int, at time.Time) {
	t := &f.seats[seat]
	end := at
	f.out[t.cur].EndedAt = &end
	t.open, t.last = nil, nil
}

// AttachAddresses fills in the Email of each person's stint from the
// game's primary data: a seat's current holder has the seat's address,
// and the people who left it (former, in the order they left; see
// Game.Former) the addresses they had. Addresses are lower-cased. A stint
// whose address the primary data does not hold keeps "".
func AttachAddresses(stints []Stint, seats, former []Seat) {
	for i := range stints {
		s := &stints[i]
		if !s.Person() {
			continue
		}
		if s.Outcome != OutcomeLeft {
			for _, st := range seats {
				if st.Seat == s.Seat {
					s.Email = strings.ToLower(st.Email)
				}
			}
			continue
		}
		// The k-th person who left seat s is the k-th former entry of s.
		k := 0
		for _, o := range stints[:i] {
			if o.Seat == s.Seat && o.Person() && o.Outcome == OutcomeLeft {
				k++
			}
		}
		for _, fm := range former {
			if fm.Seat != s.Seat {
				continue
			}
			if k == 0 {
				s.Email = strings.ToLower(fm.Email)
				break
			}
			k--
		}
	}
}

// mustered ends the game's muster (pbem.mustered): the seats that
// declined or never answered are marked on their person's stint, and
// every seat owes its turns from now.
func (f *stintFold) mustered(e events.Event, fresh map[int]bool) error {
	var x pbemevent.Mustered
	if err := json.Unmarshal(e.Data, &x); err != nil {
		return fmt.Errorf("projections: records: %s v%d: %w", e.Stream, e.Version, err)
	}
	f.mustering = false
	mark := func(seats []int, how string) {
		for _, s := range seats {
			if s >= 0 && s < len(f.seats) && f.out[f.seats[s].cur].Person() {
				f.out[f.seats[s].cur].Muster = how
			}
		}
	}
	mark(x.Declined, MusterDeclined)
	mark(x.Silent, MusterSilent)
	for s := range f.seats {
		fresh[s] = true
	}
	return nil
}
