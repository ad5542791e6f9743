package inbound_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"pbem/api/inbound"
	"pbem/engine/lords"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
)

type inboundConfig = inbound.Config

// start creates a Lords of Scotland game in lang and returns its id and
// the email of the seat to move (its invitation).
func (e *env) start(lang string) (string, email) {
	e.t.Helper()
	id := e.create(lords.Name, lang)
	for _, em := range e.inbox() {
		if len(em.moves) > 0 {
			return id, em
		}
	}
	e.t.Fatal("no invitation lists a move")
	return "", email{}
}

// version is the game's version.
func (e *env) version(id string) int64 {
	e.t.Helper()
	sm, err := e.svc.Summary(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return sm.Version
}

// answerTo returns the one answer em's seat got since the last inbox.
func (e *env) answerTo(em email) email {
	e.t.Helper()
	var got []email
	for _, m := range e.inbox() {
		if m.to == em.to && strings.HasPrefix(m.subject, "Re:") {
			got = append(got, m)
		}
	}
	if len(got) != 1 {
		e.t.Fatalf("%s got %d answers, want 1", em.to, len(got))
	}
	return got[0]
}

// moveLabel is the label of move n (from 1) of em's list.
func moveLabel(em email, n int) string {
	_, l, _ := strings.Cut(em.moves[n-1], ". ")
	return l
}

func TestRepliesAsClientsWriteThem(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, lang, body string
		contentType      string
	}{
		{"top-posted English with a signature", "en", "2\n\nOn Mon, 3 Mar 2025 at 10:00, pbem <pbem@pbem.test> wrote:\n> Your moves.\n> 1. something\n\n-- \nAnn\nhttps://ann.example.org", ""},
		{"bottom-posted English", "en", "On Mon, 3 Mar 2025 at 10:00, pbem <pbem@pbem.test> wrote:\n> It is your turn.\n> 1. something\n\n2\n", ""},
		{"French top-posted, attribution over two lines", "fr", "2\n\nLe lun. 3 mars 2025 à 10:00, pbem <\npbem@pbem.test> a écrit :\n> Vos coups.\n\nEnvoyé de mon iPhone", ""},
		{"Italian with a sign-off", "it", "2\n\nCiao, Ann\n\nIl giorno lun 3 mar 2025 alle ore 10:00 pbem <pbem@pbem.test> ha scritto:\n> Le tue mosse.\n", ""},
		{"Outlook quoted message", "en", "2\r\n\r\n________________________________\r\nFrom: pbem <pbem@pbem.test>\r\nSent: Monday, 3 March 2025 10:00\r\nTo: Ann\r\n\r\n1. something", ""},
		{"HTML only (a phone client)", "fr", `<html><body><div dir="auto">2</div><div><br><div class="gmail_quote"><div class="gmail_attr">Le lun. 3 mars 2025, pbem a écrit :<br></div><blockquote>1. quelque chose</blockquote></div></div></body></html>`, "text/html; charset=utf-8"},
		{"quoted-printable Latin-1", "fr", "=32\n\nAmiti=E9s\n", "text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			id, em := e.start(c.lang)
			want := moveLabel(em, 2)
			msg := plain(em, "m1@client.example.org", c.body)
			if c.contentType != "" {
				msg = strings.Replace(msg, "text/plain; charset=utf-8", c.contentType, 1)
			}
			before := e.version(id)
			if err := e.send(em.to, em.replyTo, msg); err != nil {
				t.Fatal(err)
			}
			if e.version(id) != before+1 {
				t.Fatalf("version %d after the reply, want %d", e.version(id), before+1)
			}
			ans := e.answerTo(em)
			if !strings.Contains(ans.text, want) {
				t.Errorf("the answer does not name the move played (%q):\n%s", want, ans.text)
			}
		})
	}
}

func TestMoveInWords(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, em := e.start("fr")
	label := moveLabel(em, len(em.moves))
	before := e.version(id)
	e.reply(em, "w@client.example.org", strings.ToUpper(label)+"\n")
	if e.version(id) != before+1 {
		t.Fatalf("the move in words was not played")
	}
	if ans := e.answerTo(em); !strings.Contains(ans.text, label) {
		t.Errorf("answer:\n%s", ans.text)
	}
}

// TestStaleReplyGetsTheFreshList: a reply to a list that is no longer the
// seat's, while the seat is still to move, gets the moves now.
func TestStaleReplyGetsTheFreshList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, em := e.start("en")
	stale := em
	// Another list (CHOICE "0ld"), the email's version kept: the version
	// is under the reply tag (issue #44), so only CHOICE may change.
	part := strings.Split(em.replyTo, "-")[2]
	stale.replyTo = strings.Replace(em.replyTo, "-"+part+"-", "-0ld"+part[strings.IndexByte(part, 'w'):]+"-", 1)
	v := e.version(id)
	e.reply(stale, "stale@client.example.org", "1")
	if e.version(id) != v {
		t.Fatal("a reply to an older list was played")
	}
	ans := e.answerTo(em)
	if !strings.Contains(ans.text, "moved on") || !strings.Contains(ans.text, "\n1. ") {
		t.Errorf("answer to a stale reply:\n%s", ans.text)
	}
	if ans.replyTo == stale.replyTo {
		t.Error("the fresh answer carries the stale address")
	}
}

func TestUnreadableReplyIsQuotedAndListsTheMoves(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, em := e.start("it")
	v := e.version(id)
	e.reply(em, "u@client.example.org", "I think the second one, or maybe <b>not</b>")
	if e.version(id) != v {
		t.Fatal("an unreadable reply changed the game")
	}
	ans := e.answerTo(em)
	if !strings.Contains(ans.text, "> I think the second one, or maybe <b>not</b>") || len(ans.moves) == 0 {
		t.Errorf("answer:\n%s", ans.text)
	}
	if strings.Contains(ans.html, "<b>not</b>") {
		t.Error("the quote is not escaped in the HTML part")
	}
}

func TestForgedAndRevokedAddressesAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, em := e.start("en")
	v := e.version(id)
	a, err := notify.ParseReplyAddress(em.replyTo, replyDomain)
	if err != nil {
		t.Fatal(err)
	}
	forged := a
	forged.Tag = strings.Repeat("a", len(a.Tag))
	other := a
	other.Seat = (a.Seat + 1) % 3
	for _, to := range []string{forged.String(replyDomain), other.String(replyDomain), "postmaster@" + replyDomain, "someone@elsewhere.example"} {
		err := e.send(em.to, to, plain(em, "forged@x", "1"))
		var se *smtp.SMTPError
		if !errors.As(err, &se) || se.Code != 550 {
			t.Errorf("RCPT %s: %v, want 550", to, err)
		}
	}
	// Resending the link revokes the reply address too.
	if _, err := e.svc.ResendLink(context.Background(), id, e.admin[id], a.Seat); err != nil {
		t.Fatal(err)
	}
	v++
	err = e.send(em.to, em.replyTo, plain(em, "revoked@x", "1"))
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code != 550 {
		t.Errorf("revoked address: %v, want 550", err)
	}
	if e.version(id) != v {
		t.Error("a refused reply changed the game")
	}
}

func TestSameMessageTwicePlaysOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, em := e.start("en")
	v := e.version(id)
	e.reply(em, "twice@client.example.org", "1")
	e.reply(em, "twice@client.example.org", "1")
	if got := e.version(id); got != v+1 {
		t.Fatalf("version %d, want %d", got, v+1)
	}
	e.answerTo(em) // exactly one answer
}

func TestAutomaticMessagesAreIgnored(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, em := e.start("en")
	v := e.version(id)
	ooo := strings.Replace(plain(em, "ooo@x", "I am away until Monday."), "Subject: Re:", "Auto-Submitted: auto-replied\nSubject: Out of Office: Re:", 1)
	if err := e.send(em.to, em.replyTo, ooo); err != nil {
		t.Fatal(err)
	}
	vacation := strings.Replace(plain(em, "vac@x", "1"), "Subject: Re:", "Subject: Réponse automatique : Re:", 1)
	if err := e.send(em.to, em.replyTo, vacation); err != nil {
		t.Fatal(err)
	}
	bounce := "From: MAILER-DAEMON@mx.example.org\nTo: " + em.replyTo + "\nSubject: Undelivered Mail Returned to Sender\nMessage-ID: <b1@mx>\n" +
		"MIME-Version: 1.0\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\n\n" +
		"--B\nContent-Type: text/plain\n\n1\n--B\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.org\n\n" +
		"Final-Recipient: rfc822; " + em.to + "\nAction: failed\nStatus: 5.1.1\nDiagnostic-Code: smtp; 550 5.1.1 no such user\n--B--\n"
	if err := e.send("", em.replyTo, bounce); err != nil {
		t.Fatal(err)
	}
	if e.version(id) != v {
		t.Fatal("an automatic message changed the game")
	}
	for _, m := range e.inbox() {
		t.Errorf("an automatic message was answered: %q to %s", m.subject, m.to)
	}
	var status, lastErr string
	if err := e.pool.QueryRow(context.Background(), `SELECT status, coalesce(last_error, '') FROM outbox
WHERE game_id = $1 AND seat = $2 ORDER BY id DESC LIMIT 1`, id, em.seat).Scan(&status, &lastErr); err != nil {
		t.Fatal(err)
	}
	if status != "failed" || !strings.Contains(lastErr, "5.1.1") {
		t.Errorf("after a hard bounce the seat's email is %s (%s)", status, lastErr)
	}
}

func TestChatAndMoveInOneReply(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, em := e.start("en")
	v := e.version(id)
	e.reply(em, "cm@client.example.org", "chat: good luck, all <3 <script>\n2\nCHAT : second line")
	if got := e.version(id); got != v+2 {
		t.Fatalf("version %d, want %d (the chat, then the move)", got, v+2)
	}
	var chats int
	for _, m := range e.inbox() {
		switch {
		case m.to == em.to:
			if !strings.Contains(m.text, "sent to the table") || !strings.Contains(m.text, moveLabel(em, 2)) {
				t.Errorf("answer:\n%s", m.text)
			}
		case strings.HasPrefix(m.subject, "Table talk"):
			chats++
			if !strings.Contains(m.text, "good luck, all <3 <script>\nsecond line") || strings.Contains(m.html, "<script>") {
				t.Errorf("chat email to %s:\ntext %s\nhtml %s", m.to, m.text, m.html)
			}
		}
	}
	if chats != 2 {
		t.Errorf("%d chat emails, want one to each other seat", chats)
	}
	// The chat is an event of the stream: the rebuilt projections agree.
	if err := e.svc.Verify(context.Background(), id); err != nil {
		t.Error(err)
	}
}

func TestTooManyAnswersStopALoop(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *inboundConfig) { c.AnswersPerHour = 3 })
	_, em := e.start("en")
	for i := 0; i < 6; i++ {
		e.reply(em, "loop"+string(rune('a'+i))+"@robot", "Thank you for your message.")
	}
	n := 0
	for _, m := range e.inbox() {
		if m.to == em.to {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d answers, want 3", n)
	}
}

func TestOversizedMessageIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, em := e.start("en")
	v := e.version(id)
	big := plain(em, "big@x", "1\n"+strings.Repeat("x", 2<<20))
	// An MTA declares the size: refused before the data.
	err := e.sendSized(em.to, em.replyTo, big, int64(len(big)))
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code != 552 {
		t.Fatalf("a 2 MB message with SIZE: %v, want 552", err)
	}
	// Undeclared: the listener stops reading at the limit.
	if err := e.send(em.to, em.replyTo, big); err == nil {
		t.Fatal("a 2 MB message without SIZE was accepted")
	}
	if e.version(id) != v {
		t.Error("an oversized message changed the game")
	}
}

// TestChatReachesTheDigest: a player on the daily digest gets no chat
// email, and finds the table talk in the digest instead.
func TestChatReachesTheDigest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	e.create(lords.Name, "en")
	var reader, writer email
	for _, m := range e.inbox() {
		if len(m.moves) > 0 {
			reader = m // the seat to move: its game waits for it
		} else {
			writer = m
		}
	}
	if err := notifypg.NewPrefs(e.pool).SetMode(ctx, reader.to, notify.DailyDigest); err != nil {
		t.Fatal(err)
	}
	e.reply(writer, "dg@client.example.org", "chat: <i>see you</i> at the digest")
	for _, m := range e.inbox() {
		if m.to == reader.to {
			t.Errorf("the digest reader got %q", m.subject)
		}
	}
	if n, err := notifypg.NewDigester(e.pool, notifypg.Histories{Games: e.games, Events: e.store}).Digests(ctx, time.Now(), 0); err != nil || n != 1 {
		t.Fatalf("%d digests, %v", n, err)
	}
	got := e.inbox()
	if len(got) != 1 || got[0].to != reader.to {
		t.Fatalf("digest emails: %+v", got)
	}
	if d := got[0]; !strings.Contains(d.text, "Table talk of the last day") || !strings.Contains(d.text, "<i>see you</i> at the digest") ||
		strings.Contains(d.html, "<i>see you</i>") {
		t.Errorf("digest:\n%s\n%s", d.text, d.html)
	}
}
