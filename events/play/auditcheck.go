package play

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections"
)

// AuditError names the first event of an audit record that does not
// check, and why.
type AuditError struct {
	Game    string
	Version int64
	Reason  string
}

func (e *AuditError) Error() string {
	return fmt.Sprintf("audit of game %s: version %d: %s", e.Game, e.Version, e.Reason)
}

// AuditReport is what CheckAudit checked.
type AuditReport struct {
	Events int // events whose hash checked
	// Decisions are the moves replayed: each run of engine events that
	// one legal decision gives again from the seed.
	Decisions int
	Format    int // the chain format
}

// CheckAudit checks an ended game's audit record offline, as anyone may
// with the record alone (GET /api/v1/games/{id}/audit; `pbem verify
// --audit`), in the order docs/events.md gives:
//
//  1. the revealed seed is 32 bytes whose SHA-256 is seed_hash, the hash
//     pbem.created (version 1) published from the start;
//  2. the chain format is the one the seed was made for, when the seed
//     ends with the mark of pbemevent.MarkSeed (a record rewritten whole in
//     an older format is refused); in chain format 2, commit_key is the
//     key the seed gives (events.CommitKeyFrom);
//  3. every event's hash (events.VerifyChain with that key);
//  4. every shuffle and draw: the game is dealt again from the seed with
//     the rules, players and options of pbem.created, and each run of
//     engine events that stands (take-backs removed) must be exactly the
//     events one legal decision of an awaited seat gives from the state
//     before it (State.Decide), which draws on the seed's PRNG.
//
// It returns a report, or an *AuditError (or *events.ChainError for a
// hash) naming the first version that does not check. games must hold
// the game's engine.
func CheckAudit(games engine.Registry, a *Audit) (*AuditReport, error) {
	bad := func(v int64, format string, args ...any) error {
		return &AuditError{Game: a.GameID, Version: v, Reason: fmt.Sprintf(format, args...)}
	}
	if len(a.Events) == 0 || a.Events[0].Type != pbemevent.TypeCreated {
		return nil, bad(1, "the record does not begin with pbem.created")
	}
	seedBytes, err := hex.DecodeString(a.Seed)
	if err != nil || len(seedBytes) != len(engine.Seed{}) {
		return nil, bad(1, "the revealed seed is not 32 bytes in hex")
	}
	seed := engine.Seed(seedBytes)
	if sum := sha256.Sum256(seed[:]); hex.EncodeToString(sum[:]) != a.SeedHash {
		return nil, bad(1, "the revealed seed's SHA-256 is %x, not the published seed_hash %s", sum, a.SeedHash)
	}
	var c pbemevent.Created
	if err := json.Unmarshal(a.Events[0].Data, &c); err != nil {
		return nil, bad(1, "pbem.created does not decode: %v", err)
	}
	if c.SeedHash != a.SeedHash || c.Seed != a.Seed {
		return nil, bad(1, "pbem.created holds another seed or seed_hash than the record")
	}
	// A record rewritten whole in an older format than the game's: every
	// hash checks, but the seed, which deals every card, says otherwise.
	if err := pbemevent.CheckSeedFormat(seed, a.ChainFormat); err != nil {
		return nil, bad(1, "%s", err)
	}
	var key *events.CommitKey
	switch {
	case c.ChainFormat != a.ChainFormat && !(c.ChainFormat == 0 && a.ChainFormat == events.FormatPlain):
		return nil, bad(1, "pbem.created says chain format %d, the record %d", c.ChainFormat, a.ChainFormat)
	case a.ChainFormat == events.FormatCommitted:
		k := events.CommitKeyFrom(seed)
		if a.CommitKey != hex.EncodeToString(k[:]) {
			return nil, bad(1, "the revealed commit_key is not the key the seed gives")
		}
		key = &k
	case a.ChainFormat == events.FormatPlain:
		if a.CommitKey != "" {
			return nil, bad(1, "a format-1 record with a commit_key")
		}
	default:
		return nil, bad(1, "unknown chain format %d", a.ChainFormat)
	}
	if err := events.VerifyChain(a.GameID, a.Events, key); err != nil {
		return nil, err
	}
	rep := &AuditReport{Events: len(a.Events), Format: key.Format()}
	end, err := replayDecisions(games, a.Events, rep)
	if err != nil {
		var ae *AuditError
		if errors.As(err, &ae) {
			ae.Game = a.GameID
		}
		return nil, err
	}
	if err := whole(a, end); err != nil {
		return nil, bad(a.Events[len(a.Events)-1].Version, "%s", err)
	}
	return rep, nil
}

// whole says why the record a, whose events replay to state end, is not a
// whole ended game: an audit is of a game that ended, and a record cut
// short (the 46 of 92 events, still "finished") ends before the
// game did. A finished game's events replay to a result; an aborted
// game's hold its pbem.aborted.
func whole(a *Audit, end engine.State) error {
	switch a.Status {
	case projections.StatusFinished:
		if end.Result() == nil {
			return fmt.Errorf("the record is not whole: it says the game finished, but after its last event the game awaits seats %v", end.ToMove())
		}
	case projections.StatusAborted:
		for _, e := range a.Events {
			if e.Type == pbemevent.TypeAborted {
				return nil
			}
		}
		return errors.New("the record is not whole: it says the game was aborted, but holds no pbem.aborted")
	default:
		return fmt.Errorf("the record's status is %q: an audit record is of a finished or aborted game", a.Status)
	}
	return nil
}

// standing is one engine event that stands, with its stored data.
type standing struct {
	version int64
	typ     string
	data    []byte
}

// replayDecisions deals the game of evs again and finds, for each run of
// standing engine events, the legal decision that gives it (the longest,
// when several do); it returns the state they lead to.
func replayDecisions(games engine.Registry, evs []events.Event, rep *AuditReport) (engine.State, error) {
	eng, st, err := pbemevent.Deal(games, evs)
	if err != nil {
		return nil, &AuditError{Version: 1, Reason: err.Error()}
	}
	var run []standing
	var bad *AuditError
	if err := pbemevent.StandingEvents(eng, evs, pbemevent.Span{}, func(e events.Event, _ engine.Event) {
		data, err := events.CanonicalJSON(e.Data)
		if err != nil && bad == nil {
			bad = &AuditError{Version: e.Version, Reason: err.Error()}
		}
		run = append(run, standing{e.Version, e.Type, data})
	}); err != nil {
		// An engine event that does not decode is a changed event: name
		// it (TestFairPlayAttacker once flipped "MacDonnell" to
		// "MbcDonnell" and was told version 1).
		var de *pbemevent.DecodeError
		if errors.As(err, &de) {
			return nil, &AuditError{Version: de.Version, Reason: err.Error()}
		}
		return nil, &AuditError{Version: 1, Reason: err.Error()}
	}
	if bad != nil {
		return nil, bad
	}
	for i := 0; i < len(run); {
		best, agree, err := decisionAt(st, run[i:])
		if err != nil {
			return nil, &AuditError{Version: run[i].version, Reason: err.Error()}
		}
		if best == nil {
			// The first event no decision gives: after the longest run of
			// events some decision gives.
			return nil, &AuditError{Version: run[i+agree].version, Reason: "no legal decision gives this event from the seed and the events before it " +
				"(a changed card, draw or shuffle)"}
		}
		for _, e := range best {
			st.Apply(e)
		}
		i += len(best)
		rep.Decisions++
	}
	return st, nil
}

// decisionAt returns the events of the legal decision (of any awaited
// seat, the default move included) that begin run, the longest if
// several do, or nil and how many events of run the decision that
// agrees longest with it gives (less than its events).
func decisionAt(st engine.State, run []standing) (best []engine.Event, agree int, err error) {
	for _, seat := range st.ToMove() {
		moves := st.Legal(seat)
		if d := st.DefaultMove(seat); d != nil {
			moves = append(moves, d)
		}
		for _, m := range moves {
			out, err := st.Decide(seat, m)
			if err != nil || len(out) <= len(best) {
				continue
			}
			k := 0
			for ; k < len(out) && k < len(run); k++ {
				data, err := json.Marshal(out[k])
				if err != nil {
					return nil, 0, err
				}
				canon, err := events.CanonicalJSON(data)
				if err != nil {
					return nil, 0, err
				}
				if out[k].EventType() != run[k].typ || !bytes.Equal(canon, run[k].data) {
					break
				}
			}
			if k == len(out) {
				best = out
			}
			agree = max(agree, min(k, len(run)-1))
		}
	}
	return best, agree, nil
}
