package projections

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections/outbox"
)

// Append is one append as Owed reads it: the game before it, its events,
// and the game the fold made of them.
type Append struct {
	// Before is the game row before the append (before pbem.created: the
	// row the service made, with its seats and no status).
	Before *Game
	// Events are the appended events, and Decoded the engine event of
	// each (nil for a service event).
	Events  []events.Event
	Decoded []engine.Event
	// After is the game row the fold made of Before and Events. Its
	// deadline is still Before's: the deadline is an effect (Owed).
	After *Game
	// Engine is the game's engine: it says which events end a round.
	Engine engine.Game
	// Now is when a fresh turn deadline starts: the service's clock live,
	// the last event's time in a rebuild.
	Now time.Time
	// Grace is how long the emails of a seat's own move, or of a bot's,
	// wait (Projector.MailGrace).
	Grace time.Duration
}

// Effects is what an append owes the players beyond its fold: the emails
// (notices included) and the game's turn deadline.
type Effects struct {
	// Mails are the emails owed, in the order they are written.
	Mails []Mail
	// Deadline and Reminder are the game's turn deadline and reminder time
	// after the append: Before's when it sets no new one, nil when the
	// game is not active.
	Deadline, Reminder *time.Time
}

// Mail is one email an append owes.
type Mail struct {
	Kind outbox.Kind
	// To is its recipient: a seat of After, or (Seat -1) a person who left
	// the game (Game.Former).
	To Seat
	// Version is the game version it is about.
	Version int64
	// Tells says which lines it tells.
	Tells Tells
	// Notice names what a notice email announces (see NoticePaused); ""
	// for the other kinds.
	Notice string
	// Delay is how long it waits before it may be sent (Append.Grace, or 0).
	Delay time.Duration
}

// Tells names the lines an email tells.
type Tells int

const (
	TellsNothing Tells = iota // no line: a link, a new player's invitation
	TellsAppend               // the append's public lines
	TellsChat                 // the table talk of the event at Mail.Version
)

// Owed decides what append a owes: the emails and notices it causes, to
// whom, and the game's new turn deadline. It reads nothing but a and
// changes nothing; the Projector writes what it returns. Its errors are
// the events' data that does not decode.
//
// A seat without an address (a bot's from the start) is owed nothing, and
// a seat a bot plays for its person only what a person who played is
// told (BotPlayedKind). Table talk, a new link and a new player's
// invitation go as their events come; a take-back owes nothing more (the
// turn goes back to the seat that took its move back, which knows).
// Otherwise: a timeout email to each seat that timed out; then the
// invitations of a new game, the result of a game that ended (to the
// people who left it too), the round's result (whose email asks the
// awaited seats' moves: owedMails), or else the turns of the seats it
// newly awaits (owedTurns); then the notices (notices). The
// emails after the first group wait the mail grace when the append is a
// seat's own move or a bot's and not a timeout; when it is a muster's end
// set off by a seat's answer by reply, that seat's emails wait it: the
// answer to the reply tells the start, and they are folded into it if
// it is written within the grace (notify/postgres, freshSQL). A hand-off
// notice (Handoff) waits it too: the hand-offs that follow within it go
// as one email to each person (notify.StaleHandoff).
func Owed(a Append) (Effects, error) {
	f, err := scan(a)
	if err != nil {
		return Effects{}, err
	}
	eff := Effects{Mails: f.along}
	eff.Deadline, eff.Reminder = deadline(a, f)
	if f.tookBack {
		return eff, nil
	}
	n := len(eff.Mails)
	eff.Mails = append(eff.Mails, owedMails(a, f)...)
	eff.Mails = append(eff.Mails, notices(a, f.notice, eff.Mails)...)
	for i := n; i < len(eff.Mails); i++ {
		if (f.seatMove && len(f.timedOut) == 0) || (f.mustered && eff.Mails[i].To.Seat == f.replied) || Handoff(eff.Mails[i].Notice) {
			eff.Mails[i].Delay = a.Grace
		}
	}
	return eff, nil
}

// facts are what Owed reads of an append's events.
type facts struct {
	created  bool       // pbem.created: invitations, a fresh deadline
	fresh    bool       // a fresh deadline (a creation, a timeout)
	resumed  bool       // pbem.resumed: every awaited seat is told again
	roundEnd bool       // an engine event ended a round
	seatMove bool       // an engine event of a seat's own move or a bot's
	tookBack bool       // pbem.takeback
	mustered bool       // pbem.mustered: the muster ended, the game begins
	replied  int        // the seat whose muster answer came by reply (-1: none)
	explicit *time.Time // the deadline an event sets (resume, extension)
	muster   *time.Time // the muster's deadline (pbem.created with a muster)
	timedOut []int      // seats whose deadline passed (pbem.timeout)
	notice   string     // what a notice email announces ("" for none)
	along    []Mail     // the emails of events that owe one as they come
	away     awayFacts  // pbem.away and pbem.back: the deadline waits
}

// scan reads the facts of a's events, in order.
func scan(a Append) (*facts, error) {
	f := &facts{replied: -1}
	for i, e := range a.Events {
		if pbemevent.IsServiceEvent(e.Type) {
			if err := f.service(a, e); err != nil {
				return nil, fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
			}
			continue
		}
		if _, ok := pbemevent.SeatOfActor(e.Meta.Actor); ok || strings.HasPrefix(e.Meta.Actor, "bot:") {
			f.seatMove = true
		}
		if i < len(a.Decoded) && a.Decoded[i] != nil && a.Engine.RoundEnd(a.Decoded[i]) {
			f.roundEnd = true
		}
	}
	return f, nil
}

// service reads service event e of a.
func (f *facts) service(a Append, e events.Event) error {
	switch e.Type {
	case pbemevent.TypeCreated:
		f.created, f.fresh = true, true
		var c pbemevent.Created
		if err := json.Unmarshal(e.Data, &c); err != nil {
			return err
		}
		if c.Muster != "" {
			d, err := time.ParseDuration(c.Muster)
			if err != nil {
				return err
			}
			f.muster = new(e.RecordedAt.UTC().Add(d).Truncate(time.Microsecond))
		}
	case pbemevent.TypeAccepted, pbemevent.TypeDeclined:
		var x pbemevent.Accepted // pbemevent.Declined has the same fields
		if err := json.Unmarshal(e.Data, &x); err != nil {
			return err
		}
		if x.By == pbemevent.ByReply {
			f.replied = x.Seat
		}
	case pbemevent.TypeMustered:
		f.fresh, f.notice, f.mustered = true, NoticeMustered, true
	case pbemevent.TypeTimeout:
		var t pbemevent.Timeout
		if err := json.Unmarshal(e.Data, &t); err != nil {
			return err
		}
		f.timedOut = append(f.timedOut, t.Seats...)
		f.fresh = true
	case pbemevent.TypePaused:
		f.notice = NoticePaused
	case pbemevent.TypeResumed:
		var r pbemevent.Resumed
		if err := json.Unmarshal(e.Data, &r); err != nil {
			return err
		}
		f.resumed, f.notice = true, NoticeResumed
		f.explicit = new(r.DeadlineAt.UTC())
	case pbemevent.TypeExtended:
		var x pbemevent.Extended
		if err := json.Unmarshal(e.Data, &x); err != nil {
			return err
		}
		f.notice = NoticeExtended
		f.explicit = new(x.DeadlineAt.UTC())
	case pbemevent.TypeTakeback:
		f.tookBack = true
	case pbemevent.TypeHistoryCut:
		f.notice = NoticeHistoryCut
	default:
		return f.seatEvent(a, e)
	}
	return nil
}

// seatEvent reads a service event about one seat's player (table talk,
// a new address, link, player or bot) and the emails it owes at once.
func (f *facts) seatEvent(a Append, e events.Event) error {
	switch e.Type {
	case pbemevent.TypeChat:
		var c pbemevent.Chat
		if err := json.Unmarshal(e.Data, &c); err != nil {
			return err
		}
		for _, s := range a.After.Seats {
			if s.Seat != c.Seat {
				f.along = owe(f.along, Mail{Kind: outbox.Chat, To: s, Version: e.Version, Tells: TellsChat})
			}
		}
	case pbemevent.TypeEmailChanged, pbemevent.TypePlayerReplaced:
		var x pbemevent.PlayerReplaced // pbemevent.EmailChanged's fields are a subset
		if err := json.Unmarshal(e.Data, &x); err != nil {
			return err
		}
		kind := outbox.Link
		if e.Type == pbemevent.TypePlayerReplaced {
			kind, f.notice = outbox.Invitation, NoticeReplaced
		}
		f.along = oweSeat(f.along, a.After, x.Seat, Mail{Kind: kind, Version: e.Version})
	case pbemevent.TypeSeatBot:
		var sb pbemevent.SeatBot
		if err := json.Unmarshal(e.Data, &sb); err != nil {
			return err
		}
		f.notice = NoticeBot
		if sb.Bot == "" && a.After.SeatAt(sb.Seat) != nil {
			// Handed back to its person: a new play link.
			f.notice = NoticeBotBack
			f.along = oweSeat(f.along, a.After, sb.Seat, Mail{Kind: outbox.Link, Version: e.Version})
		}
	case pbemevent.TypeAway, pbemevent.TypeBack:
		return f.away.read(e)
	case pbemevent.TypeLinkResent:
		var l pbemevent.LinkResent
		if err := json.Unmarshal(e.Data, &l); err != nil {
			return err
		}
		f.along = oweSeat(f.along, a.After, l.Seat, Mail{Kind: outbox.Link, Version: e.Version})
	}
	return nil
}

// deadline is the game's turn deadline and reminder time after a: none
// when the game is not active; the one an event set (a resume, an
// extension); a fresh one from a.Now when the game was created or timed
// out, awaits a new seat or had none (from the end of the wait when an
// awaited seat is away under "wait": away.go); else Before's, as the
// append's aways and backs move it.
func deadline(a Append, f *facts) (deadline, reminder *time.Time) {
	g := a.After
	var d time.Time
	switch {
	case g.Status == StatusMuster && f.muster != nil:
		return f.muster, nil
	case g.Status == StatusMuster:
		return a.Before.DeadlineAt, nil
	case g.Status != StatusActive:
		return nil, nil
	case f.explicit != nil:
		return f.explicit, new(f.explicit.Add(-g.ReminderBefore))
	case f.fresh || entered(a.Before.ToMove, g.ToMove) != nil || a.Before.DeadlineAt == nil:
		from := a.Now.UTC()
		if w := g.awayWait(from); w != nil {
			from = *w
		}
		d = from.Add(g.TurnDeadline).Truncate(time.Microsecond)
	case len(f.away.aways) == 0 && len(f.away.backs) == 0:
		return a.Before.DeadlineAt, a.Before.ReminderAt
	default:
		d = f.away.shift(a, *a.Before.DeadlineAt)
	}
	return &d, new(d.Add(-g.ReminderBefore))
}
