package projections

import (
	"errors"
	"fmt"
)

// The kinds of the read models' errors: a Repository read of a row that is
// not there (a game, a remembered request), a rebuild overtaken by a move
// (Replace), a game without events (Replay). The game service (events/play) gives each its own code
// (ENotFound, EConflict, ECorrupt), so that the read models need not know
// the service's error type.
var (
	ErrNotFound = errors.New("not found")
	ErrMovedOn  = errors.New("moved on")
	ErrNoEvents = errors.New("no events")
)

// Fault is an error of the read models: Kind is one of the errors above,
// Message says what, and is safe to show to a client.
type Fault struct {
	Kind    error
	Message string
}

func (f *Fault) Error() string { return f.Message }

// Unwrap is f's kind, for errors.Is.
func (f *Fault) Unwrap() error { return f.Kind }

// Faultf returns a *Fault of kind with the formatted message.
func Faultf(kind error, format string, args ...any) *Fault {
	return &Fault{Kind: kind, Message: fmt.Sprintf(format, args...)}
}
