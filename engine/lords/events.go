package lords

// The events of a game. Each is a small self-contained fact: who, what card.
// A card a seat may not see is 0 in the version Game.Redact gives that seat,
// with Hidden set. Apply (apply.go) only changes the state.

// Event types, as stored with each event.
const (
	EvTurnStarted      = "turn_started"
	EvRecruited        = "recruited"
	EvMustered         = "mustered"
	EvPassed           = "passed"
	EvPowerDeclined    = "power_declined"
	EvPowerUsed        = "power_used"
	EvCopied           = "copied"
	EvSwapped          = "swapped"
	EvDiscarded        = "discarded"
	EvSupporterSwapped = "supporter_swapped"
	EvRoundScored      = "round_scored"
	EvClaimed          = "claimed"
	EvRoundEnded       = "round_ended"
	EvRoundStarted     = "round_started"
	EvGameEnded        = "game_ended"
)

// TurnStarted: a turn of the round begins with the initiative holder, who
// turns the leftmost face-down recruit face-up (Slot -1: none was left).
type TurnStarted struct {
	Round int `json:"round"`
	Turn  int `json:"turn"`
	Seat  int `json:"seat"`
	Slot  int `json:"slot"`
	Card  int `json:"card,omitempty"`
}

// Recruited: Seat took the recruit in Slot into its hand. The place is
// refilled from the draw pile with the same facing (Replacement; 0 with
// Empty when both piles were empty).
type Recruited struct {
	Seat        int  `json:"seat"`
	Slot        int  `json:"slot"`
	FaceUp      bool `json:"face_up"`
	Card        int  `json:"card,omitempty"`
	Hidden      bool `json:"hidden,omitempty"`
	Replacement int  `json:"replacement,omitempty"`
	Empty       bool `json:"empty,omitempty"`
	Reshuffled  bool `json:"reshuffled,omitempty"`
}

// Mustered: Seat played Card from its hand into its army. Activate says
// that the card may activate its power (a decision follows). Extra marks
// the follower played by a Makgill's power.
type Mustered struct {
	Seat     int  `json:"seat"`
	Card     int  `json:"card,omitempty"`
	Hidden   bool `json:"hidden,omitempty"`
	FaceUp   bool `json:"face_up"`
	Extra    bool `json:"extra,omitempty"`
	Activate bool `json:"activate,omitempty"`
}

// Passed: Seat could neither recruit nor muster.
type Passed struct {
	Seat int `json:"seat"`
}

// PowerDeclined: Seat chose not to activate Card's power.
type PowerDeclined struct {
	Seat int `json:"seat"`
	Card int `json:"card"`
}

// PowerUsed: an untargeted power of Card takes effect: Forsyth draws (Drawn,
// hidden from the others), Makgill lets Seat muster another follower, Bruce,
// Cochrane and MacDonnell are attached to the card for the end of the round.
type PowerUsed struct {
	Seat       int  `json:"seat"`
	Card       int  `json:"card"`
	Power      Clan `json:"power"`
	Drawn      int  `json:"drawn,omitempty"`
	Hidden     bool `json:"hidden,omitempty"`
	Reshuffled bool `json:"reshuffled,omitempty"`
}

// Copied: Seat's Scott (Card) copies the power of Target's follower at
// Index (Copied, of clan Power).
type Copied struct {
	Seat   int  `json:"seat"`
	Card   int  `json:"card"`
	Target int  `json:"target"`
	Index  int  `json:"index"`
	Copied int  `json:"copied"`
	Power  Clan `json:"power"`
}

// Swapped: Fergusson's power (or a Scott copying it): Seat's Card goes to
// Target's army in place of its follower at Index (Taken), which joins
// Seat's army with its facing. A face-down Taken is seen by Seat.
type Swapped struct {
	Seat   int  `json:"seat"`
	Card   int  `json:"card"`
	Target int  `json:"target"`
	Index  int  `json:"index"`
	Taken  int  `json:"taken,omitempty"`
	Hidden bool `json:"hidden,omitempty"`
	FaceUp bool `json:"face_up"`
}

// Discarded: Wemyss's power (or a Scott copying it): the follower of Target
// at Index (Discarded, revealed on the discard pile) is discarded.
type Discarded struct {
	Seat      int  `json:"seat"`
	Card      int  `json:"card"`
	Target    int  `json:"target"`
	Index     int  `json:"index"`
	Discarded int  `json:"discarded"`
	FaceUp    bool `json:"face_up"`
}

// SupporterSwapped: Cockburn's power (or a Scott copying it): Card becomes
// a supporter and Supporter joins Seat's army face-up.
type SupporterSwapped struct {
	Seat      int `json:"seat"`
	Card      int `json:"card"`
	Supporter int `json:"supporter"`
}

// ArmyScore is one army at the end of a round.
type ArmyScore struct {
	Seat    int   `json:"seat"`
	Cards   []int `json:"cards"`
	Total   int   `json:"total"`
	Doubled bool  `json:"doubled,omitempty"`
	Best    int   `json:"best,omitempty"`
	Place   int   `json:"place"`
	Claims  int   `json:"claims"`
}

// RoundScored: the fifth turn is over; every follower is revealed and the
// armies are ranked, best first (seats without followers last, claiming
// nothing).
type RoundScored struct {
	Round  int         `json:"round"`
	Armies []ArmyScore `json:"armies"`
}

// Claimed: Seat claimed the supporter Card.
type Claimed struct {
	Seat int `json:"seat"`
	Card int `json:"card"`
}

// RoundEnded: the claims are over. Unclaimed supporters, recruits and
// followers are discarded, except activated MacDonnells (Kept) which stay
// one more round; Initiative goes to the round's winner.
type RoundEnded struct {
	Round      int   `json:"round"`
	Discarded  []int `json:"discarded"`
	Kept       []int `json:"kept,omitempty"`
	Initiative int   `json:"initiative"`
	Points     []int `json:"points"`
}

// RoundStarted: a new round is dealt: five face-down recruits and the
// Supporters (Redrawn holds sets discarded because all showed the same
// strength).
type RoundStarted struct {
	Round      int     `json:"round"`
	Supporters []int   `json:"supporters"`
	Redrawn    [][]int `json:"redrawn,omitempty"`
	Reshuffled bool    `json:"reshuffled,omitempty"`
}

// GameEnded: someone has 40 supporter strength; Ranking is the final order.
type GameEnded struct {
	Round   int     `json:"round"`
	Ranking []Place `json:"ranking"`
}

// Place is one seat in the final ranking.
type Place struct {
	Seat       int `json:"seat"`
	Place      int `json:"place"`
	Points     int `json:"points"`
	RoundPlace int `json:"round_place"`
}

// EventType implementations.
func (TurnStarted) EventType() string      { return EvTurnStarted }
func (Recruited) EventType() string        { return EvRecruited }
func (Mustered) EventType() string         { return EvMustered }
func (Passed) EventType() string           { return EvPassed }
func (PowerDeclined) EventType() string    { return EvPowerDeclined }
func (PowerUsed) EventType() string        { return EvPowerUsed }
func (Copied) EventType() string           { return EvCopied }
func (Swapped) EventType() string          { return EvSwapped }
func (Discarded) EventType() string        { return EvDiscarded }
func (SupporterSwapped) EventType() string { return EvSupporterSwapped }
func (RoundScored) EventType() string      { return EvRoundScored }
func (Claimed) EventType() string          { return EvClaimed }
func (RoundEnded) EventType() string       { return EvRoundEnded }
func (RoundStarted) EventType() string     { return EvRoundStarted }
func (GameEnded) EventType() string        { return EvGameEnded }
