package main

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/api/inbound"
	"pbem/events/play"
	notifypg "pbem/notify/postgres"
)

// inboundConfig is the mail listener's configuration, from the environment:
//
//	PBEM_INBOUND_LISTEN     SMTP listen address of the reply listener (e.g. ":2525"); unset: no listener
//	PBEM_REPLY_DOMAIN       domain of reply addresses; unset: the public URL's host when the
//	                        listener runs or mail goes to the dev mailbox, else no reply addresses
//	PBEM_INBOUND_MAX_BYTES  largest message the listener accepts (default 2 MiB)
type inboundConfig struct {
	Listen   string
	Domain   string
	MaxBytes int64
	// Hostname is the listener's greeting name (heloName).
	Hostname string
}

// loadInbound reads the listener's configuration from cfg.
func loadInbound(cfg config) (inboundConfig, error) {
	ic := inboundConfig{Listen: cfg.InboundListen, Domain: cfg.ReplyDomain, Hostname: heloName(cfg)}
	if v := cfg.InboundMaxBytes; v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1024 {
			return ic, fmt.Errorf("PBEM_INBOUND_MAX_BYTES %q: give a number of bytes, at least 1024", v)
		}
		ic.MaxBytes = n
	}
	if ic.Domain == "" && (ic.Listen != "" || cfg.SMTPURL == "") {
		u, err := url.Parse(cfg.PublicURL)
		if err != nil || u.Hostname() == "" {
			return ic, fmt.Errorf("PBEM_REPLY_DOMAIN: unset, and no host in PBEM_PUBLIC_URL %q", cfg.PublicURL)
		}
		ic.Domain = u.Hostname()
	}
	return ic, nil
}

// startInbound builds the reply processor (nil without a reply domain) and
// starts the SMTP listener if PBEM_INBOUND_LISTEN is set. The returned
// function stops the listener and waits for its sessions.
func startInbound(ctx context.Context, e *env, ic inboundConfig, pool *pgxpool.Pool, svc *play.Service, m *inbound.Metrics) (*inbound.Processor, func(), error) {
	if ic.Domain == "" {
		return nil, func() {}, nil
	}
	proc, err := inbound.New(inbound.Config{Service: svc, Ledger: notifypg.NewInbound(pool), Zones: notifypg.NewSeats(pool, notifypg.Histories{}), Domain: ic.Domain, Logger: e.log})
	if err != nil {
		return nil, nil, err
	}
	if ic.Listen == "" {
		return proc, func() {}, nil
	}
	ln, err := net.Listen("tcp", ic.Listen)
	if err != nil {
		return nil, nil, fmt.Errorf("PBEM_INBOUND_LISTEN: %w", err)
	}
	lis := inbound.NewListener(proc, inbound.ListenerConfig{MaxBytes: ic.MaxBytes, Hostname: ic.Hostname, Metrics: m, Logger: e.log})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := lis.Serve(ln); err != nil && ctx.Err() == nil {
			e.log.Error("inbound listener", "err", err)
		}
	}()
	fmt.Fprintf(e.stdout, "pbem: reading replies on smtp://%s for @%s\n", ln.Addr(), ic.Domain)
	e.log.Info("inbound listener", "addr", ln.Addr().String(), "domain", ic.Domain)
	return proc, func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := lis.Shutdown(sctx); err != nil {
			e.log.Warn("inbound listener shutdown", "err", err)
		}
		wg.Wait()
	}, nil
}

// heloName is the host name pbem gives in SMTP (EHLO to the relay, the
// listener's greeting): PBEM_SMTP_HELO, else the host of PBEM_PUBLIC_URL,
// written as an address literal ("[192.0.2.1]") when it is an IP address,
// else "" (the SMTP client then uses the machine's host name). A relay
// checks it against its own rules (reject_invalid_helo_hostname...), and
// it shows in the Received lines of every email.
func heloName(cfg config) string {
	if cfg.SMTPHelo != "" {
		return cfg.SMTPHelo
	}
	u, err := url.Parse(cfg.PublicURL)
	if err != nil {
		return ""
	}
	h := u.Hostname()
	if ip, err := netip.ParseAddr(h); err == nil {
		if ip.Is4() {
			return "[" + h + "]"
		}
		return "[IPv6:" + h + "]"
	}
	return h
}
