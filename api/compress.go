package api

import (
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// Response compression (echo's Gzip middleware) for pages and JSON, to
// clients that send Accept-Encoding: gzip.
//
// Level 5: a four-player Lords of Scotland play page (8.0 KB) becomes
// 2,054 bytes, against 2,024 at level 9 and 2,305 at level 1, and its view
// JSON (2.6 KB) 786 bytes as at level 9; on bodies this small the level
// hardly changes the CPU time, and 5 keeps the large answers (an audit, a
// long history) cheaper than 9 would. bench/page measures the page as a
// phone gets it.
// Bodies under compressMinLength bytes go out as they are: they fit in one
// packet either way and gzip would add its header and CPU for nothing.
const (
	compressLevel     = 5
	compressMinLength = 1024
)

// uncompressed are the routes the middleware leaves alone: the live-update
// stream (gzip would hold its events back until a buffer fills), the
// static files (gzipped once at start, see static.go) and the Prometheus
// metrics (their handler compresses by itself).
var uncompressed = map[string]bool{
	"/play/:game/events": true,
	"/static/*":          true,
	"/metrics":           true,
}

// compress is the response compression middleware.
func compress() echo.MiddlewareFunc {
	return middleware.GzipWithConfig(middleware.GzipConfig{
		Level:     compressLevel,
		MinLength: compressMinLength,
		Skipper:   func(c echo.Context) bool { return uncompressed[c.Path()] },
	})
}
