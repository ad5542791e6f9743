package events_test

import (
	"testing"

	"pbem/events"
	"pbem/events/eventstest"
)

func TestMemoryStoreConformance(t *testing.T) {
	t.Parallel()
	eventstest.Run(t, func(*testing.T) events.Store { return events.NewMemoryStore() })
}
