package api

import "testing"

// TestBackPathIsThisSite: the language menu's back path is a path of this
// site, one "/" then no control character; anything else is the fallback.
// "/\t/evil.example" (issue #44) came back as Location: /\t/evil.example,
// which browsers read as //evil.example.
func TestBackPathIsThisSite(t *testing.T) {
	for _, ok := range []string{"/", "/play/abc", "/games?lang=fr", "/mes-parties/é"} {
		if got := backPath(ok, "/fallback"); got != ok {
			t.Errorf("backPath(%q) = %q", ok, got)
		}
	}
	for _, bad := range []string{"", "play", "//evil.example", "/\\evil.example", "/\t/evil.example", "/\n/evil.example",
		"/\r\n/x", "/a\x00b", "/a\x7fb", "/\u0085/evil.example", "https://evil.example", "/\xff"} {
		if got := backPath(bad, "/fallback"); got != "/fallback" {
			t.Errorf("backPath(%q) = %q, want the fallback", bad, got)
		}
	}
}
