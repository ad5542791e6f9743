package play

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"pbem/events"
	"pbem/projections"
)

// Records (issue #46): a person's record, the ratings and the
// leaderboards, read models built from the events (projections.Stints,
// projections.Rate). The stints of an ended game are stored once it has
// ended (RefreshRecords, which serve runs after appends, and `pbem
// rebuild`); a game still played is folded from its events when a record
// is read, so a record is always up to date. Without Config.Records
// (tools that keep no records) the methods answer events.CodeNotFound.

// KeepsRecords reports whether the service keeps records (Config.Records):
// pages show them only then.
func (s *Service) KeepsRecords() bool { return s.records != nil }

// recordStore is the records store, or events.CodeNotFound when the service keeps none.
func (s *Service) recordStore() (projections.RecordStore, error) {
	if s.records == nil {
		return nil, events.Errorf(events.CodeNotFound, "records are not kept by this server")
	}
	return s.records, nil
}

// foldRecords folds game id's stream into its stints, with the addresses
// of its primary data, and returns the version they were folded at.
func (s *Service) foldRecords(ctx context.Context, id string) ([]projections.Stint, int64, error) {
	g, err := s.repo.Game(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	evs, err := s.store.ReadStream(ctx, id, 1)
	if err != nil {
		return nil, 0, err
	}
	if len(evs) == 0 {
		return nil, 0, events.Errorf(events.CodeCorrupt, "game %s has no events", id)
	}
	stints, err := projections.Stints(s.games, evs)
	if err != nil {
		return nil, 0, events.Errorf(events.CodeCorrupt, "game %s: records: %v", id, err)
	}
	projections.AttachAddresses(stints, g.Seats, g.Former)
	return stints, evs[len(evs)-1].Version, nil
}

// refreshBatch is how many ended games one RefreshRecords folds at most.
const refreshBatch = 500

// RefreshRecords stores the stints of the ended games whose stored ones
// are missing or older than the game (at most refreshBatch of them: the
// next call takes the rest) and computes the ratings again, in one
// transaction. A game whose events do not fold is left for the next call
// and does not stop the others: its error is returned with how many games
// were folded.
func (s *Service) RefreshRecords(ctx context.Context) (int, error) {
	rs, err := s.recordStore()
	if err != nil {
		return 0, err
	}
	ids, err := rs.StaleRecords(ctx, refreshBatch)
	if err != nil {
		return 0, err
	}
	var folded []projections.FoldedGame
	var errs []error
	for _, id := range ids {
		stints, v, err := s.foldRecords(ctx, id)
		if err != nil {
			if ctx.Err() != nil {
				return 0, ctx.Err()
			}
			errs = append(errs, fmt.Errorf("records of game %s: %w", id, err))
			continue
		}
		folded = append(folded, projections.FoldedGame{ID: id, Version: v, Stints: stints})
	}
	if len(folded) > 0 {
		if err := rs.SaveStints(ctx, folded, projections.RateFrom); err != nil {
			return 0, err
		}
	}
	return len(folded), errors.Join(errs...)
}

// RebuildRecords computes every record and rating again from the events:
// it deletes the stored ones and refreshes every ended game. It returns
// how many games it folded.
func (s *Service) RebuildRecords(ctx context.Context) (int, error) {
	rs, err := s.recordStore()
	if err != nil {
		return 0, err
	}
	if err := rs.ClearRecords(ctx); err != nil {
		return 0, err
	}
	total := 0
	for {
		n, err := s.RefreshRecords(ctx)
		total += n
		if err != nil {
			return total, err
		}
		if n < refreshBatch {
			break
		}
	}
	if total == 0 {
		return 0, rs.Rerate(ctx, projections.RateFrom)
	}
	return total, nil
}

// VerifyRecords folds the events of every ended game whose stints are
// stored again and compares them with the stored stints, then computes
// the ratings again from those and compares them. It returns how many
// games it checked and how many ended games are still to be folded
// (serve folds them after the appends that end them; a database migrated
// from a release before records has them all until `pbem rebuild`), and
// an *events.Error with code CodeCorrupt naming the first difference.
func (s *Service) VerifyRecords(ctx context.Context) (checked, pending int, err error) {
	rs, err := s.recordStore()
	if err != nil {
		return 0, 0, err
	}
	stale, err := rs.StaleRecords(ctx, 1<<30)
	if err != nil {
		return 0, 0, err
	}
	ids, err := rs.RecordedGames(ctx)
	if err != nil {
		return 0, 0, err
	}
	for _, id := range ids {
		if slices.Contains(stale, id) {
			continue // folded at an older version: refreshed soon
		}
		want, v, err := s.foldRecords(ctx, id)
		if err != nil {
			return checked, len(stale), err
		}
		got, gv, err := rs.GameStints(ctx, id)
		if err != nil {
			return checked, len(stale), err
		}
		if gv != v {
			return checked, len(stale), events.Errorf(events.CodeCorrupt, "game %s: records stored at version %d, the events are at %d", id, gv, v)
		}
		if d := diffStints(want, got); d != "" {
			return checked, len(stale), events.Errorf(events.CodeCorrupt, "game %s: records differ from the events: %s", id, d)
		}
		checked++
	}
	// The ratings are checked against the stints they are computed from,
	// read in one snapshot with them (a refresh may commit meanwhile).
	stints, ratings, changes, err := rs.RatedStints(ctx)
	if err != nil {
		return checked, len(stale), err
	}
	wantR, wantC := projections.Rate(stints)
	if !reflect.DeepEqual(projections.NonNil(wantR), projections.NonNil(ratings)) {
		return checked, len(stale), events.Errorf(events.CodeCorrupt, "the ratings differ from those the records give")
	}
	if !reflect.DeepEqual(projections.NonNil(wantC), projections.NonNil(changes)) {
		return checked, len(stale), events.Errorf(events.CodeCorrupt, "the rating changes differ from those the records give")
	}
	return checked, len(stale), nil
}

// diffStints names the first stint where a and b differ ("" if none).
func diffStints(a, b []projections.Stint) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d stints from the events, %d stored", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		x.MoveMillis, y.MoveMillis = projections.NonNil(x.MoveMillis), projections.NonNil(y.MoveMillis)
		if !reflect.DeepEqual(x, y) {
			return fmt.Sprintf("seat %d stint %d: events give %+v, stored %+v", x.Seat, x.Stint, x, y)
		}
	}
	return ""
}

// RecordOf is the record of address email: the stored stints of its ended
// games and those of the games it still plays (or left), folded now, with
// its ratings.
func (s *Service) RecordOf(ctx context.Context, email string) (*projections.PersonRecord, error) {
	rs, err := s.recordStore()
	if err != nil {
		return nil, err
	}
	email = strings.ToLower(strings.TrimSpace(email))
	stints, err := rs.StintsOf(ctx, email)
	if err != nil {
		return nil, err
	}
	active, err := rs.ActiveGamesOf(ctx, email)
	if err != nil {
		return nil, err
	}
	for _, id := range active {
		all, _, err := s.foldRecords(ctx, id)
		if err != nil {
			return nil, err
		}
		for _, st := range all {
			if st.Email == email {
				stints = append(stints, st)
			}
		}
	}
	r := projections.AddUp(stints)
	ratings, err := rs.RatingsOf(ctx, email)
	if err != nil {
		return nil, err
	}
	r.Ratings = projections.NonNil(ratings)
	return &r, nil
}

// MyRecord is the record of the session's address. Errors: events.CodeUnauthorized.
func (s *Service) MyRecord(ctx context.Context, session string) (*projections.PersonRecord, error) {
	email, err := s.SessionEmail(ctx, session)
	if err != nil {
		return nil, err
	}
	return s.RecordOf(ctx, email)
}

// Reliability says in words how reliable each of emails is, for the
// organiser setting up a game: only the addresses that played before
// (others are left out of the map, as unknown).
func (s *Service) Reliability(ctx context.Context, emails []string) (map[string]string, error) {
	out := map[string]string{}
	for _, e := range emails {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "" {
			continue
		}
		r, err := s.RecordOf(ctx, e)
		if err != nil {
			return nil, err
		}
		if r.GamesPlayed > 0 {
			out[e] = r.ReliabilityWord
		}
	}
	return out, nil
}

// Leaderboard lists the ratings at game of the bots and of the people who
// chose to be listed, best first. Errors: events.CodeNotFound for an unknown game.
func (s *Service) Leaderboard(ctx context.Context, game string) ([]projections.Rating, error) {
	rs, err := s.recordStore()
	if err != nil {
		return nil, err
	}
	if _, ok := s.games[game]; !ok {
		return nil, events.Errorf(events.CodeNotFound, "no game %q", game)
	}
	out, err := rs.Leaderboard(ctx, game)
	return projections.NonNil(out), err
}

// SetListed records whether the session's address is listed on the
// leaderboards (by its name). Errors: events.CodeUnauthorized.
func (s *Service) SetListed(ctx context.Context, session string, listed bool) error {
	rs, err := s.recordStore()
	if err != nil {
		return err
	}
	email, err := s.SessionEmail(ctx, session)
	if err != nil {
		return err
	}
	return rs.SetListed(ctx, email, listed)
}

// Listed reports whether the session's address is listed on the
// leaderboards. Errors: events.CodeUnauthorized.
func (s *Service) Listed(ctx context.Context, session string) (bool, error) {
	rs, err := s.recordStore()
	if err != nil {
		return false, err
	}
	email, err := s.SessionEmail(ctx, session)
	if err != nil {
		return false, err
	}
	return rs.Listed(ctx, email)
}

// GameRatings lists the rating changes of finished game id, by seat
// (none before its records are stored, or for a game not rated).
func (s *Service) GameRatings(ctx context.Context, id string) ([]projections.RatingChange, error) {
	rs, err := s.recordStore()
	if err != nil {
		return nil, err
	}
	out, err := rs.GameChanges(ctx, id)
	return projections.NonNil(out), err
}
