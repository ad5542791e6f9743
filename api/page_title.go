package api

import (
	"strings"

	"pbem/engine/i18n"
	"pbem/projections"
)

// playTitle is the play page's title, which the browser shows on its tab:
// whose turn it is in an active game ("Your turn – Lords of Scotland",
// "Waiting for Bob – Lords of Scotland"), else the game and the player.
// The live update copies it, so a tab in the background tells the turn.
func playTitle(cat i18n.Printer, d *playPage, status string, waiting []string) string {
	if status == projections.StatusActive {
		switch {
		case d.YourTurn:
			return cat.T("play.tab_your_turn", d.GameName)
		case d.BotTurn:
			return cat.T("play.tab_bot_turn", d.GameName)
		case len(waiting) > 0:
			return cat.T("play.tab_waiting", strings.Join(waiting, ", "), d.GameName)
		}
	}
	return cat.T("play.title", d.GameName, d.You)
}
