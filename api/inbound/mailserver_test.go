package inbound_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-smtp"

	"pbem/api/inbound"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
)

// What a relay such as Postfix sends back and passes on: bounces in both
// forms, replies with raw UTF-8 headers, and what the listener refuses.

// postfixBounce is a bounce as Postfix 3.7 writes it for a message it
// received with SMTPUTF8 (RFC 6533), to final, with status and diagnostic.
func postfixBounce(replyTo, final, action, status, diagnostic string) string {
	return "Return-Path: <>\nFrom: MAILER-DAEMON@relay.example.org (Mail Delivery System)\nTo: " + replyTo +
		"\nSubject: Undelivered Mail Returned to Sender\nAuto-Submitted: auto-replied\nMessage-Id: <20261126.B0@relay.example.org>\n" +
		"MIME-Version: 1.0\nContent-Type: multipart/report; report-type=global-delivery-status;\n\tboundary=\"ABC/relay.example.org\"\n" +
		"Content-Transfer-Encoding: 8bit\n\nThis is a MIME-encapsulated message.\n\n--ABC/relay.example.org\n" +
		"Content-Description: Notification\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n" +
		"I'm sorry to have to inform you that your message could not\nbe delivered to one or more recipients.\n\n" +
		"--ABC/relay.example.org\nContent-Description: Delivery report\nContent-Type: message/global-delivery-status\n" +
		"Content-Transfer-Encoding: 8bit\n\nReporting-MTA: dns; relay.example.org\nX-Postfix-Queue-ID: B0\n" +
		"X-Postfix-Sender: rfc822; " + replyTo + "\nArrival-Date: Thu, 26 Nov 2026 05:00:00 +0000 (UTC)\n\n" +
		"Final-Recipient: rfc822; " + final + "\nOriginal-Recipient: rfc822;" + final + "\nAction: " + action +
		"\nStatus: " + status + "\nRemote-MTA: dns; mx.example.org\nDiagnostic-Code: smtp; " + diagnostic +
		"\n    (in reply to RCPT TO command)\n\n--ABC/relay.example.org\nContent-Description: Undelivered Message Headers\n" +
		"Content-Type: message/global-headers\nContent-Transfer-Encoding: 8bit\n\nFrom: pbem <pbem@pbem.test>\nSubject: À vous de jouer\n\n" +
		"--ABC/relay.example.org--\n"
}

// lastEmail is the status and last error of the seat's latest outbox row.
func (e *env) lastEmail(id string, seat int) (status, lastErr string) {
	e.t.Helper()
	if err := e.pool.QueryRow(context.Background(), `SELECT status, coalesce(last_error, '') FROM outbox
WHERE game_id = $1 AND seat = $2 ORDER BY id DESC LIMIT 1`, id, seat).Scan(&status, &lastErr); err != nil {
		e.t.Fatal(err)
	}
	return status, lastErr
}

func TestBouncesInBothFormsHardAndSoft(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, em := e.start("fr")
	// A delay warning (RFC 3464): the relay keeps trying; nothing marked.
	delayed := "From: MAILER-DAEMON@relay.example.org\nTo: " + em.replyTo + "\nSubject: Delayed Mail (still being retried)\n" +
		"Message-ID: <d1@relay>\nMIME-Version: 1.0\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\n\n" +
		"--B\nContent-Type: text/plain\n\nstill trying\n--B\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; relay.example.org\n\n" +
		"Final-Recipient: rfc822; " + em.to + "\nAction: delayed\nStatus: 4.4.1\nDiagnostic-Code: X-Postfix; connect to mx: Connection refused\n--B--\n"
	if err := e.send("", em.replyTo, delayed); err != nil {
		t.Fatal(err)
	}
	if status, _ := e.lastEmail(id, em.seat); status != "sent" {
		t.Errorf("after a delay warning the seat's email is %s", status)
	}
	// A hard bounce in RFC 6533's form, sent with SMTPUTF8 as Postfix does.
	c, err := smtp.Dial(e.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if ok, _ := c.Extension("SMTPUTF8"); !ok {
		t.Error("the listener does not offer SMTPUTF8")
	}
	bounce := postfixBounce(em.replyTo, em.to, "failed", "5.1.1", "550 5.1.1 <"+em.to+">: Recipient address rejected: utilisateur inconnu, boîte fermée")
	if err := c.SendMail("", []string{em.replyTo}, strings.NewReader(strings.ReplaceAll(bounce, "\n", "\r\n"))); err != nil {
		t.Fatal(err)
	}
	status, lastErr := e.lastEmail(id, em.seat)
	if status != "failed" || !strings.Contains(lastErr, "5.1.1") || !strings.Contains(lastErr, "boîte fermée") {
		t.Errorf("after a hard bounce the seat's email is %s (%s)", status, lastErr)
	}
	failed, err := notifypg.NewOutbox(e.pool).Failed(context.Background(), id)
	if err != nil || len(failed) != 1 || failed[0].To != em.to || !strings.HasPrefix(failed[0].LastError, "bounced: status 5.1.1") {
		t.Errorf("the organiser's failed emails: %+v, %v", failed, err)
	}
	for _, m := range e.inbox() {
		t.Errorf("a bounce was answered: %q to %s", m.subject, m.to)
	}
	for result, want := range map[string]float64{inbound.ResultHardBounce: 1, inbound.ResultSoftBounce: 1, inbound.ResultReply: 0} {
		if got := e.metric("pbem_inbound_messages_total", result).value(); got != want {
			t.Errorf("pbem_inbound_messages_total{result=%q} = %v, want %v", result, got, want)
		}
	}
}

// metric is the counter of family name with the one label value v.
func (e *env) metric(name, v string) *counterOf {
	return &counterOf{e: e, name: name, v: v}
}

// counterOf reads one series of the listener's registry.
type counterOf struct {
	e       *env
	name, v string
}

func (c *counterOf) value() float64 {
	fams, err := c.e.reg.Gather()
	if err != nil {
		c.e.t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != c.name {
			continue
		}
		for _, m := range f.GetMetric() {
			if len(m.GetLabel()) == 1 && m.GetLabel()[0].GetValue() == c.v {
				return m.GetCounter().GetValue()
			}
		}
	}
	c.e.t.Fatalf("no series %s{%s}", c.name, c.v)
	return 0
}

func TestReplyWithUTF8HeadersIsPlayed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, em := e.start("fr")
	v := e.version(id)
	msg := "From: Élodie Müller <" + em.to + ">\nTo: " + em.replyTo + "\nSubject: Re: À vous de jouer — « " + em.subject +
		" »\nMessage-ID: <utf8.élodie@téléphone.example>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n" +
		"Content-Transfer-Encoding: 8bit\n\n2\n\nEnvoyé de mon téléphone\n"
	c, err := smtp.Dial(e.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Mail("élodie@exemple.fr", &smtp.MailOptions{UTF8: true, Body: smtp.Body8BitMIME}); err != nil {
		t.Fatalf("MAIL FROM with SMTPUTF8: %v", err)
	}
	if err := c.Rcpt(em.replyTo, nil); err != nil {
		t.Fatal(err)
	}
	w, err := c.Data()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(strings.ReplaceAll(msg, "\n", "\r\n"))); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("DATA: %v", err)
	}
	if e.version(id) != v+1 {
		t.Fatal("the reply with UTF-8 headers was not played")
	}
	if ans := e.answerTo(em); !strings.Contains(ans.text, moveLabel(em, 2)) {
		t.Errorf("answer:\n%s", ans.text)
	}
}

// TestNotYourTurnSaysWhoseTurnItIs: answering an email again once the
// turn has passed gets whose turn it is, in the game's language.
func TestNotYourTurnSaysWhoseTurnItIs(t *testing.T) {
	t.Parallel()
	for lang, re := range map[string]*regexp.Regexp{
		"en": regexp.MustCompile(`It is (Ann|Bob|Cat)'s turn, not yours, so nothing was played; you will get an email when it is yours\.`),
		"fr": regexp.MustCompile(`C'est au tour (?:de |d')(Ann|Bob|Cat), pas au vôtre\x{a0}: rien n'a été joué\. Vous recevrez un e-mail quand ce sera votre tour\.`),
		"it": regexp.MustCompile(`Tocca a (Ann|Bob|Cat), non a te: niente è stato giocato\. Riceverai un'email quando sarà il tuo turno\.`),
	} {
		t.Run(lang, func(t *testing.T) {
			e := newEnv(t)
			id, em := e.start(lang)
			e.reply(em, "first@client.example.org", "1")
			e.inbox()
			v := e.version(id)
			e.reply(em, "again@client.example.org", "1")
			if e.version(id) != v {
				t.Fatal("a reply from a seat not to move was played")
			}
			ans := e.answerTo(em)
			m := re.FindStringSubmatch(ans.text)
			if m == nil || seatOf[strings.ToLower(m[1])+"@example.org"] == em.seat {
				t.Errorf("answer:\n%s", ans.text)
			}
			if strings.Contains(ans.html, "%!") || strings.Contains(ans.text, "%!") {
				t.Errorf("a format error in the answer:\n%s", ans.text)
			}
			if len(ans.moves) != 0 {
				t.Errorf("the answer lists moves: %q", ans.moves)
			}
		})
	}
}

// logBuffer is a slog destination the test reads.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *logBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

func TestRefusalsAreLoggedWithoutTheSecretAndCounted(t *testing.T) {
	t.Parallel()
	var logs logBuffer
	e := newEnv(t, func(c *inbound.Config) { c.Logger = slog.New(slog.NewTextHandler(&logs, nil)) })
	_, em := e.start("en")
	a, err := notify.ParseReplyAddress(em.replyTo, e.proc.Domain())
	if err != nil {
		t.Fatal(err)
	}
	forged := a
	forged.Tag = "forgedforgedforged"
	var se *smtp.SMTPError
	for _, to := range []string{forged.String(e.proc.Domain()), "postmaster@" + e.proc.Domain(), "someone@elsewhere.example.org"} {
		if err := e.send(em.to, to, plain(em, "r@x", "1")); !errors.As(err, &se) || se.Code != 550 {
			t.Errorf("RCPT %s: %v, want 550", to, err)
		}
	}
	big := plain(em, "big@x", "1\n"+strings.Repeat(strings.Repeat("x", 99)+"\n", 1<<20/100))
	if err := e.sendSized(em.to, em.replyTo, big, int64(len(big))); !errors.As(err, &se) || se.Code != 552 {
		t.Errorf("a declared 1 MB message: %v, want 552", err)
	}
	if err := e.send(em.to, em.replyTo, big); !errors.As(err, &se) || se.Code != 552 {
		t.Errorf("an undeclared 1 MB message: %v, want 552", err)
	}
	for reason, want := range map[string]float64{inbound.RefusedSecret: 1, inbound.RefusedUnknown: 2, inbound.RefusedTooBig: 2, inbound.RefusedTemporary: 0} {
		if got := e.metric("pbem_inbound_refused_total", reason).value(); got != want {
			t.Errorf("pbem_inbound_refused_total{reason=%q} = %v, want %v", reason, got, want)
		}
	}
	out := logs.String()
	for _, secret := range []string{a.Tag, forged.Tag} {
		if strings.Contains(out, secret) {
			t.Errorf("the log holds a reply secret:\n%s", out)
		}
	}
	for _, want := range []string{"reason=invalid_secret rcpt=" + strings.TrimSuffix(a.String(""), a.Tag+"@") + "…@", "reason=unknown_address rcpt=postmaster@",
		"message too big", "declared size"} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %q:\n%s", want, out)
		}
	}
}
