package play

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"pbem/events/pbemevent"
	"slices"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/outbox"
)

// Languages the service speaks.
var languages = []string{"en", "fr", "it"}

// CreateGame is a request to start a game.
type CreateGame struct {
	Game     string
	Language string // "" means "en"
	Players  []NewPlayer
	Options  json.RawMessage
	// TurnDeadline, ReminderBefore: 0 means the default.
	TurnDeadline   time.Duration
	ReminderBefore time.Duration
	// TimeoutPolicy: "" means default_move.
	TimeoutPolicy string
	// AwayPolicy is what a player being away does in the game: "wait"
	// (the deadlines wait for them; "" means it), "bot" (a bot plays their
	// seat until they are back) or "forbid" (away does not apply).
	AwayPolicy string
	// RequestID ties the creation to a request's log lines.
	RequestID string
	// Organiser runs the game: they confirm it, and get its admin link by
	// email. Required.
	Organiser Organiser
	// MessageLanguage is the language of option errors ("" means "en"):
	// the page's, which may differ from the game's.
	MessageLanguage string
	// Muster, if set (1 hour to MaxMuster), makes the first turn wait
	// until every invited person has accepted, or that long (muster.go);
	// MusterDefault is what a seat whose person declined or never
	// answered gets then: "bot" ("" means bot) or "abort".
	Muster        time.Duration
	MusterDefault string
}

// NewPlayer is a player of a CreateGame.
type NewPlayer struct {
	Name  string
	Email string
	// Bot, if set, is the level of the bot that plays this seat ("easy",
	// "normal" or "strong"): it has no email, and its name defaults to
	// "Robot N".
	Bot string
	// Language is the language this player reads ("en", "fr", "it"; ""
	// : the game's): their pages and emails.
	Language string
}

// Emails lists the addresses of the players who read email (not the
// bots): whom the game's invitations go to.
func (r CreateGame) Emails() []string {
	var out []string
	for _, p := range r.Players {
		if p.Bot == "" && p.Email != "" {
			out = append(out, p.Email)
		}
	}
	return out
}

// CreatedGame is the answer to CreateGame. The seat tokens are never returned:
// the invitations carry them.
type CreatedGame struct {
	ID         string
	AdminToken string
	Game       *projections.Game
}

// Create starts a game at once, without the organiser's confirmation (a
// rematch, tools and tests; the ways in use Propose and Confirm): it deals
// it with a fresh random seed, records pbem.created, queues one invitation
// per seat, and stores the organiser. Errors: events.CodeInvalid for a bad request
// (unknown game, bad names, emails, organiser, language or deadlines, an
// address that refuses invitations), the engine's CodeBadOptions for a
// player count or options it refuses; a request refused for several
// reasons gets them all, as Refusals, whose first is the error read.
func (s *Service) Create(ctx context.Context, req CreateGame) (*CreatedGame, error) {
	p, err := s.proposal(ctx, &req)
	if err != nil {
		return nil, err
	}
	p.ExpiresAt, p.ConfirmedAt = p.CreatedAt, &p.CreatedAt
	if err := s.accounts.Propose(ctx, p, nil); err != nil {
		return nil, err
	}
	return s.create(ctx, req, p.ID, nil)
}

// proposal validates and completes req and returns its proposal row under
// a fresh id, created now (Create and Propose set when it expires).
func (s *Service) proposal(ctx context.Context, req *CreateGame) (*Proposal, error) {
	if err := s.validate(ctx, req); err != nil {
		return nil, err
	}
	if err := s.personLanguages(ctx, req); err != nil {
		return nil, err
	}
	id, err := s.newID()
	if err != nil {
		return nil, err
	}
	return s.proposalAs(id, req)
}

// proposalAs is the proposal row of checked request req under id,
// created now.
func (s *Service) proposalAs(id string, req *CreateGame) (*Proposal, error) {
	var err error
	p := &Proposal{ID: id, TokenHash: tokens.Hash(tokens.Confirm(s.secret, id)), OrganiserName: req.Organiser.Name,
		OrganiserEmail: req.Organiser.Email, CreatedAt: s.now().UTC()}
	if p.Request, err = json.Marshal(req); err != nil {
		return nil, fmt.Errorf("game: marshal request: %w", err)
	}
	return p, nil
}

// validate checks and completes req: everything Create and Propose refuse,
// every reason at once (Refusals) but for an unknown game or player
// count, after which nothing else can be checked.
func (s *Service) validate(ctx context.Context, req *CreateGame) error {
	eng, ok := s.games[req.Game]
	if !ok {
		return events.FieldErrorf(events.CodeInvalid, "game", "unknown game %q", req.Game)
	}
	var seed engine.Seed
	if _, err := rand.Read(seed[:]); err != nil {
		return fmt.Errorf("play: random seed: %w", err)
	}
	refused := req.check()
	if n := len(req.Players); n == 0 || n > maxPlayers {
		return refused // nothing else can be checked without players
	}
	refused = JoinRefusals(refused, req.Organiser.check())
	opts := req.Options
	if len(opts) == 0 || string(opts) == "null" {
		opts = json.RawMessage(`{}`)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, opts); err != nil || compact.Bytes()[0] != '{' {
		refused = JoinRefusals(refused, events.FieldErrorf(events.CodeInvalid, "options", "options: give a JSON object"))
	} else {
		req.Options = json.RawMessage(compact.Bytes())
		refused = JoinRefusals(refused, checkSetup(eng, len(req.Players), req.Options, req.MessageLanguage, seed))
	}
	blocked := s.checkBlocked(ctx, req)
	if ErrorCode(blocked) == events.CodeInternal {
		return blocked
	}
	return JoinRefusals(refused, blocked)
}

// checkBlocked refuses a request that would email an address that
// refuses invitations: every such field (JoinRefusals).
func (s *Service) checkBlocked(ctx context.Context, req *CreateGame) error {
	emails := []string{req.Organiser.Email}
	for _, p := range req.Players {
		emails = append(emails, p.Email)
	}
	blocked, err := s.accounts.Blocked(ctx, emails)
	if err != nil || len(blocked) == 0 {
		return err
	}
	var errs []error
	for i, p := range req.Players {
		if p.Email != "" && slices.Contains(blocked, strings.ToLower(p.Email)) {
			errs = append(errs, events.FieldErrorf(events.CodeInvalid, fmt.Sprintf("players[%d].email", i),
				"players[%d].email: %s does not accept invitations", i, p.Email))
		}
	}
	if slices.Contains(blocked, strings.ToLower(req.Organiser.Email)) {
		errs = append(errs, events.FieldErrorf(events.CodeInvalid, "organiser.email", "organiser.email: %s does not accept invitations", req.Organiser.Email))
	}
	return JoinRefusals(errs...)
}

// create deals a checked request as game id and appends pbem.created;
// mail adds outbox rows to the same transaction (the admin link).
func (s *Service) create(ctx context.Context, req CreateGame, id string, mail []outbox.Row) (*CreatedGame, error) {
	eng := s.games[req.Game]
	var seed engine.Seed
	if _, err := io.ReadFull(s.seeds, seed[:]); err != nil {
		return nil, fmt.Errorf("play: random seed: %w", err)
	}
	// The seed carries the game's chain format, so that no one can
	// rewrite its record in an older one (pbemevent.MarkSeed).
	pbemevent.MarkSeed(&seed, events.FormatCommitted)
	opts := req.Options
	names := make([]string, len(req.Players))
	seats := make([]projections.Seat, len(req.Players))
	var langs []string
	for i, p := range req.Players {
		names[i] = p.Name
		seats[i] = projections.Seat{Seat: i, Name: p.Name, Email: p.Email, TokenHash: tokens.Hash(tokens.Seat(s.secret, id, i, 0)), Bot: p.Bot,
			Language: p.Language}
		if p.Language != "" {
			if langs == nil {
				langs = make([]string, len(req.Players))
			}
			langs[i] = p.Language
		}
	}
	c := pbemevent.Created{
		Game: eng.Name(), RulesVersion: eng.RulesVersion(), Players: names, Options: opts,
		Language: req.Language, Seed: hex.EncodeToString(seed[:]), SeedHash: pbemevent.SeedHash(seed),
		TurnDeadline: req.TurnDeadline.String(), ReminderBefore: req.ReminderBefore.String(),
		TimeoutPolicy: req.TimeoutPolicy, Bots: req.bots(), Languages: langs, ChainFormat: events.FormatCommitted,
	}
	if req.AwayPolicy != pbemevent.AwayWait {
		c.AwayPolicy = req.AwayPolicy // absent: wait
	}
	if req.Muster > 0 {
		c.Muster, c.MusterDefault = req.Muster.String(), req.MusterDefault
	}
	key := events.CommitKeyFrom(seed)
	data, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("play: marshal pbem.created: %w", err)
	}
	admin := tokens.Admin(s.secret, id, 0)
	shell := &projections.Game{ID: id, Seats: seats, AdminHash: tokens.Hash(admin), CommitKey: &key}
	ev := events.NewEvent{Type: pbemevent.TypeCreated, Data: data, Meta: events.Metadata{Actor: "admin", RequestID: req.RequestID}}
	var extra func(*projections.Change, engine.State) error
	if len(mail) > 0 {
		extra = func(ch *projections.Change, _ engine.State) error {
			ch.Outbox = append(ch.Outbox, mail...)
			return nil
		}
	}
	g, _, _, err := s.append(ctx, shell, nil, []events.NewEvent{ev}, []engine.Event{nil}, extra)
	if err != nil {
		return nil, err
	}
	return &CreatedGame{ID: id, AdminToken: admin, Game: g}, nil
}

// checkSetup checks a setup as the lobby offers it (engine.CheckOptions
// against the game's Settings) and then deals it (combinations); errors
// are bad_options *RuleErrors naming the option, in lang.
func checkSetup(eng engine.Game, players int, opts json.RawMessage, lang string, seed engine.Seed) error {
	if err := engine.CheckOptions(eng.Settings(lang), opts, players, lang); err != nil {
		return err
	}
	if _, err := eng.New(engine.Setup{Players: players, Options: opts, Seed: seed, Language: lang}); err != nil {
		if re := AsRuleError(err); re != nil {
			return re
		}
		return events.Errorf(engine.CodeBadOptions, "%v", err)
	}
	return nil
}

// maxPlayers is the most seats a request may have, whatever the game.
const maxPlayers = 16

// check validates and completes req (defaults): every reason it refuses
// req for (JoinRefusals), but nothing past a player count out of 1 to
// maxPlayers.
func (req *CreateGame) check() error {
	var errs []error
	if req.Language == "" {
		req.Language = "en"
	}
	if !slices.Contains(languages, req.Language) {
		errs = append(errs, events.Errorf(events.CodeInvalid, "language must be one of %s", strings.Join(languages, ", ")))
	}
	if len(req.Players) == 0 || len(req.Players) > maxPlayers {
		errs = append(errs, events.FieldErrorf(events.CodeInvalid, "players", "players: give 1 to %d players", maxPlayers))
		return JoinRefusals(errs...)
	}
	errs = append(errs, req.checkBots())
	seen := map[string]bool{}
	emails := map[string]int{}
	for i, p := range req.Players {
		name := strings.TrimSpace(p.Name)
		switch {
		case !engine.PlainName(name, 40):
			errs = append(errs, events.FieldErrorf(events.CodeInvalid, fmt.Sprintf("players[%d].name", i), "players[%d].name: give a name of 1 to 40 characters on one line, without control, text-direction or invisible characters", i))
		case seen[strings.ToLower(name)]:
			errs = append(errs, events.FieldErrorf(events.CodeInvalid, fmt.Sprintf("players[%d].name", i), "players[%d].name: %q is already taken", i, name))
		}
		seen[strings.ToLower(name)] = true
		if p.Language != "" {
			errs = append(errs, checkLanguage(fmt.Sprintf("players[%d].language", i), p.Language))
		}
		req.Players[i].Name = name
		if p.Bot != "" {
			continue
		}
		email := strings.TrimSpace(p.Email)
		if problem := outbox.AddressProblem(email); problem != "" {
			errs = append(errs, events.FieldErrorf(events.CodeInvalid, fmt.Sprintf("players[%d].email", i), "players[%d].email: %s", i, problem))
		} else if j, dup := emails[strings.ToLower(email)]; dup {
			// Addresses are compared without regard to case: one
			// mailbox with other capitals is still one player.
			errs = append(errs, events.FieldErrorf(events.CodeInvalid, fmt.Sprintf("players[%d].email", i), "players[%d].email: %s is already the address of players[%d]", i, email, j))
		} else {
			emails[strings.ToLower(email)] = i
		}
		req.Players[i].Email = email
	}
	if req.TurnDeadline == 0 {
		req.TurnDeadline = projections.DefaultTurnDeadline
	}
	if req.ReminderBefore == 0 {
		req.ReminderBefore = min(projections.DefaultReminderBefore, req.TurnDeadline/3)
	}
	switch {
	case req.TurnDeadline < time.Minute || req.TurnDeadline > 60*24*time.Hour:
		errs = append(errs, events.Errorf(events.CodeInvalid, "turn_deadline: give a duration from 1m to 1440h"))
	case req.ReminderBefore < 0 || req.ReminderBefore >= req.TurnDeadline:
		errs = append(errs, events.Errorf(events.CodeInvalid, "reminder_before: give a duration shorter than turn_deadline"))
	}
	errs = append(errs, req.checkMuster())
	switch req.TimeoutPolicy {
	case "":
		req.TimeoutPolicy = projections.PolicyDefaultMove
	case projections.PolicyDefaultMove, projections.PolicySkip, projections.PolicyPause, projections.PolicyBot:
	default:
		errs = append(errs, events.Errorf(events.CodeInvalid, "timeout_policy: give default_move, skip, pause or bot"))
	}
	switch req.AwayPolicy {
	case "":
		req.AwayPolicy = pbemevent.AwayWait
	case pbemevent.AwayWait, pbemevent.AwayBot, pbemevent.AwayForbidden:
	default:
		errs = append(errs, events.Errorf(events.CodeInvalid, "away_policy: give wait, bot or forbid"))
	}
	return JoinRefusals(errs...)
}

// checkMuster validates and completes the muster settings of req.
func (req *CreateGame) checkMuster() error {
	if req.Muster == 0 {
		if req.MusterDefault != "" {
			return events.FieldErrorf(events.CodeInvalid, "muster_default", "muster_default: give it with a muster")
		}
		return nil
	}
	if req.Muster < time.Hour || req.Muster > MaxMuster {
		return events.FieldErrorf(events.CodeInvalid, "muster", "muster: give a duration from 1h to %s", MaxMuster)
	}
	switch req.MusterDefault {
	case "":
		req.MusterDefault = pbemevent.MusterBot
	case pbemevent.MusterBot, pbemevent.MusterAbort:
	default:
		return events.FieldErrorf(events.CodeInvalid, "muster_default", "muster_default: give bot or abort")
	}
	return nil
}
