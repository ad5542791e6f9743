package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the module's root, seen from this package's directory.
const repoRoot = "../.."

// TestMarkdownLinksResolve checks every relative link of every Markdown
// file of the repository: the file or folder it names exists, and a
// #fragment names a heading of the Markdown file it points into (as
// GitHub makes anchors of headings). Links inside code (fenced blocks,
// `spans`) are text, not links, and are left alone, as are absolute URLs.
func TestMarkdownLinksResolve(t *testing.T) {
	t.Parallel()
	files := markdownFiles(t)
	if len(files) < 10 {
		t.Fatalf("found only %d Markdown files: the walk missed the docs", len(files))
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := headingAnchors(string(b))
		anchors[path] = a
		return a
	}
	checked := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range markdownLinks(string(b)) {
			target, fragment, _ := strings.Cut(l.target, "#")
			if target == "" && fragment == "" {
				continue
			}
			checked++
			path := file
			if target != "" {
				path = filepath.Join(filepath.Dir(file), filepath.FromSlash(target))
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: the link %q names %s, which does not exist", rel(file), l.line, l.target, rel(path))
					continue
				}
			}
			if fragment == "" || !strings.HasSuffix(path, ".md") {
				continue
			}
			if !anchorsOf(path)[fragment] {
				t.Errorf("%s:%d: the link %q names #%s, which is no heading of %s", rel(file), l.line, l.target, fragment, rel(path))
			}
		}
	}
	if checked < 50 {
		t.Fatalf("checked only %d links: the link reader missed them", checked)
	}
}

// TestReadmeIsShort keeps README.md the page a newcomer reads in two
// minutes: at most 200 lines, saying how to start the server, how to run
// every test and how to run one.
func TestReadmeIsShort(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	if n := strings.Count(readme, "\n"); n > 200 {
		t.Errorf("README.md has %d lines, more than 200: move the detail into docs/", n)
	}
	for _, want := range []string{"make run", "make test ", "make test-one P=", "make test-fast"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not say %q", strings.TrimSpace(want))
		}
	}
}

// TestReadmeLayoutIsTrue checks the tour of README.md's "## Layout"
// section (a fenced block, one folder a line, written from go list): every
// folder it names exists.
func TestReadmeLayoutIsTrue(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "\n## Layout\n")
	if !ok {
		t.Fatal(`README.md has no "## Layout" section`)
	}
	_, block, ok := strings.Cut(after, "```\n")
	if ok {
		block, _, ok = strings.Cut(block, "```")
	}
	if !ok {
		t.Fatal("README.md's layout is not a fenced block")
	}
	lines := strings.Split(strings.TrimSpace(block), "\n")
	if len(lines) < 10 {
		t.Fatalf("the layout names only %d folders", len(lines))
	}
	for _, line := range lines {
		dir, _, _ := strings.Cut(line, " ")
		if !strings.HasSuffix(dir, "/") {
			t.Errorf("layout line %q: want FOLDER/ and its gist", line)
			continue
		}
		if fi, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(dir))); err != nil || !fi.IsDir() {
			t.Errorf("README.md's layout names %s, which is no folder", dir)
		}
	}
}

// TestMarkdownLinkReader checks the link reader the tests above rely on:
// which links it finds, and the anchors it makes of headings.
func TestMarkdownLinkReader(t *testing.T) {
	t.Parallel()
	text := "# Two commands\n" +
		"See [ops](docs/operating.md#your-own-server), ![a](img.png \"t\") and <https://x.org>.\n" +
		"`[not](a-link.md)` and [web](https://example.org/a.md) and [mail](mailto:a@b.c)\n" +
		"```\n[in](fence.md)\n```\n" +
		"## `pbem serve` and [HTTPS](x.md): a, b.\n" +
		"## Two commands\n" +
		"[ref]: ../README.md#two-commands\n" +
		"#hashtag\n"
	var got []string
	for _, l := range markdownLinks(text) {
		got = append(got, l.target)
	}
	want := []string{"docs/operating.md#your-own-server", "img.png", "x.md", "../README.md#two-commands"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("links %q, want %q", got, want)
	}
	anchors := headingAnchors(text)
	for _, a := range []string{"two-commands", "pbem-serve-and-https-a-b", "two-commands-1"} {
		if !anchors[a] {
			t.Errorf("no anchor %q in %v", a, anchors)
		}
	}
	if len(anchors) != 3 {
		t.Errorf("anchors %v, want three", anchors)
	}
}

// TestOperatingListsEveryVariable checks that the configuration table of
// docs/operating.md names every PBEM_ variable the product's code reads
// (tests' own PBEM_TEST_ variables and the benchmarks aside), and
// DATABASE_URL, as packaging/pbem.env does.
func TestOperatingListsEveryVariable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "operating.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "\n## Configuration\n")
	if !ok {
		t.Fatal(`docs/operating.md has no "## Configuration" section`)
	}
	table, _, _ = strings.Cut(table, "\n## ")
	name := regexp.MustCompile(`"(PBEM_[A-Z0-9_]+)"`)
	seen := map[string]bool{"DATABASE_URL": true}
	for _, f := range productFiles(t) {
		if strings.HasPrefix(f.rel, "bench/") {
			continue
		}
		src, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range name.FindAllStringSubmatch(string(src), -1) {
			if !strings.HasPrefix(m[1], "PBEM_TEST_") {
				seen[m[1]] = true
			}
		}
	}
	if len(seen) < 20 {
		t.Fatalf("found only %d variables: the walk missed the code", len(seen))
	}
	for _, v := range sortedKeys(seen) {
		if !strings.Contains(table, "| `"+v+"`") && !strings.Contains(table, ", `"+v+"`") {
			t.Errorf("the configuration table of docs/operating.md has no row for %s", v)
		}
	}
}

// markdownFiles lists the repository's Markdown files, outside
// dependencies (node_modules), the data folder and hidden folders.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != repoRoot && (d.Name() == "node_modules" || d.Name() == "data" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// mdLink is a link of a Markdown file: its target and the line it is on.
type mdLink struct {
	target string
	line   int
}

var (
	// inlineLink matches [text](target) and ![alt](target "title").
	inlineLink = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// refLink matches a reference definition: [label]: target.
	refLink = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)
	// codeSpan matches an inline code span.
	codeSpan = regexp.MustCompile("`+[^`]*`+")
	// scheme matches an absolute URL's scheme (https:, mailto:).
	scheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
)

// markdownLinks returns the relative links of a Markdown text, outside
// fenced code blocks and code spans.
func markdownLinks(text string) []mdLink {
	var links []mdLink
	fence := ""
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if f := fenceOf(trimmed); f != "" && (fence == "" || strings.HasPrefix(trimmed, fence)) {
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		line = codeSpan.ReplaceAllString(line, "")
		var targets []string
		for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
			targets = append(targets, m[1])
		}
		if m := refLink.FindStringSubmatch(line); m != nil {
			targets = append(targets, m[1])
		}
		for _, target := range targets {
			if !scheme.MatchString(target) {
				links = append(links, mdLink{target: target, line: i + 1})
			}
		}
	}
	return links
}

// fenceOf returns the fence a line opens or closes (``` or ~~~, at least
// three), or "".
func fenceOf(trimmed string) string {
	for _, c := range []string{"`", "~"} {
		if strings.HasPrefix(trimmed, c+c+c) {
			return c + c + c
		}
	}
	return ""
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown text: the heading's text (links and code marks reduced to their
// words) in lower case, without punctuation, spaces made hyphens, and a
// repeated anchor suffixed -1, -2...
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if f := fenceOf(trimmed); f != "" && (fence == "" || strings.HasPrefix(trimmed, fence)) {
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
			continue
		}
		if fence != "" || !strings.HasPrefix(line, "#") {
			continue
		}
		heading := strings.TrimLeft(line, "#")
		if heading != "" && heading[0] != ' ' {
			continue // "#hashtag", not a heading
		}
		a := slug(heading)
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// mdLinkText matches [text](target) in a heading, to keep only its text.
var mdLinkText = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

// slug is GitHub's anchor of a heading's text.
func slug(heading string) string {
	heading = mdLinkText.ReplaceAllString(strings.TrimSpace(heading), "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// rel names a path from the repository's root.
func rel(path string) string {
	if r, err := filepath.Rel(repoRoot, path); err == nil {
		return filepath.ToSlash(r)
	}
	return path
}
