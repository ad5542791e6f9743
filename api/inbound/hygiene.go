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
//   - a delivery status notification (multipart/report, RFC 3464);
//   - an automatic message: Auto-Submitted other than "no" (RFC 3834),
//     X-Autoreply, X-Autorespond, Precedence bulk/junk/list/auto_reply,
//     a mailing list's List-Id, or an out-of-office subject in English,
//     French or Italian.
//
// A report whose delivery status says a delivery failed for good (Action
// failed, or a 5.x.x Status) is a hard bounce: the address is marked for
// the organiser (see Ledger.Bounce).

// automatic names why a message is automatic, or "" for a person's reply.
func automatic(mailFrom string, h mail.Header) string {
	if strings.Trim(mailFrom, "<> ") == "" {
		return "empty return path"
	}
	if ct, params, _ := h.ContentType(); ct == "multipart/report" || params["report-type"] == "delivery-status" {
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

// hardBounce reads a delivery-status part and says whether it reports a
// permanent failure, with a short reason.
func hardBounce(dsn string) (bool, string) {
	failed, reason := false, ""
	for _, l := range lines(dsn) {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "action":
			if strings.EqualFold(v, "failed") {
				failed = true
			}
		case "status":
			if strings.HasPrefix(v, "5.") {
				failed = true
				reason = "status " + v
			}
		case "diagnostic-code":
			if len(v) > 200 {
				v = v[:200]
			}
			reason = strings.TrimSpace(reason + " " + v)
		}
	}
	if reason == "" {
		reason = "delivery failed"
	}
	return failed, reason
}
