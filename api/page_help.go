package api

import (
	"fmt"
	"net/http"
	"net/url"
	"pbem/events"
	"strings"

	"github.com/labstack/echo/v4"
)

// helpPage is a game's help page: the rules in short, in our own words.
type helpPage struct {
	base
	GameName string
	Sections []helpSection
}

// helpSection is one titled part of a help page.
type helpSection struct {
	Title  string
	Blocks []helpBlock
}

// helpBlock is a paragraph, or a list (Items) when its catalog lines
// start with "- ".
type helpBlock struct {
	Para  string
	Items []string
}

// helpBlocks splits a help text into blocks: each line is a paragraph,
// and consecutive lines starting with "- " make one list.
func helpBlocks(text string) []helpBlock {
	var out []helpBlock
	for _, line := range strings.Split(text, "\n") {
		item, isItem := strings.CutPrefix(line, "- ")
		switch {
		case !isItem:
			out = append(out, helpBlock{Para: line})
		case len(out) > 0 && out[len(out)-1].Items != nil:
			out[len(out)-1].Items = append(out[len(out)-1].Items, item)
		default:
			out = append(out, helpBlock{Items: []string{item}})
		}
	}
	return out
}

// helpKey is the catalog key of a help page's part: "help.GAME.sN.title"
// or "help.GAME.sN.text".
func helpKey(gameName string, n int, part string) string {
	return fmt.Sprintf("help.%s.s%d.%s", gameName, n, part)
}

// help: GET /help/:game, in the language of ?lang= or the browser's. A
// game without help texts is not found.
func (p *pages) help(c echo.Context) error {
	lang := pickLang(c, "")
	cat := p.cat(lang)
	name := c.Param("game")
	d := &helpPage{base: p.base(c, lang), GameName: gameName(cat, name)}
	for n := 1; ; n++ {
		if !pageCatalog.Has(helpKey(name, n, "title")) {
			break
		}
		d.Sections = append(d.Sections, helpSection{Title: cat.T(helpKey(name, n, "title")), Blocks: helpBlocks(cat.T(helpKey(name, n, "text")))})
	}
	if len(d.Sections) == 0 {
		return events.Errorf(events.CodeNotFound, "no help for the game %q", name)
	}
	d.Title = cat.T("help.title", d.GameName)
	return p.render(c, http.StatusOK, "help", d)
}

// helpLink is the path of a game's help page in lang.
func helpLink(gameName, lang string) string {
	return "/help/" + url.PathEscape(gameName) + "?lang=" + url.QueryEscape(lang)
}
