package notify

// A catalog holds one language's strings. Each message is a small
// text/template executed with the email's data (see emailData), so word
// order can differ between languages while the email templates stay the
// same for all of them.
type catalog struct {
	// deadline is the time.Format layout of a deadline in UTC, saying so;
	// zoned is the layout of a deadline in the recipient's time zone, whose
	// name follows it (see tellDeadline).
	deadline string
	zoned    string
	// bot marks a bot's name in a player list: "Robot 1 (bot)".
	bot  string
	msgs map[string]string
}

// catalogs returns the message catalogs by language. Every catalog has
// exactly the keys of the English one (checked by a test).
func catalogs() map[string]catalog {
	return map[string]catalog{"en": catalogEN(), "fr": catalogFR(), "it": catalogIT()}
}
