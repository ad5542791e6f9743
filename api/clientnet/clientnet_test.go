package clientnet

import (
	"net"
	"testing"
)

func TestOfGroupsByNetwork(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1":            "192.0.2.0/24",
		"192.0.2.254":          "192.0.2.0/24",
		"127.0.0.9":            "127.0.0.0/24",
		"::ffff:192.0.2.7":     "192.0.2.0/24",
		"2001:db8:1:2:3:4:5:6": "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::1": "2001:db8:1:2::/64",
		"fe80::1%eth0":         "fe80::/64",
		"::1":                  "::/64",
		"not an address":       "not an address",
		"":                     "",
	} {
		if got := Of(in); got != want {
			t.Errorf("Of(%q) = %q, want %q", in, got, want)
		}
	}
	if a, b := Of("192.0.2.1"), Of("192.0.3.1"); a == b {
		t.Errorf("two /24s share the key %q", a)
	}
	if a, b := Of("2001:db8:1:2::1"), Of("2001:db8:1:3::1"); a == b {
		t.Errorf("two /64s share the key %q", a)
	}
}

func TestOfAddr(t *testing.T) {
	if got := OfAddr(&net.TCPAddr{IP: net.ParseIP("198.51.100.20"), Port: 25}); got != "198.51.100.0/24" {
		t.Errorf("OfAddr(tcp) = %q", got)
	}
	if got := OfAddr(&net.TCPAddr{IP: net.ParseIP("2001:db8::1"), Port: 25}); got != "2001:db8::/64" {
		t.Errorf("OfAddr(tcp6) = %q", got)
	}
	if got := OfAddr(&net.UnixAddr{Name: "/run/x", Net: "unix"}); got != "/run/x" {
		t.Errorf("OfAddr(unix) = %q", got)
	}
}
