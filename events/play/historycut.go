package play

import (
	"context"
	"encoding/json"

	"pbem/events"
	"pbem/events/pbemevent"
)

// A point-in-time restore of the database (docs/operating.md, "Backups and
// restores") takes every game back to the moment restored: the moves after
// it are gone, although their emails went out. The database cannot tell
// (the outbox of sent emails is restored too), so the mail side keeps, in
// a file beside the database (notify.HeadLog), the last version it emailed
// of each game; at start, serve hands each game whose stream is now below
// that version to TellHistoryCut. A reply to an email of a lost version
// carries that version in its address, beyond the stream's end: the
// reply listener answers it so (outbox.AnswerHistoryCut) rather than
// "the game moved on". Once the game has reached that version again, the
// address cannot be told from one of the new history's emails (the
// version numbers after the cut are used again, and its tag is the
// same): such a reply is read as any other, against the seat's list of
// moves now and play.Service.ReplyStale.

// TellHistoryCut tells the players of game id that a restore cut its
// history: emails had told them of versions up to lost, and the stream now
// ends before it. It appends pbem.history_cut (actor "system"), whose
// notice goes to every seat in its language, and reports whether it did:
// not when the stream reaches lost, nor when a pbem.history_cut already
// told of this cut (one whose Lost is lost or more: a second start after
// the restore tells no one twice). Errors: events.CodeNotFound (no such
// game; a restore to before its creation), events.CodeConflict (the game
// moved meanwhile: call again), the store's.
func (s *Service) TellHistoryCut(ctx context.Context, id string, lost int64) (bool, error) {
	g, err := s.game(ctx, id)
	if err != nil {
		return false, err
	}
	if g.Version >= lost {
		return false, nil
	}
	told, err := s.cutTold(ctx, id, lost)
	if err != nil || told {
		return false, err
	}
	_, err = s.serviceEvent(ctx, g, "system", pbemevent.TypeHistoryCut, pbemevent.HistoryCut{BackTo: g.Version, Lost: lost})
	return err == nil, err
}

// cutTold reports whether game id's stream holds a pbem.history_cut that
// told of versions up to lost or later.
func (s *Service) cutTold(ctx context.Context, id string, lost int64) (bool, error) {
	evs, err := s.store.ReadStream(ctx, id, 1)
	if err != nil {
		return false, err
	}
	for _, e := range evs {
		if c, ok := historyCut(e); ok && c.Lost >= lost {
			return true, nil
		}
	}
	return false, nil
}

// historyCut reads e as a pbem.history_cut.
func historyCut(e events.Event) (pbemevent.HistoryCut, bool) {
	var c pbemevent.HistoryCut
	if e.Type != pbemevent.TypeHistoryCut || json.Unmarshal(e.Data, &c) != nil {
		return c, false
	}
	return c, true
}
