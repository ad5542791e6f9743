package projections_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines bounds a function of projections and its packages, from
// its func line to its closing brace: a function that folds and decides
// at once (Projector.Apply was 197 lines) is found here first.
const maxFuncLines = 80

// TestFunctionsAreShort: no function of projections/ (tests aside) is
// over maxFuncLines lines.
func TestFunctionsAreShort(t *testing.T) {
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			n++
			from, to := fset.Position(fn.Pos()), fset.Position(fn.End())
			if lines := to.Line - from.Line + 1; lines > maxFuncLines {
				t.Errorf("%s:%d: %s is %d lines; at most %d", path, from.Line, fn.Name.Name, lines, maxFuncLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("read %d functions: not the projections tree?", n)
	}
}
