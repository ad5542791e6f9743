package inbound

import (
	"strings"
)

// Bounces: the delivery status notifications that come back to a reply
// address, which is also the envelope sender of pbem's emails.
//
// A relay writes them in one of two forms: RFC 3464's multipart/report
// with a message/delivery-status part, or, when the message was sent with
// SMTPUTF8 (pbem's client asks for it whenever the relay offers it), RFC
// 6533's multipart/report; report-type=global-delivery-status with a
// message/global-delivery-status part, whose fields may hold UTF-8. Both
// are read the same way: a block of per-message fields, then one block of
// fields per recipient, blocks separated by blank lines, long fields
// folded onto lines that start with a blank.
//
// A recipient whose Action is "failed" is a hard bounce: the relay gave up
// and the email will not arrive (Status 5.x.x, a permanent refusal, or
// 4.x.x when the relay's queue lifetime ran out). Action "delayed" is a
// soft bounce: a warning that the relay keeps trying; nothing is marked,
// since the email may still arrive. "delivered", "relayed" and "expanded"
// are success reports.

// bounceKind tells what a delivery status report says.
type bounceKind int

const (
	notBounce  bounceKind = iota // no failure reported (success reports, or no recipient block)
	softBounce                   // delivery delayed: the relay keeps trying
	hardBounce                   // delivery failed: the email will not arrive
)

// String names k for logs and outcomes.
func (k bounceKind) String() string {
	switch k {
	case softBounce:
		return "soft"
	case hardBounce:
		return "hard"
	}
	return "none"
}

// maxReason bounds the reason kept from a report.
const maxReason = 200

// readDSN reads the fields of a delivery-status or global-delivery-status
// part and says what it reports, with a short reason: "status 5.1.1" and
// the diagnostic code of the first failed (else delayed) recipient.
func readDSN(fields string) (bounceKind, string) {
	kind, reason := notBounce, ""
	for _, block := range dsnBlocks(fields) {
		var k bounceKind
		switch strings.ToLower(block["action"]) {
		case "failed":
			k = hardBounce
		case "delayed":
			k = softBounce
		default:
			continue
		}
		if k <= kind {
			continue
		}
		kind, reason = k, ""
		if s := block["status"]; s != "" {
			reason = "status " + s
		}
		if d := block["diagnostic-code"]; d != "" {
			reason = strings.TrimSpace(reason + " " + d)
		}
	}
	if kind == notBounce {
		return kind, ""
	}
	if reason == "" {
		reason = "delivery " + map[bounceKind]string{hardBounce: "failed", softBounce: "delayed"}[kind]
	}
	if r := []rune(reason); len(r) > maxReason {
		reason = string(r[:maxReason])
	}
	return kind, reason
}

// dsnBlocks splits a report's fields into blocks (the per-message one
// first), each a map of lower-cased field names to values, continuation
// lines unfolded. The first value of a field in a block is kept.
func dsnBlocks(fields string) []map[string]string {
	var blocks []map[string]string
	var cur map[string]string
	last := ""
	for _, l := range lines(fields) {
		switch {
		case strings.TrimSpace(l) == "":
			cur, last = nil, ""
		case l[0] == ' ' || l[0] == '\t':
			if cur != nil && last != "" {
				cur[last] = strings.TrimSpace(cur[last] + " " + strings.TrimSpace(l))
			}
		default:
			k, v, ok := strings.Cut(l, ":")
			if !ok {
				last = ""
				continue
			}
			if cur == nil {
				cur = map[string]string{}
				blocks = append(blocks, cur)
			}
			k = strings.ToLower(strings.TrimSpace(k))
			if _, seen := cur[k]; seen {
				last = ""
				continue
			}
			cur[k], last = strings.TrimSpace(v), k
		}
	}
	return blocks
}
