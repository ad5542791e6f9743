package main

import (
	"fmt"
	"strconv"
	"strings"

	"pbem/api"
)

// limitsOf reads the rate limits of the organiser and sign-in flows
// (issue #15): each variable is a whole number, 0 or unset for the
// default, "off" (or a negative number) for no limit.
//
//	PBEM_LIMIT_GAMES_ADDRESS        games one organiser address may propose per hour (5)
//	PBEM_LIMIT_GAMES_IP             games one client network may propose per hour (20)
//	PBEM_LIMIT_INVITATIONS_ADDRESS  invitations one organiser address may cause per day (40)
//	PBEM_LIMIT_INVITATIONS_IP       invitations one client network may cause per day (150)
//	PBEM_LIMIT_SIGNINS              sign-in links per hour, per network and per address from one network (5)
//	PBEM_LIMIT_RECIPIENT_MAILS      emails one address may be sent per hour on anyone's request (20)
//
// A client network is an IPv4 /24 or an IPv6 /64 (api/clientnet).
//
//	PBEM_TRUST_PROXY                1: the client IP is X-Forwarded-For's (behind a proxy)
func limitsOf(c limitSettings) (api.Limits, bool, error) {
	var l api.Limits
	for _, v := range []struct {
		key, value string
		dst        *int
	}{
		{"PBEM_LIMIT_GAMES_ADDRESS", c.GamesAddress, &l.GamesPerHourAddress},
		{"PBEM_LIMIT_GAMES_IP", c.GamesIP, &l.GamesPerHourIP},
		{"PBEM_LIMIT_INVITATIONS_ADDRESS", c.InvitationsAddress, &l.InvitationsPerDayAddress},
		{"PBEM_LIMIT_INVITATIONS_IP", c.InvitationsIP, &l.InvitationsPerDayIP},
		{"PBEM_LIMIT_SIGNINS", c.Signins, &l.SigninsPerHour},
		{"PBEM_LIMIT_RECIPIENT_MAILS", c.RecipientMails, &l.MailsPerHourRecipient},
	} {
		s := v.value
		switch s {
		case "":
			continue
		case "off":
			*v.dst = -1
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return l, false, fmt.Errorf("%s=%q: give a whole number or off", v.key, s)
		}
		*v.dst = n
		if n < 0 {
			*v.dst = -1
		}
	}
	trust := c.TrustProxy
	return l, trust == "1" || strings.EqualFold(trust, "true"), nil
}
