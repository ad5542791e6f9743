package main

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
)

// TestServeWithoutSMTPUsesTheDevMailbox starts serve with no PBEM_SMTP_URL,
// creates a game, and finds the invitations at /dev/mail with clickable
// play links, logged one line each without the token.
func TestServeWithoutSMTPUsesTheDevMailbox(t *testing.T) {
	t.Parallel()
	url := pgtest.NewEmptyDB(t)
	srv := startServe(t, []string{"DATABASE_URL=" + url, "PBEM_DATA=" + t.TempDir(), "PBEM_SMTP_URL=", "PBEM_SECRET=" + testServeSecret})
	base := srv.base

	body := `{"game":"lords-of-scotland","language":"fr","players":[{"name":"Ann","email":"ann@example.org"},{"name":"Bob","email":"bob@example.org"}],"organiser":{"name":"Ann","email":"ann@example.org"}}`
	resp, err := http.Post(base+"/api/v1/games", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		ID string `json:"id"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("create: %s", resp.Status)
	}
	// The organiser confirms with the token of the emailed link.
	resp, err = http.Post(base+"/api/v1/confirm/"+tokens.Confirm([]byte(testServeSecret), created.ID), "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("confirm: %s", resp.Status)
	}

	link := regexp.MustCompile(`<a href="(http://[^"]*/play/` + created.ID + `\?token=[^"]+)">`)
	var page string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		resp, err := http.Get(base + "/dev/mail")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page = string(b)
		if len(link.FindAllString(page, -1)) >= 2 {
			break
		}
	}
	if got := link.FindAllStringSubmatch(page, -1); len(got) < 2 {
		t.Fatalf("/dev/mail has no two play links:\n%s", page)
	}
	if !strings.Contains(page, "Vous êtes invité") {
		t.Errorf("the invitation is not in French:\n%s", page)
	}
	logs := srv.stderr.String()
	if strings.Count(logs, "dev mail") < 2 || strings.Contains(logs, "token=") {
		t.Errorf("logs:\n%s", logs)
	}

	srv.stop(t)
}
