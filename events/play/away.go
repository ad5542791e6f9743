package play

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"pbem/engine"
	"pbem/engine/bot"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/outbox"
)

// Away mode (issue #43 part 8). A person says "away until DATE" (My games,
// POST /api/v1/me/away, or a reply line "away: 12 December"): in each game
// of theirs still going on, by the policy its organiser chose at setup
// (projections.Game.AwayPolicy), their seat's deadlines wait (at most
// Config.AwayMaxWait a game) or a bot plays it until they are back; a game
// whose organiser forbade away goes on as usual. Each game records it as a
// pbem.away event that every seat reads in its history (and a pbem.seat_bot
// when a bot takes the seat); the person gets one email that says what
// happens in each game. Back early (one click, a reply line "back", or
// DELETE /api/v1/me/away), or at the date, each game records pbem.back (and
// hands a seat a bot took for the away back to its person, with a fresh
// link). Deadlines resume with the time the seat had left: see
// projections/away.go.
//
// The date is a day in the person's time zone: the away ends at its
// start (00:00 there), so "away until 12 December" plays again on the
// 12th. A person's away time is bounded: at most Config.AwayDays days in
// any 365 (counted from their aways in every game, ended ones too: one
// away spans all their games and counts once).

// DefaultAwayMaxWait is Config.AwayMaxWait's default: how long, at most,
// one game's deadlines wait for an away seat.
const DefaultAwayMaxWait = 14 * 24 * time.Hour

// DefaultAwayDays is Config.AwayDays's default: days of away a person may
// take in any 365.
const DefaultAwayDays = 30

// awayYear is the window a person's away allowance counts in.
const awayYear = 365 * 24 * time.Hour

// AwayGame is what a person's away does in one of their games.
type AwayGame struct {
	GameID  string   `json:"game_id"`
	Game    string   `json:"game"`
	Players []string `json:"players"`
	Seat    int      `json:"seat"`
	// Effect is "wait" (the deadlines wait), "bot" (a bot plays the seat
	// until its person is back) or "forbid" (the organiser forbade away
	// in this game: its deadlines run as usual).
	Effect string `json:"effect"`
	// WaitUntil is when this game's deadlines stop waiting (Effect "wait").
	WaitUntil *time.Time `json:"wait_until,omitempty"`
	// gen is the token generation of the seat's play link after the away
	// (or the back): the person's email links to it.
	gen int
}

// AwayStatus is a person's away: whether they are away and until when,
// what it does in each game, and their allowance.
type AwayStatus struct {
	Email string `json:"-"`
	// Until is when the away going on ends (nil: not away), and Date the
	// day the person said.
	Until *time.Time `json:"until"`
	Date  string     `json:"date,omitempty"`
	// Games says what the away does in each game still going on (empty
	// when not away).
	Games []AwayGame `json:"games"`
	// DaysAllowed is the allowance (days in any 365), DaysUsed the days of
	// away taken in the last 365 (the one going on until now), and
	// DaysLeft what may still be taken from now.
	DaysAllowed int     `json:"days_allowed"`
	DaysUsed    float64 `json:"days_used"`
	DaysLeft    int     `json:"days_left"`
	// left is the away time left from now (DaysLeft, to the nanosecond).
	left time.Duration
	// Latest is the latest day an away beginning now may end on, in the
	// zone the status was asked in ("2026-12-31"; "" when none is left).
	Latest string `json:"latest,omitempty"`
}

// awaySeat is one seat of the person in a game still going on.
type awaySeat struct {
	g    *projections.Game
	seat int
}

// AwayFor is Away for the address signed in with session. Errors: those
// of SessionEmail and Away.
func (s *Service) AwayFor(ctx context.Context, session, date string, loc *time.Location) (*AwayStatus, error) {
	email, err := s.SessionEmail(ctx, session)
	if err != nil {
		return nil, err
	}
	return s.Away(ctx, email, date, loc)
}

// BackFor is Back for the address signed in with session.
func (s *Service) BackFor(ctx context.Context, session string, loc *time.Location) (*AwayStatus, error) {
	email, err := s.SessionEmail(ctx, session)
	if err != nil {
		return nil, err
	}
	return s.Back(ctx, email, loc)
}

// AwayStatusFor is AwayOf for the address signed in with session.
func (s *Service) AwayStatusFor(ctx context.Context, session string, loc *time.Location) (*AwayStatus, error) {
	email, err := s.SessionEmail(ctx, session)
	if err != nil {
		return nil, err
	}
	return s.AwayOf(ctx, email, loc)
}

// Away records that the person at email is away until date (a day,
// "2026-12-12", in loc: the away ends at its start there) in each of
// their games still going on, replacing an away going on, and emails them
// what happens in each game. Errors: events.CodeInvalid for a date that
// does not read, is not after today, or goes beyond the allowance (the
// message says the latest day allowed); events.CodeConflict when no game
// of theirs takes an away (none going on, or away forbidden in each).
func (s *Service) Away(ctx context.Context, email, date string, loc *time.Location) (*AwayStatus, error) {
	if loc == nil {
		loc = time.UTC
	}
	day, err := time.ParseInLocation(time.DateOnly, strings.TrimSpace(date), loc)
	if err != nil {
		return nil, events.FieldErrorf(events.CodeInvalid, "until", "until: give a day as 2026-12-12 (not %q)", date)
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	until := day.UTC()
	if !until.After(now) || day.Format(time.DateOnly) == now.In(loc).Format(time.DateOnly) {
		return nil, events.FieldErrorf(events.CodeInvalid, "until", "until: %s is not after today: give the day you are back, tomorrow or later", day.Format(time.DateOnly))
	}
	seats, err := s.awaySeats(ctx, email)
	if err != nil {
		return nil, err
	}
	st, err := s.awayStatus(ctx, email, seats, now, loc)
	if err != nil {
		return nil, err
	}
	if st.Latest == "" || day.Format(time.DateOnly) > st.Latest {
		msg := fmt.Sprintf("until: you have %d days of away left (%d in any 365 days), not enough to be away until %s", st.DaysLeft, st.DaysAllowed, day.Format(time.DateOnly))
		if st.Latest != "" {
			msg += "; the latest day you can give is " + st.Latest
		}
		return nil, events.FieldErrorf(events.CodeInvalid, "until", "%s", msg)
	}
	plan := make([]AwayGame, len(seats))
	taken := 0
	for i, a := range seats {
		plan[i] = s.awayPlan(a, now, until)
		if plan[i].Effect != pbemevent.AwayForbidden {
			taken++
		}
	}
	if taken == 0 {
		if len(seats) == 0 {
			return nil, events.Errorf(events.CodeConflict, "you have no game going on: there is nothing to be away from")
		}
		return nil, events.Errorf(events.CodeConflict, "the organisers of your games forbid away in each of them: their deadlines run as usual")
	}
	aw := pbemevent.Away{From: now, Until: until, Date: day.Format(time.DateOnly)}
	for i, a := range seats {
		if plan[i].Effect == pbemevent.AwayForbidden {
			continue
		}
		taken--
		var mail func(int64) ([]outbox.Row, error)
		if taken == 0 { // the person's email rides with the last game's append
			mail = func(int64) ([]outbox.Row, error) {
				after := max(0, int((st.left-until.Sub(now))/(24*time.Hour))) // what is left once this away is over
				return []outbox.Row{s.awayMail(a, aw.Date, plan, after)}, nil
			}
		}
		if err := s.awayIn(ctx, a, aw, plan[i], mail); err != nil {
			return nil, err
		}
	}
	return s.AwayOf(ctx, email, loc)
}

// awayPlan is what an away from now until until does to seat a.
func (s *Service) awayPlan(a awaySeat, now, until time.Time) AwayGame {
	st := a.g.SeatAt(a.seat)
	p := AwayGame{GameID: a.g.ID, Game: a.g.Game, Players: a.g.Players, Seat: a.seat, Effect: a.g.AwayPolicy, gen: st.TokenGen}
	switch p.Effect {
	case pbemevent.AwayBot, pbemevent.AwayForbidden:
	default:
		p.Effect = pbemevent.AwayWait
		w := earlier(until, now.Add(s.awayMaxWait))
		p.WaitUntil = &w
	}
	return p
}

// awayIn appends seat a's away (and the end of the one going on, if any)
// to its game, with mail's rows; again on a conflict, from the game as it
// is then.
func (s *Service) awayIn(ctx context.Context, a awaySeat, aw pbemevent.Away, p AwayGame, mail func(int64) ([]outbox.Row, error)) error {
	return s.appendSeat(ctx, a, mail, func(g *projections.Game) ([]events.NewEvent, *projections.Game, error) {
		var evs []events.NewEvent
		st := g.SeatAt(a.seat)
		g, back, err := s.backEvents(g, a.seat, false, p.Effect == pbemevent.AwayBot)
		if err != nil {
			return nil, nil, err
		}
		evs = append(evs, back...)
		x := aw
		x.Seat, x.Effect, x.WaitUntil = a.seat, p.Effect, p.WaitUntil
		x.Handed = p.Effect == pbemevent.AwayBot && (st.Bot == "" || (st.Away != nil && st.Away.Handed))
		ev, err := seatEvent(a.seat, pbemevent.TypeAway, x)
		if err != nil {
			return nil, nil, err
		}
		evs = append(evs, ev)
		if x.Handed && g.SeatAt(a.seat).Bot == "" {
			ev, err := seatEvent(a.seat, pbemevent.TypeSeatBot, pbemevent.SeatBot{Seat: a.seat, Bot: bot.Normal.String()})
			if err != nil {
				return nil, nil, err
			}
			evs = append(evs, ev)
		}
		return evs, g, nil
	})
}

// backEvents are the events that end seat's away going on in g (none if
// it has none): pbem.back, and the hand-back of a seat the away gave a
// bot (unless keepBot: a new away keeps it), whose fresh link's hash is
// set on the clone of g it returns.
func (s *Service) backEvents(g *projections.Game, seat int, expired, keepBot bool) (*projections.Game, []events.NewEvent, error) {
	st := g.SeatAt(seat)
	if st == nil || st.Away == nil {
		return g, nil, nil
	}
	at := s.now().UTC().Truncate(time.Microsecond)
	ev, err := seatEvent(seat, pbemevent.TypeBack, pbemevent.Back{Seat: seat, From: st.Away.From, At: at, Expired: expired})
	if err != nil {
		return g, nil, err
	}
	evs := []events.NewEvent{ev}
	if st.Away.Handed && st.Bot != "" && st.Email != "" && !keepBot {
		sb := pbemevent.SeatBot{Seat: seat, TokenGen: st.TokenGen + 1}
		g = g.Clone() // the loaded row is shared (cached)
		for i := range g.Seats {
			if g.Seats[i].Seat == seat {
				g.Seats[i].TokenHash = tokens.Hash(tokens.Seat(s.secret, g.ID, seat, sb.TokenGen))
			}
		}
		ev, err := seatEvent(seat, pbemevent.TypeSeatBot, sb)
		if err != nil {
			return g, nil, err
		}
		evs = append(evs, ev)
	}
	return g, evs, nil
}

// seatEvent is a service event of typ with data, whose actor is seat
// (the person's own word), or the system for an away that expired.
func seatEvent(seat int, typ string, data any) (events.NewEvent, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return events.NewEvent{}, fmt.Errorf("play: marshal %s: %w", typ, err)
	}
	actor := pbemevent.SeatActor(seat)
	if x, ok := data.(pbemevent.Back); ok && x.Expired {
		actor = "system"
	}
	return events.NewEvent{Type: typ, Data: b, Meta: events.Metadata{Actor: actor}}, nil
}

// appendSeat appends the events build makes of seat a's game as it is
// (none: nothing to do), with mail's rows; again from the game as it is
// then on a conflict (a move meanwhile), up to five times.
func (s *Service) appendSeat(ctx context.Context, a awaySeat, mail func(int64) ([]outbox.Row, error),
	build func(*projections.Game) ([]events.NewEvent, *projections.Game, error)) error {
	g := a.g
	for try := 0; ; try++ {
		evs, ng, err := build(g)
		if err != nil || len(evs) == 0 {
			return err
		}
		_, st, err := s.state(ctx, ng)
		if err != nil {
			return err
		}
		var extra func(*projections.Change, engine.State) error
		if mail != nil {
			extra = func(ch *projections.Change, _ engine.State) error {
				rows, err := mail(ng.Version + 1)
				ch.Outbox = append(ch.Outbox, rows...)
				return err
			}
		}
		_, _, _, err = s.append(ctx, ng, st, evs, make([]engine.Event, len(evs)), extra)
		if err == nil || ErrorCode(err) != events.CodeConflict || try == 4 {
			return err
		}
		if g, err = s.load(ctx, g.ID); err != nil {
			return err
		}
	}
}

// Back ends the away of the person at email in each of their games (the
// deadlines resume with the time each seat had left; a seat a bot took
// for the away is handed back) and emails them. Errors: events.CodeConflict
// when they are not away.
func (s *Service) Back(ctx context.Context, email string, loc *time.Location) (*AwayStatus, error) {
	seats, err := s.awaySeats(ctx, email)
	if err != nil {
		return nil, err
	}
	var away []awaySeat
	for _, a := range seats {
		if a.g.SeatAt(a.seat).Away != nil {
			away = append(away, a)
		}
	}
	if len(away) == 0 {
		return nil, events.Errorf(events.CodeConflict, "you are not away")
	}
	plan := make([]AwayGame, len(away))
	for i, a := range away {
		st := a.g.SeatAt(a.seat)
		plan[i] = AwayGame{GameID: a.g.ID, Game: a.g.Game, Players: a.g.Players, Seat: a.seat, Effect: st.Away.Effect, gen: st.TokenGen}
		if st.Away.Handed && st.Bot != "" {
			plan[i].gen++ // handed back with a fresh link
		}
	}
	for i, a := range away {
		var mail func(int64) ([]outbox.Row, error)
		if i == len(away)-1 {
			mail = func(int64) ([]outbox.Row, error) { return []outbox.Row{s.awayMail(a, "", plan, 0)}, nil }
		}
		err := s.appendSeat(ctx, a, mail, func(g *projections.Game) ([]events.NewEvent, *projections.Game, error) {
			g, evs, err := s.backEvents(g, a.seat, false, false)
			return evs, g, err
		})
		if err != nil {
			return nil, err
		}
	}
	return s.AwayOf(ctx, email, loc)
}

// EndAway ends seat's away in game id if it has reached its end by now
// (the scheduler's, for play.Scheduler), and reports whether it did.
// Errors: events.CodeNotFound.
func (s *Service) EndAway(ctx context.Context, id string, seat int, now time.Time) (bool, error) {
	g, err := s.game(ctx, id)
	if err != nil {
		return false, err
	}
	st := g.SeatAt(seat)
	if st == nil || st.Away == nil || st.Away.Until.After(now) || g.Ended() {
		return false, nil
	}
	ended := false
	err = s.appendSeat(ctx, awaySeat{g: g, seat: seat}, nil, func(g *projections.Game) ([]events.NewEvent, *projections.Game, error) {
		if st := g.SeatAt(seat); st == nil || st.Away == nil || st.Away.Until.After(now) || g.Ended() {
			return nil, g, nil
		}
		g, evs, err := s.backEvents(g, seat, true, false)
		ended = len(evs) > 0
		return evs, g, err
	})
	return ended && err == nil, err
}

// AwayOf is the away of the person at email: until when, what it does in
// each game going on, and their allowance (Latest told in loc).
func (s *Service) AwayOf(ctx context.Context, email string, loc *time.Location) (*AwayStatus, error) {
	seats, err := s.awaySeats(ctx, email)
	if err != nil {
		return nil, err
	}
	return s.awayStatus(ctx, email, seats, s.now().UTC(), loc)
}

// awaySeats are the seats of the person at email in their games still
// going on (active or paused), by game.
func (s *Service) awaySeats(ctx context.Context, email string) ([]awaySeat, error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return nil, events.Errorf(events.CodeUnauthorized, "sign in first")
	}
	gs, err := s.repo.MyGames(ctx, email)
	if err != nil {
		return nil, err
	}
	var out []awaySeat
	for _, m := range gs {
		if m.Seat < 0 || projections.StatusEnded(m.Status) {
			continue
		}
		g, err := s.game(ctx, m.GameID)
		if err != nil {
			return nil, err
		}
		if st := g.SeatAt(m.Seat); st != nil && strings.EqualFold(st.Email, email) && !g.Ended() {
			out = append(out, awaySeat{g: g, seat: m.Seat})
		}
	}
	slices.SortFunc(out, func(a, b awaySeat) int { return strings.Compare(a.g.ID, b.g.ID) })
	return out, nil
}

// awayStatus is the status of the person at email whose seats going on
// are seats, at now: the allowance counts the aways of every game of
// theirs, ended ones too.
func (s *Service) awayStatus(ctx context.Context, email string, seats []awaySeat, now time.Time, loc *time.Location) (*AwayStatus, error) {
	if loc == nil {
		loc = time.UTC
	}
	st := &AwayStatus{Email: email, DaysAllowed: s.awayDays, Games: []AwayGame{}}
	for _, a := range seats {
		seat := a.g.SeatAt(a.seat)
		if seat.Away == nil || !seat.Away.Until.After(now) {
			continue
		}
		if st.Until == nil || seat.Away.Until.After(*st.Until) {
			st.Until = new(seat.Away.Until)
			st.Date = seat.Away.Until.In(loc).Format(time.DateOnly)
		}
		st.Games = append(st.Games, AwayGame{GameID: a.g.ID, Game: a.g.Game, Players: a.g.Players, Seat: a.seat,
			Effect: seat.Away.Effect, WaitUntil: seat.Away.WaitUntil})
	}
	periods, err := s.awayPeriods(ctx, email, now)
	if err != nil {
		return nil, err
	}
	used := awayUsed(periods, now.Add(-awayYear), now)
	st.DaysUsed = float64(used.Round(time.Hour)) / float64(24*time.Hour)
	left := time.Duration(s.awayDays)*24*time.Hour - used
	// Days left are whole days, counted to the hour: an away of minutes
	// (said and taken back) leaves the days as they were.
	st.DaysLeft, st.left = max(0, int(left.Round(time.Hour)/(24*time.Hour))), left
	if left > 0 {
		// The latest day whose start (in loc) is within what is left.
		end := now.Add(left).In(loc)
		latest := time.Date(end.Year(), end.Month(), end.Day(), 0, 0, 0, 0, loc)
		if latest.After(now) && latest.Format(time.DateOnly) != now.In(loc).Format(time.DateOnly) {
			st.Latest = latest.Format(time.DateOnly)
		}
	}
	return st, nil
}

// awayPeriods are the aways of the person at email in every game of
// theirs, each as it went (one going on counts until now).
func (s *Service) awayPeriods(ctx context.Context, email string, now time.Time) ([]projections.AwayPeriod, error) {
	gs, err := s.repo.MyGames(ctx, email)
	if err != nil {
		return nil, err
	}
	var out []projections.AwayPeriod
	for _, m := range gs {
		if m.Seat < 0 || m.UpdatedAt.Before(now.Add(-awayYear)) {
			continue
		}
		g, err := s.game(ctx, m.GameID)
		if err != nil {
			return nil, err
		}
		st := g.SeatAt(m.Seat)
		if st == nil || !strings.EqualFold(st.Email, email) {
			continue
		}
		out = append(out, st.AwayPast...)
		if st.Away != nil {
			out = append(out, projections.AwayPeriod{From: st.Away.From, To: earlier(st.Away.Until, now)})
		}
	}
	return out, nil
}

// awayUsed is the time the union of periods covers between from and to:
// one away spans several games and counts once.
func awayUsed(periods []projections.AwayPeriod, from, to time.Time) time.Duration {
	slices.SortFunc(periods, func(a, b projections.AwayPeriod) int { return a.From.Compare(b.From) })
	var used time.Duration
	var end time.Time // the end of the union so far
	for _, p := range periods {
		a, b := later(later(p.From, from), end), earlier(p.To, to)
		if b.After(a) {
			used += b.Sub(a)
		}
		end = later(end, p.To)
	}
	return used
}

// earlier is the earlier of a and b; later the later.
func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// awayMail is the person's email about their away (date: the day they
// said; "": they are back), to seat a, listing what it does in each game
// of plan.
func (s *Service) awayMail(a awaySeat, date string, plan []AwayGame, daysLeft int) outbox.Row {
	st := a.g.SeatAt(a.seat)
	p := outbox.NewPayload(outbox.Head{
		To:       outbox.Recipient{Seat: a.seat, Name: st.Name, Email: st.Email},
		Language: a.g.SeatLanguage(a.seat),
	})
	p.Notice, p.AwayDate, p.AwayDaysLeft, p.AwayDays = "back", date, daysLeft, s.awayDays
	for _, x := range plan {
		if x.GameID == a.g.ID {
			p.TokenGen = x.gen // a reply to it (a line "back") comes from this seat
		}
	}
	if date != "" {
		p.Notice = "away"
	}
	for _, x := range plan {
		p.Games = append(p.Games, outbox.WaitingGame{
			Game: outbox.GameInfo{ID: x.GameID, Name: x.Game, Players: x.Players},
			Seat: x.Seat, TokenGen: x.gen, Away: x.Effect, AwayWaits: x.WaitUntil})
	}
	return outbox.Row{GameID: a.g.ID, Kind: outbox.Away, Payload: p}
}

// seatEmail is the address of seat of game id (the reply's person).
// Errors: events.CodeNotFound.
func (s *Service) seatEmail(ctx context.Context, id string, seat int) (string, error) {
	g, err := s.game(ctx, id)
	if err != nil {
		return "", err
	}
	st := g.SeatAt(seat)
	if st == nil || st.Email == "" {
		return "", events.Errorf(events.CodeNotFound, "game %s has no person at seat %d", id, seat)
	}
	return st.Email, nil
}

// AwayAs is Away for the person of seat of game id (a reply's away line).
func (s *Service) AwayAs(ctx context.Context, id string, seat int, date string, loc *time.Location) (*AwayStatus, error) {
	email, err := s.seatEmail(ctx, id, seat)
	if err != nil {
		return nil, err
	}
	return s.Away(ctx, email, date, loc)
}

// BackAs is Back for the person of seat of game id (a reply's back line).
func (s *Service) BackAs(ctx context.Context, id string, seat int, loc *time.Location) (*AwayStatus, error) {
	email, err := s.seatEmail(ctx, id, seat)
	if err != nil {
		return nil, err
	}
	return s.Back(ctx, email, loc)
}

// AwayStatusAs is AwayOf for the person of seat of game id.
func (s *Service) AwayStatusAs(ctx context.Context, id string, seat int, loc *time.Location) (*AwayStatus, error) {
	email, err := s.seatEmail(ctx, id, seat)
	if err != nil {
		return nil, err
	}
	return s.AwayOf(ctx, email, loc)
}
