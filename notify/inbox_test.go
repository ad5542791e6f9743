package notify

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	netmail "net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"

	"pbem/engine/i18n/i18ntest"
	"pbem/events/pbemevent"
	"pbem/notify/smtpsink"
	"pbem/projections"
	"pbem/projections/outbox"
)

// inboxThread is the thread root of seat 1 of game g1abc (Renderer.ThreadID).
const inboxThread = "<seat-1.g1abc@pbem.example.org>"

// inboxReplyID is the Message-ID of the player's reply that a Reply email
// answers.
const inboxReplyID = "<CAE+reply.1@mail.example.net>"

// bulkKinds are the kinds with Precedence: bulk and List-Unsubscribe: the
// mail the person did not just ask for.
var bulkKinds = map[outbox.Kind]bool{outbox.YourTurn: true, outbox.Reminder: true, outbox.Timeout: true, outbox.RoundEnd: true, outbox.GameOver: true,
	outbox.Digest: true, outbox.Chat: true, outbox.Notice: true}

// inboxCase is one email of TestInboxHeaders and what its headers must say.
type inboxCase struct {
	lang       string
	kind       outbox.Kind
	row        Row
	messageID  string // "" : the row's outbox Message-ID
	references string
}

// inboxPayload is emailPayload with what these tests look at: a long name
// with accents (long subjects, several encoded words), a bot at the table,
// the timeout lines of every policy as the service writes them, a bot in
// the digest, the reply's Message-ID.
func inboxPayload(k outbox.Kind, lang string) outbox.Payload {
	p := emailPayload(k, lang)
	p.Game.Players = []string{"Ann", "Élodie Dupré-Lefèvre", "Robot"}
	p.To.Name = p.Game.Players[1]
	switch k {
	case outbox.Timeout:
		p.Lines = timeoutLines(p.Game.Players, lang)
	case outbox.Digest:
		p.Games[0].Game.Bots = []string{"", "normal"}
	case outbox.Reply:
		p.Answer.InReplyTo = inboxReplyID
	}
	return p
}

// timeoutLines are the lines the service writes when the time ran out for
// seat 1, one for each timeout policy, in lang.
func timeoutLines(players []string, lang string) []string {
	var out []string
	for _, pol := range []string{projections.PolicyDefaultMove, projections.PolicySkip, projections.PolicyPause, projections.PolicyBot} {
		data := fmt.Sprintf(`{"seats":[1],"policy":%q}`, pol)
		out = append(out, projections.DescribeService(pbemevent.TypeTimeout, json.RawMessage(data), players, lang))
	}
	return out
}

func inboxCases(t *testing.T) []inboxCase {
	t.Helper()
	var cases []inboxCase
	add := func(lang string, k outbox.Kind, p outbox.Payload, c inboxCase) {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		c.lang, c.kind = lang, k
		c.row = Row{ID: int64(len(cases) + 1), GameID: "g1abc", Seat: 1, Kind: k, Payload: b, EventVersion: 12}
		if k == outbox.Digest || k == outbox.Confirm || k == outbox.AdminLink || k == outbox.Signin || k == outbox.Away {
			c.references = ""
		}
		if k == outbox.YourTurn {
			// What happened since the seat's last move: its time ran out.
			c.row.Story = &Story{Events: []StoryEvent{{Version: 11, Type: pbemevent.TypeTimeout, Actor: "system", Seat: -1,
				Summary: timeoutLines(p.Game.Players, lang)[0]}}}
		}
		cases = append(cases, c)
	}
	for _, lang := range []string{"en", "fr", "it"} {
		for _, k := range outbox.Kinds() {
			p := inboxPayload(k, lang)
			c := inboxCase{references: inboxThread}
			switch k {
			case outbox.Invitation:
				p.TokenGen = 0 // the seat's first invitation: the thread's root
				c.messageID, c.references = inboxThread, ""
			case outbox.Reply:
				c.references = inboxThread + " " + inboxReplyID
			}
			add(lang, k, p, c)
		}
		// A replacement's invitation (a later token generation) is in the
		// seat's thread, not its root.
		add(lang, outbox.Invitation, inboxPayload(outbox.Invitation, lang), inboxCase{references: inboxThread})
	}
	return cases
}

// TestInboxHeaders renders every kind of email in English, French and
// Italian, sends each over SMTP (DKIM-signed) to the test sink and reads
// the raw bytes received as mail clients do, with Go's net/mail and with
// Python's email package (policy=default): the subject unfolds to exactly
// the rendered subject, with no leading space; From is named "pbem";
// References threads the seat's emails and the answers to replies;
// Precedence and List-Unsubscribe are on the mail the person did not just
// ask for only; no catalog key or policy identifier shows; the signature
// verifies.
func TestInboxHeaders(t *testing.T) {
	t.Parallel()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	dk, err := NewDKIM("pbem.example.org", "s1", priv)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRenderer(RenderConfig{Secret: []byte("test-secret"), PublicURL: "https://pbem.example.org/", ReplyDomain: "reply.example.org"})
	if err != nil {
		t.Fatal(err)
	}
	cases := inboxCases(t)
	msgs := make([]*Message, len(cases))
	for i, c := range cases {
		if msgs[i], err = r.Render(c.row); err != nil {
			t.Fatalf("%s %s: %v", c.lang, c.kind, err)
		}
	}
	raws := sendToSink(t, dk, msgs)
	seen := readWithPython(t, raws)
	txt := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	verify := &dkim.VerifyOptions{LookupTXT: func(string) ([]string, error) { return []string{txt}, nil }}
	for i, c := range cases {
		m, raw, py := msgs[i], raws[i], seen[i]
		name := fmt.Sprintf("%s %s (row %d)", c.lang, c.kind, c.row.ID)
		checkRawHeader(t, name, raw)
		gm, err := netmail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: net/mail: %v", name, err)
		}
		h := gm.Header
		if subj, err := new(mime.WordDecoder).DecodeHeader(h.Get("Subject")); err != nil || subj != m.Subject {
			t.Errorf("%s: net/mail reads the subject %q (%v), want %q", name, subj, err, m.Subject)
		}
		if py["Subject"] != m.Subject {
			t.Errorf("%s: Python reads the subject %q, want %q", name, py["Subject"], m.Subject)
		}
		if d := py["defects"]; d != "" {
			t.Errorf("%s: Python finds defects: %s", name, d)
		}
		from, err := netmail.ParseAddress(h.Get("From"))
		if err != nil || from.Name != "pbem" || from.Address != "pbem@pbem.example.org" {
			t.Errorf("%s: net/mail reads From %q as %v (%v)", name, h.Get("From"), from, err)
		}
		if py["From.display_name"] != "pbem" || py["From.addr_spec"] != "pbem@pbem.example.org" {
			t.Errorf("%s: Python reads From as %q <%s>", name, py["From.display_name"], py["From.addr_spec"])
		}
		wantID := c.messageID
		if wantID == "" {
			wantID = "<" + r.MessageID(c.row.ID, c.row.GameID) + ">"
		}
		if h.Get("Message-Id") != wantID || py["Message-ID"] != wantID {
			t.Errorf("%s: Message-ID %q (Python %q), want %q", name, h.Get("Message-Id"), py["Message-ID"], wantID)
		}
		if got := strings.Join(strings.Fields(h.Get("References")), " "); got != c.references || py["References"] != c.references {
			t.Errorf("%s: References %q (Python %q), want %q", name, got, py["References"], c.references)
		}
		wantInReplyTo := ""
		if c.kind == outbox.Reply {
			wantInReplyTo = inboxReplyID
		}
		if h.Get("In-Reply-To") != wantInReplyTo {
			t.Errorf("%s: In-Reply-To %q, want %q", name, h.Get("In-Reply-To"), wantInReplyTo)
		}
		bulk := bulkKinds[c.kind]
		if got := h.Get("Precedence"); (got == "bulk") != bulk || (!bulk && got != "") || py["Precedence"] != h.Get("Precedence") {
			t.Errorf("%s: Precedence %q (Python %q), bulk %v", name, got, py["Precedence"], bulk)
		}
		if got := h.Get("List-Unsubscribe"); (got != "") != bulk || (h.Get("List-Unsubscribe-Post") != "") != bulk || py["List-Unsubscribe"] != got {
			t.Errorf("%s: List-Unsubscribe %q (Python %q), bulk %v", name, got, py["List-Unsubscribe"], bulk)
		}
		wantAuto := "auto-generated"
		if c.kind == outbox.Reply {
			wantAuto = "auto-replied"
		}
		if h.Get("Auto-Submitted") != wantAuto {
			t.Errorf("%s: Auto-Submitted %q, want %q", name, h.Get("Auto-Submitted"), wantAuto)
		}
		parsed, err := smtpsink.Parse(raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.TrimSpace(py["text"]) != strings.TrimSpace(parsed.Text) {
			t.Errorf("%s: Python and Go read different text parts:\n%s\n---\n%s", name, py["text"], parsed.Text)
		}
		htmlTexts, err := i18ntest.HTMLTexts(parsed.HTML)
		if err != nil {
			t.Fatal(err)
		}
		shown := append([]string{m.Subject, parsed.Text}, htmlTexts...)
		for _, leak := range identifiers(shown) {
			t.Errorf("%s: the email shows %q", name, leak)
		}
		checkWords(t, name, c, parsed.Text)
		vs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), verify)
		if err != nil || len(vs) != 1 || vs[0].Err != nil {
			t.Errorf("%s: DKIM: %v %+v", name, err, vs)
		}
	}
}

// checkRawHeader checks the header as it travels: the Subject field's
// first line holds its value (no fold right after "Subject:"), and no line
// of the field is longer than RFC 5322's 78 characters.
func checkRawHeader(t *testing.T, name string, raw []byte) {
	t.Helper()
	head, _, ok := bytes.Cut(raw, []byte("\r\n\r\n"))
	if !ok {
		t.Fatalf("%s: no end of header", name)
	}
	lines := strings.Split(string(head), "\r\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "Subject:") {
			continue
		}
		if !regexp.MustCompile(`^Subject: [^ \t]`).MatchString(l) {
			t.Errorf("%s: the subject's first line is %q", name, l)
		}
		for j := i; j < len(lines) && (j == i || strings.HasPrefix(lines[j], " ") || strings.HasPrefix(lines[j], "\t")); j++ {
			if len(lines[j]) > 78 {
				t.Errorf("%s: a subject line of %d characters: %q", name, len(lines[j]), lines[j])
			}
		}
		return
	}
	t.Errorf("%s: no Subject field", name)
}

var (
	linkOrAddress = regexp.MustCompile(`https?://\S+|\S+@\S+`)
	// identifier finds what reads as code: catalog keys (subject.your_turn,
	// notice.paused) and identifiers (default_move, not_awaited).
	identifier = regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b|\b[a-z_]+(?:\.[a-z_]+)+\b`)
)

// identifiers returns the catalog keys and identifiers found in texts,
// links and addresses left aside.
func identifiers(texts []string) []string {
	var out []string
	for _, s := range texts {
		s = linkOrAddress.ReplaceAllString(s, "")
		out = append(out, identifier.FindAllString(s, -1)...)
		for _, k := range emailCatalog.Keys() {
			if strings.ContainsAny(k, "._") && strings.Contains(s, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// checkWords checks the words the issue names: a timeout's policy is said
// in words in every language, the digest marks bots.
func checkWords(t *testing.T, name string, c inboxCase, text string) {
	t.Helper()
	var want []string
	switch c.kind {
	case outbox.Timeout:
		want = timeoutLines([]string{"Ann", "Élodie Dupré-Lefèvre", "Robot"}, c.lang)
	case outbox.YourTurn:
		want = timeoutLines([]string{"Ann", "Élodie Dupré-Lefèvre", "Robot"}, c.lang)[:1]
	case outbox.Digest:
		want = []string{projections.BotSeatName(c.lang, "Cid")}
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s: the text lacks %q:\n%s", name, w, text)
		}
	}
	if c.lang == "en" && c.kind == outbox.Timeout && !strings.Contains(text, "(default move)") {
		t.Errorf("%s: the default move is not named in words:\n%s", name, text)
	}
}

// sendToSink sends msgs through a real SMTP conversation (signed with dk
// when set) to a test sink and returns the raw messages received, in order.
func sendToSink(t *testing.T, dk *DKIM, msgs []*Message) [][]byte {
	t.Helper()
	sink := smtpsink.Start(t, smtpsink.Options{})
	cfg, err := ParseSMTPURL("smtp://" + sink.Addr() + "?tls=none")
	if err != nil {
		t.Fatal(err)
	}
	cfg.DKIM = dk
	s, err := NewSMTPSender(cfg, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, err := range s.Send(context.Background(), msgs) {
		if err != nil {
			t.Fatalf("message %d (%s): %v", i, msgs[i].Kind, err)
		}
	}
	got := sink.Wait(len(msgs), 30*time.Second)
	if len(got) != len(msgs) {
		t.Fatalf("the sink received %d messages, want %d", len(got), len(msgs))
	}
	raws := make([][]byte, len(got))
	for i, rc := range got {
		raws[i] = rc.Data
	}
	return raws
}

// readWithPython has Python's email package (policy=default) read each
// raw message (testdata/inbox_headers.py) and returns what it shows, by
// header name, with "defects" joined. Python 3 is required (.ci/run
// installs it): the test does not skip without it.
func readWithPython(t *testing.T, raws [][]byte) []map[string]string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed to read the emails as clients do: %v", err)
	}
	dir := t.TempDir()
	args := []string{filepath.Join("testdata", "inbox_headers.py")}
	for i, raw := range raws {
		p := filepath.Join(dir, fmt.Sprintf("%03d.eml", i))
		if err := os.WriteFile(p, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(py, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, stderr.String())
	}
	var seen []map[string]string
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var v map[string]any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for k, x := range v {
			switch x := x.(type) {
			case string:
				m[k] = x
			case []any:
				var ds []string
				for _, d := range x {
					ds = append(ds, fmt.Sprint(d))
				}
				m[k] = strings.Join(ds, "; ")
			}
		}
		seen = append(seen, m)
	}
	if len(seen) != len(raws) {
		t.Fatalf("python3 read %d messages of %d", len(seen), len(raws))
	}
	return seen
}

// TestFromDisplayName sends an email with each form of PBEM_MAIL_FROM and
// reads its From as clients do: a bare address is named "pbem", a name
// given (quoted, or with accents) is kept; a value that is no address is
// refused when the renderer is made.
func TestFromDisplayName(t *testing.T) {
	t.Parallel()
	cases := []struct{ from, name, addr string }{
		{"", "pbem", "pbem@pbem.example.org"},
		{"games@example.org", "pbem", "games@example.org"},
		{`"Club games" <pbem@x.example.org>`, "Club games", "pbem@x.example.org"},
		{`Club <pbem@x.example.org>`, "Club", "pbem@x.example.org"},
		{`"Club de jeux de l'Épée, à Genève" <pbem@x.example.org>`, "Club de jeux de l'Épée, à Genève", "pbem@x.example.org"},
	}
	var msgs []*Message
	for i, c := range cases {
		r, err := NewRenderer(RenderConfig{Secret: []byte("s"), PublicURL: "https://pbem.example.org", From: c.from})
		if err != nil {
			t.Fatalf("From %q: %v", c.from, err)
		}
		b, _ := json.Marshal(inboxPayload(outbox.YourTurn, "fr"))
		m, err := r.Render(Row{ID: int64(i + 1), GameID: "g1abc", Seat: 1, Kind: outbox.YourTurn, Payload: b})
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	raws := sendToSink(t, nil, msgs)
	seen := readWithPython(t, raws)
	for i, c := range cases {
		gm, err := netmail.ReadMessage(bytes.NewReader(raws[i]))
		if err != nil {
			t.Fatal(err)
		}
		a, err := netmail.ParseAddress(gm.Header.Get("From"))
		if err != nil || a.Name != c.name || a.Address != c.addr {
			t.Errorf("PBEM_MAIL_FROM %q: net/mail reads From %q as %v (%v)", c.from, gm.Header.Get("From"), a, err)
		}
		if seen[i]["From.display_name"] != c.name || seen[i]["From.addr_spec"] != c.addr || seen[i]["defects"] != "" {
			t.Errorf("PBEM_MAIL_FROM %q: Python reads From as %q <%s> (%s)", c.from, seen[i]["From.display_name"], seen[i]["From.addr_spec"], seen[i]["defects"])
		}
	}
	for _, bad := range []string{"not an address", "pbem@x.org, other@x.org", "a <b@x.org>\r\nBcc: c@x.org"} {
		if _, err := NewRenderer(RenderConfig{Secret: []byte("s"), PublicURL: "https://pbem.example.org", From: bad}); err == nil {
			t.Errorf("PBEM_MAIL_FROM %q accepted", bad)
		}
	}
}
