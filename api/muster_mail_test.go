package api_test

import (
	"context"
	"fmt"
	"html"
	"slices"
	"strings"
	"testing"
	"time"

	"pbem/engine/lords"
	"pbem/events/play"
	playpg "pbem/events/play/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections"
)

// musterGame creates a Lords of Scotland game of Ann (English), Bob
// (French) and Cid (Italian) that waits 24 hours for them to accept, and
// returns its id and admin token.
func musterGame(t *testing.T, e *pageEnv, def string) (string, string) {
	t.Helper()
	cg, err := e.svc.Create(context.Background(), play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"},
		Game: lords.Name, Language: "en", Muster: 24 * time.Hour, MusterDefault: def,
		Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org", Language: "en"},
			{Name: "Bob", Email: "bob@example.org", Language: "fr"}, {Name: "Cid", Email: "cid@example.org", Language: "it"}}})
	if err != nil {
		t.Fatal(err)
	}
	return cg.ID, cg.AdminToken
}

// schedulerAt is the real deadline scheduler over e's database, its clock
// at at.
func schedulerAt(t *testing.T, e *pageEnv, at time.Time) *play.Scheduler {
	t.Helper()
	s, err := play.NewScheduler(play.SchedulerConfig{Store: playpg.NewDeadlines(e.pool), Timeouter: e.svc, Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// only is the one email of list, failing unless there is exactly one.
func only(t *testing.T, who string, list []smtpsink.Parsed) smtpsink.Parsed {
	t.Helper()
	if len(list) != 1 {
		subjects := []string{}
		for _, m := range list {
			subjects = append(subjects, m.Subject)
		}
		t.Fatalf("%s got %d emails, want 1: %q", who, len(list), subjects)
	}
	return list[0]
}

// mustContain fails unless each of wants is in both the text and the HTML
// part of m.
func mustContain(t *testing.T, who string, m smtpsink.Parsed, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(m.Text, w) || !strings.Contains(html.UnescapeString(m.HTML), w) {
			t.Errorf("%s's email %q lacks %q:\n%s", who, m.Subject, w, m.Text)
		}
	}
}

// TestMusterByReplyAndDeadline is the muster (issue #46) over real SMTP
// on loopback, in English, French and Italian: each invitation asks its
// reader, in their language, to accept by the page or by replying "yes"
// before the muster's deadline; no move is taken meanwhile. Ann replies
// "Yes!" and Bob "Oui, avec plaisir", each answered in their language;
// Cid never answers. At the deadline the scheduler (its clock a day on)
// gives Cid's seat to the normal bot and begins the game: Ann gets her
// your-turn email and Bob and Cid a notice, each telling that Cid never
// answered, in their language; verify and a rebuild find the game row
// equal to its events. Once the game is
// aborted, Cid's record counts one muster missed (a turn owed and timed
// out) and no game played, Ann's one game played.
func TestMusterByReplyAndDeadline(t *testing.T) {
	e := newPageEnv(t)
	m := newBotSeatMail(t, e)
	ctx := context.Background()
	id, admin := musterGame(t, e, "")
	sm, err := e.svc.Summary(ctx, id)
	if err != nil || sm.Status != projections.StatusMuster || sm.Deadline == nil {
		t.Fatalf("a game with a muster: %+v %v", sm, err)
	}
	inv := m.send()
	ann := only(t, "Ann", inv["ann@example.org"])
	bob := only(t, "Bob", inv["bob@example.org"])
	cid := only(t, "Cid", inv["cid@example.org"])
	mustContain(t, "Ann", ann, "I will play", "“yes”")
	mustContain(t, "Bob", bob, "Je joue", "«\u00a0oui\u00a0»")
	mustContain(t, "Cid", cid, "Gioco", "«sì»")
	if _, err := e.svc.MoveAs(ctx, id, 0, play.MoveRequest{Version: sm.Version, Move: play.PostedMove(`{}`)}); play.ErrorCode(err) != "conflict" {
		t.Fatalf("a move before the muster ended: %v", err)
	}

	m.reply(ann, "ann@example.org", "Yes!\n\nAnn")
	m.reply(bob, "bob@example.org", "Oui, avec plaisir")
	answers := m.send()
	mustContain(t, "Ann", only(t, "Ann", answers["ann@example.org"]), "you will play")
	mustContain(t, "Bob", only(t, "Bob", answers["bob@example.org"]), "vous jouerez")
	mu, err := e.svc.MusterOf(ctx, id)
	if err != nil || strings.Join(mu.Answers, ",") != "accepted,accepted," {
		t.Fatalf("the muster after two replies: %+v %v", mu, err)
	}

	if err := e.svc.Verify(ctx, id); err != nil {
		t.Fatalf("verify during the muster: %v", err)
	}
	if r, err := schedulerAt(t, e, time.Now().Add(23*time.Hour)).Tick(ctx); err != nil || r.TimedOut != 0 {
		t.Fatalf("a tick before the muster's deadline: %+v %v", r, err)
	}
	if r, err := schedulerAt(t, e, time.Now().Add(25*time.Hour)).Tick(ctx); err != nil || r.TimedOut != 1 {
		t.Fatalf("the tick at the muster's deadline: %+v %v", r, err)
	}
	sm, err = e.svc.Summary(ctx, id)
	if err != nil || sm.Status != projections.StatusActive || sm.Seats[2].Bot != "normal" {
		t.Fatalf("after the muster's deadline: %+v %v", sm, err)
	}
	told := m.send()
	annTurn, bobNews, cidNews := only(t, "Ann", told["ann@example.org"]), only(t, "Bob", told["bob@example.org"]), only(t, "Cid", told["cid@example.org"])
	mustContain(t, "Ann", annTurn, "The time to answer is over: the game begins. Never answered: Cid.")
	mustContain(t, "Bob", bobNews, "Le temps de répondre est écoulé\u00a0: la partie commence. N'a jamais répondu\u00a0: Cid.")
	mustContain(t, "Cid", cidNews, "Il tempo per rispondere è scaduto: la partita comincia. Non ha mai risposto: Cid.")
	if !strings.HasPrefix(bobNews.Subject, "La partie commence") || !strings.HasPrefix(cidNews.Subject, "La partita comincia") {
		t.Errorf("the notices' subjects: %q, %q", bobNews.Subject, cidNews.Subject)
	}

	// The muster is events alone: a replay of the stream equals the live
	// game row (verify), and a rebuild leaves it so.
	if err := e.svc.Verify(ctx, id); err != nil {
		t.Fatalf("verify after the muster: %v", err)
	}
	if err := e.svc.Rebuild(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Verify(ctx, id); err != nil {
		t.Fatalf("verify after a rebuild: %v", err)
	}
	aborted, err := e.svc.Abort(ctx, id, admin)
	if err != nil || aborted.Status != projections.StatusAborted {
		t.Fatalf("abort: %+v %v", aborted, err)
	}
	if _, err := e.svc.RefreshRecords(ctx); err != nil {
		t.Fatal(err)
	}
	cr := recordOf(t, e, "cid@example.org")
	if cr.MustersMissed != 1 || cr.GamesPlayed != 0 || cr.TurnsOwed != 1 || cr.TurnsTimedOut != 1 {
		t.Errorf("Cid's record: %+v", cr)
	}
	ar := recordOf(t, e, "ann@example.org")
	if ar.MustersMissed != 0 || ar.GamesPlayed != 1 || ar.GamesAborted != 1 {
		t.Errorf("Ann's record: %+v", ar)
	}
}

// recordOf is the record of address email, through a session of its own.
func recordOf(t *testing.T, e *pageEnv, email string) *projections.PersonRecord {
	t.Helper()
	r, err := e.svc.MyRecord(context.Background(), sessionOf(t, e, email))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMusterLastReplyIsTheOneEmailOfTheStart: the answer to a reply that
// was the muster's last answer is the one email its reader gets about the
// start (a user trial got that answer and, beside it, a your-turn email
// or the notice "The game begins" saying the same), in their language. It
// says what was recorded, without "the game begins once everyone has
// answered" nor a change of mind that the ended muster no longer allows,
// tells what the muster's end did, and, to the seat the game awaits, its
// deadline and moves; the others get their own email of the start. Ann
// (who plays first) says "Yes!" after Bob and Cid; Bob "Oui !" after Ann
// and Cid; Cid "No, mi dispiace" after Ann and Bob, and a bot takes Cid's
// seat. The same with the mail grace serve gives (the start's email to
// the last answerer waits it, then is folded into the answer; Ann's
// your-turn email is owed by the game row until then).
func TestMusterLastReplyIsTheOneEmailOfTheStart(t *testing.T) {
	for _, grace := range []time.Duration{0, time.Minute} {
		t.Run(fmt.Sprint("grace ", grace), func(t *testing.T) {
			e := newPageEnvOf(t, grace, nil)
			m := newBotSeatMail(t, e)
			m.ahead = 2 * grace
			checkLastReplies(t, e, m)
		})
	}
}

// checkLastReplies is TestMusterLastReplyIsTheOneEmailOfTheStart on e and m.
func checkLastReplies(t *testing.T, e *pageEnv, m *botSeatMail) {
	ctx := context.Background()
	addr := []string{"ann@example.org", "bob@example.org", "cid@example.org"}
	// lastReply has the other seats answer yes through the service, then
	// seat's reader reply body to the invitation, and returns every email
	// sent after, by address.
	lastReply := func(seat int, body string) map[string][]smtpsink.Parsed {
		t.Helper()
		id, _ := musterGame(t, e, "")
		inv := only(t, addr[seat], m.send()[addr[seat]])
		for other := range addr {
			if other == seat {
				continue
			}
			if err := e.svc.AnswerAs(ctx, id, other, true, fmt.Sprintf("yes-%d", other)); err != nil {
				t.Fatal(err)
			}
		}
		m.reply(inv, addr[seat], body)
		if sm, err := e.svc.Summary(ctx, id); err != nil || sm.Status != projections.StatusActive || !slices.Equal(sm.ToMove, []int{0}) {
			t.Fatalf("every seat answered: %+v %v", sm, err)
		}
		return m.send()
	}
	// startsFor checks that each seat but skip got one email of the start.
	startsFor := func(who string, told map[string][]smtpsink.Parsed, skip int) {
		t.Helper()
		for i, a := range addr {
			if i != skip {
				only(t, who+"'s start, to "+a, told[a])
			}
		}
	}

	told := lastReply(0, "Yes!\n\nAnn")
	ann := only(t, "Ann", told[addr[0]])
	mustContain(t, "Ann", ann, "Thank you: you will play.", "Everyone has answered: the game begins.", "Please play before", "1. Recruit")
	if !strings.HasPrefix(ann.Subject, "Re:") || strings.Contains(ann.Text, "once every player") {
		t.Errorf("Ann's one email is not the answer to her reply: %q\n%s", ann.Subject, ann.Text)
	}
	startsFor("Ann", told, 0)

	told = lastReply(1, "Oui !")
	bob := only(t, "Bob", told[addr[1]])
	mustContain(t, "Bob", bob, "Merci\u00a0: vous jouerez.", "Tout le monde a répondu\u00a0: la partie commence.")
	if !strings.HasPrefix(bob.Subject, "Re:") || strings.Contains(bob.Text, "dès que") || strings.Contains(bob.Text, "Merci de jouer avant") {
		t.Errorf("Bob's one email is not the answer to his reply, or asks him to play: %q\n%s", bob.Subject, bob.Text)
	}
	startsFor("Bob", told, 1)

	told = lastReply(2, "No, mi dispiace")
	cid := only(t, "Cid", told[addr[2]])
	mustContain(t, "Cid", cid, "Annotato: non giocherai.", "Il posto di Cid ora è giocato da un bot")
	if !strings.HasPrefix(cid.Subject, "Re:") || strings.Contains(cid.Text, "cambiare idea") {
		t.Errorf("Cid's one email is not the answer to the reply, or offers a change of mind: %q\n%s", cid.Subject, cid.Text)
	}
	startsFor("Cid", told, 2)
}
