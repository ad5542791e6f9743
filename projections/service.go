package projections

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
)

// Config is what a Service needs.
type Config struct {
	// Games lists the playable games.
	Games engine.Registry
	// Store is the event log.
	Store events.Store
	// Repo stores the projections; its Save must accept the Store's Tx.
	Repo Repository
	// Secret derives the seat and admin tokens (PBEM_SECRET).
	Secret []byte
	// Now is the clock (deadlines); nil means time.Now.
	Now func() time.Time
	// StateCache is how many decoded engine states to keep in memory (see
	// stateCache): 0 means DefaultStateCache, a negative number none.
	StateCache int
}

// Service is the game service used by the API, the email replies and the
// deadline scheduler. It is safe for concurrent use.
type Service struct {
	games  engine.Registry
	store  events.Store
	repo   Repository
	secret []byte
	now    func() time.Time
	states *stateCache
}

// New returns a Service.
func New(c Config) *Service {
	now := c.Now
	if now == nil {
		now = time.Now
	}
	n := c.StateCache
	if n == 0 {
		n = DefaultStateCache
	}
	return &Service{games: c.Games, store: c.Store, repo: c.Repo, secret: c.Secret, now: now, states: newStateCache(n)}
}

// Now is the service clock.
func (s *Service) Now() time.Time { return s.now() }

// Games lists the names of the playable games.
func (s *Service) Games() []string {
	out := make([]string, 0, len(s.games))
	for n := range s.games {
		out = append(out, n)
	}
	return out
}

// engineOf returns the engine of g.
func (s *Service) engineOf(g *Game) (engine.Game, error) {
	eng, ok := s.games[g.Game]
	if !ok {
		return nil, fmt.Errorf("projections: game %s uses unknown engine %q", g.ID, g.Game)
	}
	return eng, nil
}

// state returns g's engine state, decoded or from the cache. The state is
// shared: callers must not modify it (Clone it first).
func (s *Service) state(g *Game) (engine.Game, engine.State, error) {
	eng, err := s.engineOf(g)
	if err != nil {
		return nil, nil, err
	}
	if st := s.states.get(g.ID, g.Version, g.State); st != nil {
		return eng, st, nil
	}
	st, err := eng.DecodeState(g.State)
	if err != nil {
		return nil, nil, fmt.Errorf("projections: decode state of %s: %w", g.ID, err)
	}
	s.states.put(g.ID, g.Version, g.State, st)
	return eng, st, nil
}

// append appends evs to g's stream at g's version, projecting them in the same
// transaction. decoded holds the engine events of evs (nil for service
// events). extra, if set, adds to the Change inside the transaction (the
// remembered answer of a keyed move). It returns the new game row and
// state (kept in the state cache: read-only), or ran=false when the store answered from an earlier append with the
// same idempotency key (nothing written).
func (s *Service) append(ctx context.Context, g *Game, st engine.State, evs []events.NewEvent, decoded []engine.Event,
	extra func(*Change, engine.State) error) (ng *Game, nst engine.State, ran bool, err error) {
	hook := func(ctx context.Context, tx events.Tx, appended []events.Event) error {
		p := &projector{games: s.games, g: g.clone(), outbox: true,
			now: func(events.Event) time.Time { return s.now() }}
		if st != nil {
			eng, err := s.engineOf(g)
			if err != nil {
				return err
			}
			p.eng, p.st = eng, st.Clone()
		}
		b, err := p.apply(appended, decoded)
		if err != nil {
			return err
		}
		c := &Change{Game: p.g, Create: st == nil, SeatTokens: b.tokens, History: b.history, Outbox: b.outbox}
		if extra != nil {
			if err := extra(c, p.st); err != nil {
				return err
			}
		}
		if err := s.repo.Save(ctx, tx, c); err != nil {
			return err
		}
		ng, nst, ran = p.g, p.st, true
		return nil
	}
	if _, err := s.store.Append(ctx, g.ID, g.Version, evs, hook); err != nil {
		if events.IsConflict(err) {
			return nil, nil, false, Errorf(EConflict, "the game has moved on: reload it and try again")
		}
		return nil, nil, false, err
	}
	if ran {
		s.states.put(ng.ID, ng.Version, ng.State, nst)
	}
	return ng, nst, ran, nil
}

// newID returns a fresh random game id (16 lowercase base32 characters).
func newID() (string, error) {
	b := make([]byte, 10)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("projections: random id: %w", err)
	}
	return strings.ToLower(base32.StdEncoding.EncodeToString(b)), nil
}
