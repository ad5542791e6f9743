package projections

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"pbem/events/pbemevent"

	"pbem/engine"
	"pbem/events"
	"pbem/projections/outbox"
)

// ChoiceTag identifies a list of legal moves: the first 8 hex digits of
// SHA-256 over the moves' JSON, one per line. An email's reply address
// carries the tag of the list it numbered, so that a reply's number is
// played only while it still means the same move; a different list (the
// game moved on) gets the fresh list instead. An empty list has the tag of
// no bytes.
func ChoiceTag(moves []engine.Move) string {
	h := sha256.New()
	for _, m := range moves {
		b, err := engine.MarshalMove(m)
		if err != nil {
			// A move that does not marshal cannot be listed either; its
			// type name still changes the tag.
			b = []byte(err.Error())
		}
		h.Write(b)
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))[:8]
}

// Labels returns the labels of moves, in order.
func Labels(moves []engine.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.Label()
	}
	return out
}

// chatMails adds a chat email to every seat but the author's: the line
// that says who wrote what, and each recipient's own legal moves (a chat
// email can be answered with a move like any other).
func (p *Projector) chatMails(b *Batch, e events.Event) error {
	var c pbemevent.Chat
	if err := json.Unmarshal(e.Data, &c); err != nil {
		return err
	}
	g := p.Game
	line := oneLine(func(lang string) string { return DescribeService(pbemevent.TypeChat, e.Data, g.Players, lang) })
	for i := range g.Seats {
		if g.Seats[i].Seat == c.Seat {
			continue
		}
		if err := p.addMail(b, outbox.Chat, &g.Seats[i], e.Version, line); err != nil {
			return err
		}
	}
	return nil
}
