package notify

import "context"

// stories fills in the Story of each row written for a seat of a game (its
// time zone; for a your-turn email, also what happened since the seat's
// last move). Rows are changed in place.
func (w *Worker) stories(ctx context.Context, rows []Row) error {
	if w.c.Seats == nil {
		return nil
	}
	for i := range rows {
		r := &rows[i]
		if r.Seat < 0 || r.GameID == "" || !r.Kind.ForSeat() {
			continue
		}
		st, err := w.c.Seats.Story(ctx, r.GameID, r.Seat, r.EventVersion, r.Kind)
		if err != nil {
			return err
		}
		r.Story = st
	}
	return nil
}

// ForSeat reports whether an email of kind k goes to a seat of a game (and
// so has a time zone to tell its deadline in): not the digest, which spans
// games, nor the organiser's and sign-in emails.
func (k Kind) ForSeat() bool {
	switch k {
	case Digest, Confirm, AdminLink, Signin:
		return false
	}
	return true
}

// TellsStory reports whether an email of kind k lists everything that
// happened since its recipient's last move.
func (k Kind) TellsStory() bool { return k == YourTurn }
