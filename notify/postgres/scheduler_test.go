package postgres_test

import (
	"context"
	"encoding/json"
	"net/mail"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/events/pbemevent"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/notify"
	"pbem/notify/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections"
	projpg "pbem/projections/postgres"
	"pbem/projections/testgame"
)

// asyncRig is a game service, an outbox worker and a scheduler on one
// database, all on a fake clock.
type asyncRig struct {
	t     *testing.T
	pool  *pgxpool.Pool
	clock *clock
	svc   *play.Service
	sink  *smtpsink.Sink
	work  *notify.Worker
	sched *play.Scheduler
	hist  postgres.Histories // tells the digests' table talk
}

// rigSecret is the secret of a rig's service.
var rigSecret = []byte("secret")

func newRig(t *testing.T) *asyncRig {
	t.Helper()
	pool := newPool(t)
	c := newClock() // the service's rows are due by it, as the worker's claims
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	svc := play.New(play.Config{Games: engine.NewRegistry(testgame.Game{}), Store: store,
		Repo: projpg.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: rigSecret, Now: c.Now,
		Seeds: playtest.Seeds(t.Name())})
	sink := smtpsink.Start(t, smtpsink.Options{})
	hist := postgres.Histories{Games: engine.NewRegistry(testgame.Game{}), Events: store}
	sched, err := play.NewScheduler(play.SchedulerConfig{Store: playpg.NewDeadlines(pool), Digests: postgres.NewDigester(pool, hist), Timeouter: svc, Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	return &asyncRig{t: t, pool: pool, clock: c, svc: svc, sink: sink, sched: sched, hist: hist,
		work: newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink), prefs: postgres.NewPrefs(pool)})}
}

func (r *asyncRig) create(policy string) *play.CreatedGame {
	r.t.Helper()
	g, err := r.svc.Create(context.Background(), play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"},
		Game: testgame.Name, Language: "fr", Options: json.RawMessage(`{"target":25}`),
		Players:      []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}},
		TurnDeadline: time.Hour, ReminderBefore: 10 * time.Minute, TimeoutPolicy: policy,
	})
	if err != nil {
		r.t.Fatal(err)
	}
	return g
}

// mail sends what is due and returns the emails received since the last
// call, as (kind, recipient) pairs with the parsed message.
func (r *asyncRig) mail(from int) []smtpsink.Parsed {
	r.t.Helper()
	for {
		n, err := r.work.RunOnce(context.Background())
		if err != nil {
			r.t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	var out []smtpsink.Parsed
	for _, m := range r.sink.Messages()[from:] {
		p, err := smtpsink.Parse(m.Data)
		if err != nil {
			r.t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func (r *asyncRig) tick() play.TickResult {
	r.t.Helper()
	res, err := r.sched.Tick(context.Background())
	if err != nil {
		r.t.Fatal(err)
	}
	return res
}

func (r *asyncRig) game(id string) *projections.Game {
	r.t.Helper()
	g, err := projpg.New(r.pool).Game(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return g
}

// view opens the game with the token of an email, as the play page does
// (the REST API's view is tested with emailed links in package api).
func (r *asyncRig) view(id, token string) *play.View {
	r.t.Helper()
	v, err := r.svc.View(context.Background(), id, token)
	if err != nil {
		r.t.Fatalf("the emailed token does not open the view: %v", err)
	}
	return v
}

func rcpt(t *testing.T, m smtpsink.Parsed) string {
	t.Helper()
	a, err := mail.ParseAddress(m.Header.Get("To"))
	if err != nil {
		t.Fatal(err)
	}
	return a.Address
}

var tokenRE = regexp.MustCompile(`/play/([a-z0-9]+)\?token=([A-Za-z0-9_%-]+)`)

func TestDeadlineReminderTimeoutAndNextPlayerEmailed(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	ctx := context.Background()
	c := r.create(projections.PolicyDefaultMove)
	inv := r.mail(0)
	if len(inv) != 2 {
		t.Fatalf("%d invitations", len(inv))
	}
	// The link in the invitation opens the player's view.
	for _, m := range inv {
		sub := tokenRE.FindStringSubmatch(m.Text)
		if sub == nil || sub[1] != c.ID {
			t.Fatalf("no play link in %q", m.Text)
		}
		tok, _ := url.QueryUnescape(sub[2])
		v := r.view(c.ID, tok)
		if want := map[string]int{"ann@example.org": 0, "bob@example.org": 1}[rcpt(t, m)]; v.Seat != want {
			t.Errorf("the link mailed to %s opens seat %d", rcpt(t, m), v.Seat)
		}
	}
	first := r.game(c.ID).ToMove[0]
	sent := len(r.sink.Messages())

	if res := r.tick(); res != (play.TickResult{}) {
		t.Fatalf("tick before anything is due: %+v", res)
	}
	r.clock.Add(51 * time.Minute) // past the reminder time
	if res := r.tick(); res.Reminded != 1 || res.TimedOut != 0 {
		t.Fatalf("tick at reminder time: %+v", res)
	}
	if res := r.tick(); res.Reminded != 0 {
		t.Fatalf("reminded twice: %+v", res)
	}
	rem := r.mail(sent)
	if len(rem) != 1 || !regexp.MustCompile(`^Votre tour se termine`).MatchString(rem[0].Subject) {
		t.Fatalf("reminders: %+v", rem)
	}
	sent = len(r.sink.Messages())

	r.clock.Add(10 * time.Minute) // past the deadline
	if res := r.tick(); res.TimedOut != 1 {
		t.Fatalf("tick after the deadline: %+v", res)
	}
	if res := r.tick(); res.TimedOut != 0 {
		t.Fatalf("timed out twice: %+v", res)
	}
	g := r.game(c.ID)
	if g.Version < 3 || (len(g.ToMove) == 1 && g.ToMove[0] == first) {
		t.Fatalf("after the timeout: version %d, to move %v", g.Version, g.ToMove)
	}
	var timeouts int
	if err := r.pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE stream = $1 AND type = $2`, c.ID, pbemevent.TypeTimeout).Scan(&timeouts); err != nil || timeouts != 1 {
		t.Fatalf("timeout events: %d, %v", timeouts, err)
	}
	var played int
	if err := r.pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE stream = $1 AND actor = 'system' AND type <> $2`, c.ID, pbemevent.TypeTimeout).Scan(&played); err != nil || played == 0 {
		t.Fatalf("default moves recorded as events: %d, %v", played, err)
	}
	after := r.mail(sent)
	kinds := map[string]bool{}
	for _, m := range after {
		kinds[m.Subject] = true
	}
	var gotTimeout, gotTurn bool
	for _, m := range after {
		switch {
		case regexp.MustCompile(`^Le temps est écoulé`).MatchString(m.Subject):
			gotTimeout = true
		case regexp.MustCompile(`^À vous de jouer`).MatchString(m.Subject):
			gotTurn = true
			sub := tokenRE.FindStringSubmatch(m.Text)
			tok, _ := url.QueryUnescape(sub[2])
			if v := r.view(c.ID, tok); v.Seat != g.ToMove[0] {
				t.Errorf("your-turn link opens seat %d, want %d", v.Seat, g.ToMove[0])
			}
		}
	}
	if !gotTimeout || !gotTurn {
		t.Fatalf("after the timeout got %v, want a timeout notice and a your-turn email", kinds)
	}
}

func TestPauseAndExtendMoveTheDeadline(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	ctx := context.Background()
	c := r.create(projections.PolicyDefaultMove)
	r.mail(0)

	if _, err := r.svc.Pause(ctx, c.ID, c.AdminToken, ""); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(2 * time.Hour)
	if res := r.tick(); res.TimedOut != 0 || res.Reminded != 0 {
		t.Fatalf("a paused game timed out or was reminded: %+v", res)
	}
	if _, err := r.svc.Resume(ctx, c.ID, c.AdminToken); err != nil {
		t.Fatal(err)
	}
	if res := r.tick(); res.TimedOut != 0 {
		t.Fatalf("timed out right after resume: %+v", res)
	}
	if _, err := r.svc.Extend(ctx, c.ID, c.AdminToken, 2*time.Hour); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(61 * time.Minute) // past the first deadline, before the extended one
	if res := r.tick(); res.TimedOut != 0 {
		t.Fatalf("timed out before the extended deadline: %+v", res)
	}
	r.clock.Add(2 * time.Hour)
	if res := r.tick(); res.TimedOut != 1 {
		t.Fatalf("no timeout after the extended deadline: %+v", res)
	}
}

// TestExtensionSurvivesPause: a resume gives back the time that was left
// at the pause, a 24-hour extension included (it used to restart the turn's
// one hour and drop the extension).
func TestExtensionSurvivesPause(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	ctx := context.Background()
	c := r.create(projections.PolicyDefaultMove)
	if _, err := r.svc.Extend(ctx, c.ID, c.AdminToken, 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(10 * time.Minute)
	left := r.game(c.ID).DeadlineAt.Sub(r.clock.Now()) // 24 h 50 min
	if _, err := r.svc.Pause(ctx, c.ID, c.AdminToken, "holidays"); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(5 * time.Hour)
	if _, err := r.svc.Resume(ctx, c.ID, c.AdminToken); err != nil {
		t.Fatal(err)
	}
	got := r.game(c.ID).DeadlineAt.Sub(r.clock.Now())
	if d := got - left; d < -time.Second || d > time.Second {
		t.Fatalf("after the resume %v are left, want the %v left at the pause", got, left)
	}
	r.clock.Add(left - 5*time.Minute)
	if res := r.tick(); res.TimedOut != 0 {
		t.Fatalf("timed out before the deadline kept across the pause: %+v", res)
	}
	r.clock.Add(10 * time.Minute)
	if res := r.tick(); res.TimedOut != 1 {
		t.Fatalf("no timeout after the deadline kept across the pause: %+v", res)
	}

	// A pause with less left than a turn resumes with a whole turn.
	if _, err := r.svc.Pause(ctx, c.ID, c.AdminToken, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.Resume(ctx, c.ID, c.AdminToken); err != nil {
		t.Fatal(err)
	}
	if got := r.game(c.ID).DeadlineAt.Sub(r.clock.Now()); got < time.Hour-time.Second {
		t.Fatalf("after a resume %v are left, want at least the turn's hour", got)
	}
}

func TestPausePolicyPausesTheGame(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	c := r.create(projections.PolicyPause)
	r.mail(0)
	r.clock.Add(61 * time.Minute)
	if res := r.tick(); res.TimedOut != 1 {
		t.Fatalf("tick: %+v", res)
	}
	if g := r.game(c.ID); g.Status != projections.StatusPaused {
		t.Fatalf("status %s, want paused", g.Status)
	}
	r.clock.Add(24 * time.Hour)
	if res := r.tick(); res.TimedOut != 0 {
		t.Fatalf("a paused game timed out again: %+v", res)
	}
}

func TestDailyDigestListsWaitingGamesOncePerDay(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	c1 := r.create(projections.PolicyDefaultMove)
	c2 := r.create(projections.PolicyDefaultMove)
	r.mail(0)
	prefs := postgres.NewPrefs(r.pool)
	for _, e := range []string{"ann@example.org", "bob@example.org"} {
		if err := prefs.SetMode(ctx, e, notify.DailyDigest); err != nil {
			t.Fatal(err)
		}
	}
	day := r.clock.Now().UTC().Truncate(24 * time.Hour)
	r.clock.Add(day.Add(24*time.Hour + 6*time.Hour).Sub(r.clock.Now())) // tomorrow 06:00 UTC
	if n, _ := postgres.NewDigester(r.pool, r.hist).Digests(ctx, r.clock.Now(), 7); n != 0 {
		t.Fatalf("%d digests before the digest hour", n)
	}
	r.clock.Add(time.Hour)
	sent := len(r.sink.Messages())
	n, err := postgres.NewDigester(r.pool, r.hist).Digests(ctx, r.clock.Now(), 7)
	if err != nil || n == 0 {
		t.Fatalf("digests: %d, %v", n, err)
	}
	if again, _ := postgres.NewDigester(r.pool, r.hist).Digests(ctx, r.clock.Now(), 7); again != 0 {
		t.Fatalf("%d more digests the same day", again)
	}
	got := r.mail(sent)
	if len(got) != n {
		t.Fatalf("%d digest emails, want %d", len(got), n)
	}
	for _, m := range got {
		links := tokenRE.FindAllStringSubmatch(m.Text, -1)
		if len(links) == 0 {
			t.Fatalf("digest without links: %s", m.Text)
		}
		for _, l := range links {
			if l[1] != c1.ID && l[1] != c2.ID {
				t.Errorf("digest links to %s", l[1])
			}
			tok, _ := url.QueryUnescape(l[2])
			if _, err := r.svc.View(ctx, l[1], tok); err != nil {
				t.Errorf("digest link does not open the view: %v", err)
			}
		}
	}
}

func TestTwoSchedulersTimeOutEachGameOnce(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	ctx := context.Background()
	var ids []string
	for range 8 {
		ids = append(ids, r.create(projections.PolicyDefaultMove).ID)
	}
	r.clock.Add(61 * time.Minute)
	other, err := play.NewScheduler(play.SchedulerConfig{Store: playpg.NewDeadlines(r.pool), Digests: postgres.NewDigester(r.pool, r.hist), Timeouter: r.svc, Now: r.clock.Now, Batch: 5})
	if err != nil {
		t.Fatal(err)
	}
	results := make(chan play.TickResult, 2)
	errs := make(chan error, 2)
	for _, s := range []*play.Scheduler{r.sched, other} {
		go func() {
			res, err := s.Tick(ctx)
			results <- res
			errs <- err
		}()
	}
	total := 0
	for range 2 {
		total += (<-results).TimedOut
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	total += r.tick().TimedOut // what a batch of 5 left over
	if total != len(ids) {
		t.Errorf("%d timeouts for %d games", total, len(ids))
	}
	var n int
	if err := r.pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE type = $1`, pbemevent.TypeTimeout).Scan(&n); err != nil || n != len(ids) {
		t.Fatalf("%d timeout events for %d games (%v)", n, len(ids), err)
	}
	var notices int
	if err := r.pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE kind = 'timeout'`).Scan(&notices); err != nil || notices != len(ids) {
		t.Fatalf("%d timeout notices for %d games (%v)", notices, len(ids), err)
	}
}
