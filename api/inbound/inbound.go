package inbound

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"pbem/engine"
	"pbem/events"
	"pbem/events/play"
	"pbem/notify"
	"pbem/projections"
	"pbem/projections/outbox"
)

// Service is the game service as the listener uses it.
type Service interface {
	Reply(ctx context.Context, id string, seat int, tag string, version int64) (*play.ReplySeat, error)
	MoveAs(ctx context.Context, id string, seat int, req play.MoveRequest) (*play.View, error)
	ChatAs(ctx context.Context, id string, seat int, text, key string) error
	ReplyStale(ctx context.Context, id string, seat int, version int64, except string) (bool, error)
	// PlayedFor tells what the game played for a seat by itself between
	// two versions: a deadline's policy, the steps forced on it.
	PlayedFor(ctx context.Context, id string, seat int, after, upto int64) (*play.PlayedFor, error)
	// AnswerAs records a seat's muster answer (issue #46); MusterEndFor
	// then tells whether it was the last one, and what the muster's end
	// did.
	AnswerAs(ctx context.Context, id string, seat int, yes bool, key string) error
	MusterEndFor(ctx context.Context, id string, seat int) (*play.MusterEnd, error)
	// AwayAs, BackAs and AwayStatusAs are the away of the person of a
	// seat (events/play/away.go).
	AwayAs(ctx context.Context, id string, seat int, date string, loc *time.Location) (*play.AwayStatus, error)
	BackAs(ctx context.Context, id string, seat int, loc *time.Location) (*play.AwayStatus, error)
	AwayStatusAs(ctx context.Context, id string, seat int, loc *time.Location) (*play.AwayStatus, error)
}

// Ledger remembers the replies read, so that a message delivered twice is
// answered once, and bounds the answers per seat. notify/postgres.Inbound
// implements it.
//
// A message's move and chat carry its key (idempotency keys of the game
// service), so acting on a message twice plays and posts once; the ledger
// records the message after acting, with its answer, in one transaction,
// and a second delivery (or a concurrent one) finds it recorded and writes
// no second answer. A crash before the record loses nothing: the sender,
// which got no 250, delivers again.
type Ledger interface {
	// Finish records message key of a seat with its outcome and writes its
	// answer (nil: none) to the outbox, unless the seat got perHour
	// answers in the last hour. duplicate: the key was recorded already,
	// and nothing was written.
	Finish(ctx context.Context, gameID, key string, seat int, outcome string, answer *outbox.Row, perHour int, now time.Time) (answered, duplicate bool, err error)
	// Bounce records a hard bounce of a seat's address: the organiser sees
	// the seat's latest email as failed, with the reason.
	Bounce(ctx context.Context, gameID string, seat int, email, reason string, now time.Time) error
}

// Zones records a seat's time zone: the same storage as the play page's
// zone form (notify/postgres.Seats implements it).
type Zones interface {
	SetZone(ctx context.Context, gameID string, seat int, zone string) error
	// ZoneOf is the seat's time zone, else its person's ("": unknown):
	// an away line's day is read in it.
	ZoneOf(ctx context.Context, gameID string, seat int) (string, error)
}

// Config configures a Processor. Service, Ledger and Domain are required.
type Config struct {
	Service Service
	Ledger  Ledger
	// Domain is PBEM_REPLY_DOMAIN: the domain of reply addresses.
	Domain string
	// Zones records the zone a reply's zone line gives; nil: zone lines
	// are answered as not understood and change nothing.
	Zones Zones
	// AnswersPerHour bounds the answers written to one seat in any hour
	// (default DefaultAnswersPerHour), so that two robots cannot loop.
	// Moves and chat beyond it are still read; they are not answered.
	AnswersPerHour int
	// ReadTimeout bounds the time spent reading one message's MIME parts
	// and HTML (default DefaultReadTimeout): a message that takes longer
	// is refused (SMTP 554), so that every SMTP transaction is answered
	// within seconds whatever it holds.
	ReadTimeout time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger; nil means slog.Default().
	Logger *slog.Logger
}

// DefaultAnswersPerHour is Config.AnswersPerHour's default.
const DefaultAnswersPerHour = 30

// DefaultReadTimeout is Config.ReadTimeout's default. A reply of 2 MiB
// within the structure limits is read in milliseconds.
const DefaultReadTimeout = 3 * time.Second

// Processor reads replies and plays them: the code path shared by the SMTP
// listener and the dev mailbox's reply form.
type Processor struct{ c Config }

// New checks c and fills in defaults.
func New(c Config) (*Processor, error) {
	if c.Service == nil || c.Ledger == nil || c.Domain == "" {
		return nil, errors.New("inbound: a processor needs the game service, a ledger and a reply domain")
	}
	if c.AnswersPerHour <= 0 {
		c.AnswersPerHour = DefaultAnswersPerHour
	}
	if c.ReadTimeout <= 0 {
		c.ReadTimeout = DefaultReadTimeout
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	c.Domain = strings.ToLower(c.Domain)
	return &Processor{c: c}, nil
}

// Domain is the reply domain.
func (p *Processor) Domain() string { return p.c.Domain }

// RefusedError is a recipient the listener refuses (SMTP 550): not a reply
// address (Kind RefusedUnknown), or a forged one or one a resent link
// revoked (RefusedSecret).
type RefusedError struct{ Kind, Reason string }

func (e *RefusedError) Error() string { return e.Reason }

// Check reads a recipient address and checks its secret against the
// seat's current token generation. Errors: *RefusedError, or a temporary
// failure (the database).
func (p *Processor) Check(ctx context.Context, rcpt string) (notify.ReplyAddress, error) {
	a, err := notify.ParseReplyAddress(rcpt, p.c.Domain)
	if err != nil {
		return a, &RefusedError{Kind: RefusedUnknown, Reason: "no such address here"}
	}
	if _, err := p.c.Service.Reply(ctx, a.GameID, a.Seat, a.Tag, a.TagVersion()); err != nil {
		switch play.ErrorCode(err) {
		case events.CodeUnauthorized, events.CodeNotFound:
			return a, &RefusedError{Kind: RefusedSecret, Reason: "this reply address is not valid (forged, or replaced by a newer email): answer your latest email from the game"}
		}
		return a, err
	}
	return a, nil
}

// Outcome says what became of a message, for logs and tests.
type Outcome string

// Outcomes of Handle, besides the Answer.Says values joined by "+".
const (
	OutcomeIgnored    Outcome = "ignored"     // automatic message: not answered, not played
	OutcomeBounce     Outcome = "bounce"      // a hard bounce, recorded
	OutcomeSoftBounce Outcome = "soft_bounce" // a delay warning: logged only
	OutcomeDuplicate  Outcome = "duplicate"   // a message handled already
)

// Handle reads one message to one checked reply address and acts on it:
// plays the move, posts the chat, and writes the answer to the outbox.
// mailFrom is the envelope sender ("" for a bounce). An error is a
// temporary failure (the sender should try again); whatever the message
// holds, Handle answers it rather than failing, except for a message
// refused unread (*ShapeError): nested or divided beyond the limits
// (checkShape), or too slow to read (Config.ReadTimeout).
func (p *Processor) Handle(ctx context.Context, mailFrom string, a notify.ReplyAddress, raw []byte) (Outcome, error) {
	if err := checkShape(raw); err != nil {
		return "", err
	}
	rs, err := p.c.Service.Reply(ctx, a.GameID, a.Seat, a.Tag, a.TagVersion())
	if err != nil {
		return "", err
	}
	l, rerr := readLetter(raw, time.Now().Add(p.c.ReadTimeout), time.Now)
	if errors.Is(rerr, errReadDeadline) {
		return "", &ShapeError{Reason: "message refused: it took too long to read"}
	}
	if l == nil {
		// Not even a header: answer it as unreadable, unless it was a bounce.
		if strings.Trim(mailFrom, "<> ") == "" {
			return OutcomeIgnored, nil
		}
		l = &letter{}
	}
	if why := automatic(mailFrom, l.header); why != "" {
		switch kind, reason := readDSN(l.dsn); kind {
		case hardBounce:
			if err := p.c.Ledger.Bounce(ctx, a.GameID, a.Seat, rs.Email, reason, p.c.Now()); err != nil {
				return "", err
			}
			p.c.Logger.Info("inbound: hard bounce", "game", a.GameID, "seat", a.Seat, "reason", reason)
			return OutcomeBounce, nil
		case softBounce:
			p.c.Logger.Info("inbound: soft bounce: the relay keeps trying", "game", a.GameID, "seat", a.Seat, "reason", reason)
			return OutcomeSoftBounce, nil
		}
		p.c.Logger.Info("inbound: automatic message ignored", "game", a.GameID, "seat", a.Seat, "why", why)
		return OutcomeIgnored, nil
	}
	msgID, _ := l.header.MessageID()
	key := messageKey(a, msgID, raw)
	var read []string
	if rerr == nil || l.text != "" {
		read = replyLines(l.text)
	}
	ans := &outbox.Answer{}
	if msgID != "" && len(msgID) < 250 && !strings.ContainsAny(msgID, "<>\r\n \t") {
		ans.InReplyTo = "<" + msgID + ">"
	}
	if rs, err = p.act(ctx, a, rs, key, parse(read), read, ans); err != nil {
		return "", err
	}
	outcome := Outcome(strings.Join(ans.Says, "+"))
	if mailFrom != "" && !strings.EqualFold(strings.Trim(mailFrom, "<> "), rs.Email) {
		// The reply address is the credential; the answer goes to the
		// seat's own address whoever wrote.
		p.c.Logger.Info("inbound: reply from another address than the seat's", "game", a.GameID, "seat", a.Seat)
	}
	answered, dup, err := p.c.Ledger.Finish(ctx, a.GameID, key, a.Seat, string(outcome), answerRow(rs, ans), p.c.AnswersPerHour, p.c.Now())
	switch {
	case err != nil:
		return "", err
	case dup:
		return OutcomeDuplicate, nil
	case !answered:
		p.c.Logger.Warn("inbound: answers per hour reached, not answering", "game", a.GameID, "seat", a.Seat)
	}
	return outcome, nil
}

// act posts the chat and plays the moves of a parsed reply, filling in
// the answer, and returns the seat's context afterwards (its fresh list).
func (p *Processor) act(ctx context.Context, a notify.ReplyAddress, rs *play.ReplySeat, key string, pr parsed, read []string, ans *outbox.Answer) (*play.ReplySeat, error) {
	pr, ans.Skipped = pr.withoutGreetings(projections.Labels(rs.Legal))
	for range ans.Skipped {
		ans.Says = append(ans.Says, outbox.AnswerSkipped)
	}
	if pr.hasZone {
		if err := p.setZone(ctx, a, pr.zone, ans); err != nil {
			return nil, err
		}
		if len(pr.moves) == 0 && len(pr.chat) == 0 {
			return p.fresh(ctx, a, rs)
		}
	}
	if pr.hasAway || pr.back {
		if err := p.away(ctx, a, pr, ans); err != nil {
			return nil, err
		}
		if len(pr.moves) == 0 && len(pr.chat) == 0 {
			return p.fresh(ctx, a, rs)
		}
	}
	if len(pr.moves) == 0 && len(pr.chat) == 0 {
		ans.Says, ans.Quote = []string{outbox.AnswerUnreadable}, quote(read)
		return rs, nil
	}
	if len(pr.chat) > 0 {
		err := p.c.Service.ChatAs(ctx, a.GameID, a.Seat, strings.Join(pr.chat, "\n"), key)
		switch code := play.ErrorCode(err); code {
		case "":
			ans.Says = append(ans.Says, outbox.AnswerPosted)
		case events.CodeInvalid, events.CodeConflict:
			ans.Says, ans.Detail, ans.Code = append(ans.Says, outbox.AnswerChatFailed), play.ErrorMessage(err), play.ServiceErrorCode(err)
		default:
			return nil, err
		}
	}
	if len(pr.moves) == 0 {
		return p.fresh(ctx, a, rs)
	}
	if rs.Status == projections.StatusMuster {
		if err := p.muster(ctx, a, rs, key, pr.moves, read, ans); err != nil {
			return nil, err
		}
		return p.fresh(ctx, a, rs)
	}
	// The first line is read against the list the email numbered
	// (a.Choice), each next one against the list its move left.
	// A line that names a step the game played for the seat after the
	// move before it (its only move: "end turn" once the game ended the
	// turn) asks for what is done: it counts as done, and reading goes on.
	stale, want := len(pr.chat) > 0, a.Choice // the chat moved the game's version on
	var done []string
	for n, line := range pr.moves {
		if i := pickDone(line, done, rs.Players); i >= 0 {
			ans.Says, ans.Done = append(ans.Says, outbox.AnswerDone), append(ans.Done, line)
			done = done[i+1:]
			continue
		}
		l := &moveLine{n: n, text: line, key: "mail:" + key, want: want}
		if n > 0 {
			l.key += "#" + strconv.Itoa(n+1)
		}
		next, played, err := p.play(ctx, a, rs, l, stale, read, ans)
		if err != nil || !played {
			return next, err
		}
		rs, stale, want, done = next, false, next.Choice, l.forced
	}
	return rs, nil
}

// setZone reads a zone line's zone with the play page's resolver and
// records it as the seat's, saying so in the answer; a zone it does not
// know changes nothing, and the answer says what was not understood.
func (p *Processor) setZone(ctx context.Context, a notify.ReplyAddress, said string, ans *outbox.Answer) error {
	zone, ok := notify.ResolveZone(said)
	if !ok || p.c.Zones == nil {
		ans.Says, ans.Zone = append(ans.Says, outbox.AnswerZoneBad), said
		return nil
	}
	if err := p.c.Zones.SetZone(ctx, a.GameID, a.Seat, zone); err != nil {
		return err
	}
	ans.Says, ans.Zone = append(ans.Says, outbox.AnswerZone), zone
	return nil
}

// moveLine is one move line of a reply: its place (from 0), its text, the
// idempotency key of its move, and the tag of the list it is read against;
// once played, forced holds the labels of the steps the game played for
// the seat after it (play.PlayedFor.ForcedMoves).
type moveLine struct {
	n         int
	text, key string
	want      string
	forced    []string
}

// play plays one move line against the seat's context rs (read again
// first if stale), and reports whether it was played; if not, the answer
// says why (for a line after a played one: where reading stopped, and
// why). It returns the seat's context afterwards.
func (p *Processor) play(ctx context.Context, a notify.ReplyAddress, rs *play.ReplySeat, l *moveLine, stale bool, read []string, ans *outbox.Answer) (*play.ReplySeat, bool, error) {
	stop := func(why string) {
		if l.n == 0 {
			ans.Says = append(ans.Says, why)
			return
		}
		ans.Says, ans.Stopped = append(ans.Says, outbox.AnswerStopped, why), l.text
	}
	for try := 0; ; try++ {
		if stale {
			var err error
			if rs, err = p.fresh(ctx, a, rs); err != nil {
				return nil, false, err
			}
		}
		stale = true
		if timedOut, err := p.timedOut(ctx, a, rs, l, ans); err != nil || timedOut {
			return rs, false, err
		}
		switch {
		case l.n == 0 && a.TagVersion() > rs.Version:
			// The email told of a version the stream no longer reaches:
			// a restore of the database cut the game's history (see
			// play.Service.TellHistoryCut).
			ans.Says = append(ans.Says, outbox.AnswerHistoryCut)
			return rs, false, nil
		case rs.Bot != "" && rs.Status == projections.StatusActive:
			stop(outbox.AnswerBotPlays)
			return rs, false, nil
		case l.n > 0 && (rs.Status != projections.StatusActive || len(rs.Legal) == 0):
			stop(outbox.AnswerTurnOver)
			return rs, false, nil
		case rs.Status != projections.StatusActive:
			ans.Says = append(ans.Says, outbox.AnswerEnded)
			return rs, false, nil
		case len(rs.Legal) == 0 && len(rs.ToMove) > 0:
			ans.Says, ans.Turn = append(ans.Says, outbox.AnswerNotYourTurn), rs.ToMove
			return rs, false, nil
		case len(rs.Legal) == 0:
			ans.Says = append(ans.Says, outbox.AnswerNotAwaited)
			return rs, false, nil
		case l.want != rs.Choice:
			stop(outbox.AnswerMovedOn)
			return rs, false, nil
		}
		if l.n == 0 && a.Version > 0 {
			// The first line answers the email's position, not just its
			// list: a take-back gives the seat the same list again.
			stale, err := p.c.Service.ReplyStale(ctx, a.GameID, a.Seat, a.Version, events.EmailRequestID(strings.TrimPrefix(l.key, "mail:")))
			if err != nil {
				return nil, false, err
			}
			if stale {
				ans.Says = append(ans.Says, outbox.AnswerStale)
				return rs, false, nil
			}
		}
		labels := projections.Labels(rs.Legal)
		i, several := pick(l.text, labels, rs.Players)
		if several != nil {
			// Words that fit several moves name none: the answer lists
			// them, with their numbers in the list it gives.
			stop(outbox.AnswerAmbiguous)
			ans.Ambiguous, ans.Candidates = l.text, nil
			for _, k := range several {
				ans.Candidates = append(ans.Candidates, strconv.Itoa(k+1)+". "+labels[k])
			}
			return rs, false, nil
		}
		if i < 0 && l.n == 0 {
			unreadable := outbox.AnswerUnreadable
			if slices.Contains(ans.Says, outbox.AnswerPosted) {
				unreadable = outbox.AnswerUnreadableMoves // the chat was sent: never say it was not
			}
			ans.Says, ans.Quote = append(ans.Says, unreadable), quote(read)
			return rs, false, nil
		}
		if i < 0 {
			stop(outbox.AnswerUnknownLine)
			return rs, false, nil
		}
		view, err := p.c.Service.MoveAs(ctx, a.GameID, a.Seat, play.MoveRequest{Version: rs.Version, Move: rs.Legal[i],
			Key: l.key, RequestID: events.EmailRequestID(strings.TrimPrefix(l.key, "mail:"))})
		code := play.ErrorCode(err)
		switch {
		case err == nil:
			label := rs.Legal[i].Label()
			ans.Says, ans.Moves = append(ans.Says, outbox.AnswerPlayed), append(ans.Moves, label)
			if ans.Move == "" {
				ans.Move = label
			}
			// The steps forced on the seat after its move, in the same
			// append: its turn went on, or came again, and ended without it.
			pf, err := p.c.Service.PlayedFor(ctx, a.GameID, a.Seat, rs.Version, view.Version)
			if err != nil {
				return nil, false, err
			}
			for _, f := range pf.Forced {
				ans.Says, ans.Forced = append(ans.Says, outbox.AnswerForced), append(ans.Forced, f)
			}
			l.forced = pf.ForcedMoves
			return afterMove(rs, view), true, nil
		case code == events.CodeConflict && try < 3:
			continue // another seat moved meanwhile: look again
		case code == events.CodeConflict || code == engine.CodeGameOver || isRule(err):
			stop(outbox.AnswerRefused)
			ans.Detail, ans.Code = play.ErrorMessage(err), play.ServiceErrorCode(err)
			next, err := p.fresh(ctx, a, rs)
			return next, false, err
		default:
			return nil, false, err
		}
	}
}

// timedOut reports whether the seat's time ran out after the email the
// reply answers, and if so says so in the answer: the deadline's policy
// played the seat's turn (or paused the game) without this reply, which
// plays nothing, and the answer tells that rather than that the game
// moved on, is not the seat's turn, or that the seat played (ReplyStale).
// Only a reply's first line asks, and only of an address that names its
// email's version, which the stream still reaches.
func (p *Processor) timedOut(ctx context.Context, a notify.ReplyAddress, rs *play.ReplySeat, l *moveLine, ans *outbox.Answer) (bool, error) {
	if l.n > 0 || a.Version == 0 || a.TagVersion() > rs.Version || rs.Bot != "" {
		return false, nil
	}
	pf, err := p.c.Service.PlayedFor(ctx, a.GameID, a.Seat, a.Version, rs.Version)
	if err != nil || pf.TimedOut == "" {
		return false, err
	}
	ans.Says, ans.TimedOut = append(ans.Says, outbox.AnswerTimedOut), pf.TimedOut
	return true, nil
}

// afterMove is the seat's context after its move, from the view MoveAs
// answered (the seat's new version, status and legal moves), without
// reading the game again.
func afterMove(rs *play.ReplySeat, v *play.View) *play.ReplySeat {
	next := *rs
	next.Version, next.Status, next.Deadline, next.Legal = v.Version, v.Status, v.Deadline, v.LegalMoves
	next.Choice = projections.ChoiceTag(next.Legal)
	return &next
}

// fresh reads the seat's context again.
func (p *Processor) fresh(ctx context.Context, a notify.ReplyAddress, rs *play.ReplySeat) (*play.ReplySeat, error) {
	return p.c.Service.Reply(ctx, a.GameID, a.Seat, a.Tag, a.TagVersion())
}

func isRule(err error) bool { return play.AsRuleError(err) != nil }

// quote bounds what an answer quotes of a reply: 20 lines of 200 characters.
func quote(read []string) []string {
	var out []string
	for i, l := range read {
		if i == 20 {
			out = append(out, "[…]")
			break
		}
		if utf8.RuneCountInString(l) > 200 {
			l = string([]rune(l)[:200]) + "…"
		}
		out = append(out, l)
	}
	return out
}

// messageKey identifies a message to a seat: its Message-ID, or the digest
// of its bytes when it has none.
func messageKey(a notify.ReplyAddress, msgID string, raw []byte) string {
	h := sha256.New()
	h.Write([]byte(a.GameID + "\x00" + fmt.Sprint(a.Seat) + "\x00"))
	if msgID != "" {
		h.Write([]byte("id\x00" + msgID))
	} else {
		h.Write([]byte("raw\x00"))
		h.Write(raw)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// answerRow is the outbox row of an answer to the seat's own address.
func answerRow(rs *play.ReplySeat, ans *outbox.Answer) *outbox.Row {
	p := outbox.NewPayload(outbox.Head{
		To:       outbox.Recipient{Seat: rs.Seat, Name: rs.Name, Email: rs.Email},
		Language: rs.Language,
		Game:     outbox.GameInfo{ID: rs.GameID, Name: rs.Game, Players: rs.Players, Bots: rs.Bots},
		TokenGen: rs.TokenGen,
		Version:  rs.Version,
		Deadline: rs.Deadline,
	})
	p.Moves, p.Choice, p.Answer = projections.Labels(rs.Legal), rs.Choice, ans
	// An answer that lists the seat's moves asks for one: it tells the
	// deadline, as a your-turn email does.
	p.Awaited = len(rs.Legal) > 0
	return &outbox.Row{GameID: rs.GameID, Seat: &rs.Seat, Kind: outbox.Reply, Payload: p, EventVersion: rs.Version}
}
