package main

import (
	"sync/atomic"
	"time"
)

// mailAlarm carries the game service's MailDue calls to the outbox
// worker's Due (notify/alarm.go): the service is made before the mail
// side, so the worker is set once it exists; a call before then is lost,
// and the worker's poll finds what it told of.
type mailAlarm struct {
	due atomic.Pointer[func(time.Time)]
}

// set makes f receive the calls from now on.
func (a *mailAlarm) set(f func(time.Time)) { a.due.Store(&f) }

// at is the service's MailDue.
func (a *mailAlarm) at(t time.Time) {
	if f := a.due.Load(); f != nil {
		(*f)(t)
	}
}
