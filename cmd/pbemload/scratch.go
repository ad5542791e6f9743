package main

import "net/url"

// redactURL returns s without its password, for printing.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "?"
	}
	return u.Redacted()
}
