package postgres

import (
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestListenerIgnoresItsOwnNotify: a notification carrying this store's
// own payload wakes nobody (its notifier woke the local channels already),
// any other (another process's store, or an older one's empty payload) wakes
// every channel.
func TestListenerIgnoresItsOwnNotify(t *testing.T) {
	t.Parallel()
	l := newListener(nil, "me")
	c := make(chan struct{}, 1)
	l.waiters.add(c)
	l.heard(&pgconn.Notification{Channel: channel, Payload: "me"})
	select {
	case <-c:
		t.Fatal("woken by its own NOTIFY")
	default:
	}
	for _, other := range []string{"another store", ""} {
		l.heard(&pgconn.Notification{Channel: channel, Payload: other})
		select {
		case <-c:
		default:
			t.Fatalf("not woken by a NOTIFY with payload %q", other)
		}
	}
}
