package projections

import (
	"cmp"
	"slices"
)

// Ratings per game (issue #46): every finished game is one Glicko-2
// rating period for the players at its table, each seat scored against
// every other seat (1 for a better place, ½ for the same, 0 for a worse
// one: the pairwise results of the game) with everyone's ratings from
// before it; games are taken in the order they finished (then by id).
// A seat is rated for whoever played it at the end: its person, or the
// bot that played it (a bot's own seat, or one the organiser handed to a
// bot: BotPlayer). Each bot level is a player of its own. A person whose
// address the primary data lost is left out, and a game with fewer than
// two players left is not rated. See docs/ratings.md.

// Rating is one player's rating at one game.
type Rating struct {
	Game string `json:"game"`
	// Player is the rated player's key: the person's address, or
	// BotPlayer(level). Never shown to others.
	Player string `json:"-"`
	// Name is the person's name at their last rated game, or the bot's
	// level.
	Name string `json:"name"`
	// Bot is the bot's level, "" for a person.
	Bot        string  `json:"bot,omitempty"`
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
	// Games is how many rated games the player finished.
	Games int `json:"games"`
}

// RatingChange is one seat's rating before and after a finished game.
type RatingChange struct {
	GameID string `json:"-"`
	Seat   int    `json:"seat"`
	Player string `json:"-"`
	Name   string `json:"name"`
	Bot    string `json:"bot,omitempty"`
	Before Glicko `json:"-"`
	After  Glicko `json:"-"`
}

// BotPlayer is the rating key of the bots of level.
func BotPlayer(level string) string { return "bot:" + level }

// RatedBy is the key of the player rated for finished stint s ("" for
// none) and the bot level, if a bot played it at the end.
func RatedBy(s *Stint) (player, bot string) {
	switch {
	case s.Bot != "":
		return BotPlayer(s.Bot), s.Bot
	case s.Handed != "":
		return BotPlayer(s.Handed), s.Handed
	}
	return s.Email, ""
}

// Rater computes ratings: from prior, the ratings after the games rated
// before (none: from scratch), on through the finished games of stints
// (others are ignored), which all ended after those (then by id). It
// returns the ratings of prior and of those games' players, by game then
// best first, and the rated seats' changes of those games, by game id
// then seat. RateFrom is the one the server uses.
type Rater func(prior []Rating, stints []Stint) ([]Rating, []RatingChange)

// Rate computes every rating from the stints of the finished games
// (others are ignored): the ratings, by game then best first, and each
// rated seat's change, by game id then seat.
func Rate(stints []Stint) ([]Rating, []RatingChange) { return RateFrom(nil, stints) }

// RateFrom is the Rater of Glicko-2 (see the top of this file). A game is
// rated from the players' ratings before it and nothing else, so that
// going on from the ratings Rate gives for the games that ended first
// gives what Rate gives for them all: the records refresher rates only
// the games that end after every game rated (projections/postgres).
func RateFrom(prior []Rating, stints []Stint) ([]Rating, []RatingChange) {
	rated := make(map[ratingKey]*Rating, len(prior))
	for _, r := range prior {
		rated[ratingKey{r.Game, r.Player}] = &r
	}
	order, byGame := finishedGames(stints)
	var changes []RatingChange
	for _, id := range order {
		changes = rateGame(rated, id, byGame[id], changes)
	}
	out := make([]Rating, 0, len(rated))
	for _, r := range rated {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b Rating) int {
		return cmp.Or(cmp.Compare(a.Game, b.Game), cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.Player, b.Player))
	})
	slices.SortFunc(changes, func(a, b RatingChange) int {
		return cmp.Or(cmp.Compare(a.GameID, b.GameID), cmp.Compare(a.Seat, b.Seat))
	})
	return out, changes
}

// ratingKey is a rating's key: the game and the player.
type ratingKey struct{ game, player string }

// rateGame rates game id, the finished stints seats, as one rating period
// from the ratings in rated, which it updates; it returns changes with
// the game's rated seats' changes appended.
func rateGame(rated map[ratingKey]*Rating, id string, seats []Stint, changes []RatingChange) []RatingChange {
	players := make([]string, len(seats))
	distinct := map[string]bool{}
	for i := range seats {
		players[i], _ = RatedBy(&seats[i])
		if players[i] != "" {
			distinct[players[i]] = true
		}
	}
	if len(distinct) < 2 {
		return changes
	}
	game := seats[0].Game
	before := map[string]Glicko{}
	outcomes := map[string][]Outcome{}
	for p := range distinct {
		before[p] = NewGlicko()
		if r, ok := rated[ratingKey{game, p}]; ok {
			before[p] = Glicko{R: r.Rating, RD: r.RD, Vol: r.Volatility}
		}
	}
	for i := range seats {
		for j := range seats {
			if players[i] == "" || players[j] == "" || players[i] == players[j] {
				continue
			}
			outcomes[players[i]] = append(outcomes[players[i]], Outcome{Opponent: before[players[j]], Score: pairScore(seats[i].Place, seats[j].Place)})
		}
	}
	after := map[string]Glicko{}
	for p := range distinct {
		after[p] = Glicko2Update(before[p], outcomes[p])
	}
	for i := range seats {
		p := players[i]
		if p == "" {
			continue
		}
		_, bot := RatedBy(&seats[i])
		name := seats[i].Name
		if bot != "" {
			name = bot
		}
		r, ok := rated[ratingKey{game, p}]
		if !ok {
			r = &Rating{Game: game, Player: p, Bot: bot}
			rated[ratingKey{game, p}] = r
		}
		a := after[p]
		r.Name, r.Rating, r.RD, r.Volatility = name, a.R, a.RD, a.Vol
		r.Games++
		changes = append(changes, RatingChange{GameID: id, Seat: seats[i].Seat, Player: p, Name: name, Bot: bot, Before: before[p], After: a})
	}
	return changes
}

// finishedGames groups the stints of finished games by game, and lists
// the games in the order they ended (then by id).
func finishedGames(stints []Stint) (order []string, byGame map[string][]Stint) {
	byGame = map[string][]Stint{}
	for _, s := range stints {
		if s.Outcome != OutcomeFinished || s.EndedAt == nil {
			continue
		}
		if _, ok := byGame[s.GameID]; !ok {
			order = append(order, s.GameID)
		}
		byGame[s.GameID] = append(byGame[s.GameID], s)
	}
	slices.SortFunc(order, func(a, b string) int {
		return cmp.Or(byGame[a][0].EndedAt.Compare(*byGame[b][0].EndedAt), cmp.Compare(a, b))
	})
	return order, byGame
}

// pairScore is the score of a seat placed a against one placed b.
func pairScore(a, b int) float64 {
	switch {
	case a < b:
		return 1
	case a == b:
		return 0.5
	}
	return 0
}
