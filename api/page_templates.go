package api

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/labstack/echo/v4"

	"pbem/engine/i18n"
)

//go:embed web/templates/*.html
var templateFS embed.FS

//go:embed web/static
var staticFS embed.FS

// templates is the one template set, instantiated once per language with
// the pages' catalog in that language bound to the "t" function.
type templates struct {
	byLang map[string]*template.Template
}

// base is the data every page has.
type base struct {
	Lang  string
	Title string
	// CSRF is the page's CSRF token (forms carry it).
	CSRF string
	// TZ is the time zone the page's times are told in.
	TZ string
	// InlineCSS is the style sheet, inlined on a browser's first visit
	// (static_inline.go); empty: the page links it.
	InlineCSS template.CSS
	// langMenu is the page's language menu.
	langMenu
}

func (b base) language() string { return b.Lang }

func (b base) inlinesCSS() bool { return b.InlineCSS != "" }

// langOf returns the language of a page's data.
func langOf(d any) string {
	if l, ok := d.(interface{ language() string }); ok {
		return l.language()
	}
	return i18n.Languages[0]
}

// base returns the common data of a page in lang.
func (p *pages) base(c echo.Context, lang string) base {
	return base{Lang: lang, TZ: location(c).String(), InlineCSS: inlineCSSFor(c), langMenu: p.menu(c, lang)}
}

// cat returns the pages' catalog in lang (the default language if pbem
// does not speak lang).
func (p *pages) cat(lang string) i18n.Printer { return pageCatalog.In(lang) }

func mustTemplates() *templates {
	t, err := newTemplates()
	if err != nil {
		panic(err)
	}
	return t
}

func newTemplates() (*templates, error) {
	funcs := template.FuncMap{
		"t":     func(key string, args ...any) string { return key },
		"label": func(key string, args ...any) string { return key },
		"lower": strings.ToLower,
		"add":   func(a, b int) int { return a + b },
		"asset": staticAssets.url,
		// variant picks a message's wording for a game (i18n.Catalog.Variant).
		"variant": pageCatalog.Variant,
	}
	root, err := template.New("pages").Funcs(funcs).ParseFS(templateFS, "web/templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("api: page templates: %w", err)
	}
	ts := &templates{byLang: map[string]*template.Template{}}
	for _, lang := range i18n.Languages {
		cl, err := root.Clone()
		if err != nil {
			return nil, err
		}
		p := pageCatalog.In(lang)
		cl.Funcs(template.FuncMap{"t": p.T, "label": p.Label})
		ts.byLang[lang] = cl
	}
	return ts, nil
}

// execute runs the template name in lang.
func (ts *templates) execute(w io.Writer, lang, name string, d any) error {
	t, ok := ts.byLang[lang]
	if !ok {
		t = ts.byLang[i18n.Languages[0]]
	}
	return t.ExecuteTemplate(w, name, d)
}
