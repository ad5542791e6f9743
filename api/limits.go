package api

import (
	"math"
	"net/http"
	"pbem/events"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"pbem/api/clientnet"
	"pbem/events/play"
)

// Limits bound what one client network and one organiser address may ask
// the server to email (issue #15): games proposed per hour, invitations
// per day (a proposed game counts its players), and sign-in links per
// hour; and what one person may be sent on others' requests (issue #44).
// A client is counted by its network (clientnet.Of: an IPv4 /24, an IPv6
// /64), so that the addresses of one network share one budget. A zero
// field takes its default; a negative one switches that limit off (the
// load test). Refusals answer 429 with Retry-After. The budgets are token
// buckets of golang.org/x/time/rate held in memory: each serve process
// counts for itself.
type Limits struct {
	GamesPerHourAddress      int
	GamesPerHourIP           int
	InvitationsPerDayAddress int
	InvitationsPerDayIP      int
	SigninsPerHour           int
	// MailsPerHourRecipient bounds the emails one address (without its
	// subaddress) is sent on requests from the internet, whoever makes
	// them and from wherever: sign-in links, invitations, confirmation
	// links, and the admin's mails (a resent link, a corrected address, a
	// replacement and the notice to the player replaced). It is larger
	// than one network's sign-in budget, so that a stranger on one network
	// cannot spend it all.
	MailsPerHourRecipient int
}

// The defaults of Limits: a club's evening, not a spammer's.
const (
	DefaultGamesPerHourAddress      = 5
	DefaultGamesPerHourIP           = 20
	DefaultInvitationsPerDayAddress = 40
	DefaultInvitationsPerDayIP      = 150
	DefaultSigninsPerHour           = 5
	DefaultMailsPerHourRecipient    = 20
)

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&l.GamesPerHourAddress, DefaultGamesPerHourAddress)
	def(&l.GamesPerHourIP, DefaultGamesPerHourIP)
	def(&l.InvitationsPerDayAddress, DefaultInvitationsPerDayAddress)
	def(&l.InvitationsPerDayIP, DefaultInvitationsPerDayIP)
	def(&l.SigninsPerHour, DefaultSigninsPerHour)
	def(&l.MailsPerHourRecipient, DefaultMailsPerHourRecipient)
	return l
}

// errLimited is the error of a refused request: 429, and the wait.
type errLimited struct{ wait time.Duration }

func (e *errLimited) Error() string { return "rate limited" }

// retryAfter is the Retry-After value of e, in whole seconds (at least 1).
func (e *errLimited) retryAfter() string {
	return strconv.Itoa(max(1, int(math.Ceil(e.wait.Seconds()))))
}

// bucket is one budget: a rate.Limiter per key (an IP, an address),
// forgotten once full again.
type bucket struct {
	per   time.Duration // the period the budget is counted over
	n     int           // events per period (the burst too); <0: no limit
	mu    sync.Mutex
	keys  map[string]*rate.Limiter
	swept time.Time
}

func newBucket(n int, per time.Duration) *bucket {
	return &bucket{per: per, n: n, keys: map[string]*rate.Limiter{}}
}

// reserve takes cost from key's budget at now, or returns how long to wait
// (the reservation is then given back). A cost above the whole budget
// waits a whole period: it can never pass.
func (b *bucket) reserve(key string, cost int, now time.Time) (*rate.Reservation, time.Duration) {
	if b.n < 0 || cost <= 0 {
		return nil, 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.Sub(b.swept) > b.per {
		// Forget the keys whose budget is full again: they would allow a
		// whole burst anyway.
		for k, l := range b.keys {
			if l.TokensAt(now) >= float64(b.n) {
				delete(b.keys, k)
			}
		}
		b.swept = now
	}
	l, ok := b.keys[key]
	if !ok {
		l = rate.NewLimiter(rate.Every(b.per/time.Duration(b.n)), b.n)
		b.keys[key] = l
	}
	r := l.ReserveN(now, cost)
	if !r.OK() {
		return nil, b.per
	}
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return nil, d
	}
	return r, 0
}

// limiter holds the server's budgets.
type limiter struct {
	gamesAddr, gamesIP, invAddr, invIP, signin, resend, recipient *bucket
	now                                                           func() time.Time
}

func newLimiter(l Limits, now func() time.Time) *limiter {
	l = l.withDefaults()
	return &limiter{
		gamesAddr: newBucket(l.GamesPerHourAddress, time.Hour),
		gamesIP:   newBucket(l.GamesPerHourIP, time.Hour),
		invAddr:   newBucket(l.InvitationsPerDayAddress, 24*time.Hour),
		invIP:     newBucket(l.InvitationsPerDayIP, 24*time.Hour),
		signin:    newBucket(l.SigninsPerHour, time.Hour),
		resend:    newBucket(l.GamesPerHourAddress, time.Hour),
		recipient: newBucket(l.MailsPerHourRecipient, time.Hour),
		now:       now,
	}
}

// charge is one request's use of several budgets, taken all or none.
type charge struct {
	rs []*rate.Reservation
	at time.Time // when they were taken
}

// undo gives the budgets back (the request was refused for another
// reason). rate.Reservation gives tokens back only to a cancellation
// dated no later than the reservation, hence the time of take.
func (c *charge) undo() {
	for _, r := range c.rs {
		r.CancelAt(c.at)
	}
}

// take reserves each (bucket, key, cost) or none; the error says how long
// to wait for the scarcest.
func (lm *limiter) take(items ...limitItem) (*charge, error) {
	now := lm.now()
	c := &charge{at: now}
	for _, it := range items {
		r, wait := it.b.reserve(it.key, it.cost, now)
		if wait > 0 {
			c.undo()
			return nil, &errLimited{wait: wait}
		}
		if r != nil {
			c.rs = append(c.rs, r)
		}
	}
	return c, nil
}

type limitItem struct {
	b    *bucket
	key  string
	cost int
}

// proposal charges a proposed game of seats to ip's network and the
// organiser's address, its invitations (one a seat) to them too, and each
// email to its recipient: the organiser's confirmation link and the
// invitations to the addresses of players.
func (lm *limiter) proposal(ip, organiser string, seats int, players []string) (*charge, error) {
	addr, n := budgetAddress(organiser), clientnet.Of(ip)
	items := []limitItem{{lm.gamesIP, n, 1}, {lm.gamesAddr, addr, 1},
		{lm.invIP, n, seats}, {lm.invAddr, addr, seats}, {lm.recipient, addr, 1}}
	return lm.take(append(items, lm.recipients(players)...)...)
}

// recipients charges one email to each address of to.
func (lm *limiter) recipients(to []string) []limitItem {
	items := make([]limitItem, 0, len(to))
	for _, a := range to {
		items = append(items, limitItem{lm.recipient, budgetAddress(a), 1})
	}
	return items
}

// budgetAddress is the key of an address's budgets: lower case, without
// a subaddress (ann+1@, ann+2@… all reach ann@ and share its budget). It
// is used for budgets only: mail goes to the address as given.
func budgetAddress(email string) string {
	addr := strings.ToLower(strings.TrimSpace(email))
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return addr
	}
	local, domain := addr[:at], addr[at:]
	if plus := strings.IndexByte(local, '+'); plus >= 0 {
		local = local[:plus]
	}
	return local + domain
}

// signinRequest charges a sign-in link to ip's network, to the address as
// asked from that network, and to the address's own budget of emails
// (MailsPerHourRecipient). The address's sign-in budget is kept per
// network, so that a stranger spending it from elsewhere cannot lock its
// owner out of sign-in; its budget of emails is larger than that, and
// bounds what every network together can send it. Subaddresses (ann+1@,
// ann+2@…) share one more sign-in budget across every network, so that
// they cannot multiply the links sent to one mailbox. The caller gives
// the charge back when no link was sent.
func (lm *limiter) signinRequest(ip, email string) (*charge, error) {
	exact, addr, n := strings.ToLower(strings.TrimSpace(email)), budgetAddress(email), clientnet.Of(ip)
	items := []limitItem{{lm.signin, "net:" + n, 1}, {lm.signin, "addr:" + exact + " net:" + n, 1}}
	if exact != addr {
		items = append(items, limitItem{lm.signin, "sub:" + addr, 1})
	}
	return lm.take(append(items, lm.recipients([]string{email})...)...)
}

// adminResend charges a resent admin link to its game.
func (lm *limiter) adminResend(gameID string) error {
	_, err := lm.take(limitItem{lm.resend, gameID, 1})
	return err
}

// adminMail charges an admin action that emails the addresses to (a
// resent link, a corrected address, a replacement and the notice to the
// player it replaces, a new admin link) as one invitation each, to the
// client's network and to the organiser's address, and one email to each
// recipient: the admin page cannot email more than proposing games could.
func (lm *limiter) adminMail(ip, organiser string, to []string) (*charge, error) {
	addr, n := budgetAddress(organiser), clientnet.Of(ip)
	items := []limitItem{{lm.invIP, n, len(to)}, {lm.invAddr, addr, len(to)}}
	return lm.take(append(items, lm.recipients(to)...)...)
}

// mailTo says whom an admin action emails, given the game's organiser and
// the address of each seat (SeatEmails) before it.
type mailTo func(org play.Organiser, seats []string) []string

// toSeat is the player of seat (a resent link).
func toSeat(seat int) mailTo {
	return func(_ play.Organiser, seats []string) []string { return seatEmail(seats, seat) }
}

// toAddress is a new address (a corrected one).
func toAddress(email string) mailTo {
	return func(play.Organiser, []string) []string { return []string{email} }
}

// toReplaced is a replacement of seat by email: the newcomer's invitation
// and the notice "You no longer play" to the player replaced.
func toReplaced(seat int, email string) mailTo {
	return func(_ play.Organiser, seats []string) []string {
		return append([]string{email}, seatEmail(seats, seat)...)
	}
}

// toOrganiser is the organiser (a new admin link).
func toOrganiser(org play.Organiser, _ []string) []string { return []string{org.Email} }

// seatEmail is the address of seat, if it has one.
func seatEmail(seats []string, seat int) []string {
	if seat < 0 || seat >= len(seats) || seats[seat] == "" {
		return nil
	}
	return []string{seats[seat]}
}

// people are the addresses of seats that have one.
func people(seats []string) []string {
	var out []string
	for _, e := range seats {
		if e != "" {
			out = append(out, e)
		}
	}
	return out
}

// chargeAdminMail runs send, an admin action of game id that emails the
// addresses to names, charged to the limits (adminMail) once tok is known
// to be the game's admin token (a wrong token spends nothing); a refused
// action gives its charge back.
func chargeAdminMail(c echo.Context, svc Reads, lm *limiter, id, tok string, to mailTo, send func() error) error {
	ctx := c.Request().Context()
	a, err := svc.Authenticate(ctx, id, tok)
	if err != nil {
		return err
	}
	if !a.Admin {
		return events.Errorf(events.CodeUnauthorized, "this is not the admin token of game %s", id)
	}
	org, err := svc.Organiser(ctx, id)
	if err != nil {
		return err
	}
	seats, err := svc.SeatEmails(ctx, id)
	if err != nil {
		return err
	}
	ch, err := lm.adminMail(clientIP(c), org.Email, to(org, seats))
	if err != nil {
		return err
	}
	if err := send(); err != nil {
		ch.undo()
		return err
	}
	return nil
}

// chargeRematch charges a rematch of game id as a proposal of its
// organiser, from the client's network: a game of as many seats, emailed
// to the same people.
func chargeRematch(c echo.Context, svc Reads, lm *limiter, id string) (*charge, error) {
	ctx := c.Request().Context()
	org, err := svc.Organiser(ctx, id)
	if err != nil {
		return nil, err
	}
	seats, err := svc.SeatEmails(ctx, id)
	if err != nil {
		return nil, err
	}
	return lm.proposal(clientIP(c), org.Email, len(seats), people(seats))
}

// clientIP is the request's client address as echo's IP extractor sees it
// (the peer address unless the server is configured to trust a proxy).
func clientIP(c echo.Context) string { return c.RealIP() }

// writeLimited answers a refused request: 429, Retry-After, and a JSON
// error naming the wait.
func writeLimited(c echo.Context, e *errLimited) error {
	c.Response().Header().Set("Retry-After", e.retryAfter())
	return c.JSON(http.StatusTooManyRequests, ErrorBody{Error: ErrorDetail{Code: "rate_limited",
		Message: "too many requests from this address or for this organiser: try again in " + e.retryAfter() + " seconds"}})
}
