package notify

import (
	"context"
	"pbem/projections/outbox"
)

// stories fills in the Story of each row written for a seat of a game (its
// time zone; for a your-turn, round-end or game-over email, also what
// happened since the seat last heard and the rounds it tells; for table
// talk the lines not told yet), with one call to the SeatReader for the
// batch. Rows are sent in their order: a row's story starts after what
// the rows to the same seat of the same game before it tell
// (StoryRequest.After). A digest, which spans games, tells its deadlines
// in the zone of its first game's seat. Rows are changed in place.
func (w *Worker) stories(ctx context.Context, rows []Row) error {
	if w.c.Seats == nil {
		return nil
	}
	type seatOf struct {
		game string
		seat int
	}
	told := map[seatOf]int64{} // what the rows before tell each seat up to
	var reqs []StoryRequest
	var at []int // at[j] is the row of reqs[j]
	for i, r := range rows {
		req := StoryRequest{GameID: r.GameID, Seat: r.Seat, Upto: r.EventVersion, Kind: r.Kind, RoundAt: r.RoundAt}
		if r.Kind == outbox.Digest {
			p, err := DecodePayload(r.Payload)
			if err != nil || len(p.Games) == 0 {
				continue // Render refuses a bad payload
			}
			req.GameID, req.Seat = p.Games[0].Game.ID, p.Games[0].Seat
		} else if r.Seat < 0 || r.GameID == "" || !r.Kind.ForSeat() {
			continue
		}
		if r.Kind.TellsStory() {
			k := seatOf{r.GameID, r.Seat}
			req.After = min(told[k], r.EventVersion)
			told[k] = max(told[k], r.EventVersion)
		}
		reqs = append(reqs, req)
		at = append(at, i)
	}
	if len(reqs) == 0 {
		return nil
	}
	sts, err := w.c.Seats.Stories(ctx, reqs)
	if err != nil {
		return err
	}
	for j, st := range sts {
		rows[at[j]].Story = st
	}
	return nil
}
