// Package postfixtest runs a private instance of Debian's Postfix for tests:
// the relay between pbem and the players' mailboxes, set up as
// docs/operating.md's "Postfix in front of pbem" says. It needs the postfix package (.ci/run installs it)
// and root (postfix start); it never touches the system's Postfix: the
// instance has its own config_directory, queue_directory and
// data_directory in a temporary folder, listens on loopback ports chosen at
// start, logs to a file of its own, and is stopped when the test ends.
//
// Mail flows:
//
//   - Submit is where pbem sends (PBEM_SMTP_URL): loopback is in
//     mynetworks, so Postfix relays to anywhere.
//   - MX is the public port, as the internet sees it: it relays only to
//     the reply domain and only to addresses pbem's listener accepts
//     (reject_unverified_recipient, checked with a probe), so a forged
//     reply address is refused at RCPT and nothing bounces to whoever
//     claimed to send it.
//   - Mail to the reply domain goes to pbem's listener (transport_maps),
//     bounces included: pbem's envelope sender is the reply address.
//   - Mail to MailDomain is delivered by virtual(8) into Maildirs, one a
//     mailbox; another address there is accepted from Submit and bounced
//     after acceptance ("user unknown"), as a far mailbox provider does.
//   - Sendmail submits a message as a player's mail client would through
//     the relay (postfix's sendmail -C DIR).
package postfixtest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Options configures an instance.
type Options struct {
	// ReplyDomain is PBEM_REPLY_DOMAIN; Listener is pbem's reply listener
	// (host:port), where mail to ReplyDomain goes.
	ReplyDomain, Listener string
	// MailDomain holds the players' mailboxes (default "players.test"),
	// one for each of Mailboxes (local parts).
	MailDomain string
	Mailboxes  []string
	// Hostname is Postfix's myhostname (default "relay.test").
	Hostname string
}

// Postfix is a running private instance.
type Postfix struct {
	// Dir holds etc (config_directory), queue, data, mail and maillog.
	Dir string
	// Submit and MX are the loopback addresses of the two smtpd services.
	Submit, MX string
	// MainCF is the main.cf written (as docs/operating.md shows the settings).
	MainCF string
	o      Options
}

// binary finds a Postfix program: on PATH, else in /usr/sbin (root's PATH
// may lack it in CI).
func binary(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	p := "/usr/sbin/" + name
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return ""
}

// Start writes the configuration and starts the instance; t's cleanup
// stops it. Without Postfix the test is skipped, saying how to get it.
func Start(t testing.TB, o Options) *Postfix {
	t.Helper()
	if binary("postfix") == "" || binary("sendmail") == "" || binary("postqueue") == "" {
		t.Skip("Postfix is not installed: apt-get install postfix (.ci/run installs it)")
	}
	if os.Geteuid() != 0 {
		t.Fatal("Postfix is installed, but starting a private instance (postfix -c DIR start) needs root")
	}
	pf, err := user.Lookup("postfix")
	if err != nil {
		t.Fatalf("Postfix is installed but its user is missing: %v", err)
	}
	if o.MailDomain == "" {
		o.MailDomain = "players.test"
	}
	if o.Hostname == "" {
		o.Hostname = "relay.test"
	}
	// Postfix's daemons run as the postfix user and must reach the
	// folders: not t.TempDir, whose folders only root may enter.
	dir, err := os.MkdirTemp("", "pbem-postfix-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	p := &Postfix{Dir: dir, Submit: FreePort(t), MX: FreePort(t), o: o}
	for _, d := range []string{"etc", "queue", "data", "mail"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	uid, _ := strconv.Atoi(pf.Uid)
	gid, _ := strconv.Atoi(pf.Gid)
	for _, d := range []string{dir, filepath.Join(dir, "data"), filepath.Join(dir, "mail")} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"data", "mail"} {
		if err := os.Chown(filepath.Join(dir, d), uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	p.write(t, uid, gid)
	t.Cleanup(func() {
		if out, err := p.postfix("stop"); err != nil {
			t.Logf("postfix stop: %v\n%s", err, out)
		}
	})
	if out, err := p.postfix("start"); err != nil {
		t.Fatalf("postfix start: %v\n%s\n%s", err, out, p.Log())
	}
	for _, a := range []string{p.Submit, p.MX} {
		p.waitListening(t, a)
	}
	return p
}

// write writes main.cf, master.cf and the lookup tables.
func (p *Postfix) write(t testing.TB, uid, gid int) {
	t.Helper()
	etc := filepath.Join(p.Dir, "etc")
	p.MainCF = strings.Join([]string{
		"compatibility_level = 3.6",
		"config_directory = " + etc,
		"queue_directory = " + filepath.Join(p.Dir, "queue"),
		"data_directory = " + filepath.Join(p.Dir, "data"),
		"maillog_file = " + filepath.Join(p.Dir, "maillog"),
		"maillog_file_prefixes = " + p.Dir,
		"mail_owner = postfix",
		"setgid_group = postdrop",
		"myhostname = " + p.o.Hostname,
		"myorigin = $myhostname",
		"mydestination =",
		"inet_interfaces = 127.0.0.1",
		"inet_protocols = ipv4",
		"mynetworks = 127.0.0.0/8",
		"smtp_dns_support_level = disabled",
		"biff = no",
		"alias_maps =",
		// The reply domain: relayed to pbem's listener, each recipient
		// checked with a probe (the verify service) before it is accepted.
		"relay_domains = " + p.o.ReplyDomain,
		"transport_maps = texthash:" + filepath.Join(etc, "transport"),
		"smtpd_recipient_restrictions = permit_mynetworks, reject_unauth_destination, check_recipient_access texthash:" + filepath.Join(etc, "verify"),
		"unverified_recipient_reject_code = 550",
		// Results kept in memory, a verified address for an hour only:
		// a link resent by the organiser revokes the old address.
		"address_verify_map =",
		"address_verify_positive_expire_time = 1h",
		"address_verify_positive_refresh_time = 30m",
		// The players' mailboxes.
		"virtual_mailbox_domains = " + p.o.MailDomain,
		"virtual_mailbox_base = " + filepath.Join(p.Dir, "mail"),
		"virtual_mailbox_maps = texthash:" + filepath.Join(etc, "vmailbox"),
		"virtual_uid_maps = static:" + strconv.Itoa(uid),
		"virtual_gid_maps = static:" + strconv.Itoa(gid),
		// Quick retries, so that a test that restarts pbem does not wait.
		"queue_run_delay = 10s",
		"minimal_backoff_time = 10s",
		"",
	}, "\n")
	var vmail strings.Builder
	for _, m := range p.o.Mailboxes {
		fmt.Fprintf(&vmail, "%s@%s %s/%s/\n", m, p.o.MailDomain, p.o.MailDomain, m)
	}
	// master.cf: Debian's services, the two smtpd on loopback ports; MX
	// relays only to verified reply addresses, whoever connects.
	master := p.Submit + " inet n - n - - smtpd\n" +
		"  -o smtpd_reject_unlisted_recipient=no\n" +
		p.MX + " inet n - n - - smtpd\n" +
		"  -o smtpd_relay_restrictions=reject_unauth_destination\n" +
		"  -o smtpd_recipient_restrictions=reject_unauth_destination,check_recipient_access,texthash:" + filepath.Join(etc, "verify") + "\n" +
		`pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
proxywrite unix -       -       n       -       1       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
virtual   unix  -       n       n       -       -       virtual
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
`
	for name, body := range map[string]string{
		"main.cf":   p.MainCF,
		"master.cf": master,
		"transport": p.o.ReplyDomain + " smtp:[" + strings.Replace(p.o.Listener, ":", "]:", 1) + "\n",
		"verify":    p.o.ReplyDomain + " reject_unverified_recipient\n",
		"vmailbox":  vmail.String(),
	} {
		if err := os.WriteFile(filepath.Join(etc, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// postfix runs the postfix command on the instance.
func (p *Postfix) postfix(args ...string) ([]byte, error) {
	return exec.Command(binary("postfix"), append([]string{"-c", filepath.Join(p.Dir, "etc")}, args...)...).CombinedOutput()
}

// Sendmail submits msg (a message with its headers, "\n" line ends) with
// envelope sender from and the recipients of its To, Cc and Bcc headers,
// as a mail client of the relay would. It returns when Postfix has queued
// it.
func (p *Postfix) Sendmail(t testing.TB, from string, msg string) {
	t.Helper()
	cmd := exec.Command(binary("sendmail"), "-C", filepath.Join(p.Dir, "etc"), "-f", from, "-t", "-i")
	cmd.Stdin = strings.NewReader(msg)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sendmail: %v\n%s", err, out)
	}
}

// Flush asks Postfix to deliver its deferred mail now (postqueue -f), as
// an operator does after restarting pbem.
func (p *Postfix) Flush(t testing.TB) {
	t.Helper()
	if out, err := exec.Command(binary("postqueue"), "-c", filepath.Join(p.Dir, "etc"), "-f").CombinedOutput(); err != nil {
		t.Fatalf("postqueue -f: %v\n%s", err, out)
	}
}

// Queue is what postqueue -p lists ("Mail queue is empty" when empty).
func (p *Postfix) Queue(t testing.TB) string {
	t.Helper()
	out, err := exec.Command(binary("postqueue"), "-c", filepath.Join(p.Dir, "etc"), "-p").CombinedOutput()
	if err != nil {
		t.Fatalf("postqueue -p: %v\n%s", err, out)
	}
	return string(out)
}

// WaitQueueEmpty waits up to d for the queue to empty; false if it did
// not.
func (p *Postfix) WaitQueueEmpty(t testing.TB, d time.Duration) bool {
	t.Helper()
	for end := time.Now().Add(d); ; {
		if strings.Contains(p.Queue(t), "Mail queue is empty") {
			return true
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Log is Postfix's log so far.
func (p *Postfix) Log() string {
	b, _ := os.ReadFile(filepath.Join(p.Dir, "maillog"))
	return string(b)
}

// Mailbox returns the messages delivered to mailbox, oldest first.
func (p *Postfix) Mailbox(mailbox string) [][]byte {
	root := filepath.Join(p.Dir, "mail", p.o.MailDomain, mailbox)
	var names []string
	for _, sub := range []string{"new", "cur"} {
		es, _ := os.ReadDir(filepath.Join(root, sub))
		for _, e := range es {
			names = append(names, filepath.Join(sub, e.Name()))
		}
	}
	sortByDelivery(names)
	var out [][]byte
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(root, n))
		if err == nil {
			out = append(out, bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))
		}
	}
	return out
}

// WaitMailbox waits up to d until mailbox holds at least n messages and
// returns them.
func (p *Postfix) WaitMailbox(t testing.TB, mailbox string, n int, d time.Duration) [][]byte {
	t.Helper()
	for end := time.Now().Add(d); ; {
		got := p.Mailbox(mailbox)
		if len(got) >= n || time.Now().After(end) {
			return got
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// FreePort returns a loopback address nobody listens on now: the
// instance's ports, and pbem's listener, whose address the instance needs
// before pbem starts.
func FreePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// waitListening waits until addr accepts connections.
func (p *Postfix) waitListening(t testing.TB, addr string) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(end) {
			t.Fatalf("Postfix does not listen on %s: %v\n%s", addr, err, p.Log())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sortByDelivery sorts the paths of maildir files by the delivery time in
// their names. Postfix names a maildir file "SECONDS.VdevIinodeMmicros.host":
// seconds, then microseconds. Within a second the name alone sorts by the
// inode number, which ext4 hands out in no order: a your-turn email
// delivered in the same second as earlier ones sorted before them, and a
// test looking for the newest email past those it had seen never found it.
func sortByDelivery(names []string) {
	sort.SliceStable(names, func(i, j int) bool {
		ta, ua := deliveredAt(filepath.Base(names[i]))
		tb, ub := deliveredAt(filepath.Base(names[j]))
		if ta != tb {
			return ta < tb
		}
		if ua != ub {
			return ua < ub
		}
		return names[i] < names[j]
	})
}

// maildirMicros finds the microseconds of a maildir file name's unique part.
var maildirMicros = regexp.MustCompile(`M([0-9]+)`)

// deliveredAt is the delivery time Postfix wrote in maildir file name
// name: its seconds and microseconds (0 when the name has none).
func deliveredAt(name string) (sec, micros int64) {
	parts := strings.SplitN(name, ".", 3)
	sec, _ = strconv.ParseInt(parts[0], 10, 64)
	if len(parts) > 1 {
		if m := maildirMicros.FindStringSubmatch(parts[1]); m != nil {
			micros, _ = strconv.ParseInt(m[1], 10, 64)
		}
	}
	return sec, micros
}
