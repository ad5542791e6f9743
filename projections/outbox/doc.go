// Package outbox is the projection of the emails the events owe: the
// outbox table's rows, written in the transaction of what causes them and
// sent later by notify's worker. It holds the one kind list (Kind), the one
// payload schema (Payload: everything an email says, written from the
// recipient's own view, so nothing the recipient may not see). notify only
// reads these types.
//
// It imports no other package of pbem, so the projector, the game service
// and notify can all use it.
package outbox
