package notify

import "testing"

// TestReplyAddressVersion: an address carries the version its email
// answered, and reads back; one written before versions (no "vN") reads
// with Version 0; a malformed version is not one of ours.
func TestReplyAddressVersion(t *testing.T) {
	t.Parallel()
	a := ReplyAddress{GameID: "abcd2345", Seat: 2, Choice: "0f3a9c1e", Version: 1234, Tag: "qwertyuiop234567"}
	s := a.String("reply.test")
	if s != "abcd2345-2-0f3a9c1ev1234-qwertyuiop234567@reply.test" {
		t.Fatalf("address %s", s)
	}
	if got, err := ParseReplyAddress(s, "reply.test"); err != nil || got != a {
		t.Fatalf("parsed %+v, %v", got, err)
	}
	if a.TagVersion() != 0 {
		t.Errorf("an address of the v form says its tag covers version %d", a.TagVersion())
	}
	signed := a
	signed.Signed = true
	if s := signed.String("reply.test"); s != "abcd2345-2-0f3a9c1ew1234-qwertyuiop234567@reply.test" {
		t.Fatalf("signed address %s", s)
	} else if got, err := ParseReplyAddress(s, "reply.test"); err != nil || got != signed || got.TagVersion() != 1234 {
		t.Fatalf("signed parsed %+v, %v", got, err)
	}
	old, err := ParseReplyAddress("abcd2345-2-x-qwertyuiop234567@reply.test", "reply.test")
	if err != nil || old.Choice != NoChoice || old.Version != 0 {
		t.Fatalf("an address without version: %+v, %v", old, err)
	}
	for _, bad := range []string{"abcd2345-2-0f3av-q@reply.test", "abcd2345-2-0f3av0-q@reply.test", "abcd2345-2-0f3av01-q@reply.test",
		"abcd2345-2-v12-q@reply.test", "abcd2345-2-0fv1v2-q@reply.test", "abcd2345-2-0fw1v2-q@reply.test", "abcd2345-2-w3-q@reply.test",
		"abcd2345-2-0fw0-q@reply.test"} {
		if _, err := ParseReplyAddress(bad, "reply.test"); err == nil {
			t.Errorf("%s parsed", bad)
		}
	}
}
