// Package outbox is the projection of the emails the events owe: the
// outbox table's rows, written in the transaction of what causes them and
// sent later by notify's worker. It holds the one kind list (Kind), the one
// payload schema (Payload: everything an email says, written from the
// recipient's own view, so nothing the recipient may not see) and its one
// constructor (NewPayload, which every writer calls), the one row
// to write (Row) and the one statement every writer runs to add rows
// (Insert): the projector's batches, the organiser's and sign-in emails,
// the scheduler's reminders and digests, and the mail listener's answers
// to replies, and the one rule of what an address an email goes to may be
// (AddressProblem: the service checks every address that enters, notify
// checks it again before the relay). notify only reads these types.
//
// It imports no other package of pbem, so the projector, the game service
// and notify can all use it.
package outbox
