package notify_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"pbem/notify"
	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

// TestDisplayNamesReachTheToHeader sends invitations to players whose
// names hold quotes, commas, angle brackets, other scripts, emoji, or run
// to 200 characters, through a real SMTP conversation: every To header
// parses back to the same name and address (it used to be built as
// "NAME" <ADDR>, which a quote in the name broke).
func TestDisplayNamesReachTheToHeader(t *testing.T) {
	t.Parallel()
	sink := smtpsink.Start(t, smtpsink.Options{})
	cfg, err := notify.ParseSMTPURL("smtp://" + sink.Addr() + "?tls=none")
	if err != nil {
		t.Fatal(err)
	}
	r := renderer(t)
	names := []string{
		`Ann "Ace" Smith`,
		`Smith, Ann`,
		`Ann <ann@evil.example>`,
		`<b>Bob</b> & co; (the "best")`,
		`back\slash "quote\"`,
		`=?utf-8?q?not_encoded?=`,
		`Дмитрий Иванов`,
		`李小龍`,
		`أحمد`,
		`🃏 Joker 🂡`,
		`Zoë O'Brien-Łukasiewicz`,
		strings.Repeat(`Ané "x", <y> `, 15)[:200],
		strings.Repeat("é", 200),
	}
	var msgs []*notify.Message
	for i, name := range names {
		p := outbox.Payload{
			To:       outbox.Recipient{Seat: 0, Name: name, Email: "player" + string(rune('a'+i)) + "@example.org"},
			Language: "en",
			Game:     outbox.GameInfo{ID: "g1", Name: "lords-of-scotland", Players: []string{name, "Bob"}},
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := r.Render(notify.Row{ID: int64(i + 1), GameID: "g1", Seat: 0, Kind: outbox.Invitation, Payload: b})
		if err != nil {
			t.Fatalf("%q: render: %v", name, err)
		}
		msgs = append(msgs, m)
	}
	send(t, cfg, msgs...)
	got := sink.Wait(len(names), 10*time.Second)
	if len(got) != len(names) {
		t.Fatalf("received %d messages, want %d", len(got), len(names))
	}
	for i, rc := range got {
		want := msgs[i]
		p, err := smtpsink.Parse(rc.Data)
		if err != nil {
			t.Fatalf("%q: %v", names[i], err)
		}
		to, err := p.Header.AddressList("To")
		if err != nil || len(to) != 1 {
			t.Errorf("%q: To header %q does not parse: %v", names[i], p.Header.Get("To"), err)
			continue
		}
		if to[0].Name != names[i] || to[0].Address != want.To {
			t.Errorf("To header %q parses as %q <%s>, want %q <%s>", p.Header.Get("To"), to[0].Name, to[0].Address, names[i], want.To)
		}
		if len(rc.To) != 1 || rc.To[0] != want.To {
			t.Errorf("%q: envelope recipients %v, want %s", names[i], rc.To, want.To)
		}
	}
}

// TestBadRecipientAddressIsPermanent checks that an address that is not a
// plain address fails the message for good instead of reaching a header.
func TestBadRecipientAddressIsPermanent(t *testing.T) {
	t.Parallel()
	sink := smtpsink.Start(t, smtpsink.Options{})
	cfg, err := notify.ParseSMTPURL("smtp://" + sink.Addr() + "?tls=none")
	if err != nil {
		t.Fatal(err)
	}
	s, err := notify.NewSMTPSender(cfg, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	m := message(t, renderer(t), 1, outbox.YourTurn, "en")
	for _, bad := range []string{"Ann <ann@example.org>", "ann@example.org, bob@example.org", "not an address"} {
		m.To = bad
		if errs := s.Send(t.Context(), []*notify.Message{m}); !notify.IsPermanent(errs[0]) {
			t.Errorf("To %q: %v, want a permanent error", bad, errs[0])
		}
	}
}
