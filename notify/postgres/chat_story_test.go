package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"strings"
	"testing"

	"pbem/engine/bagpipes"
	"pbem/events/pbemevent"
	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/outbox"
)

// TestTableTalkEmailSpeaksTheReadersLanguage (a user trial: a French
// player at an English game read "Giulia says: “Ciao…”" in a table-talk
// email, where the page and the your-turn emails said "dit : « … »"): the
// table-talk email tells each line in the language its reader reads (the
// seat's, else the game's), as the gathered story is told (chatFromSQL).
func TestTableTalkEmailSpeaksTheReadersLanguage(t *testing.T) {
	t.Parallel()
	e := newStoryEnv(t)
	ctx := context.Background()
	names, langs := []string{"Ann", "Amélie", "Giulia"}, []string{"en", "fr", "it"}
	req := play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: bagpipes.Name, Language: "en"}
	for i, n := range names {
		req.Players = append(req.Players, play.NewPlayer{Name: n, Email: fmt.Sprintf("p%d@example.org", i), Language: langs[i]})
	}
	c, err := e.svc.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	e.deliver() // the invitations
	const text = "Ciao a tutti"
	if err := e.svc.Chat(ctx, c.ID, tokens.Seat([]byte("secret"), c.ID, 2, 0), text, "chat-1"); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(pbemevent.Chat{Seat: 2, Text: text})
	if err != nil {
		t.Fatal(err)
	}
	told := map[int]bool{}
	for _, m := range e.deliver() {
		if m.Kind != outbox.Chat {
			continue
		}
		told[m.Seat] = true
		want := projections.DescribeService(pbemevent.TypeChat, data, names, langs[m.Seat])
		if !strings.Contains(m.Mail.Text, want) || !strings.Contains(html.UnescapeString(m.Mail.HTML), want) {
			t.Errorf("the table-talk email to %s (%s) does not say %q:\n%s", names[m.Seat], langs[m.Seat], want, m.Mail.Text)
		}
		if en := projections.DescribeService(pbemevent.TypeChat, data, names, "en"); langs[m.Seat] != "en" && strings.Contains(m.Mail.Text, en) {
			t.Errorf("the table-talk email to %s (%s) says %q in English", names[m.Seat], langs[m.Seat], en)
		}
	}
	if !told[0] || !told[1] || told[2] {
		t.Errorf("table-talk emails went to seats %v, want 0 and 1", told)
	}
}
