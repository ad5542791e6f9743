package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/i18n"
	"pbem/engine/lords"
	"pbem/events"
	"pbem/events/play"
	"pbem/projections"
)

// playPage is the data of a seat's play page.
type playPage struct {
	base
	GameID   string
	GameName string
	Seat     int
	You      string
	// YouBot: a bot plays the reader's own seat (their labels say "(you)"
	// alone; the line under the title says the bot plays). The page then
	// offers no move and no take-back, and BotTurn replaces YourTurn: the
	// seat is to move, and its bot decides.
	YouBot  bool
	BotTurn bool
	Version int64
	Status  string
	// Turn says whose turn it is (or that the game is paused or over).
	Turn     string
	YourTurn bool
	Deadline *when
	Notices  []string
	Groups   []moveGroup
	Players  []playerRow
	Lords    *lordsPage
	Bag      *bagPage
	Generic  []field
	Ended    bool
	// Result ranks the seats of a finished game, each with the figures
	// that decided the order, under ResultColumns (engine.Standings).
	Result        []resultRow
	ResultColumns []string
	// Headline names the winner and how they won (the engine's summary,
	// its tie-break in words); Rounds is the round-by-round table of the
	// scores (an ended game only; nil for a game without rounds).
	Headline string
	Rounds   *scoreChart
	// Ratings are the seats' ratings before and after the finished game
	// (page_record.go; empty until the records have folded it).
	Ratings []changeRow
	// Engine is the game's engine name (the round table's words).
	Engine string
	// Chat holds the latest table-talk lines; ChatMax is their length limit.
	Chat    []chatLine
	ChatMax int
	// ChatStatus tells, beside the table talk's form, what became of the
	// line just written (sent, or refused: ChatRefused); "" otherwise.
	// A line sent unfolds the latest lines, where it now is.
	ChatStatus  string
	ChatRefused bool
	// Explain holds the engine's explanations for this seat (how the rules
	// apply now); HelpLink is the game's help page.
	Explain  []string
	HelpLink string
	// CatchUp is "Since your last turn" (see page_catchup.go).
	CatchUp *catchUpBlock
	// Takeback is the version of the seat's last move while it may still
	// take it back (0: none); Confirm is a chosen move that cannot be
	// taken back, shown for confirmation (page_takeback.go).
	Takeback int64
	Confirm  *moveButton
	// Played is true on the answer to the seat's own move (the action
	// bar says so when there is nothing to take back).
	Played bool
	// Zone asks the player's time zone (page_zone.go).
	Zone *zoneAsk
	// Decide is the action bar's link to the decision the seat has to
	// make (nil when it has none): after its own move, the decision still
	// pending (a power's target, the rest of a turn), named in the bar.
	Decide *decideLink
	// Muster is the muster before the first turn, while the game waits
	// for it (page_muster.go).
	Muster *musterPanel
	// MoveCount is the number of legal moves; MovesOpen unfolds their
	// full list (the cards offer them too): a single kind of decision (a
	// power's target, the rest of a turn) is shown at once, a whole turn's
	// list is folded on a phone (issue #43) and unfolded by the script on
	// a wider screen.
	MoveCount int
	MovesOpen bool
}

// playerRow is one player in the page's list of players.
type playerRow struct {
	Seat   int
	Name   string
	You    bool
	ToMove bool
}

// moveGroup is a titled set of move buttons. ID is its fieldset's id
// ("moves-0", ...), the action bar's link to the decision it names.
type moveGroup struct {
	ID    string
	Title string
	Moves []moveButton
}

// decideLink names the decision a seat has to make and links to its
// moves: the one group's fieldset, titled by it (One), or the folded list
// of all the moves when there are several kinds of move (the script
// unfolds it and puts the focus on its first move).
type decideLink struct {
	Href string
	Text string
	One  bool
}

// decision is the link to the decision of a page's move groups (nil
// without moves).
func decision(cat i18n.Printer, groups []moveGroup) *decideLink {
	switch len(groups) {
	case 0:
		return nil
	case 1:
		return &decideLink{Href: "#" + groups[0].ID, Text: groups[0].Title, One: true}
	}
	return &decideLink{Href: "#all-moves", Text: cat.T("bar.choose")}
}

// moveButton is one legal move: its JSON (posted back verbatim) and label.
// Final marks a move that cannot be taken back once played: the page asks
// for a confirmation first, unless it is the seat's only move (there is
// nothing else to tap by mistake). EndsTurn marks a move that ends the
// seat's turn: the confirmation says so.
type moveButton struct {
	JSON     string
	Label    string
	Final    bool
	EndsTurn bool
	// Ask is the form action of a Final move (the confirmation first).
	Ask string
	// Card is the card of the table this move is about (see
	// page_play_cards.go; "" for a move about no card).
	Card string
}

// field is one public field of a game's view (the generic rendering).
type field struct {
	Name  string
	Value string
}

// play: GET /play/:game.
func (p *pages) play(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("game")
	if swapped, err := p.swapToken(c, seatCookie, "/play/"+id, func(tok string) error {
		_, err := p.svc.SeatVersion(ctx, id, tok)
		return p.oldLink(c, id, tok, err)
	}); swapped {
		return err
	}
	tok, err := cookieToken(c, seatCookie)
	if err != nil {
		return err
	}
	d, err := p.playFor(c, id, tok, c.QueryParam("n"))
	if err != nil {
		return p.oldLink(c, id, tok, err)
	}
	return p.render(c, http.StatusOK, "play", d)
}

// Notices shown after a POST, by the redirect's ?n=.
const (
	noticePlayed   = "played"
	noticeStale    = "stale"
	noticeIllegal  = "illegal"
	noticeNotYours = "notyours"
	noticeConflict = "conflict"
	// noticeBot answers a move for a seat a bot plays (playData).
	noticeBot = "bot"
)

// formVersion reads a play-page form's version field, at least min; what
// says which version the form names, in the error.
func formVersion(c echo.Context, min int64, what string) (int64, error) {
	ver, err := strconv.ParseInt(c.FormValue("version"), 10, 64)
	if err != nil || ver < min {
		return 0, events.Errorf(events.CodeInvalid, "version: give the version %s", what)
	}
	return ver, nil
}

// move: POST /play/:game (form: csrf, version, move). It answers 303 to
// the play page, with a notice of what happened (or that page, to a fetch:
// page_fetch.go).
func (p *pages) move(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("game")
	tok, err := p.tokenPost(c, seatCookie)
	if err != nil {
		return err
	}
	ver, err := formVersion(c, 0, "of the page you played from")
	if err != nil {
		return err
	}
	mv := strings.TrimSpace(c.FormValue("move"))
	if !strings.HasPrefix(mv, "{") {
		return events.Errorf(events.CodeInvalid, "move: choose one of your moves")
	}
	if c.QueryParam("confirm") == confirmAsk {
		return p.askConfirm(c, id, tok, ver, mv)
	}
	// The key makes a double click (the same move at the same version)
	// play once; another move from a stale page is a conflict.
	sum := sha256.Sum256([]byte(mv))
	key := "page:v" + strconv.FormatInt(ver, 10) + ":" + hex.EncodeToString(sum[:8])
	_, err = p.svc.Move(ctx, id, tok, play.MoveRequest{Version: ver, Move: play.PostedMove(mv), Key: key,
		RequestID: requestID(c)})
	notice := noticePlayed
	switch code := play.ErrorCode(err); code {
	case "":
	case events.CodeConflict:
		notice = noticeConflict
		if cur, verr := p.svc.SeatVersion(ctx, id, tok); verr == nil && cur != ver {
			notice = noticeStale
		}
	case engine.CodeIllegalMove, engine.CodeBadMove:
		notice = noticeIllegal
	case engine.CodeNotYourTurn:
		notice = noticeNotYours
	case engine.CodeGameOver:
		notice = noticeConflict
	default:
		return err
	}
	return p.backToPlay(c, id, tok, notice, "")
}

// playData builds the play page of a seat, with the notice of a form's
// answer (one of the notice constants, "" for none).
func (p *pages) playData(c echo.Context, sp *play.SeatPage, tok, notice string) (*playPage, error) {
	v, sm := sp.View, sp.Summary
	lang := seatLang(c, v.Language)
	cat := p.cat(lang)
	d := &playPage{base: p.base(c, lang), GameID: sm.ID, GameName: gameName(cat, sm.Game), Seat: v.Seat,
		Version: v.Version, Status: v.Status, Ended: sm.Ended()}
	d.CSRF = p.csrfFor(tok)
	seatMenu(&d.base, sm.ID)
	names := make([]string, len(sm.Seats))
	for _, s := range sm.Seats {
		if s.Seat >= 0 && s.Seat < len(names) {
			names[s.Seat] = s.Name
			switch {
			case s.Bot != "" && s.Seat == v.Seat: // one label: "(you)", and the line under the title
				d.YouBot = true
			case s.Bot != "": // bots are shown as bots
				names[s.Seat] = projections.BotSeatName(lang, s.Name)
			}
		}
	}
	if v.Seat >= 0 && v.Seat < len(names) {
		d.You = names[v.Seat]
	}
	toMove := map[int]bool{}
	var waiting []string
	for _, s := range v.ToMove {
		toMove[s] = true
		if s == v.Seat {
			// A bot plays the seat: its turn is the bot's, not the reader's.
			d.BotTurn, d.YourTurn = d.YouBot, !d.YouBot
		} else if s >= 0 && s < len(names) {
			waiting = append(waiting, names[s])
		}
	}
	for i, n := range names {
		d.Players = append(d.Players, playerRow{Seat: i, Name: n, You: i == v.Seat, ToMove: toMove[i]})
	}
	switch {
	case sm.Status == projections.StatusMuster:
		d.Turn = cat.T("muster.turn")
	case sm.Status == projections.StatusPaused:
		d.Turn = cat.T("play.paused")
		if reason, err := p.svc.PauseReason(c.Request().Context(), sm.ID); err == nil && reason != "" {
			d.Turn += " " + cat.T("play.pause_reason", reason)
		}
	case sm.Status == projections.StatusAborted:
		d.Turn = cat.T("play.aborted")
	case sm.Status == projections.StatusFinished:
		d.Turn = cat.T("play.finished")
		if sm.Result != nil {
			// In the reader's language: the stored Summary is the game's.
			if line := sm.Result.In(lang); line != "" {
				d.Headline = line
				d.Turn += " " + line
			}
		}
		d.Engine = sm.Game
		d.Rounds = drawChart(p.scores(c, sm.ID), names, cat.T(pageCatalog.Variant("audit.round", sm.Game)))
	case (d.YourTurn || d.BotTurn) && len(waiting) > 0:
		// A simultaneous choice: the seat is awaited with others, not
		// after them ("Your turn. Waiting for Bernard." read as both).
		d.Turn = cat.T("play.your_turn_at_once", strings.Join(waiting, ", "))
		if d.BotTurn {
			d.Turn = cat.T("play.bot_turn_at_once", strings.Join(waiting, ", "))
		}
	case d.YourTurn:
		d.Turn = cat.T("play.your_turn")
	case d.BotTurn:
		d.Turn = cat.T("play.bot_turn")
	default:
		d.Turn = cat.T("play.waiting", strings.Join(waiting, ", "))
	}
	d.Title = playTitle(cat, d, sm.Status, waiting)
	if sm.Status == projections.StatusActive && v.Deadline != nil {
		w := tellTime(cat, *v.Deadline, p.svc.Now(), location(c))
		d.Deadline = &w
	}
	if !d.Ended {
		d.Zone = askZone(c)
	}
	if sm.Status == projections.StatusMuster {
		m, err := p.musterPanel(c, cat, sm.ID, v.Seat, names)
		if err != nil {
			return nil, err
		}
		d.Muster = m
	}
	if sm.Result != nil {
		d.Result, d.ResultColumns = resultRows(cat, sm.Result, names, lang)
		rs, err := p.ratingChanges(c, cat, sm.ID)
		if err != nil {
			return nil, err
		}
		d.Ratings = rs
	}
	if d.YouBot && sm.Status == projections.StatusActive && (notice == noticeConflict || notice == noticeStale) {
		notice = noticeBot // a move from a page opened before the hand-off: the game service refused it
	}
	switch notice {
	case noticePlayed:
		d.Played = true
		d.Notices = append(d.Notices, cat.T("play.played"))
		if !d.YourTurn && len(waiting) > 0 && sm.Status == projections.StatusActive {
			d.Notices = append(d.Notices, cat.T("play.next", strings.Join(waiting, ", ")))
		}
	case noticeStale:
		d.Notices = append(d.Notices, cat.T("play.stale"))
	case noticeIllegal:
		d.Notices = append(d.Notices, cat.T("play.illegal"))
	case noticeNotYours:
		d.Notices = append(d.Notices, cat.T("play.notyours"))
	case noticeBot:
		d.Notices = append(d.Notices, cat.T("play.bot_refused"))
	case noticeConflict:
		d.Notices = append(d.Notices, cat.T("play.conflict", cat.T("status."+sm.Status)))
	case noticeTakenBack:
		d.Notices = append(d.Notices, cat.T("play.takenback"))
	case noticeTakebackLate:
		d.Notices = append(d.Notices, cat.T("play.takeback_late"))
	case noticeZone:
		d.Notices = append(d.Notices, cat.T("zone.saved", location(c).String()))
	case noticeZoneBad:
		d.Notices = append(d.Notices, cat.T("zone.bad"))
	default:
		if n := musterNotice(cat, notice, sm.Status != projections.StatusMuster); n != "" {
			d.Notices = append(d.Notices, n)
		}
		d.ChatStatus, d.ChatRefused = chatNotice(cat, notice)
	}
	var grouper func(kind string) string
	switch st := v.State.(type) {
	case lords.View:
		d.Lords = lordsData(cat, st, names)
		grouper = lordsGroup
	case bagpipes.View:
		d.Bag = bagData(cat, st, names)
		grouper = bagGroup
	default:
		raw, err := json.Marshal(v.State)
		if err != nil {
			return nil, err
		}
		d.Generic = genericFields(raw)
	}
	if !d.YouBot { // the person cannot move for the bot that plays their seat (page_play_bot_test.go)
		d.Groups = groupMoves(cat, v.LegalMoves, sp.Takeback, grouper)
	}
	d.Decide = decision(cat, d.Groups)
	for _, g := range d.Groups {
		d.MoveCount += len(g.Moves)
	}
	d.MovesOpen = len(d.Groups) == 1
	for _, g := range d.Groups {
		for i := range g.Moves {
			if g.Moves[i].Final && d.MoveCount > 1 {
				g.Moves[i].Ask = "/play/" + sm.ID + "?confirm=" + confirmAsk
			}
		}
	}
	for _, e := range v.Explanations {
		d.Explain = append(d.Explain, e.Text)
	}
	if pageCatalog.Has(helpKey(sm.Game, 1, "title")) {
		d.HelpLink = helpLink(sm.Game, lang)
	}
	if err := p.addCatchUp(c, d, cat, tok, names); err != nil {
		return nil, err
	}
	if sm.Status == projections.StatusActive && !d.YouBot {
		d.Takeback = sp.Takeback.Version
	}
	d.cardMoves()
	return d, nil
}

// groupMoves turns the legal moves into titled button groups, in the order
// of their first appearance. offer.Final[i] marks moves[i] as one that
// cannot be taken back, offer.EndsTurn[i] as one that ends the turn. grouper, if set, gives the group (a catalog key) of a move's
// kind ("": move.other). Each button posts the move's JSON and shows its
// label; the card it is about (engine.About) places it on the table.
func groupMoves(cat i18n.Printer, moves []engine.Move, offer play.TakebackOffer, grouper func(kind string) string) []moveGroup {
	var out []moveGroup
	at := map[string]int{}
	for k, m := range moves {
		b, err := engine.MarshalMove(m)
		if err != nil {
			continue
		}
		about := m.About()
		group := ""
		if grouper != nil {
			group = grouper(about.Kind)
		}
		if group == "" {
			group = "move.other"
		}
		i, ok := at[group]
		if !ok {
			i = len(out)
			at[group] = i
			out = append(out, moveGroup{ID: "moves-" + strconv.Itoa(i), Title: cat.T(group)})
		}
		mb := moveButton{JSON: string(b), Label: m.Label(), Card: about.Card,
			Final: k < len(offer.Final) && offer.Final[k], EndsTurn: k < len(offer.EndsTurn) && offer.EndsTurn[k]}
		out[i].Moves = append(out[i].Moves, mb)
	}
	return out
}

// genericFields lists the top-level fields of a view other than its legal
// moves, for games without a template of their own.
func genericFields(raw []byte) []field {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return []field{{Name: "state", Value: string(raw)}}
	}
	var out []field
	for k, v := range m {
		if k == "legal_moves" {
			continue
		}
		out = append(out, field{Name: strings.ReplaceAll(k, "_", " "), Value: string(v)})
	}
	slices.SortFunc(out, func(a, b field) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// resultRow is one seat's line of a finished game's result table.
type resultRow struct {
	Place int
	Name  string
	Cells []string
}

// resultRows is the result table of o in lang, the seats named by names
// (bots marked): the figures that decided the ranking, as the game-over
// email tells them (play.Outcome.Standings); the recorded score where
// the outcome has no final state.
func resultRows(cat i18n.Printer, o *play.Outcome, names []string, lang string) ([]resultRow, []string) {
	name := func(seat int, fallback string) string {
		if seat >= 0 && seat < len(names) {
			return names[seat]
		}
		return fallback
	}
	var rows []resultRow
	if t := o.Standings(lang); t != nil {
		for _, r := range t.Rows {
			rows = append(rows, resultRow{Place: r.Place, Name: name(r.Seat, ""), Cells: r.Cells})
		}
		return rows, t.Columns
	}
	for _, r := range o.Ranking {
		rows = append(rows, resultRow{Place: r.Place, Name: name(r.Seat, r.Name), Cells: []string{strconv.Itoa(r.Score)}})
	}
	return rows, []string{cat.T("play.score")}
}
