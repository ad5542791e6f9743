package systest

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"pbem/notify/smtpsink"
)

// playLinkRE finds a play link (PUBLIC_URL/play/GAME?token=TOKEN) in an
// email's text part.
var playLinkRE = regexp.MustCompile(`/play/([A-Za-z0-9_-]+)\?token=([^\s&"<>]+)`)

// seatLink is what a player learns from an email: the game and a token.
type seatLink struct {
	game, token string
}

// inbox reads the sink's messages: the play link each address received,
// and how many copies of each email arrived.
type inbox struct {
	sink  *smtpsink.Sink
	mu    sync.Mutex
	seen  int                 // messages of the sink already parsed
	links map[string]seatLink // by lower-cased To address
	count map[string]int      // copies received, by Message-ID (no brackets)
}

func newInbox(sink *smtpsink.Sink) *inbox {
	return &inbox{sink: sink, links: map[string]seatLink{}, count: map[string]int{}}
}

// scan parses the messages that arrived since the last scan.
func (in *inbox) scan(t testing.TB) {
	in.mu.Lock()
	defer in.mu.Unlock()
	msgs := in.sink.Messages()
	for _, m := range msgs[in.seen:] {
		p, err := smtpsink.Parse(m.Data)
		if err != nil {
			t.Errorf("unreadable email: %v", err)
			continue
		}
		if mid := strings.Trim(p.Header.Get("Message-ID"), "<>"); mid != "" {
			in.count[mid]++
		} else {
			t.Errorf("email without a Message-ID")
		}
		if sm := playLinkRE.FindStringSubmatch(p.Text); sm != nil {
			tok, err := url.QueryUnescape(sm[2])
			if err != nil {
				t.Errorf("bad token in a play link: %v", err)
				continue
			}
			for _, to := range m.To {
				in.links[strings.ToLower(to)] = seatLink{game: sm[1], token: tok}
			}
		}
	}
	in.seen = len(msgs)
}

// link waits up to d for a play link sent to addr.
func (in *inbox) link(t testing.TB, addr string, d time.Duration) (seatLink, bool) {
	deadline := time.Now().Add(d)
	for {
		in.scan(t)
		in.mu.Lock()
		l, ok := in.links[strings.ToLower(addr)]
		in.mu.Unlock()
		if ok || time.Now().After(deadline) {
			return l, ok
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// copies returns how many copies of each email arrived, by Message-ID (an
// outbox row records the Message-ID it sent).
func (in *inbox) copies(t testing.TB) map[string]int {
	in.scan(t)
	in.mu.Lock()
	defer in.mu.Unlock()
	out := make(map[string]int, len(in.count))
	for k, v := range in.count {
		out[k] = v
	}
	return out
}
