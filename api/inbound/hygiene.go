package inbound

import (
	"regexp"
	"strings"

	"github.com/emersion/go-message/mail"
)

// Mail hygiene: what is never answered and never played.
//
//   - a message with an empty return path (MAIL FROM:<>): bounces and
//     other delivery reports (RFC 5321 section 4.5.5);
//   - a delivery status notification (multipart/report, RFC 3464 and its
//     UTF-8 form, RFC 6533);
//   - an automatic message: Auto-Submitted other than "no" (RFC 3834),
//     X-Autoreply, X-Autorespond, Precedence bulk/junk/list/auto_reply,
//     a mailing list's List-Id, or an out-of-office subject in English,
//     French or Italian.
//
// A report that says a delivery failed is a hard bounce: the seat's email
// is marked for the organiser (see bounce.go and Ledger.Bounce).

// automatic names why a message is automatic, or "" for a person's reply.
func automatic(mailFrom string, h mail.Header) string {
	if strings.Trim(mailFrom, "<> ") == "" {
		return "empty return path"
	}
	if ct, params, _ := h.ContentType(); ct == "multipart/report" || strings.HasSuffix(params["report-type"], "delivery-status") {
		return "delivery report"
	}
	if v := strings.ToLower(strings.TrimSpace(h.Get("Auto-Submitted"))); v != "" && v != "no" {
		return "Auto-Submitted: " + v
	}
	if h.Get("X-Autoreply") != "" || h.Get("X-Autorespond") != "" || h.Get("X-Autoresponder") != "" {
		return "auto-responder header"
	}
	switch strings.ToLower(strings.TrimSpace(h.Get("Precedence"))) {
	case "bulk", "junk", "list", "auto_reply":
		return "Precedence: " + h.Get("Precedence")
	}
	if h.Get("List-Id") != "" {
		return "mailing list"
	}
	if s, err := h.Subject(); err == nil && outOfOffice.MatchString(s) {
		return "out-of-office subject"
	}
	return ""
}

var outOfOffice = regexp.MustCompile(`(?i)^\s*(auto:|automatic reply|autoreply|out of (the )?office|réponse automatique|absence|absent|risposta automatica|fuori (sede|ufficio)|assente)`)
