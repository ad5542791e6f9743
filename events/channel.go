package events

import "strings"

// Channels a seat's command arrives by. The channel is carried in the
// request id of the event's metadata ("email:<message key>" for a reply to
// an email), so that a move by reply is the same event as a move by the
// page, with the same hash layout, and still says where it came from.
const (
	ChannelWeb   = "web"
	ChannelEmail = "email"
)

// EmailRequestID is the request id of a command read from an email whose
// message key (a digest of its Message-ID) is key.
func EmailRequestID(key string) string { return ChannelEmail + ":" + key }

// Channel says which way the command behind an event came in: ChannelEmail
// for a reply to an email, ChannelWeb otherwise (the page, the API, the
// service itself).
func (m Metadata) Channel() string {
	if strings.HasPrefix(m.RequestID, ChannelEmail+":") {
		return ChannelEmail
	}
	return ChannelWeb
}
