package notify

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// HeadLog keeps, in a file beside the database, the last version of each
// game that an email told its players of, so that a point-in-time restore
// of the database, which takes games back to an earlier version and
// restores the outbox of sent emails with them, can be seen: a game whose
// stream ends below its logged version lost the moves after it
// (play.Service.TellHistoryCut). `pbem serve` keeps it at
// PBEM_DATA/published-versions; the backups (pbem-backup-files) leave it
// out, so that a restore of the database does not take it back too.
//
// The file is a line "GAME VERSION" per email sent with a higher version
// than the game's logged one, appended (O_APPEND, under an exclusive
// flock, so several processes of one data folder may share it), and
// compacted to one line per game when opened. It is not synced: it
// guards against a restore, not against a crash of the machine, after
// which the versions of the last seconds may be missing.
type HeadLog struct {
	mu   sync.Mutex
	f    *os.File
	last map[string]int64
}

// OpenHeadLog opens the log at path, creating it (and its folder) if
// needed, and compacts it. Errors: the file's, and a line that is not
// "GAME VERSION".
func OpenHeadLog(path string) (*HeadLog, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("notify: head log: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("notify: head log: %w", err)
	}
	h := &HeadLog{f: f, last: map[string]int64{}}
	if err := h.compact(path); err != nil {
		f.Close()
		return nil, err
	}
	return h, nil
}

// compact reads the log into h.last and writes it again, one line per
// game, under the lock.
func (h *HeadLog) compact(path string) error {
	if err := syscall.Flock(int(h.f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("notify: head log: lock: %w", err)
	}
	defer syscall.Flock(int(h.f.Fd()), syscall.LOCK_UN)
	if _, err := h.f.Seek(0, 0); err != nil {
		return fmt.Errorf("notify: head log: %w", err)
	}
	sc := bufio.NewScanner(h.f)
	for n := 1; sc.Scan(); n++ {
		game, v, ok := strings.Cut(sc.Text(), " ")
		ver, err := strconv.ParseInt(v, 10, 64)
		if !ok || err != nil || game == "" {
			return fmt.Errorf("notify: head log %s: line %d is not \"GAME VERSION\"", path, n)
		}
		h.last[game] = max(h.last[game], ver)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("notify: head log: %w", err)
	}
	var b strings.Builder
	for game, v := range h.last {
		fmt.Fprintf(&b, "%s %d\n", game, v)
	}
	if err := h.f.Truncate(0); err != nil {
		return fmt.Errorf("notify: head log: %w", err)
	}
	_, err := h.f.WriteString(b.String())
	return err
}

// Heads returns a copy of the last version logged of each game.
func (h *HeadLog) Heads() map[string]int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]int64, len(h.last))
	for g, v := range h.last {
		out[g] = v
	}
	return out
}

// Published logs that an email told game's players of version (a no-op
// for a version not above the game's logged one). Errors: the file's.
func (h *HeadLog) Published(game string, version int64) error {
	if game == "" || version <= 0 || strings.ContainsAny(game, " \n") {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if version <= h.last[game] {
		return nil
	}
	h.last[game] = version
	if err := syscall.Flock(int(h.f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("notify: head log: lock: %w", err)
	}
	defer syscall.Flock(int(h.f.Fd()), syscall.LOCK_UN)
	_, err := fmt.Fprintf(h.f, "%s %d\n", game, version)
	return err
}

// Close closes the log's file.
func (h *HeadLog) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.f.Close()
}
