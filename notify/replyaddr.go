package notify

import (
	"errors"
	"strconv"
	"strings"
)

// ReplyAddress is the Reply-To of an email to a seat:
//
//	GAME-SEAT-CHOICEwVERSION-TAG@PBEM_REPLY_DOMAIN
//
// GAME is the game id, SEAT the seat number, CHOICE the projections.ChoiceTag
// of the moves the email numbered ("x" when it numbered none: a reminder),
// VERSION the game version the email was written at (the version a reply
// answers: a take-back or a move of the seat after it makes the reply
// stale, see play.Service.ReplyStale), and TAG the seat's reply secret
// over that version (events/tokens.ReplyTagAt), so that rewriting or
// deleting VERSION makes the address refused. Only TAG is a secret;
// changing CHOICE only gets the sender the fresh list.
//
// Addresses written before keep being read as they were: "vVERSION"
// (Signed false: the tag, events/tokens.ReplyTag, does not cover the
// version), or no version at all (Version 0, read against its CHOICE
// alone). Outgoing emails use the same address as their envelope sender,
// so that bounces come back to the listener and name the seat they are
// about.
type ReplyAddress struct {
	GameID string
	Seat   int
	Choice string
	// Version is the game version the email answered (0: not bound).
	Version int64
	// Signed: the tag covers Version (the "w" form).
	Signed bool
	Tag    string
}

// TagVersion is the version the tag covers: Version when Signed, else 0
// (the tag covers none).
func (a ReplyAddress) TagVersion() int64 {
	if a.Signed {
		return a.Version
	}
	return 0
}

// NoChoice is the CHOICE of an email that numbered no moves.
const NoChoice = "x"

// String returns the address at domain.
func (a ReplyAddress) String(domain string) string {
	choice := a.Choice
	if a.Version > 0 {
		mark := "v"
		if a.Signed {
			mark = "w"
		}
		choice += mark + strconv.FormatInt(a.Version, 10)
	}
	return a.GameID + "-" + strconv.Itoa(a.Seat) + "-" + choice + "-" + a.Tag + "@" + domain
}

// ErrNotReplyAddress is returned by ParseReplyAddress for an address that
// is not one of ours.
var ErrNotReplyAddress = errors.New("notify: not a reply address")

// ParseReplyAddress reads a reply address at domain (case-insensitive). It
// checks the shape only: the tag is checked by the game service.
func ParseReplyAddress(addr, domain string) (ReplyAddress, error) {
	addr = strings.ToLower(strings.Trim(strings.TrimSpace(addr), "<>"))
	at := strings.LastIndexByte(addr, '@')
	if at < 0 || domain == "" || addr[at+1:] != strings.ToLower(domain) || at > 64 {
		return ReplyAddress{}, ErrNotReplyAddress
	}
	parts := strings.Split(addr[:at], "-")
	if len(parts) != 4 || !isToken(parts[0], 64) || !isToken(parts[2], 24) || !isToken(parts[3], 32) {
		return ReplyAddress{}, ErrNotReplyAddress
	}
	choice, version, bound := parts[2], "", false
	if i := strings.IndexAny(parts[2], "vw"); i >= 0 {
		choice, version, bound = parts[2][:i], parts[2][i+1:], true
	}
	signed := bound && parts[2][len(choice)] == 'w'
	var v int64
	if bound {
		n, err := strconv.ParseInt(version, 10, 64)
		if err != nil || n <= 0 || strconv.FormatInt(n, 10) != version || choice == "" {
			return ReplyAddress{}, ErrNotReplyAddress
		}
		v = n
	}
	seat, err := strconv.Atoi(parts[1])
	if err != nil || seat < 0 || seat > 99 || strconv.Itoa(seat) != parts[1] {
		return ReplyAddress{}, ErrNotReplyAddress
	}
	return ReplyAddress{GameID: parts[0], Seat: seat, Choice: choice, Version: v, Signed: signed, Tag: parts[3]}, nil
}

// isToken reports whether s is 1..max lowercase letters and digits.
func isToken(s string, max int) bool {
	if s == "" || len(s) > max {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
