package projections

import (
	"slices"
	"time"
)

// Reliability in words (PersonRecord.Reliability).
const (
	// ReliabilityNew: fewer than NewUntil turns owed, too few to say.
	ReliabilityNew = "new"
	// ReliabilityReliable: at most LateShare of the turns owed timed out.
	ReliabilityReliable = "reliable"
	// ReliabilityOftenLate: more than LateShare of them timed out.
	ReliabilityOftenLate = "often late"
)

// The thresholds of the words: a person is "new" until they have owed
// NewUntil turns, then "reliable" while at most LateShare of them timed
// out (one in ten), else "often late".
const (
	NewUntil  = 10
	LateShare = 0.10
)

// PersonRecord is one address's record over every game it played, added
// up from its Stints (see Stints for what counts). It is shown to the
// person themselves; others see only its word (ReliabilityWord), and
// never the address.
type PersonRecord struct {
	GamesPlayed    int `json:"games_played"`
	GamesActive    int `json:"games_active"`
	GamesFinished  int `json:"games_finished"`
	GamesWon       int `json:"games_won"`
	GamesAbandoned int `json:"games_abandoned"`
	// GamesHanded counts the games that ended with a bot playing the
	// person's seat for them: the result is the bot's.
	GamesHanded  int `json:"games_handed"`
	GamesAborted int `json:"games_aborted"`
	// MustersDeclined and MustersMissed count the games whose muster the
	// person declined or never answered (not counted as played; a muster
	// missed counts as a turn owed and timed out).
	MustersDeclined int `json:"musters_declined"`
	MustersMissed   int `json:"musters_missed"`
	TurnsOwed       int `json:"turns_owed"`
	TurnsTimedOut   int `json:"turns_timed_out"`
	// Reliability is the share of the turns owed that were played in time
	// (0 to 1; nil before any turn was owed).
	Reliability *float64 `json:"reliability"`
	// ReliabilityWord is Reliability in words: "new", "reliable" or
	// "often late" (the JSON value; pages translate it).
	ReliabilityWord string `json:"reliability_words"`
	// MedianMoveSeconds is the median time to move over every turn played
	// in time (quickness; nil before any).
	MedianMoveSeconds *float64 `json:"median_move_seconds"`
	// Ratings are the person's ratings, one per game they finished
	// (PersonRating), in the games' order.
	Ratings []Rating `json:"ratings"`
}

// AddUp adds up the stints of one person (their address's) into a
// record, without its ratings.
func AddUp(stints []Stint) PersonRecord {
	var r PersonRecord
	games := map[string]bool{}
	var moves []int64
	for _, s := range stints {
		switch s.Muster {
		case MusterDeclined:
			r.MustersDeclined++
			continue
		case MusterSilent:
			r.MustersMissed++
			r.TurnsOwed++
			r.TurnsTimedOut++
			continue
		}
		if !games[s.GameID] {
			games[s.GameID] = true
			r.GamesPlayed++
		}
		switch s.Outcome {
		case OutcomeActive:
			r.GamesActive++
		case OutcomeAborted:
			r.GamesAborted++
		case OutcomeLeft:
			r.GamesAbandoned++
		case OutcomeFinished:
			if s.Handed != "" {
				r.GamesHanded++
				break
			}
			r.GamesFinished++
			if s.Place == 1 {
				r.GamesWon++
			}
		}
		r.TurnsOwed += s.Owed()
		r.TurnsTimedOut += s.TimedOut
		moves = append(moves, s.MoveMillis...)
	}
	if r.TurnsOwed > 0 {
		share := float64(r.TurnsOwed-r.TurnsTimedOut) / float64(r.TurnsOwed)
		r.Reliability = &share
	}
	r.ReliabilityWord = ReliabilityWord(r.TurnsOwed, r.TurnsTimedOut)
	if m, ok := medianMillis(moves); ok {
		sec := time.Duration(m * float64(time.Millisecond)).Seconds()
		r.MedianMoveSeconds = &sec
	}
	r.Ratings = []Rating{}
	return r
}

// ReliabilityWord says a record of owed turns, timedOut of which timed
// out, in words (see NewUntil and LateShare).
func ReliabilityWord(owed, timedOut int) string {
	switch {
	case owed < NewUntil:
		return ReliabilityNew
	case float64(timedOut) <= LateShare*float64(owed):
		return ReliabilityReliable
	}
	return ReliabilityOftenLate
}

// medianMillis is the median of ms (the mean of the middle two for an
// even count); ok is false when ms is empty.
func medianMillis(ms []int64) (float64, bool) {
	if len(ms) == 0 {
		return 0, false
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return float64(s[n/2]), true
	}
	return (float64(s[n/2-1]) + float64(s[n/2])) / 2, true
}
