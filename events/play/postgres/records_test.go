package postgres_test

import (
	"context"
	"testing"
	"time"

	"pbem/events"
	"pbem/events/play"
	playpg "pbem/events/play/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/projections/outbox"
)

// The keyed records answer once and only in time: a sign-in link works
// once and not after it expires, a session not after its end nor once
// deleted, a proposal is claimed once (a second claim returns it as it
// is) and not after it expires; an unknown key is events.CodeNotFound. Addresses
// are compared lower-cased.
func TestRecordsKeysWorkOnceAndInTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := playpg.New(pgtest.NewPool(t))
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	notFound := func(what string, err error) {
		t.Helper()
		if play.ErrorCode(err) != events.CodeNotFound {
			t.Errorf("%s: %v, want %s", what, err, events.CodeNotFound)
		}
	}
	mail := outbox.Row{Kind: outbox.Signin, Payload: outbox.Payload{To: outbox.Recipient{Seat: -1, Email: "ann@example.org"}}}

	if err := r.CreateSignin(ctx, "s1", []byte("link"), "Ann@Example.org", now, now.Add(time.Hour), &mail); err != nil {
		t.Fatal(err)
	}
	_, err := r.UseSignin(ctx, []byte("link"), now.Add(2*time.Hour))
	notFound("an expired link", err)
	if email, err := r.UseSignin(ctx, []byte("link"), now.Add(time.Minute)); err != nil || email != "ann@example.org" {
		t.Fatalf("using the link: %q, %v", email, err)
	}
	_, err = r.UseSignin(ctx, []byte("link"), now.Add(2*time.Minute))
	notFound("a used link", err)

	if err := r.CreateSession(ctx, []byte("sess"), "ANN@example.org", now, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if email, err := r.Session(ctx, []byte("sess"), now.Add(time.Minute)); err != nil || email != "ann@example.org" {
		t.Fatalf("the session: %q, %v", email, err)
	}
	_, err = r.Session(ctx, []byte("sess"), now.Add(2*time.Hour))
	notFound("an ended session", err)
	if err := r.DeleteSession(ctx, []byte("sess")); err != nil {
		t.Fatal(err)
	}
	_, err = r.Session(ctx, []byte("sess"), now.Add(time.Minute))
	notFound("a deleted session", err)

	p := &play.Proposal{ID: "g1", TokenHash: []byte("confirm"), OrganiserName: "Org", OrganiserEmail: "org@example.org",
		Request: []byte(`{}`), CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
	if err := r.Propose(ctx, p, nil); err != nil {
		t.Fatal(err)
	}
	_, err = r.ClaimProposal(ctx, []byte("confirm"), now.Add(2*time.Hour))
	notFound("an expired proposal", err)
	first, err := r.ClaimProposal(ctx, []byte("confirm"), now.Add(time.Minute))
	if err != nil || first.ConfirmedAt == nil || !first.ConfirmedAt.Equal(now.Add(time.Minute)) {
		t.Fatalf("the claim: %+v, %v", first, err)
	}
	again, err := r.ClaimProposal(ctx, []byte("confirm"), now.Add(3*time.Hour))
	if err != nil || !again.ConfirmedAt.Equal(*first.ConfirmedAt) {
		t.Errorf("a second claim, after the expiry: %+v, %v; want it as confirmed first", again, err)
	}
	_, err = r.Proposal(ctx, "g2")
	notFound("an unknown game's proposal", err)

	if err := r.SetBlocked(ctx, "Bob@Example.org", true, now); err != nil {
		t.Fatal(err)
	}
	if b, err := r.Blocked(ctx, []string{"ann@example.org", "BOB@example.org"}); err != nil || len(b) != 1 || b[0] != "bob@example.org" {
		t.Errorf("blocked: %v, %v", b, err)
	}
	if err := r.SetBlocked(ctx, "bob@example.org", false, now); err != nil {
		t.Fatal(err)
	}
	if b, err := r.Blocked(ctx, []string{"bob@example.org"}); err != nil || len(b) != 0 {
		t.Errorf("unblocked: %v, %v", b, err)
	}
}
