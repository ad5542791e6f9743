package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version and commit are stamped by `make release` (go build -ldflags
// "-X main.version=... -X main.commit=..."); a plain build says "dev" and
// takes the commit from the build's VCS information when it has one.
var (
	version = "dev"
	commit  = ""
)

// versionCmd prints "pbem VERSION (commit COMMIT, GOVERSION OS/ARCH)".
func versionCmd(_ context.Context, e *env, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("unexpected arguments: %v", args)
	}
	c := commit
	if c == "" {
		c = "unknown"
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" {
					c = s.Value
				}
			}
		}
	}
	fmt.Fprintf(e.stdout, "pbem %s (commit %s, %s %s/%s)\n", version, c, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}
