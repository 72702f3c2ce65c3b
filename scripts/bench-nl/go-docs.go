// Ground truth for scripts/bench-nl.ts from Go's own parser: every function, method, type (with its
// fields and interface methods), constant and variable of the .go files under a folder, with its
// name line, its span (doc comment included) and its doc comment (one JSON object a line).
// Usage: go run go-docs.go ROOT
package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

type def struct {
	File      string `json:"file"`
	Name      string `json:"name"`
	Container string `json:"container"`
	Kind      string `json:"kind"`
	Start     int    `json:"start"`
	Line      int    `json:"line"`
	End       int    `json:"end"`
	DocStart  int    `json:"docStart"`
	Doc       string `json:"doc"`
}

func receiver(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return ""
	}
	t := fn.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	if idx, ok := t.(*ast.IndexExpr); ok {
		t = idx.X
	}
	if idx, ok := t.(*ast.IndexListExpr); ok {
		t = idx.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func main() {
	root := os.Args[1]
	out := json.NewEncoder(os.Stdout)
	fset := token.NewFileSet()
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		line := func(p token.Pos) int { return fset.Position(p).Line }
		named := func(id *ast.Ident, container, kind string, from, to token.Pos) {
			out.Encode(def{rel, id.Name, container, kind, line(from), line(id.Pos()), line(to), line(from), ""})
		}
		for _, decl := range file.Decls {
			if gen, ok := decl.(*ast.GenDecl); ok {
				// Types (with their fields and interface methods), constants and variables: declarations too.
				for _, spec := range gen.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						named(s.Name, "", "type", s.Pos(), s.End())
						var fields *ast.FieldList
						if st, ok := s.Type.(*ast.StructType); ok {
							fields = st.Fields
						} else if it, ok := s.Type.(*ast.InterfaceType); ok {
							fields = it.Methods
						}
						if fields != nil {
							for _, f := range fields.List {
								for _, n := range f.Names {
									named(n, s.Name.Name, "field", f.Pos(), f.End())
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							named(n, "", "value", s.Pos(), s.End())
						}
					}
				}
				continue
			}
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			kind := "function"
			if fn.Recv != nil {
				kind = "method"
			}
			start := fset.Position(fn.Pos()).Line
			docStart := start
			doc := ""
			if fn.Doc != nil {
				docStart = fset.Position(fn.Doc.Pos()).Line
				doc = fn.Doc.Text()
			}
			out.Encode(def{rel, fn.Name.Name, receiver(fn), kind, start, fset.Position(fn.Name.Pos()).Line, fset.Position(fn.End()).Line, docStart, doc})
		}
		return nil
	})
}
