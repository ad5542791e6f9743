package api

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// Static assets (the pages' CSS and JavaScript, embedded from web/static)
// are served under two URLs each:
//
//   - the hashed URL the pages link to, /static/app.3f9a1c2b.css (the
//     first 8 hexadecimal digits of the file's SHA-256 before the
//     extension), cached for a year as immutable: a new release changes
//     the hash, so browsers never revalidate and never keep a stale file;
//   - the plain URL, /static/app.css, cached for an hour, so that links
//     from before hashed URLs (and people typing them) keep working.
//
// A hashed URL whose hash is not the file's (a page of an earlier release,
// served by another server during a rolling deploy) is redirected (307,
// not cached) to the current hashed URL: the page still gets its style
// and script, and no cache stores a file under a hash it does not have.
// Each file is gzipped once at start (best compression) and sent
// compressed to clients that accept gzip.

// assetHashLen is how many hexadecimal digits of the SHA-256 a hashed URL
// carries.
const assetHashLen = 8

// Cache-Control of the two kinds of URL.
const (
	cacheImmutable = "public, max-age=31536000, immutable"
	cachePlain     = "public, max-age=3600"
)

// asset is one static file, read and compressed at start.
type asset struct {
	name   string // path under /static/, e.g. "app.css"
	hashed string // e.g. "app.3f9a1c2b.css"
	hash   string
	ctype  string
	etag   string
	body   []byte
	gz     []byte // nil when gzip does not make it smaller
}

// assetSet is every static file, by plain and by hashed name.
type assetSet struct {
	byName   map[string]*asset
	byHashed map[string]*asset
}

// staticAssets is the embedded web/static tree.
var staticAssets = mustAssets()

func mustAssets() *assetSet {
	sub, err := fs.Sub(staticFS, "web/static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	a, err := loadAssets(sub)
	if err != nil {
		panic(err)
	}
	return a
}

// loadAssets reads every file of fsys, hashes and compresses it.
func loadAssets(fsys fs.FS) (*assetSet, error) {
	set := &assetSet{byName: map[string]*asset{}, byHashed: map[string]*asset{}}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		hash := hex.EncodeToString(sum[:])[:assetHashLen]
		ext := path.Ext(name)
		a := &asset{
			name: name, hash: hash, hashed: strings.TrimSuffix(name, ext) + "." + hash + ext,
			ctype: mime.TypeByExtension(ext), etag: `"` + hash + `"`, body: body,
		}
		if a.ctype == "" {
			a.ctype = "application/octet-stream"
		}
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		_, _ = zw.Write(body)
		if err := zw.Close(); err != nil {
			return err
		}
		if gz.Len() < len(body) {
			a.gz = gz.Bytes()
		}
		set.byName[name], set.byHashed[a.hashed] = a, a
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("api: static assets: %w", err)
	}
	return set, nil
}

// url is the hashed URL of the static file name (the template function
// "asset"). An unknown name is an error, so that a page never links to a
// file that is not there.
func (s *assetSet) url(name string) (string, error) {
	a, ok := s.byName[name]
	if !ok {
		return "", fmt.Errorf("api: no static file %q", name)
	}
	return "/static/" + a.hashed, nil
}

// handler serves GET /static/*: a file by its hashed or its plain name, a
// redirect for a stale hash, else 404.
func (s *assetSet) handler() echo.HandlerFunc {
	return func(c echo.Context) error {
		name := strings.TrimPrefix(path.Clean(c.Request().URL.Path), "/static/")
		if a, ok := s.byHashed[name]; ok {
			return a.serve(c, cacheImmutable)
		}
		if a, ok := s.byName[name]; ok {
			return a.serve(c, cachePlain)
		}
		if a, ok := s.staleHash(name); ok {
			c.Response().Header().Set("Cache-Control", "no-store")
			return c.Redirect(http.StatusTemporaryRedirect, "/static/"+a.hashed)
		}
		return echo.ErrNotFound
	}
}

// staleHash finds the file a hashed name with another hash stands for:
// "app.0123abcd.css" is app.css when 0123abcd is a hash's shape.
func (s *assetSet) staleHash(name string) (*asset, bool) {
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	dot := strings.LastIndexByte(stem, '.')
	if dot < 0 || !isHash(stem[dot+1:]) {
		return nil, false
	}
	a, ok := s.byName[stem[:dot]+ext]
	return a, ok
}

// isHash reports whether h has the shape of an asset hash.
func isHash(h string) bool {
	if len(h) != assetHashLen {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil && strings.ToLower(h) == h
}

// serve writes the file (gzipped if the client accepts it), or 304 when
// the client has it.
func (a *asset) serve(c echo.Context, cacheControl string) error {
	h := c.Response().Header()
	h.Set("Cache-Control", cacheControl)
	h.Set("ETag", a.etag)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	if etagMatches(c.Request().Header.Get("If-None-Match"), a.etag) {
		return c.NoContent(http.StatusNotModified)
	}
	body := a.body
	if a.gz != nil && acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) {
		h.Set(echo.HeaderContentEncoding, "gzip")
		body = a.gz
	}
	h.Set(echo.HeaderContentLength, strconv.Itoa(len(body)))
	return c.Blob(http.StatusOK, a.ctype, body)
}

// etagMatches reports whether an If-None-Match header names etag.
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip (by
// name or "*", with a q-value other than 0).
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		if v, ok := strings.CutPrefix(q, "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil && f == 0 {
				continue
			}
		}
		return true
	}
	return false
}
