package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"regexp"
	"strings"
	"testing"

	"github.com/emersion/go-smtp"

	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
)

func TestLoadInboundDefaults(t *testing.T) {
	t.Parallel()
	cfg := config{PublicURL: "https://games.example.org"}
	ic, err := loadInbound(cfg)
	if err != nil || ic.Domain != "games.example.org" || ic.Listen != "" {
		t.Errorf("dev mailbox: %+v, %v", ic, err)
	}
	cfg.SMTPURL = "smtp://relay.example.org:25"
	if ic, err = loadInbound(cfg); err != nil || ic.Domain != "" {
		t.Errorf("a relay without listener or domain: %+v, %v", ic, err)
	}
	cfg.InboundListen, cfg.ReplyDomain, cfg.InboundMaxBytes = ":2525", "reply.example.org", "65536"
	if ic, err = loadInbound(cfg); err != nil || ic.Domain != "reply.example.org" || ic.MaxBytes != 65536 {
		t.Errorf("configured: %+v, %v", ic, err)
	}
	cfg.InboundMaxBytes = "lots"
	if _, err = loadInbound(cfg); err == nil {
		t.Error("a bad PBEM_INBOUND_MAX_BYTES was accepted")
	}
}

func TestHeloName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cfg  config
		want string
	}{
		{config{PublicURL: "https://games.example.org:8443/pbem"}, "games.example.org"},
		{config{PublicURL: "https://games.example.org", SMTPHelo: "mx1.example.org"}, "mx1.example.org"},
		{config{PublicURL: "http://192.0.2.7:8080"}, "[192.0.2.7]"},
		{config{PublicURL: "http://[2001:db8::1]:8080"}, "[IPv6:2001:db8::1]"},
		{config{}, ""},
	} {
		if got := heloName(c.cfg); got != c.want {
			t.Errorf("heloName(%+v) = %q, want %q", c.cfg, got, c.want)
		}
	}
}

// TestServeStartsTheReplyListener starts the listener as serve does and
// speaks SMTP to it: an unknown recipient is refused with 550.
func TestServeStartsTheReplyListener(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	var out bytes.Buffer
	e := &env{stdout: &out, log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		cfg: config{Secret: "s3cret", DataDir: t.TempDir(), PublicURL: "https://games.example.org",
			InboundListen: "127.0.0.1:0", ReplyDomain: "reply.example.org"}}
	svc, err := newService(e, pool, store)
	if err != nil {
		t.Fatal(err)
	}
	ic, err := loadInbound(e.cfg)
	if err != nil {
		t.Fatal(err)
	}
	proc, stop, err := startInbound(context.Background(), e, ic, pool, svc, nil)
	if err != nil || proc == nil {
		t.Fatal(proc, err)
	}
	defer stop()
	m := regexp.MustCompile(`smtp://(\S+) for @reply\.example\.org`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("serve printed %q", out.String())
	}
	// The greeting names the public URL's host.
	raw, err := net.Dial("tcp", m[1])
	if err != nil {
		t.Fatal(err)
	}
	greeting, err := bufio.NewReader(raw).ReadString('\n')
	raw.Close()
	if err != nil || !strings.HasPrefix(greeting, "220 games.example.org ") {
		t.Errorf("greeting %q, %v", greeting, err)
	}
	c, err := smtp.Dial(m[1])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("relay.example.org"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Extension("SMTPUTF8"); !ok {
		t.Error("the listener does not offer SMTPUTF8")
	}
	if err := c.Mail("someone@example.org", nil); err != nil {
		t.Fatal(err)
	}
	var se *smtp.SMTPError
	if err := c.Rcpt("abc-0-x-forged@reply.example.org", nil); !errors.As(err, &se) || se.Code != 550 {
		t.Errorf("RCPT to a forged address: %v", err)
	}
}
