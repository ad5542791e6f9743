package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// routes is the route table: every route of the server, in one place. The
// pages' and the mail routes are served when Config.Pages and Config.Mail
// are set; the OpenAPI document (openapi.json) is checked against the /api/v1
// routes by a test.
func (s *Server) routes() []Route {
	rs := []Route{
		{http.MethodGet, "/healthz", s.healthz},
		{http.MethodGet, "/api/v1/openapi.json", s.openAPI},
		{http.MethodPost, "/api/v1/games", s.createGame},
		{http.MethodPost, "/api/v1/confirm/:token", s.confirmGame},
		{http.MethodGet, "/api/v1/settings/:game", s.getSettings},
		{http.MethodPost, "/api/v1/signin", s.requestSignin},
		{http.MethodPost, "/api/v1/signin/:token", s.signIn},
		{http.MethodGet, "/api/v1/me/games", s.myGames},
		{http.MethodGet, "/api/v1/me/record", s.myRecord},
		{http.MethodGet, "/api/v1/me/away", s.getAway},
		{http.MethodPost, "/api/v1/me/away", s.setAway},
		{http.MethodDelete, "/api/v1/me/away", s.endAway},
		{http.MethodPut, "/api/v1/me/leaderboards", s.putListed},
		{http.MethodGet, "/api/v1/leaderboards/:game", s.getLeaderboard},
		{http.MethodGet, "/api/v1/games/:id", s.getGame},
		{http.MethodGet, "/api/v1/games/:id/view", s.getView},
		{http.MethodPost, "/api/v1/games/:id/moves", s.postMove},
		{http.MethodPost, "/api/v1/games/:id/takeback", s.postTakeback},
		{http.MethodGet, "/api/v1/games/:id/history", s.getHistory},
		{http.MethodGet, "/api/v1/games/:id/audit", s.getAudit},
		{http.MethodPost, "/api/v1/games/:id/admin/resend", s.adminResend},
		{http.MethodPost, "/api/v1/games/:id/admin/seat", s.adminSeat},
		{http.MethodPost, "/api/v1/games/:id/admin/abort", s.adminAbort},
		{http.MethodPost, "/api/v1/games/:id/admin/revoke", s.adminRevoke},
		{http.MethodPost, "/api/v1/games/:id/admin/pause", s.adminPause},
		{http.MethodPost, "/api/v1/games/:id/admin/resume", s.adminResume},
		{http.MethodPost, "/api/v1/games/:id/admin/extend", s.adminExtend},
		{http.MethodPost, "/api/v1/games/:id/admin/email", s.adminEmail},
		{http.MethodPost, "/api/v1/games/:id/admin/replace", s.adminReplace},
		{http.MethodPost, "/api/v1/games/:id/admin/rematch", s.adminRematch},
		{http.MethodGet, "/api/v1/games/:id/admin/waiting", s.adminWaiting},
	}
	if p := s.pages; p != nil {
		rs = append(rs, []Route{
			{http.MethodGet, "/", p.wrap(p.lobby)},                            // the lobby: a form to create a game
			{http.MethodPost, "/games", p.wrap(p.create)},                     // propose a game (the organiser confirms by email), or refresh the form
			{http.MethodGet, "/confirm/:token", p.wrap(p.confirmForm)},        // the organiser's confirmation: one button
			{http.MethodPost, "/confirm/:token", p.wrap(p.confirm)},           // create the game (or email the admin link again)
			{http.MethodGet, "/signin", p.wrap(p.signinForm)},                 // ask for a sign-in link to My games
			{http.MethodPost, "/signin", p.wrap(p.signinRequest)},             // (form: csrf, email) same answer for every address
			{http.MethodGet, "/signin/:token", p.wrap(p.signinUse)},           // a sign-in link: one button
			{http.MethodPost, "/signin/:token", p.wrap(p.signinDo)},           // use it once: session cookie, then /me
			{http.MethodGet, "/me", p.wrap(p.myGames)},                        // My games (the session's address)
			{http.MethodPost, "/me/signout", p.wrap(p.signOut)},               // end the session (form: csrf)
			{http.MethodPost, "/me/leaderboards", p.wrap(p.setListed)},        // be listed on the leaderboards, or not (form: csrf, listed)
			{http.MethodPost, "/me/away", p.wrap(p.awayDo)},                   // away until a day (form: csrf, until)
			{http.MethodPost, "/me/back", p.wrap(p.backDo)},                   // back from away (form: csrf)
			{http.MethodGet, "/leaderboards/:game", p.wrap(p.leaderboard)},    // a game's leaderboard
			{http.MethodGet, "/me/play/:game", p.wrap(p.openSeat)},            // open my seat of a game (sets its cookie)
			{http.MethodGet, "/me/admin/:game", p.wrap(p.openAdmin)},          // open the admin page of a game I organise (sets its cookie)
			{http.MethodGet, "/mail/block", p.wrap(p.blockForm)},              // refuse every invitation (?token=): one button
			{http.MethodPost, "/mail/block", p.wrap(p.block)},                 // (form: token, action=block|unblock)
			{http.MethodGet, "/play/:game", p.wrap(p.play)},                   // a seat's page (?token= is swapped for a cookie)
			{http.MethodPost, "/play/:game", p.wrap(p.move)},                  // play a move (form: version, csrf, move)
			{http.MethodPost, "/play/:game/chat", p.wrap(p.chat)},             // write to the table (form: csrf, text)
			{http.MethodPost, "/play/:game/language", p.wrap(p.seatLanguage)}, // the seat's language (form: csrf, lang, back)
			{http.MethodPost, "/play/:game/zone", p.wrap(p.seatZone)},         // the player's time zone (form: csrf, zone; or follow, device)
			{http.MethodPost, "/language", p.wrap(p.setLanguage)},             // the browser's language (form: lang, back)
			{http.MethodGet, "/play/:game/history", p.wrap(p.history)},        // the seat's redacted history
			{http.MethodGet, "/play/:game/events", p.wrap(p.events)},          // server-sent events: the game's version
			{http.MethodGet, "/games/:id/audit", p.wrap(p.audit)},             // an ended game's audit, with the score chart
			{http.MethodGet, "/help/:game", p.wrap(p.help)},                   // a game's rules in short (?lang=)
			{http.MethodGet, "/admin/:game", p.wrap(p.admin)},                 // the admin page (?token= is swapped for a cookie)
			{http.MethodPost, "/admin/:game", p.wrap(p.adminAction)},          // an admin action (form: csrf, action, seat, by)
			{http.MethodGet, "/static/*", staticAssets.handler()},             // the pages' CSS and JavaScript (hashed URLs: static.go)

			// answer the muster before the first turn (form: csrf, answer=yes|no)
			{http.MethodPost, "/play/:game/muster", p.wrap(p.answerMuster)},
			// take back my last move (form: csrf, version)
			{http.MethodPost, "/play/:game/takeback", p.wrap(p.takeback)},
			// start (or open) the rematch of an ended game, on my seat (form: csrf)
			{http.MethodPost, "/play/:game/rematch", p.wrap(p.seatRematch)},
		}...)
	}
	if s.cfg.Metrics != nil && !s.cfg.MetricsApart {
		rs = append(rs, Route{http.MethodGet, "/metrics", echo.WrapHandler(MetricsHandler(s.cfg.Metrics, s.cfg.MetricsToken, s.log))}) // Prometheus metrics
	}
	if m := s.mail; m != nil {
		rs = append(rs, []Route{
			{http.MethodGet, "/mail/unsubscribe", mailPageHeaders(m.unsubscribePage)},                               // the preference page (?token=T[&lang=L]; changes nothing)
			{http.MethodPost, "/mail/unsubscribe", mailPageHeaders(middleware.BodyLimit(bodyLimit)(m.unsubscribe))}, // RFC 8058 one-click, or the form's mode=every|digest|off
			{http.MethodGet, "/api/v1/games/:id/admin/failed-emails", m.failedEmails},                               // the game's failed emails (admin token)
		}...)
		// The dev mailbox shows every email's links: only to this machine
		// (devmail_guard.go).
		if m.cfg.Mailbox != nil {
			rs = append(rs, Route{http.MethodGet, "/dev/mail", mailPageHeaders(loopbackOnly(m.devMail))})              // the dev mailbox
			rs = append(rs, Route{http.MethodGet, "/dev/mail/:id/html", mailHTMLHeaders(loopbackOnly(m.devMailHTML))}) // a message's HTML part, sandboxed
			if m.cfg.Replies != nil {
				// answer an email as its recipient (form: from, to, text)
				rs = append(rs, Route{http.MethodPost, "/dev/mail/reply", mailPageHeaders(loopbackOnly(m.devReply))})
			}
		}
	}
	return rs
}
