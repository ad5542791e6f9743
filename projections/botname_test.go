package projections

import "testing"

// TestBotNames: a bot's seat is named with the bot mark, a bot level in
// the same word, in each language; an event's actor is named by its seat
// (a bot's move by its seat's name marked), and not at all when no seat
// acted (a bot that played for a seat whose time ran out names none).
func TestBotNames(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ lang, seat, level string }{
		{"en", "Bot 3 (bot)", "Bot (normal)"},
		{"fr", "Bot 3 (robot)", "Robot (normal)"},
		{"it", "Bot 3 (bot)", "Bot (normale)"},
	} {
		if got := SeatName(c.lang, "Bot 3", "strong"); got != c.seat {
			t.Errorf("%s: SeatName = %q, want %q", c.lang, got, c.seat)
		}
		if got := SeatName(c.lang, "Ann", ""); got != "Ann" {
			t.Errorf("%s: a person's SeatName = %q", c.lang, got)
		}
		if got := BotLevelName(c.lang, "normal"); got != c.level {
			t.Errorf("%s: BotLevelName = %q, want %q", c.lang, got, c.level)
		}
	}
	players := []string{"Ann", "Élodie"}
	for _, c := range []struct{ actor, key, want string }{
		{"seat:1", "seat:1:k", "Élodie"},
		{"bot:easy", "seat:1:bot:v7", "Élodie (robot)"},
		{"bot:normal", "", ""}, // a bot that played for a late seat
		{"seat:2", "", ""},
		{"admin", "", ""},
		{"forced:0", "", ""},
		{"system", "", ""},
	} {
		if got := ActorName("fr", c.actor, c.key, players); got != c.want {
			t.Errorf("ActorName(%q, %q) = %q, want %q", c.actor, c.key, got, c.want)
		}
	}
}
