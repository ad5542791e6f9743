package inbound

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"time"

	"pbem/events"
	"pbem/events/play"
	"pbem/notify"
	"pbem/projections/outbox"
)

// Away and back by reply (issue #43 part 8; docs/email.md):
//
//   - a line that starts with "away:", "absent:", "absente:" or
//     "assente:" (any case, a blank allowed before the colon) says the
//     person is away until the day it names, read in their time zone:
//     "12 December", "December 12", "12 décembre 2026", "12/12" (day
//     first), "2026-12-12", the month in English, French or Italian or its
//     first three letters. Without a year it is this year's day, or next
//     year's for a day more than 60 days past.
//   - a line "back" ("I am back", "de retour", "tornato"...: backWords)
//     ends the away.
//
// Neither is ever read as a move.

// awayPrefix starts an away line, in English, French or Italian.
var awayPrefix = regexp.MustCompile(`(?i)^(away|absent|absente|assente)\s*:\s*`)

// backWords are the lines that say the person is back, folded.
var backWords = map[string]bool{
	"back": true, "i am back": true, "i'm back": true, "im back": true, "i’m back": true,
	"de retour": true, "je suis de retour": true, "rentre": true, "rentree": true,
	"tornato": true, "tornata": true, "sono tornato": true, "sono tornata": true, "di ritorno": true,
}

// isBack reports whether line says the person is back.
func isBack(line string) bool { return backWords[fold(line)] }

// monthNames maps month names, folded, in English, French and Italian,
// and their unambiguous first three letters, to their month.
var monthNames = func() map[string]time.Month {
	out := map[string]time.Month{}
	short := map[string]time.Month{}
	clash := map[string]bool{}
	for _, names := range []string{
		"january february march april may june july august september october november december",
		"janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre",
		"gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
	} {
		for i, n := range strings.Fields(names) {
			m := time.Month(i + 1)
			out[n] = m
			if len(n) > 3 {
				s := n[:3]
				if old, ok := short[s]; ok && old != m {
					clash[s] = true
				}
				short[s] = m
			}
		}
	}
	for s, m := range short {
		if !clash[s] {
			if _, ok := out[s]; !ok {
				out[s] = m
			}
		}
	}
	return out
}()

var (
	isoDay      = regexp.MustCompile(`^(\d{4})-(\d{1,2})-(\d{1,2})$`)
	dayMonth    = regexp.MustCompile(`^(\d{1,2})(?:er|st|nd|rd|th|o)?\s+([a-z]+)\.?(?:\s+(\d{4}))?$`)
	monthDay    = regexp.MustCompile(`^([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?(?:\s+(\d{4}))?$`)
	numericDay  = regexp.MustCompile(`^(\d{1,2})[/.](\d{1,2})(?:[/.](\d{4}))?$`)
	dayLeadWord = regexp.MustCompile(`^(until|till|on|the|jusqu'au|jusqu’au|jusqu au|au|le|fino al|fino a|al|il)\s+`)
)

// readDay reads the day an away line names, as 2026-12-12, with today the
// day it is in the person's zone: ok is false when it names none.
func readDay(said string, today time.Time) (string, bool) {
	s := fold(said)
	for {
		t := dayLeadWord.ReplaceAllString(s, "")
		if t == s {
			break
		}
		s = t
	}
	var day, year int
	var month time.Month
	num := func(x string) int { n, _ := strconv.Atoi(x); return n }
	switch m := (struct{ iso, dm, md, nd []string }{isoDay.FindStringSubmatch(s), dayMonth.FindStringSubmatch(s), monthDay.FindStringSubmatch(s), numericDay.FindStringSubmatch(s)}); {
	case m.iso != nil:
		year, month, day = num(m.iso[1]), time.Month(num(m.iso[2])), num(m.iso[3])
	case m.dm != nil && monthNames[m.dm[2]] != 0:
		day, month, year = num(m.dm[1]), monthNames[m.dm[2]], num(m.dm[3])
	case m.md != nil && monthNames[m.md[1]] != 0:
		month, day, year = monthNames[m.md[1]], num(m.md[2]), num(m.md[3])
	case m.nd != nil:
		day, month, year = num(m.nd[1]), time.Month(num(m.nd[2])), num(m.nd[3])
	default:
		return "", false
	}
	if month < 1 || month > 12 || day < 1 || day > 31 {
		return "", false
	}
	if year == 0 {
		year = today.Year()
		d := time.Date(year, month, day, 0, 0, 0, 0, time.UTC)
		if today.Sub(d) > 60*24*time.Hour {
			year++
		}
	}
	d := time.Date(year, month, day, 0, 0, 0, 0, time.UTC)
	if d.Day() != day { // 31 November
		return "", false
	}
	return d.Format(time.DateOnly), true
}

// away acts on a reply's away or back line: it records the away (or the
// back) of the seat's person in all their games, and the answer says so,
// or why nothing changed.
func (p *Processor) away(ctx context.Context, a notify.ReplyAddress, pr parsed, ans *outbox.Answer) error {
	loc := time.UTC
	if p.c.Zones != nil {
		z, err := p.c.Zones.ZoneOf(ctx, a.GameID, a.Seat)
		if err != nil {
			return err
		}
		if l, err := notify.CheckZone(z); z != "" && err == nil {
			loc = l
		}
	}
	if pr.back {
		_, err := p.c.Service.BackAs(ctx, a.GameID, a.Seat, loc)
		switch play.ErrorCode(err) {
		case "":
			ans.Says = append(ans.Says, outbox.AnswerBack)
		case events.CodeConflict:
			ans.Says = append(ans.Says, outbox.AnswerNotAway)
		default:
			return err
		}
		return nil
	}
	today := p.c.Now().In(loc)
	day, ok := readDay(pr.away, time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC))
	if !ok {
		ans.Says, ans.Away = append(ans.Says, outbox.AnswerAwayUnread), pr.away
		return nil
	}
	if day <= today.Format(time.DateOnly) {
		ans.Says, ans.Away = append(ans.Says, outbox.AnswerAwayPast), day
		return nil
	}
	st, err := p.c.Service.AwayStatusAs(ctx, a.GameID, a.Seat, loc)
	if err != nil {
		return err
	}
	if st.Latest == "" || day > st.Latest {
		ans.Says, ans.Away = append(ans.Says, outbox.AnswerAwayTooLong), st.Latest
		if st.Latest == "" {
			ans.Says[len(ans.Says)-1] = outbox.AnswerAwayNoneLeft
		}
		return nil
	}
	_, err = p.c.Service.AwayAs(ctx, a.GameID, a.Seat, day, loc)
	switch code := play.ErrorCode(err); code {
	case "":
		ans.Says, ans.Away = append(ans.Says, outbox.AnswerAway), day
	case events.CodeConflict:
		ans.Says = append(ans.Says, outbox.AnswerAwayForbidden)
	case events.CodeInvalid:
		ans.Says, ans.Detail, ans.Code = append(ans.Says, outbox.AnswerAwayRefused), play.ErrorMessage(err), play.ServiceErrorCode(err)
	default:
		return err
	}
	return nil
}
