// Package clientnet names the network a client writes from: the unit that
// per-client budgets and shares count by. One address is cheap to change
// for an attacker who holds a network (an IPv4 /24 is 256 addresses, an
// IPv6 /64 is 2^64), so budgets keyed by the whole address are lifted by
// changing it; keyed by the network, they are not.
package clientnet

import (
	"net"
	"net/netip"
)

// Of is the network of ip: its /24 for IPv4 (IPv4-mapped IPv6 included),
// its /64 for IPv6, as a prefix string ("192.0.2.0/24",
// "2001:db8:1:2::/64"). Anything that is not an IP address is its own
// key, unchanged, so that a malformed value never merges with another.
func Of(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	return ofAddr(a)
}

// OfAddr is Of for a socket address (a *net.TCPAddr, or anything whose
// String is host:port or a bare IP).
func OfAddr(addr net.Addr) string {
	if t, ok := addr.(*net.TCPAddr); ok {
		if a, ok := netip.AddrFromSlice(t.IP); ok {
			return ofAddr(a)
		}
	}
	s := addr.String()
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	return Of(s)
}

func ofAddr(a netip.Addr) string {
	a = a.Unmap().WithZone("")
	bits := 64
	if a.Is4() {
		bits = 24
	}
	p, err := a.Prefix(bits)
	if err != nil {
		return a.String()
	}
	return p.String()
}
