package main

import (
	"net"
	"testing"

	"pbem/cmd/internal/https"
)

// TestDefaultPublicURLFollowsTheListener: with PBEM_PUBLIC_URL unset, the
// links in emails use the host the server listens on, so that make run's
// http://127.0.0.1:8080 (the README's) and its emails' links are one
// origin; a listener on every address writes localhost, and ACME's
// domain wins.
func TestDefaultPublicURLFollowsTheListener(t *testing.T) {
	tcp := func(s string) net.Addr {
		a, err := net.ResolveTCPAddr("tcp", s)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	cases := []struct {
		cfg  https.Config
		addr string
		want string
	}{
		{https.Config{}, "127.0.0.1:8080", "http://127.0.0.1:8080"},
		{https.Config{}, "192.0.2.7:9000", "http://192.0.2.7:9000"},
		{https.Config{}, "[::1]:8080", "http://[::1]:8080"},
		{https.Config{}, "0.0.0.0:8080", "http://localhost:8080"},
		{https.Config{}, "[::]:8080", "http://localhost:8080"},
		{https.Config{Domains: []string{"pbem.example.org"}}, "0.0.0.0:443", "https://pbem.example.org"},
		{https.Config{Domains: []string{"pbem.example.org"}}, "0.0.0.0:8443", "https://pbem.example.org:8443"},
	}
	for _, c := range cases {
		if got := defaultPublicURL(c.cfg, tcp(c.addr)); got != c.want {
			t.Errorf("listening on %s: %s, want %s", c.addr, got, c.want)
		}
	}
}
