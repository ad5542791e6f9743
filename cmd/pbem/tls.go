package main

import (
	"fmt"
	"net"
	"net/http"

	"pbem/api"
	"pbem/cmd/internal/https"
)

// plainHTTP is the plain-HTTP listener that goes with HTTPS: ACME
// challenges and redirects.
type plainHTTP struct {
	srv *http.Server
	ln  net.Listener
}

// setupTLS gives srv, which will serve on ln, the TLS configuration of cfg,
// and opens the plain-HTTP listener of PBEM_HTTP_LISTEN (default ":80";
// "off": none, and ACME then validates with tls-alpn-01 on the HTTPS port
// alone), which redirects to publicURL's host. It returns nil when there
// is no plain-HTTP listener.
func setupTLS(e *env, cfg https.Config, publicURL string, srv *http.Server, ln net.Listener, t api.Timeouts) (*plainHTTP, error) {
	setup, err := cfg.Setup(e.log, publicURL)
	if err != nil {
		return nil, err
	}
	srv.TLSConfig = setup.TLS
	addr := e.cfg.HTTPListen
	if addr == "off" {
		return nil, nil
	}
	pln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("PBEM_HTTP_LISTEN: %w", err)
	}
	e.log.Info("plain http: acme challenges and redirects to https", "addr", pln.Addr().String(), "domains", cfg.Domains)
	return &plainHTTP{srv: api.NewHTTPServer(setup.HTTP, t), ln: pln}, nil
}

// defaultPublicURL is PBEM_PUBLIC_URL when it is unset: the first ACME
// domain over https, else the listener's own host and port (addr), so
// that a server listening on 127.0.0.1:8080 (make run) writes the links
// the README tells people to open: another origin would lose the
// browser's cookies and language. A listener on every address
// (":8080") writes localhost.
func defaultPublicURL(cfg https.Config, addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		host, port = "", addr.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	switch {
	case len(cfg.Domains) > 0 && port == "443":
		return "https://" + cfg.Domains[0]
	case len(cfg.Domains) > 0:
		return "https://" + cfg.Domains[0] + ":" + port
	case cfg.Enabled():
		return "https://" + net.JoinHostPort(host, port)
	}
	return "http://" + net.JoinHostPort(host, port)
}
