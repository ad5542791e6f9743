package api

import (
	"encoding/hex"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"pbem/events/pbemevent"
	"pbem/events/play"
)

// auditPage is the data of an ended game's audit page.
type auditPage struct {
	base
	GameID   string
	GameName string
	// Engine is the game's engine name: the chart's words are the
	// game's own (i18n.Catalog.Variant).
	Engine   string
	Rules    string
	Seed     string
	SeedHash string
	// CommitKey is the hex key of a format-2 chain's commitments (K,
	// derived from the seed), revealed with it; "" for a format-1 chain.
	CommitKey string
	// AuditURL is the audit record's address for the command to download
	// it: on PBEM_PUBLIC_URL, else the path alone (never the request's
	// Host, which the client chooses).
	AuditURL string
	Chart    *scoreChart
	Events   []auditEvent
}

// auditEvent is one event as the audit page lists it.
type auditEvent struct {
	Version int64
	// Text tells the event as the history does; Type and Data are the
	// raw event, one tap away.
	Text string
	Type string
	// Actor says who acted in the reader's words (issue #43): the seat's
	// holder then, "the organiser", "a bot (easy)", or the game itself; the
	// raw actor id stays in the record (the JSON audit).
	Actor string
	// When is the event's time in the reader's language and time zone.
	When     when
	Hash     string
	PrevHash string
	Data     string
}

// audit: GET /games/:id/audit, public once the game has ended. The record,
// the chart's scores and the told events are cached (auditCache) by the
// game's version: an ended game's record changes only by its table talk.
func (p *pages) audit(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("id")
	sm, cat, b, err := p.summaryPage(c, id)
	if err != nil {
		return err
	}
	ent, err := p.audits.get(id, sm.Version, func() (*auditEntry, error) {
		a, err := p.svc.Audit(ctx, id)
		if err != nil {
			return nil, err
		}
		e := &auditEntry{audit: a, scores: p.scores(c, id)}
		if n := len(a.Events); n > 0 {
			e.version = a.Events[n-1].Version
		}
		return e, nil
	})
	if err != nil {
		return err
	}
	a := ent.audit
	d := auditPage{base: b, GameID: id, GameName: gameName(cat, sm.Game), Engine: sm.Game, Rules: a.Rules,
		Seed: a.Seed, SeedHash: a.SeedHash, CommitKey: a.CommitKey,
		AuditURL: strings.TrimRight(p.cfg.PublicURL, "/") + "/api/v1/games/" + url.PathEscape(id) + "/audit"}
	d.Title = cat.T("audit.title", d.GameName)
	names := seatNames(sm)
	texts := ent.textsFor(b.Lang, names, func() []string { return p.svc.DescribeAudit(a, names, b.Lang) })
	at := play.AuditNames(a, names) // each act's author as of the act
	now, loc := p.svc.Now(), location(c)
	var steps pbemevent.Steps
	for i, e := range a.Events {
		who := actorWords(cat, e.Meta.Actor, e.Meta.IdempotencyKey, at[i])
		if steps.Next(e) {
			who = cat.T("history.by_game")
		}
		d.Events = append(d.Events, auditEvent{Version: e.Version, Text: texts[i], Type: e.Type, Actor: who,
			When: tellTime(cat, e.RecordedAt, now, loc), Hash: hex.EncodeToString(e.Hash),
			PrevHash: hex.EncodeToString(e.PrevHash), Data: string(e.Data)})
	}
	d.Chart = drawChart(ent.scores, names, cat.T(pageCatalog.Variant("audit.round", sm.Game)))
	return p.render(c, http.StatusOK, "audit", d)
}

// roundScores is the players' scores at the start (Round 0) and at the
// end of each round.
type roundScores struct {
	Round  int
	Scores []int
}

// scores replays game id with its engine from public views only, and
// returns the scores (engine.SeatView's Score) at the start and after each round. The chart is a
// reading aid: a record that does not replay (verify reports it) or a
// replay that fails is logged and gives no scores, never a failed page.
func (p *pages) scores(c echo.Context, id string) []roundScores {
	var out []roundScores
	err := p.svc.PublicReplay(c.Request().Context(), id, func(st play.PublicStep) {
		score := st.View.Score()
		round, sc := score.Round, score.Seats
		if len(sc) == 0 {
			return
		}
		if len(out) == 0 {
			out = append(out, roundScores{Round: 0, Scores: slices.Clone(sc)})
		}
		r := max(round, 1)
		if last := &out[len(out)-1]; last.Round == r {
			last.Scores = slices.Clone(sc)
		} else if r > last.Round {
			out = append(out, roundScores{Round: r, Scores: slices.Clone(sc)})
		}
	})
	if err != nil {
		p.log.Warn("audit chart: replay failed", "game", id, "err", err)
		return nil
	}
	return out
}
