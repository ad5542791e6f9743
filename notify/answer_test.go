package notify

import (
	"encoding/json"
	"html"
	"strings"
	"testing"

	"pbem/projections/outbox"
)

// TestAnswerPlayedEndsWithOneStop (a user trial: "La tua mossa è stata
// giocata: Gioca Marcia forzata con 1 unità: Sposti fino a 3 unità dal
// tuo castello al tuo accampamento.."): the answer to a reply that played
// a move whose label ends a sentence (".", "!", "?", "…") adds no stop of its
// own; a label without one gets it, in every language, in the text and
// the HTML parts.
func TestAnswerPlayedEndsWithOneStop(t *testing.T) {
	t.Parallel()
	r := testRenderer(t)
	intro := map[string]string{"en": "Your move was played: ", "fr": "Votre coup a été joué\u00a0: ", "it": "La tua mossa è stata giocata: "}
	cases := []struct{ label, want string }{
		{"Gioca Marcia forzata con 1 unità: Sposti fino a 3 unità dal tuo castello al tuo accampamento.",
			"Gioca Marcia forzata con 1 unità: Sposti fino a 3 unità dal tuo castello al tuo accampamento."},
		{"Charge!", "Charge!"},
		{"Swap with Bob?", "Swap with Bob?"},
		{"Wait…", "Wait…"},
		{"Recruit Fergusson 12 face-up", "Recruit Fergusson 12 face-up."},
		{"Pass (3 left)", "Pass (3 left)."},
	}
	for lang, head := range intro {
		for _, c := range cases {
			p := samplePayload(lang)
			p.Answer = &outbox.Answer{Says: []string{outbox.AnswerPlayed, outbox.AnswerPlayed}, Move: c.label, Moves: []string{c.label, "Pass"}}
			b, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			m, err := r.Render(Row{ID: 3, GameID: "g1abc", Seat: 1, Kind: outbox.Reply, Payload: b})
			if err != nil {
				t.Fatalf("%s %q: %v", lang, c.label, err)
			}
			want := head + c.want + "\n"
			if !strings.Contains(m.Text, want) || !strings.Contains(m.Text, head+"Pass.\n") {
				t.Errorf("%s %q: the text part has no line %q (and %q):\n%s", lang, c.label, want, head+"Pass.", m.Text)
			}
			if hw := "<p>" + head + c.want + "</p>"; !strings.Contains(html.UnescapeString(m.HTML), hw) {
				t.Errorf("%s %q: the HTML part has no %q", lang, c.label, hw)
			}
		}
	}
}

// TestAnswerTimedOutSaysThePolicy: the answer to a reply that came after
// the seat's time ran out says what the deadline's policy did, each
// policy its own sentence; a policy this worker does not know gets the
// sentence that names none.
func TestAnswerTimedOutSaysThePolicy(t *testing.T) {
	t.Parallel()
	for _, pol := range []string{"default_move", "skip", "bot", "pause", "unknown"} {
		want := "timed_out." + pol
		if pol == "unknown" {
			want = "timed_out"
		}
		got := sentences(&outbox.Answer{Says: []string{outbox.AnswerTimedOut}, TimedOut: pol})
		if len(got) != 1 || got[0].Key != want {
			t.Errorf("policy %s: %+v, want the sentence %s", pol, got, want)
		}
	}
}
