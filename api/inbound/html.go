package inbound

import (
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlText turns an HTML reply into plain text lines: block elements
// break lines, quoted parts (blockquote, Gmail's and Thunderbird's quote
// containers, Outlook's "original message" division) are left out, and
// scripts and styles are dropped. Entities are decoded by the parser.
func htmlText(src io.Reader) string {
	doc, err := html.Parse(src)
	if err != nil {
		return ""
	}
	var b strings.Builder
	var walk func(n *html.Node) bool // false: stop, the rest is quoted
	walk = func(n *html.Node) bool {
		switch n.Type {
		case html.TextNode:
			b.WriteString(strings.Join(strings.Fields(n.Data), " "))
			if strings.HasSuffix(n.Data, " ") || strings.HasSuffix(n.Data, "\n") {
				b.WriteString(" ")
			}
			return true
		case html.ElementNode:
			if quoted(n) {
				return n.DataAtom != atom.Div || !isOutlookOriginal(n)
			}
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Head, atom.Title:
				return true
			case atom.Br:
				b.WriteString("\n")
				return true
			}
		}
		block := n.Type == html.ElementNode && isBlock(n.DataAtom)
		if block {
			b.WriteString("\n")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if !walk(c) {
				return false
			}
		}
		if block {
			b.WriteString("\n")
		}
		return true
	}
	walk(doc)
	return b.String()
}

// quoted reports whether n holds quoted text of an earlier message.
func quoted(n *html.Node) bool {
	if n.DataAtom == atom.Blockquote {
		return true
	}
	for _, a := range n.Attr {
		switch a.Key {
		case "class":
			for _, c := range strings.Fields(a.Val) {
				switch c {
				case "gmail_quote", "gmail_attr", "moz-cite-prefix", "yahoo_quoted", "protonmail_quote":
					return true
				}
			}
		case "id":
			if isOutlookID(a.Val) {
				return true
			}
		}
	}
	return false
}

// isOutlookOriginal reports whether n starts Outlook's copy of the
// original message: everything after it is quoted.
func isOutlookOriginal(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Key == "id" && isOutlookID(a.Val) {
			return true
		}
	}
	return false
}

func isOutlookID(id string) bool {
	return id == "divRplyFwdMsg" || id == "appendonsend" || id == "mail-editor-reference-message-container"
}

func isBlock(a atom.Atom) bool {
	switch a {
	case atom.P, atom.Div, atom.Li, atom.Ul, atom.Ol, atom.Tr, atom.Table, atom.H1, atom.H2, atom.H3,
		atom.H4, atom.H5, atom.H6, atom.Pre, atom.Section, atom.Article, atom.Header, atom.Footer, atom.Hr:
		return true
	}
	return false
}
