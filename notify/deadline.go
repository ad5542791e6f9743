package notify

import (
	"pbem/projections/outbox"
	"time"
)

// deadlineFor is the deadline an email of kind k tells its recipient: a
// your-turn email and a reminder are sent only to seats that must act, and
// any other email tells the deadline only when the payload says the game
// awaits the recipient (Payload.Awaited); the organiser's confirmation and
// a sign-in link tell when their link stops working. Nil: the email says
// nothing of a deadline.
func deadlineFor(k outbox.Kind, p outbox.Payload) *time.Time {
	if k == outbox.YourTurn || k == outbox.Reminder || k == outbox.Confirm || k == outbox.Signin || p.Awaited {
		return p.Deadline
	}
	return nil
}

// tellDeadline says t in the recipient's time zone when its story has one
// ("Wed 4 Mar 2026, 19:30 (Europe/Paris)"), else in UTC, labelled as such
// ("Wed 4 Mar 2026, 18:30 UTC"). Empty for no deadline.
func (l *language) tellDeadline(t *time.Time, s *Story) string {
	if t == nil || t.IsZero() {
		return ""
	}
	if s != nil && s.Zone != "" {
		if loc, err := CheckZone(s.Zone); err == nil {
			return t.In(loc).Format(l.p.T("layout.zoned")) + " (" + loc.String() + ")"
		}
	}
	return t.UTC().Format(l.p.T("layout.deadline"))
}

// zoneKnown: s carries a time zone its deadlines are told in.
func zoneKnown(s *Story) bool {
	if s == nil || s.Zone == "" {
		return false
	}
	_, err := CheckZone(s.Zone)
	return err == nil
}

// tellDay tells a day given as 2026-12-12 in the email's language (as it
// is if it is not such a day).
func (l *language) tellDay(day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return t.Format(l.p.T("layout.day"))
}

// awayEffect says what an away does in game g of an Away email (notice
// "away", or "back" when the person is back).
func (l *language) awayEffect(notice string, g outbox.WaitingGame) string {
	if g.Away == "" {
		return ""
	}
	if notice == "back" {
		if g.Away == "bot" {
			return l.p.T("back.bot")
		}
		return l.p.T("back.wait")
	}
	if g.Away == "wait" {
		return l.p.T("away.wait", l.tellDeadline(g.AwayWaits, nil))
	}
	return l.p.T("away." + g.Away)
}
