package play

import (
	"errors"
	"strings"
)

// Refusals is a request refused for several reasons at once, each an
// error of its own (most name a field), in the order the service checks
// them, so that a form can show every problem together rather than one
// per try (the lobby). Unwrap gives the first alone: it is what
// errors.As, ErrorCode, ErrorField and ErrorMessage read, and so the one
// error the JSON API answers, as before several were collected.
type Refusals []error

// Error joins the reasons' messages.
func (r Refusals) Error() string {
	msgs := make([]string, len(r))
	for i, err := range r {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

// Unwrap is the first reason.
func (r Refusals) Unwrap() error { return r[0] }

// AllRefusals lists the reasons err gives: each of its Refusals, else err
// alone; none for nil.
func AllRefusals(err error) []error {
	if err == nil {
		return nil
	}
	var r Refusals
	if errors.As(err, &r) {
		return r
	}
	return []error{err}
}

// JoinRefusals is the refusal of every reason errs give (AllRefusals of
// each, nil ones left out, in order): nil for none, the one error for
// one, else a Refusals.
func JoinRefusals(errs ...error) error {
	var all []error
	for _, err := range errs {
		all = append(all, AllRefusals(err)...)
	}
	switch len(all) {
	case 0:
		return nil
	case 1:
		return all[0]
	}
	return Refusals(all)
}
