package api

import (
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// Response compression (echo's Gzip middleware) for pages and JSON, to
// clients that send Accept-Encoding: gzip.
//
// Level 5: on the play page's HTML and a view's JSON it is within about
// 1% of level 9's size for a fraction of its time, and clearly smaller
// than level 1 (bench/page measures the page as a phone gets it).
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
