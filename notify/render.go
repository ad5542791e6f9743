package notify

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"strconv"
	"strings"
	texttemplate "text/template"

	"pbem/engine/i18n"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/outbox"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

// RenderConfig is what a Renderer needs besides the payload.
type RenderConfig struct {
	// Secret is PBEM_SECRET: play-link tokens and unsubscribe links are
	// derived from it.
	Secret []byte
	// PublicURL is PBEM_PUBLIC_URL, the server's address as players reach
	// it (links, and the host of Message-IDs).
	PublicURL string
	// From is PBEM_MAIL_FROM, an address with or without a display name
	// (`"Club games" <pbem@example.org>`); empty: pbem@ the public URL's
	// host. Without a name, emails come from DefaultFromName.
	From string
	// ReplyDomain is the domain of reply addresses (PBEM_REPLY_DOMAIN):
	// when set, every email to a seat carries its reply address (see
	// ReplyAddress) and says how to answer it. Empty: no reply address.
	ReplyDomain string
}

// Renderer turns outbox rows into messages: one template set per kind,
// instantiated once per language with that language's catalog.
type Renderer struct {
	secret []byte
	public *url.URL
	host   string
	from   string
	reply  string
	langs  map[string]*language
}

// language is one language's printer of the emails' catalog and its
// templates, with "t" bound to the printer.
type language struct {
	p    i18n.Printer
	text map[outbox.Kind]*texttemplate.Template
	html map[outbox.Kind]*htmltemplate.Template
}

// NewRenderer parses the templates and catalogs. It fails on a bad
// configuration or a template error.
func NewRenderer(cfg RenderConfig) (*Renderer, error) {
	if len(cfg.Secret) == 0 {
		return nil, fmt.Errorf("notify: renderer: empty secret")
	}
	pu, err := url.Parse(strings.TrimRight(cfg.PublicURL, "/"))
	if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
		return nil, fmt.Errorf("notify: renderer: PBEM_PUBLIC_URL %q is not an http(s) URL", cfg.PublicURL)
	}
	from, err := fromAddress(cfg.From, pu.Hostname())
	if err != nil {
		return nil, err
	}
	r := &Renderer{secret: cfg.Secret, public: pu, host: pu.Hostname(), from: from.String(), reply: strings.ToLower(cfg.ReplyDomain),
		langs: map[string]*language{}}
	for _, lang := range i18n.Languages {
		l, err := newLanguage(emailCatalog.In(lang))
		if err != nil {
			return nil, fmt.Errorf("notify: language %s: %w", lang, err)
		}
		r.langs[lang] = l
	}
	return r, nil
}

func newLanguage(p i18n.Printer) (*language, error) {
	l := &language{p: p, text: map[outbox.Kind]*texttemplate.Template{}, html: map[outbox.Kind]*htmltemplate.Template{}}
	tr := p.T
	for _, k := range outbox.Kinds() {
		tt, err := texttemplate.New("").Funcs(texttemplate.FuncMap{"t": tr, "label": p.Label, "variant": emailCatalog.Variant, "join": strings.Join, "figures": figures}).
			ParseFS(templateFS, "templates/layout.txt.tmpl", "templates/"+string(k)+".txt.tmpl")
		if err != nil {
			return nil, err
		}
		ht, err := htmltemplate.New("").Funcs(htmltemplate.FuncMap{"t": tr, "label": p.Label, "colon": func() string { return i18n.Colon(p.Lang()) }, "variant": emailCatalog.Variant}).
			ParseFS(templateFS, "templates/layout.html.tmpl", "templates/"+string(k)+".html.tmpl")
		if err != nil {
			return nil, err
		}
		l.text[k], l.html[k] = tt, ht
	}
	return l, nil
}

// emailData is what the templates see; they pass the catalog messages
// their arguments from it.
type emailData struct {
	Lang    string
	Subject string
	Name    string
	Game    string
	// Engine is the game's engine name ("lords-of-scotland"): the
	// templates pick a message's wording for the game with
	// {{t (variant KEY .Engine) ...}}.
	Engine   string
	GameID   string
	Players  string
	Deadline string
	// AtDeadline is the catalog key of what happens at the deadline if
	// the recipient has not played (reminders; "" : not said).
	AtDeadline string
	// AskZone: the deadline is told in UTC because the seat's time zone is
	// unknown, and the email (an invitation, a your-turn email, a
	// round-end email that asks a move, or a reminder) says how to give
	// one (issue #30).
	AskZone bool
	// Asks: a round-end email asks its reader's move (the seat is awaited
	// and has not moved since: see Row.Passed), as a your-turn email does.
	Asks            bool
	PlayLink        string
	AuditLink       string
	UnsubscribeLink string
	// Link is the organiser's or sign-in email's link (confirm,
	// admin_link, signin); BlockLink refuses every invitation (in
	// invitations); MyGamesLink is the "My games" page.
	Link        string
	BlockLink   string
	MyGamesLink string
	Summary     string
	Lines       []string
	Ranking     []outbox.Rank
	// Columns head each rank's Cells (outbox.Payload.Columns).
	Columns []string
	// Turns are what happened since the recipient last heard, grouped by
	// who acted (your-turn, round-end and game-over emails read with a
	// Story), under the heading StoryIntro (a catalog key); Notice is a
	// notice's subject ("paused", "resumed", "extended").
	Turns      []storyTurn
	StoryIntro string
	Notice     string
	// NoticeText is Notice in the email's language (the notice's subject).
	NoticeText string
	// Muster: the game waits for its players to accept before its first
	// turn, until MusterUntil (an invitation asks the reader to answer).
	Muster      bool
	MusterUntil string
	// KeepsLinks: the footer may say that the reader's play links keep
	// working (not for an email without one, such as a notice to a player
	// who left).
	KeepsLinks bool
	// Rounds are the rounds a round-end or game-over email tells, as
	// tables (see Story.Rounds).
	Rounds []*roundTable
	Games  []digestItem
	// HelpLink is the game's help page in the email's language (in
	// invitations; every registered game is expected to have one).
	HelpLink string
	// ReplyTo is the reply address (empty: the email says nothing about
	// replying); Moves are the numbered legal moves.
	ReplyTo string
	Moves   []numberedMove
	// Says (with the move each names), Quote, Detail and Turn are an
	// Answer's (Reply emails); Turn joins its names.
	Says   []said
	Quote  []string
	Detail string
	Turn   string
	// AwayDate is the day an away ends, told; AwayLeft and AwayAllowed
	// the days of away left and allowed (Away emails).
	AwayDate              string
	AwayLeft, AwayAllowed int
}

// numberedMove is one line of an email's list of moves.
type numberedMove struct {
	N     int
	Label string
}

type digestItem struct {
	Game     string
	Players  string
	Deadline string
	PlayLink string
	Chat     []string
	// Away is what the recipient's away does in the game (Away emails).
	Away string
}

// Render builds the message of an outbox row. Errors (bad payload, unknown
// kind) are *PermanentError: the row can never be sent.
func (r *Renderer) Render(row Row) (*Message, error) {
	if !row.Kind.Valid() {
		return nil, &PermanentError{Err: fmt.Errorf("notify: row %d: unknown kind %q", row.ID, row.Kind)}
	}
	p, err := DecodePayload(row.Payload)
	if err != nil {
		return nil, &PermanentError{Err: fmt.Errorf("row %d: %w", row.ID, err)}
	}
	if row.Passed != "" {
		// The call to move is out of date (see Row.Passed).
		p.Awaited, p.Moves, p.Choice = false, nil, ""
	}
	lang := i18n.Norm(p.Language)
	l := r.langs[lang]
	gameID := p.Game.ID
	if gameID == "" {
		gameID = row.GameID
	}
	seat := p.To.Seat
	if row.Seat >= 0 && row.Kind != outbox.Digest {
		seat = row.Seat
	}
	d := emailData{
		Lang:            lang,
		Name:            p.To.Name,
		Game:            GameTitle(p.Game.Name),
		Engine:          p.Game.Name,
		GameID:          gameID,
		Players:         playerList(p.Game, l.p.Lang()),
		Deadline:        l.tellDeadline(deadlineFor(row.Kind, p), row.Story),
		PlayLink:        r.PlayLink(gameID, seat, p.TokenGen),
		AuditLink:       r.link("games", gameID, "audit") + "?lang=" + url.QueryEscape(lang),
		UnsubscribeLink: r.UnsubscribeLink(p.To.Email, lang),
		Summary:         p.Summary,
		Lines:           p.Lines,
		Ranking:         p.Ranking,
		Columns:         p.Columns,
		Notice:          p.Notice,
	}
	d.Asks = row.Kind == outbox.RoundEnd && p.Awaited
	d.AskZone = d.Deadline != "" && !zoneKnown(row.Story) &&
		(row.Kind == outbox.Invitation || row.Kind == outbox.YourTurn || row.Kind == outbox.Reminder || row.Kind == outbox.Reply || d.Asks)
	if d.Notice != "" {
		d.NoticeText = l.p.T("notice." + d.Notice)
	}
	if p.Muster {
		d.Muster, d.MusterUntil, d.AskZone = true, l.tellDeadline(p.Deadline, row.Story), false
	}
	if row.Story != nil && row.Kind.Gathered() && len(row.Story.Events) > 0 {
		// A gathered table-talk email tells every line not told yet.
		d.Lines = d.Lines[:0:0]
		for _, e := range row.Story.Events {
			d.Lines = append(d.Lines, e.Summary)
		}
	}
	if seat < 0 {
		d.PlayLink = "" // not a seat's email (a player who left): no link to play
	}
	if row.Story != nil && row.Kind.TellsStory() && row.Story.Events != nil {
		// The story replaces the payload's lines (those of the append that
		// owed the email): it tells what the seat was not told, those
		// lines among them unless an email told them already.
		d.Lines, d.StoryIntro = nil, "story.intro"
		if row.Story.AfterEmail {
			d.StoryIntro = "story.intro_email"
		}
		d.Turns = storyTurns(row.Story.Events, p.Game.Players, storyHeads{
			timeout: l.p.T("story.system"), admin: l.p.T("story.admin"), game: l.p.T("story.game"),
			forced: func(name string) string { return l.p.T("story.forced", name) }})
	}
	if row.Story != nil {
		for _, r := range row.Story.Rounds {
			d.Rounds = append(d.Rounds, l.roundTable(r, p.Game.Players))
		}
	}
	// An email to a seat, and the digest of a player's games, may say
	// that play links keep working; the others (the organiser's, a
	// sign-in, a notice to a player who left) have none to speak of, and
	// a new link's email says that the older links no longer work.
	d.KeepsLinks = (d.PlayLink != "" && row.Kind != outbox.Link) || row.Kind == outbox.Digest
	if r.reply != "" && row.Kind != outbox.Digest && seat >= 0 {
		choice := p.Choice
		if choice == "" {
			choice = NoChoice
		}
		a := ReplyAddress{GameID: gameID, Seat: seat, Choice: choice, Version: p.Version,
			Tag: tokens.ReplyTag(r.secret, gameID, seat, p.TokenGen)}
		if p.Version > 0 {
			a.Signed, a.Tag = true, tokens.ReplyTagAt(r.secret, gameID, seat, p.TokenGen, p.Version)
		}
		d.ReplyTo = a.String(r.reply)
		for i, m := range p.Moves {
			d.Moves = append(d.Moves, numberedMove{N: i + 1, Label: m})
		}
	}
	if k := "atdeadline." + p.Policy; p.Policy != "" && emailCatalog.Has(k) {
		d.AtDeadline = k
	}
	inReplyTo := ""
	if a := p.Answer; a != nil {
		d.Says, d.Quote, d.Turn = sentences(a), a.Quote, strings.Join(a.Turn, ", ")
		if len(a.Lines) > 0 {
			d.Lines = a.Lines
		}
		d.Detail = projections.ExplainError(lang, a.Code, a.Detail)
		inReplyTo = a.InReplyTo
	}
	messageID, references := r.threading(row, p, seat, inReplyTo)
	d.MyGamesLink = r.link("me")
	switch row.Kind {
	case outbox.Invitation:
		d.BlockLink = r.BlockLink(p.To.Email, lang)
		d.HelpLink = r.link("help", p.Game.Name) + "?lang=" + url.QueryEscape(lang)
	case outbox.Confirm:
		d.Link = r.link("confirm", tokens.Confirm(r.secret, gameID)) + "?lang=" + url.QueryEscape(lang)
	case outbox.AdminLink:
		d.Link = r.link("admin", gameID) + "?token=" + url.QueryEscape(tokens.Admin(r.secret, gameID, p.TokenGen))
	case outbox.Signin:
		d.Link = r.link("signin", tokens.Signin(r.secret, gameID)) + "?lang=" + url.QueryEscape(lang)
	}
	for _, g := range p.Games {
		d.Games = append(d.Games, digestItem{
			Game:     GameTitle(g.Game.Name),
			Players:  playerList(g.Game, l.p.Lang()),
			Deadline: l.tellDeadline(g.Deadline, row.Story),
			PlayLink: r.PlayLink(g.Game.ID, g.Seat, g.TokenGen),
			Chat:     g.Chat,
			Away:     l.awayEffect(p.Notice, g),
		})
	}
	if !emailCatalog.Has("subject." + string(row.Kind)) {
		return nil, &PermanentError{Err: fmt.Errorf("notify: row %d: no subject for %s", row.ID, row.Kind)}
	}
	subjKey := emailCatalog.Variant("subject."+string(row.Kind), d.Engine)
	if d.Asks {
		subjKey = emailCatalog.Variant("subject.round_end_turn", d.Engine)
	}
	if row.Kind == outbox.Away {
		d.AwayDate, d.AwayLeft, d.AwayAllowed = l.tellDay(p.AwayDate), p.AwayDaysLeft, p.AwayDays
		if p.Notice == "back" {
			subjKey = "subject.away.back"
		}
	}
	subj := l.p.T(subjKey, subjectArgs(row.Kind, d)...)
	d.Subject = oneLine(subj)
	var text, html bytes.Buffer
	if err := l.text[row.Kind].ExecuteTemplate(&text, "layout", d); err != nil {
		return nil, &PermanentError{Err: fmt.Errorf("notify: row %d text: %w", row.ID, err)}
	}
	if err := l.html[row.Kind].ExecuteTemplate(&html, "layout", d); err != nil {
		return nil, &PermanentError{Err: fmt.Errorf("notify: row %d html: %w", row.ID, err)}
	}
	m := &Message{
		From:       r.from,
		To:         p.To.Email,
		ToName:     p.To.Name,
		Subject:    d.Subject,
		Text:       text.String(),
		HTML:       html.String(),
		Language:   lang,
		MessageID:  messageID,
		Kind:       row.Kind,
		GameID:     row.GameID,
		OutboxID:   row.ID,
		ReplyTo:    d.ReplyTo,
		InReplyTo:  inReplyTo,
		References: references,
	}
	if row.Kind.Bulk() {
		m.Bulk, m.Unsubscribe = true, d.UnsubscribeLink
	}
	return m, nil
}

// threading is the Message-ID and References of a row's email (see
// ThreadID): the seat's first invitation is its thread's root; every other
// email of the game to the seat refers to the root, and the answer to a
// reply also to the reply (inReplyTo). The digest and the organiser's and
// sign-in emails belong to no game's seat and form no thread.
func (r *Renderer) threading(row Row, p outbox.Payload, seat int, inReplyTo string) (messageID, references string) {
	messageID = r.MessageID(row.ID, row.GameID)
	root := ""
	if row.Kind.ForSeat() {
		root = r.ThreadID(row.GameID, seat)
	}
	switch {
	case root == "":
	case row.Kind == outbox.Invitation && p.TokenGen == 0:
		messageID = root
	default:
		references = "<" + root + ">"
		if inReplyTo != "" {
			references += " " + inReplyTo
		}
	}
	if references == "" {
		references = inReplyTo
	}
	return messageID, references
}

// subjectArgs are the arguments of a kind's subject: the number of games
// waiting for a digest; the game, its players and the deadline for the
// others (each subject uses those it names).
func subjectArgs(k outbox.Kind, d emailData) []any {
	switch k {
	case outbox.Digest:
		return []any{len(d.Games)}
	case outbox.Notice:
		return []any{d.Game, d.Players, d.NoticeText}
	case outbox.Away:
		return []any{d.AwayDate}
	}
	return []any{d.Game, d.Players, d.Deadline}
}

// PlayLink is a seat's play link: PUBLIC_URL/play/GAME?token=TOKEN.
func (r *Renderer) PlayLink(gameID string, seat, gen int) string {
	return r.link("play", gameID) + "?token=" + url.QueryEscape(tokens.Seat(r.secret, gameID, seat, gen))
}

// UnsubscribeLink is the signed link to an address's mail preference; lang
// picks the language of the page it opens.
func (r *Renderer) UnsubscribeLink(email, lang string) string {
	return r.link("mail", "unsubscribe") + "?token=" + url.QueryEscape(tokens.Unsubscribe(r.secret, email)) + "&lang=" + url.QueryEscape(lang)
}

// BlockLink is the signed link by which an address refuses every
// invitation; lang picks the language of the page it opens.
func (r *Renderer) BlockLink(email, lang string) string {
	return r.link("mail", "block") + "?token=" + url.QueryEscape(tokens.Block(r.secret, email)) + "&lang=" + url.QueryEscape(lang)
}

// MessageID is the fixed Message-ID of an outbox row (without brackets).
func (r *Renderer) MessageID(id int64, gameID string) string {
	var b strings.Builder
	b.WriteString("outbox-")
	b.WriteString(strconv.FormatInt(id, 10))
	if g := messageIDSafe(gameID); g != "" {
		b.WriteString(".")
		b.WriteString(g)
	}
	b.WriteString("@")
	b.WriteString(r.host)
	return b.String()
}

func (r *Renderer) link(segs ...string) string {
	u := *r.public
	for _, s := range segs {
		u = *u.JoinPath(s)
	}
	return u.String()
}

// messageIDSafe keeps the characters of a game id allowed in a Message-ID's
// left part (RFC 5322 dot-atom text, minus a few that confuse tools).
func messageIDSafe(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c < 128 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// GameTitle turns a game's name ("lords-of-scotland") into a title
// ("Lords of Scotland").
func GameTitle(name string) string {
	words := strings.FieldsFunc(name, func(c rune) bool { return c == '-' || c == '_' || c == ' ' })
	for i, w := range words {
		if i > 0 && (w == "of" || w == "and" || w == "the") {
			continue
		}
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	if len(words) == 0 {
		return "pbem"
	}
	return strings.Join(words, " ")
}

// playerList is a game's players for an email in lang, as the game names
// them (projections.SeatName): "Ann, Robot 1 (bot)".
func playerList(g outbox.GameInfo, lang string) string {
	names := make([]string, len(g.Players))
	for i, n := range g.Players {
		names[i] = n
		if i < len(g.Bots) {
			names[i] = projections.SeatName(lang, n, g.Bots[i])
		}
	}
	return strings.Join(names, ", ")
}

// figures is a rank's cells told under their headings, for a line of
// text: "Daggers 4, Gold 23".
func figures(columns, cells []string) string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = c
		if i < len(columns) {
			out[i] = columns[i] + " " + c
		}
	}
	return strings.Join(out, ", ")
}
