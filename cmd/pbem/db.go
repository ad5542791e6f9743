package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"pbem/cmd/internal/pgcluster"
)

// dbCmd is `pbem db`, the PostgreSQL helper of the Makefile:
//
//	pbem db ensure            find or start a server (see pgcluster.Open), print its admin URL
//	pbem db stop              stop the private cluster of the data folder, if it runs
//	pbem db exec -- CMD ARGS  ensure, run CMD with PBEM_TEST_DATABASE_URL set to the
//	                          admin URL, then stop the private cluster if this started it
//	                          (with PBEM_TEST_DATABASE_URL already set: just run CMD)
//	pbem db exec --no-fsync -- CMD ARGS
//	                          the same, but a private cluster it starts is a test
//	                          run's: without fsync (pgcluster.NoFsync) and in memory
//	                          where the machine has /dev/shm (testDataDir): for make
//	                          test, not for benchmarks
//
// The admin URL names a server where tests may create databases (pgtest).
func dbCmd(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, "usage: pbem db ensure | stop | exec [--no-fsync] -- command [args...]")
		return exitError{2}
	}
	switch args[0] {
	case "ensure":
		srv, err := openServer(ctx, e, false)
		if err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, srv.AdminURL)
		return nil
	case "stop":
		return stopCluster(ctx, e)
	case "exec":
		rest := args[1:]
		noFsync := len(rest) > 0 && rest[0] == "--no-fsync"
		if noFsync {
			rest = rest[1:]
		}
		if len(rest) > 0 && rest[0] == "--" {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			return errors.New("db exec: no command")
		}
		return dbExec(ctx, e, rest, noFsync)
	}
	return fmt.Errorf("unknown db command %q (want ensure, stop or exec)", args[0])
}

func openServer(ctx context.Context, e *env, noFsync bool) (*pgcluster.Database, error) {
	dataDir := e.cfg.DataDir
	if noFsync {
		dataDir = testDataDir(dataDir)
	}
	return pgcluster.Open(ctx, pgcluster.Options{
		DatabaseURL: e.cfg.DatabaseURL,
		DataDir:     dataDir,
		Install:     true,
		Log:         logWriter{e},
		NoFsync:     noFsync,
	})
}

// dbExec runs argv with a server ensured (a private cluster it starts
// without fsync when noFsync is set), passing SIGTERM on to it. When
// PBEM_TEST_DATABASE_URL is already set, it runs argv as it is.
func dbExec(ctx context.Context, e *env, argv []string, noFsync bool) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, e.stdout, e.stderr
	if e.cfg.TestDatabaseURL == "" {
		srv, err := openServer(ctx, e, noFsync)
		if err != nil {
			return err
		}
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			if err := srv.Close(sctx); err != nil {
				e.log.Error("stop PostgreSQL", "err", err)
			}
		}()
		e.log.Info("database for tests", "source", srv.Source)
		cmd.Env = append(os.Environ(), "PBEM_TEST_DATABASE_URL="+srv.AdminURL)
	}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 30 * time.Second
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code := ee.ExitCode()
		if code < 0 {
			code = 1
		}
		return exitError{code}
	}
	return err
}

// stopCluster stops the data folder's private cluster if it runs. It never
// starts or installs anything.
func stopCluster(ctx context.Context, e *env) error {
	dir := filepath.Join(e.cfg.DataDir, "postgres")
	c, running, err := pgcluster.Find(ctx, dir, logWriter{e})
	if err != nil {
		return err
	}
	if !running {
		fmt.Fprintln(e.stdout, "no private PostgreSQL cluster runs in", dir)
		return nil
	}
	return c.Stop(ctx)
}

// testDataDir is where a test run's private cluster lives (db exec
// --no-fsync): a folder of its own in /dev/shm, named by the data folder's
// absolute path, when the machine has /dev/shm; else the data folder, as
// for make run. The tests create and drop a database a test, about 300
// files each, some 400 a make test: on an ext4 file system without a
// journal, as on the machines this runs on, ext4 skips over the inodes
// deleted in the last minutes when it makes a file, so that CREATE
// DATABASE took 0.7 CPU s of the kernel's time late in a run, against
// 0.03 in memory. Nothing of a test run's databases is kept.
func testDataDir(dataDir string) string {
	const shm = "/dev/shm"
	if st, err := os.Stat(shm); err != nil || !st.IsDir() {
		return dataDir
	}
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return dataDir
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(shm, "pbem-test-"+hex.EncodeToString(sum[:6]))
}
