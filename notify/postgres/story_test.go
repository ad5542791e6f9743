package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"pbem/events/pbemevent"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/notify"
	"pbem/notify/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections"
	"pbem/projections/outbox"
	projpg "pbem/projections/postgres"
)

// storyEnv is a real game service, outbox worker (with its SeatReader)
// and SMTP server on loopback, for the emails that tell the story.
type storyEnv struct {
	t     testing.TB
	pool  *pgxpool.Pool
	store *evpg.Store
	repo  *projpg.Repo
	svc   *play.Service
	games engine.Registry
	sink  *smtpsink.Sink
	w     *notify.Worker
	seen  int // messages of the sink already taken
}

func newStoryEnv(t testing.TB) *storyEnv {
	t.Helper()
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	e := &storyEnv{t: t, pool: newPool(t), games: engine.NewRegistry(lg, bagpipes.Game{})}
	e.store = evpg.New(e.pool)
	t.Cleanup(e.store.Close)
	e.repo = projpg.New(e.pool)
	e.svc = play.New(play.Config{Games: e.games, Store: e.store, Repo: e.repo, Accounts: playpg.New(e.pool), Visits: playpg.New(e.pool), Secret: []byte("secret"),
		Seeds: playtest.Seeds(t.Name())})
	e.sink = smtpsink.Start(t, smtpsink.Options{})
	e.w, err = notify.NewWorker(notify.WorkerConfig{Store: postgres.NewOutbox(e.pool), Sender: smtpSender(t, e.sink),
		Renderer: testRenderer(t), Seats: postgres.NewSeats(e.pool, postgres.Histories{Games: e.games, Events: e.store}), Batch: 100, Lease: time.Minute, RecordFor: -1,
		Now: func() time.Time { return time.Now().Add(time.Second) }})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// create starts a game of name with players named P0, P1... in lang.
// useWorkerAhead gives e a worker with the outbox's freshness checks whose
// clock runs a second plus *ahead in front of the real one, so that a test
// moves it past a mail grace or a retry by setting *ahead.
func (e *storyEnv) useWorkerAhead(t testing.TB, ahead *time.Duration) {
	t.Helper()
	out := postgres.NewOutbox(e.pool)
	w, err := notify.NewWorker(notify.WorkerConfig{Store: out, Freshness: out, Sender: smtpSender(t, e.sink),
		Renderer: testRenderer(t), Seats: postgres.NewSeats(e.pool, postgres.Histories{Games: e.games, Events: e.store}),
		Batch: 100, Lease: time.Minute, RecordFor: -1, Now: func() time.Time { return time.Now().Add(time.Second + *ahead) }})
	if err != nil {
		t.Fatal(err)
	}
	e.w = w
}

func (e *storyEnv) create(name, lang string, players int) *play.CreatedGame {
	e.t.Helper()
	req := play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: name, Language: lang}
	for i := range players {
		req.Players = append(req.Players, play.NewPlayer{Name: fmt.Sprintf("P%d", i), Email: fmt.Sprintf("p%d@example.org", i)})
	}
	c, err := e.svc.Create(context.Background(), req)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// sentEmail is one email the SMTP server received, with its outbox row.
type sentEmail struct {
	Kind    outbox.Kind
	Seat    int
	Version int64
	Mail    smtpsink.Parsed
}

// deliver runs the worker until the outbox has nothing due and returns the
// emails the SMTP server received meanwhile.
func (e *storyEnv) deliver() []sentEmail {
	e.t.Helper()
	ctx := context.Background()
	for {
		n, err := e.w.RunOnce(ctx)
		if err != nil {
			e.t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	var want int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE status = 'sent'`).Scan(&want); err != nil {
		e.t.Fatal(err)
	}
	got := e.sink.Wait(want, 5*time.Second)
	if len(got) != want {
		e.t.Fatalf("the SMTP server received %d emails, the outbox sent %d", len(got), want)
	}
	var out []sentEmail
	for _, r := range got[e.seen:] {
		p, err := smtpsink.Parse(r.Data)
		if err != nil {
			e.t.Fatal(err)
		}
		// The outbox row records the Message-ID it was sent with (a seat's
		// first invitation is its thread's root, not outbox-ID).
		mid := strings.Trim(p.Header.Get("Message-Id"), "<>")
		s := sentEmail{Mail: p}
		var kind string
		if err := e.pool.QueryRow(ctx, `SELECT kind, coalesce(seat, -1), coalesce(event_version, 0) FROM outbox WHERE message_id = $1`, mid).Scan(&kind, &s.Seat, &s.Version); err != nil {
			e.t.Fatalf("the row of Message-Id %q: %v", mid, err)
		}
		s.Kind = outbox.Kind(kind)
		out = append(out, s)
	}
	e.seen = len(got)
	return out
}

// playRandom plays a legal move, picked by rng, of the first seat game id
// awaits, and reports whether it played one (false: the game has ended).
func (e *storyEnv) playRandom(id string, rng *rand.Rand) bool {
	e.t.Helper()
	row, _, st := e.state(id)
	if row.Ended() {
		return false
	}
	seat := row.ToMove[0]
	legal := st.Legal(seat)
	mv, err := json.Marshal(legal[rng.IntN(len(legal))])
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.svc.MoveAs(context.Background(), id, seat, play.MoveRequest{Version: row.Version, Move: play.PostedMove(mv)}); err != nil {
		e.t.Fatalf("move %s: %v", mv, err)
	}
	return true
}

// state is the game's current row and engine state.
func (e *storyEnv) state(id string) (*projections.Game, engine.Game, engine.State) {
	e.t.Helper()
	row, err := e.repo.Game(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	// The whole current state, replayed from the events (the stored one is
	// a snapshot).
	now, _, err := projections.Replay(context.Background(), e.games, e.store, row)
	if err != nil {
		e.t.Fatal(err)
	}
	eng := e.games[row.Game]
	st, err := eng.DecodeState(now.Game.State)
	if err != nil {
		e.t.Fatal(err)
	}
	return row, eng, st
}

// expectedStory is, computed from the whole history of seat (not from
// notify/postgres's selection), what an email of a story (your-turn,
// round-end, game-over) at version upto must list, heard being the
// version the seat's previous such email told up to (0: none): the seat's
// redacted lines after the later of heard and its last own move (an own
// event that is not a step of the game) or muster answer
// (pbemevent.EndsStory), without table talk and the game's creation.
// afterEmail: the lines start after heard ("Since our last email").
func (e *storyEnv) expectedStory(id string, seat int, upto, heard int64) (lines []string, afterEmail bool) {
	e.t.Helper()
	row, err := e.repo.Game(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	evs, err := e.store.ReadStream(context.Background(), id, 1)
	if err != nil {
		e.t.Fatal(err)
	}
	rows, err := projections.SeatHistory(e.games, row, evs, seat)
	if err != nil {
		e.t.Fatal(err)
	}
	from := heard
	for _, r := range rows {
		if r.Version > heard && r.Version <= upto && r.Actor == "seat:"+strconv.Itoa(seat) && pbemevent.EndsStory(r.Type) && !r.Step {
			from = r.Version
		}
	}
	for _, r := range rows {
		if r.Version > from && r.Version <= upto && r.Type != pbemevent.TypeChat && r.Type != pbemevent.TypeCreated && r.Summary != "" {
			lines = append(lines, r.Summary)
		}
	}
	return lines, from == heard && heard > 0
}

// told tracks, by seat, the version the last email of a story (your-turn,
// round-end, game-over) it was sent told up to, and checks each such email
// against expectedStory: its lines, in order, are the seat's history it
// was not told, so that no line is told twice across its emails and none
// is skipped.
type told map[int]int64

// check checks m (of any kind; emails that tell no story are left alone)
// and returns its lines and headings.
func (h told) check(e *storyEnv, id string, m sentEmail, lang string) (lines, heads []string) {
	e.t.Helper()
	if m.Kind != outbox.YourTurn && m.Kind != outbox.RoundEnd && m.Kind != outbox.GameOver {
		return nil, nil
	}
	want, afterEmail := e.expectedStory(id, m.Seat, m.Version, h[m.Seat])
	intro := storyIntro[lang]
	if afterEmail {
		intro = storyIntroEmail[lang]
	}
	lines, heads = storyLines(m.Mail.Text, intro)
	if !slices.Equal(lines, want) {
		e.t.Fatalf("%s email to seat %d at v%d lists\n%q\nwant its history since it last heard (v%d) or moved\n%q\n%s",
			m.Kind, m.Seat, m.Version, lines, h[m.Seat], want, m.Mail.Text)
	}
	for _, w := range want {
		if !strings.Contains(m.Mail.HTML, "<li>"+html.EscapeString(w)+"</li>") {
			e.t.Fatalf("HTML part lacks %q:\n%s", w, m.Mail.HTML)
		}
	}
	if len(want) == 0 && (strings.Contains(m.Mail.Text, storyIntro[lang]) || strings.Contains(m.Mail.Text, storyIntroEmail[lang])) {
		e.t.Fatalf("%s email to seat %d at v%d heads an empty story:\n%s", m.Kind, m.Seat, m.Version, m.Mail.Text)
	}
	h[m.Seat] = m.Version
	return lines, heads
}

// storyLines reads the lines of an email's text part listed under intro
// (grouped under "Name:" headings), and the headings.
func storyLines(text, intro string) (lines, heads []string) {
	ls := strings.Split(text, "\n")
	i := slices.Index(ls, intro)
	if i < 0 {
		return nil, nil
	}
	for j := i + 1; j < len(ls); j++ {
		l := ls[j]
		switch {
		case l == "":
		case strings.HasPrefix(l, "- "):
			lines = append(lines, strings.TrimPrefix(l, "- "))
		case strings.HasSuffix(l, ":") && j+1 < len(ls) && strings.HasPrefix(ls[j+1], "- "):
			heads = append(heads, strings.TrimSpace(strings.TrimSuffix(l, ":")))
		default:
			return lines, heads
		}
	}
	return lines, heads
}

// storyIntro is the catalogs' "story.intro" by language, and
// storyIntroEmail their "story.intro_email".
var (
	storyIntro      = map[string]string{"en": "Since your last move:", "fr": "Depuis votre dernier coup\u00a0:", "it": "Dalla tua ultima mossa:"}
	storyIntroEmail = map[string]string{"en": "Since our last email:", "fr": "Depuis notre dernier e-mail\u00a0:", "it": "Dalla nostra ultima email:"}
)

// secretLines returns, for each seat, the sentences of the game's events as
// the full (unredacted) event tells them where the seat's redacted version
// says less: an email to that seat must hold none of them.
func (e *storyEnv) secretLines(id string, eng engine.Game, names []string, lang string) map[int][]string {
	e.t.Helper()
	evs, err := e.store.ReadStream(context.Background(), id, 1)
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[int][]string{}
	for _, ev := range evs {
		if pbemevent.IsServiceEvent(ev.Type) {
			continue
		}
		raw, err := eng.DecodeEvent(ev.Type, ev.Data)
		if err != nil {
			e.t.Fatal(err)
		}
		full := eng.Describe(raw, names, lang)
		for seat := range names {
			if red := eng.Describe(eng.Redact(raw, seat), names, lang); red != full {
				out[seat] = append(out[seat], full)
			}
		}
	}
	return out
}

// TestYourTurnEmailsTellEverythingSinceTheSeatsLastMove plays random whole
// games of both engines in each language through the service, sends every
// email through the real worker to an SMTP server on loopback, and checks
// that each your-turn, round-end and game-over email lists, in order,
// every line of its seat's redacted history since the seat last heard (its
// last move, or the previous such email: told.check), grouped under the
// players' names, so that no line is told twice across a seat's emails and
// none is skipped (a round-end email told only the lines of the move that
// ended the round: a user trial), and that no email holds the full
// sentence of an event whose redacted version the seat sees differently.
func TestYourTurnEmailsTellEverythingSinceTheSeatsLastMove(t *testing.T) {
	t.Parallel()
	e := newStoryEnv(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(14, 3))
	for _, name := range []string{lords.Name, bagpipes.Name} {
		for _, lang := range []string{"en", "fr", "it"} {
			t.Run(name+"/"+lang, func(t *testing.T) {
				e.t = t
				c := e.create(name, lang, 3)
				names := []string{"P0", "P1", "P2"}
				lastText := ""
				var gameOver []sentEmail
				roundEnds, roundSpans, timeouts, systemHeads, forcedHeads, gameHeads := 0, 0, 0, 0, 0, 0
				roundAsks, lastRoundAsk := 0, "" // round-end emails that ask their seat's move
				heard := told{}
				asked := map[[2]int64]outbox.Kind{} // the round-end or your-turn email to each seat, by version
				e.deliver()                         // the invitations
				yourTurn, multi, lines, secretChecks := 0, 0, 0, 0
				for moves := 0; ; moves++ {
					row, eng, st := e.state(c.ID)
					if row.Ended() {
						break
					}
					if moves > 3000 {
						t.Fatal("the game does not end")
					}
					seat := row.ToMove[rng.IntN(len(row.ToMove))]
					legal := st.Legal(seat)
					mv, err := json.Marshal(legal[rng.IntN(len(legal))])
					if err != nil {
						t.Fatal(err)
					}
					if moves%17 == 16 {
						// Now and then the deadline passes: the service plays
						// the awaited seats' default moves, as actor system.
						if done, err := e.svc.Timeout(ctx, c.ID, time.Now().Add(365*24*time.Hour)); err != nil || !done {
							t.Fatalf("timeout: %v, %v", done, err)
						}
						timeouts++
					} else if _, err := e.svc.MoveAs(ctx, c.ID, seat, play.MoveRequest{Version: row.Version, Move: play.PostedMove(mv)}); err != nil {
						t.Fatalf("move %s: %v", mv, err)
					}
					sent := e.deliver()
					if len(sent) == 0 {
						continue
					}
					secrets := e.secretLines(c.ID, eng, names, lang)
					for _, m := range sent {
						secretChecks += len(secrets[m.Seat])
						for _, s := range secrets[m.Seat] {
							if strings.Contains(m.Mail.Text, s) || strings.Contains(m.Mail.HTML, html.EscapeString(s)) {
								t.Fatalf("%s email to seat %d holds %q, which it may not know:\n%s", m.Kind, m.Seat, s, m.Mail.Text)
							}
						}
						got, heads := heard.check(e, c.ID, m, lang)
						if m.Kind == outbox.GameOver {
							gameOver = append(gameOver, m)
							// The game's end is owed no round-end email:
							// its email tells the last round.
							e.checkRoundEnd(m, c.ID, eng, names, lang)
						}
						after, _, _ := e.state(c.ID)
						if got, want := strings.Contains(m.Mail.Text, pleaseLine[lang]), slices.Contains(after.ToMove, m.Seat); got != want {
							t.Fatalf("%s email to seat %d (awaited: %v) says %q: %v\n%s", m.Kind, m.Seat, want, pleaseLine[lang], got, m.Mail.Text)
						}
						if e.checkOneCall(asked, m, lang) && m.Kind == outbox.RoundEnd {
							roundAsks++
							lastRoundAsk = m.Mail.Text
						}
						if m.Kind == outbox.RoundEnd {
							e.checkRoundEnd(m, c.ID, eng, names, lang)
							roundEnds++
							if players(heads, names) > 1 {
								roundSpans++ // more than the append that ended the round
							}
						}
						if m.Kind != outbox.YourTurn {
							continue
						}
						yourTurn++
						if len(got) > 0 && len(heads) == 0 {
							t.Fatalf("your-turn email groups its lines under no heading:\n%s", m.Mail.Text)
						}
						for _, h := range heads {
							if h == systemHead[lang] {
								systemHeads++
							} else if slices.ContainsFunc(names, func(n string) bool { return h == fmt.Sprintf(forcedHead[lang], n) }) {
								forcedHeads++
							} else if h == gameHead[lang] {
								gameHeads++
							} else if !slices.Contains(names, h) {
								t.Fatalf("your-turn email groups lines under %q, not a player's name:\n%s", h, m.Mail.Text)
							}
						}
						if len(heads) > 1 {
							multi++
						}
						lines += len(got)
						lastText = m.Mail.Text
					}
				}
				row, _, _ := e.state(c.ID)
				checkGameOver(t, gameOver, row, lang)
				// Lords names face-down cards in the full sentences of its
				// events, Swords and Bagpipes a seat's secret side in its
				// chooser's own line; its drawn cards never, even unredacted.
				if roundEnds == 0 || roundSpans == 0 || roundAsks == 0 || timeouts == 0 || systemHeads == 0 {
					t.Fatalf("over a whole game: %d round-end emails (%d telling several players' turns, %d asking a move), %d timeouts, %d stories of a timeout",
						roundEnds, roundSpans, roundAsks, timeouts, systemHeads)
				}
				// Swords and Bagpipes' 3-player games pass the badge to its
				// one receiver every round: a forced step, told under its
				// own heading.
				// The steps of the game that follow a forced step (the
				// round's end, its battle) are told under the game's
				// heading, not as played for the badge's receiver.
				if name == bagpipes.Name && (forcedHeads == 0 || gameHeads == 0) {
					t.Fatalf("over a whole game %d your-turn emails told a forced step, %d the game's own steps", forcedHeads, gameHeads)
				}
				if yourTurn < 10 || multi == 0 || secretChecks == 0 {
					t.Fatalf("only %d your-turn emails (%d with several players' turns), %d secret sentences checked over a whole game", yourTurn, multi, secretChecks)
				}
				t.Logf("%d your-turn emails, %d lines, %d of them telling several players' turns, %d headed by a timeout, %d by a forced step, %d by the game; %d timeouts, %d round ends (%d telling several players' turns, %d asking a move); %d secret sentences checked", yourTurn, lines, multi, systemHeads, forcedHeads, gameHeads, timeouts, roundEnds, roundSpans, roundAsks, secretChecks)
				if testing.Verbose() {
					t.Logf("the last your-turn email:\n%s\nthe last round-end email that asks a move:\n%s", lastText, lastRoundAsk)
				}
			})
		}
	}
}

// checkOneCall checks that m, a round-end or your-turn email, is the only
// one of these its seat got at its version (asked holds those seen): a
// seat awaited at a round's end gets the round-end email, which asks its
// move as a your-turn email would (the subject says so, and the time zone
// is asked: the seats never opened the game), and no your-turn email
// beside it, which said "your turn" again. It reports whether m asks a
// move.
func (e *storyEnv) checkOneCall(asked map[[2]int64]outbox.Kind, m sentEmail, lang string) bool {
	e.t.Helper()
	if m.Kind != outbox.YourTurn && m.Kind != outbox.RoundEnd {
		return false
	}
	k := [2]int64{int64(m.Seat), m.Version}
	if prev, ok := asked[k]; ok {
		e.t.Fatalf("seat %d got a %s email and a %s email at v%d, want one:\n%s", m.Seat, prev, m.Kind, m.Version, m.Mail.Text)
	}
	asked[k] = m.Kind
	if !strings.Contains(m.Mail.Text, pleaseLine[lang]) {
		return false
	}
	if !strings.Contains(m.Mail.Text, zoneAsk[lang]) || !strings.Contains(strings.ToLower(m.Mail.Subject), turnSubject[lang]) {
		e.t.Fatalf("%s email to seat %d at v%d asks its move, but not its time zone (%q) or not in its subject %q (%q):\n%s",
			m.Kind, m.Seat, m.Version, zoneAsk[lang], m.Mail.Subject, turnSubject[lang], m.Mail.Text)
	}
	return true
}

// zoneAsk starts the catalogs' "zone.ask" by language, and turnSubject is
// what the subject of an email that asks a move says, by language.
var (
	zoneAsk     = map[string]string{"en": "Times are in UTC", "fr": "Les heures sont en UTC", "it": "Gli orari sono in UTC"}
	turnSubject = map[string]string{"en": "your turn", "fr": "à vous de jouer", "it": "tocca a te"}
)

// players counts the headings of heads that name one of names.
func players(heads, names []string) int {
	n := 0
	for _, h := range heads {
		if slices.Contains(names, h) {
			n++
		}
	}
	return n
}

// rankHead is how the catalogs' "rank.cells" line begins, by language.
var rankHead = map[string]string{"en": "%d. %s: ", "fr": "%d. %s\u00a0: ", "it": "%d. %s: "}

// checkGameOver checks that every seat got one game-over email with the
// final table (every player's place and the figures that ranked them,
// the recorded score among them, under their headings, in the text and
// as an HTML table, not as "N points") and a link to the audit page
// (not the JSON API).
func checkGameOver(t *testing.T, sent []sentEmail, row *projections.Game, lang string) {
	t.Helper()
	if row.Result == nil || len(sent) != len(row.Players) {
		t.Fatalf("%d game-over emails for %d players (result %v)", len(sent), len(row.Players), row.Result)
	}
	audit := "https://pbem.example.org/games/" + row.ID + "/audit?lang=" + lang // the page in the reader's language
	for _, m := range sent {
		for _, r := range projections.Rankings(row.Result, row.Players) {
			head := fmt.Sprintf(rankHead[lang], r.Place, r.Name)
			_, line, ok := strings.Cut(m.Mail.Text, head)
			if line, _, _ = strings.Cut(line, "\n"); !ok || !strings.Contains(line, " "+strconv.Itoa(r.Score)) || strings.HasSuffix(line, " points") || strings.HasSuffix(line, " punti") {
				t.Errorf("game-over email to seat %d lacks the line %q… with %d:\n%s", m.Seat, head, r.Score, m.Mail.Text)
			}
			cells := fmt.Sprintf(`<td style="padding:.3em">%d</td><td style="padding:.3em">%s</td><td style="text-align:right;padding:.3em">`, r.Place, r.Name)
			if !strings.Contains(m.Mail.HTML, cells) {
				t.Errorf("game-over HTML to seat %d lacks the row %s:\n%s", m.Seat, cells, m.Mail.HTML)
			}
		}
		if !strings.Contains(m.Mail.Text, audit) || !strings.Contains(m.Mail.HTML, `href="`+audit+`"`) || strings.Contains(m.Mail.Text, "/api/v1/") {
			t.Errorf("game-over email to seat %d does not link the audit page %s:\n%s", m.Seat, audit, m.Mail.Text)
		}
	}
}

// systemHead is the catalogs' "story.system" by language (without its
// colon).
var systemHead = map[string]string{"en": "Time ran out", "fr": "Temps écoulé", "it": "Tempo scaduto"}

// gameHead heads the game's own steps (the catalogs' "story.game"), by
// language.
var gameHead = map[string]string{"en": "The game", "fr": "La partie", "it": "La partita"}

// forcedHead heads a forced step played for a player (%s), by language.
var forcedHead = map[string]string{"en": "Played for %s: the only move", "fr": "Joué pour %s\u00a0: le seul coup possible", "it": "Giocata per %s: l'unica mossa possibile"}

// pleaseLine starts the catalogs' "deadline" sentence by language.
var pleaseLine = map[string]string{"en": "Please play before", "fr": "Merci de jouer avant", "it": "Gioca entro il"}

// roundTitle is the catalogs' "round_end.title" by language, and
// lordsRoundTitle its Lords of Scotland variant (a "schermaglia" in Italian).
var (
	roundTitle      = map[string]string{"en": "Round %d:", "fr": "Manche %d\u00a0:", "it": "Round %d:"}
	lordsRoundTitle = map[string]string{"en": "Round %d:", "fr": "Manche %d\u00a0:", "it": "Schermaglia %d:"}
)

// checkRoundEnd checks a round-end email against the round as the event
// store has it (redacted for the recipient): the engine's summary of it is
// in the email, each seat's figures under its name, and the figures are the
// scoring events' own (Lords: each army's total, doubling and place, and the
// supporters claimed; Swords and Bagpipes: the sides, the battle's totals
// and the rewards).
func (e *storyEnv) checkRoundEnd(m sentEmail, id string, eng engine.Game, names []string, lang string) {
	e.t.Helper()
	stored, err := e.store.ReadStream(context.Background(), id, 1)
	if err != nil {
		e.t.Fatal(err)
	}
	var round []engine.Event
	for _, ev := range stored {
		if ev.Version > m.Version || pbemevent.IsServiceEvent(ev.Type) {
			continue
		}
		x, err := eng.DecodeEvent(ev.Type, ev.Data)
		if err != nil {
			e.t.Fatal(err)
		}
		round = append(round, eng.Redact(x, m.Seat))
	}
	// The round the email closes: from the previous round's end to the
	// last round end at or before the email's version.
	end := len(round) - 1
	for end >= 0 && !eng.RoundEnd(round[end]) {
		end--
	}
	from := max(end-1, 0)
	for from > 0 && !eng.RoundEnd(round[from]) {
		from--
	}
	round = round[from : end+1]
	sum := eng.RoundSummary(round, names, lang)
	if sum == nil || len(sum.Rows) == 0 {
		e.t.Fatalf("no round summary at v%d", m.Version)
	}
	text := m.Mail.Text
	title := roundTitle[lang]
	if eng.Name() == "lords-of-scotland" {
		title = lordsRoundTitle[lang]
	}
	if !strings.Contains(text, fmt.Sprintf(title, sum.Round)) {
		e.t.Fatalf("round-end email lacks %q:\n%s", fmt.Sprintf(title, sum.Round), text)
	}
	sep, list := ": ", "; "
	if lang == "fr" {
		sep, list = "\u00a0: ", "\u202f; " // French typography: a no-break space before
	}
	for _, r := range sum.Rows {
		var pairs []string
		for i, c := range r.Cells {
			pairs = append(pairs, sum.Columns[i]+sep+c)
		}
		line := names[r.Seat] + sep + strings.Join(pairs, list)
		if !strings.Contains(text, line) {
			e.t.Fatalf("round-end email to seat %d lacks %q:\n%s", m.Seat, line, text)
		}
		if !strings.Contains(m.Mail.HTML, "<strong>"+names[r.Seat]+"</strong><br>"+html.EscapeString(pairs[0])) {
			e.t.Fatalf("round-end HTML lacks %s's figures:\n%s", names[r.Seat], m.Mail.HTML)
		}
	}
	for _, n := range sum.Notes {
		if !strings.Contains(text, n) {
			e.t.Fatalf("round-end email lacks the note %q:\n%s", n, text)
		}
	}
	// The figures are the scoring events' own.
	for _, x := range round {
		switch x := x.(type) {
		case lords.RoundScored:
			for i, a := range x.Armies {
				if sum.Rows[i].Seat != a.Seat || sum.Rows[i].Cells[1] != strconv.Itoa(a.Total) || sum.Rows[i].Cells[3] != strconv.Itoa(a.Place) {
					e.t.Fatalf("round summary row %d %+v does not tell army %+v", i, sum.Rows[i], a)
				}
			}
		case lords.Claimed:
			for _, r := range sum.Rows {
				if r.Seat == x.Seat && r.Cells[4] == "" {
					e.t.Fatalf("round summary row %+v lacks a claimed supporter", r)
				}
			}
		case bagpipes.Battle:
			if !strings.Contains(text, strconv.Itoa(x.Scotland)) || !strings.Contains(text, strconv.Itoa(x.England)) {
				e.t.Fatalf("round-end email lacks the battle's totals %d and %d:\n%s", x.Scotland, x.England, text)
			}
		case bagpipes.Awards:
			for _, r := range sum.Rows {
				if r.Cells[2] != strconv.Itoa(x.Gold[r.Seat]) || r.Cells[3] != strconv.Itoa(x.Units[r.Seat]) {
					e.t.Fatalf("round summary row %+v does not tell the rewards %+v", r, x)
				}
			}
		}
	}
}
