package play

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/events/tokens"
	"pbem/projections"
)

// View is what one seat sees of a game: the engine's view of that seat and
// its legal moves.
type View struct {
	GameID     string        `json:"game_id"`
	Seat       int           `json:"seat"`
	Version    int64         `json:"version"`
	Status     string        `json:"status"`
	ToMove     []int         `json:"to_move"`
	LegalMoves []engine.Move `json:"legal_moves"`
	State      any           `json:"state"`
	Deadline   *time.Time    `json:"deadline"`
	// Explanations say how the rules apply to the seat now, in the seat's
	// language (engine.State.Explain): why a power cannot be used, how a
	// score or a battle is counted. Never nil.
	Explanations []engine.Explanation `json:"explanations"`
	// Language is the language the seat's player reads (its own, else the
	// game's): labels and explanations are in it, and its pages follow it.
	Language string `json:"language"`

	// encoded is the view's JSON when the service encoded it already: a
	// keyed move's answer, stored with the move (see JSON).
	encoded json.RawMessage
}

// JSON is the view as the JSON API answers it: the bytes the service
// stored for a keyed move's answer (given again, as they were, to a retry
// with the same key), else the view encoded now (AppendJSON).
func (v *View) JSON() (json.RawMessage, error) {
	if v.encoded != nil {
		return v.encoded, nil
	}
	return v.AppendJSON(make([]byte, 0, viewSizeHint))
}

// viewSizeHint is the room JSON makes for a view: a four-player Lords of
// Scotland view takes 6.7 KB on average (BenchmarkViewJSON), so that most
// views are written without growing their buffer.
const viewSizeHint = 8 << 10

// AppendJSON appends to b the view as the JSON API answers it: the stored
// bytes of a keyed move's answer, else the bytes json.Marshal gives for
// v, written field by field: the legal moves by engine.AppendMove and
// the engine's view by its own AppendJSON when it has one
// (engine.ViewAppender), else by encoding/json.
func (v *View) AppendJSON(b []byte) ([]byte, error) {
	if v.encoded != nil {
		return append(b, v.encoded...), nil
	}
	b = append(b, '{')
	b = engine.AppendStringField(b, "game_id", v.GameID)
	b = engine.AppendInt(b, "seat", v.Seat)
	b = strconv.AppendInt(engine.AppendField(b, "version"), v.Version, 10)
	b = engine.AppendStringField(b, "status", v.Status)
	b = engine.AppendInts(engine.AppendField(b, "to_move"), v.ToMove)
	b, err := appendMoves(engine.AppendField(b, "legal_moves"), v.LegalMoves)
	if err != nil {
		return nil, err
	}
	b = engine.AppendField(b, "state")
	if va, ok := v.State.(engine.ViewAppender); ok {
		b = va.AppendJSON(b)
	} else if b, err = appendMarshal(b, v.State); err != nil {
		return nil, err
	}
	b = engine.AppendField(b, "deadline")
	if v.Deadline == nil {
		b = append(b, "null"...)
	} else if b, err = appendMarshal(b, v.Deadline); err != nil {
		return nil, err
	}
	b = engine.AppendList(engine.AppendField(b, "explanations"), v.Explanations, appendExplanation)
	b = engine.AppendStringField(b, "language", v.Language)
	return append(b, '}'), nil
}

// appendExplanation appends e as encoding/json writes an engine.Explanation.
func appendExplanation(e engine.Explanation, b []byte) []byte {
	b = engine.AppendStringField(append(b, '{'), "kind", e.Kind)
	return append(engine.AppendStringField(b, "text", e.Text), '}')
}

// appendMoves appends a list of moves as encoding/json writes it: an
// engine's moves by engine.AppendMove, a posted one by encoding/json
// (its bytes are the client's, which encoding/json compacts).
func appendMoves(b []byte, ms []engine.Move) ([]byte, error) {
	if ms == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if _, posted := m.(PostedMove); posted {
			b, err = appendMarshal(b, m)
		} else {
			b, err = engine.AppendMove(b, m)
		}
		if err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendMarshal appends json.Marshal(x).
func appendMarshal(b []byte, x any) ([]byte, error) {
	q, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	return append(b, q...), nil
}

// storedView is a remembered answer (projections.Request.Response) as a
// View: its state stays JSON, its legal moves are PostedMoves (their JSON
// and labels as listed), and JSON gives the stored bytes.
func storedView(b json.RawMessage) (*View, error) {
	var in struct {
		View
		State      json.RawMessage   `json:"state"`
		LegalMoves []json.RawMessage `json:"legal_moves"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("play: remembered answer: %w", err)
	}
	v := in.View
	v.State, v.LegalMoves, v.encoded = in.State, make([]engine.Move, len(in.LegalMoves)), b
	for i, m := range in.LegalMoves {
		v.LegalMoves[i] = PostedMove(m)
	}
	return &v, nil
}

// Summary is the public summary of a game.
type Summary struct {
	ID           string     `json:"id"`
	Game         string     `json:"game"`
	RulesVersion string     `json:"rules_version"`
	Language     string     `json:"language"`
	Status       string     `json:"status"`
	Version      int64      `json:"version"`
	ToMove       []int      `json:"to_move"`
	Seats        []SeatName `json:"seats"`
	Deadline     *time.Time `json:"deadline"`
	SeedHash     string     `json:"seed_hash"`
	CreatedAt    time.Time  `json:"created_at"`
	UpdatedAt    time.Time  `json:"updated_at"`
	FinishedAt   *time.Time `json:"finished_at,omitempty"`
	Result       *Outcome   `json:"result,omitempty"`
}

// Ended reports whether the game is over (finished or aborted).
func (sm *Summary) Ended() bool { return projections.StatusEnded(sm.Status) }

// SeatName is a seat number and its player's name; Bot is the level of
// the bot that plays it ("" for a person): bots are shown as bots.
type SeatName struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	Bot  string `json:"bot,omitempty"`
}

// Outcome is a finished game's result with the players' names. Summary
// is in the game's language (the JSON API's public summary); a page tells
// its reader the result in theirs (In).
type Outcome struct {
	Ranking []projections.Ranking `json:"ranking"`
	Summary string                `json:"summary,omitempty"`
	// result and names are what Summary was told from (In tells them
	// again in another language).
	result *engine.Result
	names  []string
	// told tells the result in a language from the game's final state
	// (projections.Standings); nil where the outcome was read without it.
	told func(lang string) *engine.Standings
}

// In is the result's one line in lang, as the game-over email tells it:
// what decided the ranking (Standings) where the final state is at hand,
// else the recorded result's winners (projections.ResultSummary), else
// Summary.
func (o *Outcome) In(lang string) string {
	if t := o.Standings(lang); t != nil {
		return t.Summary
	}
	if o.result == nil {
		return o.Summary
	}
	return projections.ResultSummary(o.result, o.names, lang)
}

// Standings is the result told in lang by what decided it, as the
// game-over email tells it (projections.Standings); nil for an outcome
// read without the game's final state (a seat's page has it).
func (o *Outcome) Standings(lang string) *engine.Standings {
	if o.told == nil {
		return nil
	}
	return o.told(lang)
}

// Summary returns the public summary of a game. Errors: events.CodeNotFound.
func (s *Service) Summary(ctx context.Context, id string) (*Summary, error) {
	g, err := s.game(ctx, id)
	if err != nil {
		return nil, err
	}
	return summarize(g), nil
}

func summarize(g *projections.Game) *Summary {
	sm := &Summary{
		ID: g.ID, Game: g.Game, RulesVersion: g.RulesVersion, Language: g.Language, Status: g.Status,
		Version: g.Version, ToMove: projections.NonNil(g.ToMove), Deadline: g.DeadlineAt, SeedHash: hex.EncodeToString(g.SeedHash),
		CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt, FinishedAt: g.FinishedAt,
	}
	for i, n := range g.Players {
		sn := SeatName{Seat: i, Name: n}
		if st := g.SeatAt(i); st != nil {
			sn.Bot = st.Bot
		}
		sm.Seats = append(sm.Seats, sn)
	}
	if g.Result != nil {
		sm.Result = &Outcome{Ranking: projections.Rankings(g.Result, g.Players), Summary: projections.ResultSummary(g.Result, g.Players, g.Language),
			result: g.Result, names: g.Players}
	}
	return sm
}

// Auth is who a token opens a game as.
type Auth struct {
	Seat  int  // the seat, or engine.Spectator for the admin
	Admin bool // the admin token
}

// authSeat loads a game and the seat its token opens. Errors: events.CodeNotFound,
// events.CodeUnauthorized.
func (s *Service) authSeat(ctx context.Context, id, token string) (*projections.Game, int, error) {
	if token == "" {
		return nil, 0, events.Errorf(events.CodeUnauthorized, "give the token of your play link as Authorization: Bearer TOKEN")
	}
	g, err := s.game(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	seat := seatFor(g, token)
	if seat < 0 {
		return nil, 0, errBadSeatToken(id)
	}
	return g, seat, nil
}

// errBadSeatToken is the error for a token that opens no seat of game id.
func errBadSeatToken(id string) error {
	return events.Errorf(events.CodeUnauthorized, "this token does not open game %s (a newer link may have replaced it)", id)
}

// authAdmin loads a game and checks its admin token. Errors: events.CodeNotFound,
// events.CodeUnauthorized.
func (s *Service) authAdmin(ctx context.Context, id, token string) (*projections.Game, error) {
	if token == "" {
		return nil, events.Errorf(events.CodeUnauthorized, "give the game's admin token as Authorization: Bearer TOKEN")
	}
	g, err := s.game(ctx, id)
	if err != nil {
		return nil, err
	}
	if !tokens.Matches(token, g.AdminHash) {
		if s.revokedAdmin(id, token) {
			return nil, ErrAdminRevoked
		}
		return nil, events.Errorf(events.CodeUnauthorized, "this is not the admin token of game %s", id)
	}
	return g, nil
}

// Authenticate says whom token opens game id as: a seat, or the admin.
// Errors: events.CodeNotFound, events.CodeUnauthorized.
func (s *Service) Authenticate(ctx context.Context, id, token string) (Auth, error) {
	if token == "" {
		return Auth{}, events.Errorf(events.CodeUnauthorized, "no token")
	}
	g, err := s.game(ctx, id)
	if err != nil {
		return Auth{}, err
	}
	if seat := seatFor(g, token); seat >= 0 {
		return Auth{Seat: seat}, nil
	}
	if tokens.Matches(token, g.AdminHash) {
		return Auth{Seat: engine.Spectator, Admin: true}, nil
	}
	if s.revokedAdmin(id, token) {
		return Auth{}, ErrAdminRevoked
	}
	return Auth{}, events.Errorf(events.CodeUnauthorized, "this token does not open game %s", id)
}

// View returns the view of the seat that token opens. Errors: events.CodeNotFound,
// events.CodeUnauthorized.
func (s *Service) View(ctx context.Context, id, token string) (*View, error) {
	_, v, err := s.tokenView(ctx, id, token)
	return v, err
}

// tokenView reads game id and the view of the seat that token opens.
func (s *Service) tokenView(ctx context.Context, id, token string) (*projections.Game, *View, error) {
	g, seat, err := s.authSeat(ctx, id, token)
	if err != nil {
		return nil, nil, err
	}
	_, st, err := s.state(ctx, g)
	if err != nil {
		return nil, nil, err
	}
	return g, view(g, st, seat), nil
}

// seatView returns the view of seat without a token, for callers that
// know the seat otherwise (a reminder's list of moves). Errors: events.CodeNotFound.
func (s *Service) seatView(ctx context.Context, id string, seat int) (*View, error) {
	g, err := s.game(ctx, id)
	if err != nil {
		return nil, err
	}
	if seat < 0 || seat >= len(g.Players) {
		return nil, events.Errorf(events.CodeNotFound, "game %s has no seat %d", id, seat)
	}
	_, st, err := s.state(ctx, g)
	if err != nil {
		return nil, err
	}
	return view(g, st, seat), nil
}

// view is seat's view of g in its player's language (Game.SeatLanguage).
// The legal moves are those the engine's view holds when it holds them
// (engine.MovesView), not listed a second time.
func view(g *projections.Game, st engine.State, seat int) *View {
	st = projections.SpeakTo(g, st, seat)
	sv := st.View(seat)
	v := &View{GameID: g.ID, Seat: seat, Version: g.Version, Status: g.Status, ToMove: projections.NonNil(g.ToMove),
		LegalMoves: []engine.Move{}, State: sv, Deadline: g.DeadlineAt,
		Explanations: projections.NonNil(st.Explain(seat, g.SeatLanguage(seat))), Language: g.SeatLanguage(seat)}
	if g.Status == projections.StatusActive {
		if mv, ok := sv.(engine.MovesView); ok {
			v.LegalMoves = projections.NonNil(mv.Moves())
		} else {
			v.LegalMoves = projections.NonNil(st.Legal(seat))
		}
	}
	return v
}

// SeatMoves lists the legal moves of seat in game id now as an email
// numbers them (their labels), with the tag of that list
// (projections.ChoiceTag) that the email's reply address carries: a
// reminder lists them. Errors: events.CodeNotFound.
func (s *Service) SeatMoves(ctx context.Context, id string, seat int) ([]string, string, error) {
	v, err := s.seatView(ctx, id, seat)
	if err != nil {
		return nil, "", err
	}
	return projections.Labels(v.LegalMoves), projections.ChoiceTag(v.LegalMoves), nil
}

// SeatEmails lists the address of each seat of game id, by seat ("" for a
// bot's seat, which gets no email): whom a resent link, a replacement or
// a rematch emails, for the rate limits to charge each recipient. It is
// for the server's own accounting, never to be shown. Errors: events.CodeNotFound.
func (s *Service) SeatEmails(ctx context.Context, id string) ([]string, error) {
	g, err := s.game(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(g.Players))
	for _, st := range g.Seats {
		if st.Seat >= 0 && st.Seat < len(out) && st.Bot == "" {
			out[st.Seat] = st.Email
		}
	}
	return out, nil
}
