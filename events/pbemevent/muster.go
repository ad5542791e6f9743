package pbemevent

// The muster before the first turn (issue #46). A game created with
// Created.Muster waits, status "muster", until the person of every seat
// has accepted (pbem.accepted) or answered (pbem.declined), or until its
// muster deadline; then pbem.mustered begins it. A seat whose person
// declined or never answered gets the game's MusterDefault: pbem.seat_bot
// events (in the same append, before pbem.mustered) hand it to a bot, or
// pbem.aborted ends the game.

// Muster defaults: what a declined or silent seat gets when the muster
// ends.
const (
	MusterBot   = "bot"
	MusterAbort = "abort"
)

// MusterBotLevel is the level of the bot that takes a seat at the muster's
// end (the timeout policy "bot" plays the same level).
const MusterBotLevel = "normal"

// How a person answered the muster (Accepted.By, Declined.By): the
// button of the game's page, or a reply to an email.
const (
	ByPage  = "page"
	ByReply = "reply"
)

// Accepted is the data of pbem.accepted: Seat's person will play. By says
// how they answered: ByPage or ByReply.
type Accepted struct {
	Seat int    `json:"seat"`
	By   string `json:"by"`
}

// Declined is the data of pbem.declined: Seat's person will not play.
type Declined struct {
	Seat int    `json:"seat"`
	By   string `json:"by"`
}

// Mustered is the data of pbem.mustered: the game begins. By is "all"
// (every seat answered) or "deadline" (the muster deadline passed); Silent
// and Declined list the seats whose person never answered or declined
// (they got the game's MusterDefault in the same append).
type Mustered struct {
	By string `json:"by"`
	// Default is the game's muster default (the abort's reason, when it
	// is "abort" and a seat declined or never answered).
	Default  string `json:"default,omitempty"`
	Silent   []int  `json:"silent,omitempty"`
	Declined []int  `json:"declined,omitempty"`
}
