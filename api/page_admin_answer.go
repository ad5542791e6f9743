package api

import (
	"strconv"

	"pbem/engine/i18n"
	"pbem/events/play"
)

// adminAnswer is the admin page's answer to the action it was redirected
// from (?n=, and ?seat= for a seat's action): what was done and who was
// told, told from the game as it is now ("Deadline extended to Monday
// 03:26; 3 players were told."). An unknown action or seat gives the plain
// "Done." ("done" is what a rematch's new page gets), and no n gives "".
func adminAnswer(cat i18n.Printer, action, seatParam string, deadline *when, seats []play.AdminSeat) string {
	if action == "" {
		return ""
	}
	people := 0 // the notices reach every seat a person plays (bots read no email)
	for _, s := range seats {
		if s.Bot == "" {
			people++
		}
	}
	var seat *play.AdminSeat
	if n, err := strconv.Atoi(seatParam); err == nil {
		for i := range seats {
			if seats[i].Seat == n {
				seat = &seats[i]
			}
		}
	}
	switch {
	case action == "pause":
		return cat.T("admin.did_pause", people)
	case action == "resume" && deadline != nil:
		return cat.T("admin.did_resume", deadline.Text, people)
	case action == "extend" && deadline != nil:
		return cat.T("admin.did_extend", deadline.Text, people)
	case action == "abort":
		return cat.T("admin.did_abort", people)
	case seat == nil:
	case action == "resend":
		return cat.T("admin.did_resend", seat.Name, seat.Email)
	case action == "email":
		return cat.T("admin.did_email", seat.Name, seat.Email)
	case action == "replace":
		return cat.T("admin.did_replace", seat.Name, seat.Email)
	case action == "bot" && seat.Bot != "":
		return cat.T("admin.did_bot", seat.Name, cat.T("lobby.kind."+seat.Bot))
	case action == "bot":
		return cat.T("admin.did_unbot", seat.Name, seat.Email)
	}
	return cat.T("admin.done")
}
