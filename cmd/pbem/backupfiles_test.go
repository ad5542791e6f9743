package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBackupFilesTakesWhatARestoreNeeds runs packaging/pbem-backup-files
// on a data folder and env file of the test's own: the archive holds the
// env file, the kept secret, the ACME folder, the DKIM key and TLS files
// the env file names, pgBackRest's settings of the stanza and the
// cluster's archive settings (what a new machine needs to restore and go
// on archiving), and not published-versions, which a restore must not
// take back (the head log of play.Service.TellHistoryCut).
func TestBackupFilesTakesWhatARestoreNeeds(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tar"); err != nil {
		t.Skip("no tar")
	}
	dir := t.TempDir()
	path := func(p string) string { return filepath.Join(dir, p) }
	files := map[string]string{
		"data/secret": "s", "data/acme/acme_account+key": "a", "data/published-versions": "g 3\n",
		"etc/dkim.pem": "k", "etc/cert.pem": "c", "etc/key.pem": "k", "etc/pgbackrest/conf.d/pbem.conf": "[pbem]",
		"etc/postgresql/15/main/conf.d/pbem-archive.conf": "archive_mode = on",
	}
	files["etc/pbem.env"] = "PBEM_DATA=" + path("data") + "\nPBEM_DKIM_KEY=" + path("etc/dkim.pem") +
		"\nPBEM_TLS_CERT=" + path("etc/cert.pem") + "\nPBEM_TLS_KEY=\"" + path("etc/key.pem") + "\"\n"
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(path(name)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path(name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("../../packaging/pbem-backup-files")
	cmd.Env = append(os.Environ(), "ENVFILE="+path("etc/pbem.env"), "REPO="+path("repo"), "PGBR_INCLUDE="+path("etc/pgbackrest/conf.d"),
		"PG_CONFS="+path("etc/postgresql/*/*/conf.d/pbem-archive.conf"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pbem-backup-files: %v\n%s", err, out)
	}
	tars, _ := filepath.Glob(path("repo/pbem-files/pbem-files-*.tar.gz"))
	if len(tars) != 1 {
		t.Fatalf("archives: %v", tars)
	}
	out, err := exec.Command("tar", "-tzf", tars[0], "--absolute-names").CombinedOutput()
	if err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	listed := strings.Split(strings.TrimSpace(string(out)), "\n")
	for name := range files {
		in := slices.Contains(listed, path(name))
		if want := name != "data/published-versions"; in != want {
			t.Errorf("%s in the archive: %v, want %v (archive: %v)", name, in, want, listed)
		}
	}
}
