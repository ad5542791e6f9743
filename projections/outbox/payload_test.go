package outbox_test

import (
	"encoding/json"
	"testing"
	"time"

	"pbem/projections/outbox"
)

// TestNewPayloadWritesEveryHeadAlike: whoever builds an email, its head is
// written the same way: the deadline in UTC to the second, the lines and
// the players as lists (never null), and bots marked only when a seat is a
// bot's.
func TestNewPayloadWritesEveryHeadAlike(t *testing.T) {
	paris := time.FixedZone("Paris", 3600)
	at := time.Date(2026, 12, 2, 10, 4, 5, 123456000, paris)
	for _, c := range []struct {
		name string
		head outbox.Head
		want string // the payload's JSON
	}{
		{"a seat's email", outbox.Head{To: outbox.Recipient{Seat: 1, Name: "Bob", Email: "bob@example.org"}, Language: "fr",
			Game:     outbox.GameInfo{ID: "g", Name: "count", Players: []string{"Ann", "Hal"}, Bots: []string{"", "easy"}},
			TokenGen: 2, Version: 7, Deadline: &at, Lines: []string{"Ann played"}},
			`{"to":{"seat":1,"name":"Bob","email":"bob@example.org"},"language":"fr","game":{"id":"g","name":"count","players":["Ann","Hal"],"bots":["","easy"]},"token_gen":2,"version":7,"deadline":"2026-12-02T09:04:05Z","lines":["Ann played"]}`},
		{"no bot: no bots list", outbox.Head{To: outbox.Recipient{Seat: 0, Email: "ann@example.org"}, Language: "en",
			Game: outbox.GameInfo{ID: "g", Players: []string{"Ann", "Bob"}, Bots: []string{"", ""}}},
			`{"to":{"seat":0,"name":"","email":"ann@example.org"},"language":"en","game":{"id":"g","name":"","players":["Ann","Bob"]},"token_gen":0,"version":0,"deadline":null,"lines":[]}`},
		{"no game: lists still", outbox.Head{To: outbox.Recipient{Seat: -1, Email: "ann@example.org"}, Language: "it"},
			`{"to":{"seat":-1,"name":"","email":"ann@example.org"},"language":"it","game":{"id":"","name":"","players":[]},"token_gen":0,"version":0,"deadline":null,"lines":[]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(outbox.NewPayload(c.head))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(b); got != c.want {
				t.Errorf("payload\n got %s\nwant %s", got, c.want)
			}
		})
	}
	if at.Nanosecond() == 0 || at.Location() != paris {
		t.Fatalf("NewPayload changed its argument's deadline: %v", at)
	}
}
