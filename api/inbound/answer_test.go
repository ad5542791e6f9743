package inbound

import (
	"reflect"
	"testing"
	"time"

	"pbem/events/play"
	"pbem/projections/outbox"
)

// TestAnswerNamesItsGameAsEveryEmailDoes: the answer to a reply marks the
// bots of its game and writes the deadline to the second, as the
// projector's emails do (it built its payload apart, without either).
func TestAnswerNamesItsGameAsEveryEmailDoes(t *testing.T) {
	at := time.Date(2026, 12, 2, 10, 4, 5, 123456000, time.UTC)
	rs := &play.ReplySeat{GameID: "g", Game: "count", Language: "fr", Players: []string{"Ann", "Hal"}, Bots: []string{"", "easy"},
		Version: 9, Deadline: &at, Seat: 0, Name: "Ann", Email: "ann@example.org", TokenGen: 3, Choice: "abcd1234"}
	ans := &outbox.Answer{Says: []string{outbox.AnswerPosted}}
	row := answerRow(rs, ans)
	p := row.Payload
	want := outbox.GameInfo{ID: "g", Name: "count", Players: []string{"Ann", "Hal"}, Bots: []string{"", "easy"}}
	if !reflect.DeepEqual(p.Game, want) {
		t.Errorf("game %+v; want %+v", p.Game, want)
	}
	if p.Deadline == nil || !p.Deadline.Equal(at.Truncate(time.Second)) {
		t.Errorf("deadline %v; want %v", p.Deadline, at.Truncate(time.Second))
	}
	if row.Kind != outbox.Reply || *row.Seat != 0 || p.Answer != ans || p.Choice != "abcd1234" || p.TokenGen != 3 || p.Version != 9 {
		t.Errorf("row %+v", row)
	}
}
