// Ground truth for scripts/bench-calls.ts from Go's own type checker: every declaration and every
// call of the non-test files of the given packages, each call with the function or method go/types
// resolved it to (one JSON object a line).
// Usage: go run go-calls.go GOROOT_SRC PKG...   (paths printed relative to GOROOT_SRC)
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type target struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Name      string `json:"name"`
	Container string `json:"container"`
}

type caller struct {
	Name      string `json:"name"`
	Container string `json:"container"`
}

type row struct {
	T         string  `json:"t"`
	File      string  `json:"file"`
	Line      int     `json:"line"`
	End       int     `json:"end,omitempty"`
	Name      string  `json:"name"`
	Container string  `json:"container"`
	Kind      string  `json:"kind,omitempty"`
	Resolved  bool    `json:"resolved"`
	Target    *target `json:"target"`
	Caller    *caller `json:"caller"`
}

var out = json.NewEncoder(os.Stdout)

// The named type a receiver or method set belongs to: *T and T are T.
func ownerName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

func main() {
	root := os.Args[1]
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	rel := func(pos token.Pos) (string, int) {
		p := fset.Position(pos)
		r, err := filepath.Rel(root, p.Filename)
		if err != nil || strings.HasPrefix(r, "..") {
			return "", p.Line
		}
		return r, p.Line
	}
	for _, pkg := range os.Args[2:] {
		dir := filepath.Join(root, pkg)
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		var files []*ast.File
		for _, n := range names {
			f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				continue
			}
			// Build-tag-excluded files (other OSes, ignore) are not part of the package.
			if strings.Contains(f.Name.Name, "_test") || f.Name.Name == "main" && pkg != "main" {
				continue
			}
			if ignored(f) {
				continue
			}
			files = append(files, f)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
		conf := types.Config{Importer: imp, Error: func(err error) {}}
		conf.Check(pkg, fset, files, info)
		for _, f := range files {
			emit(f, info, rel)
		}
	}
}

// A file constrained to another OS or architecture, or marked ignore.
func ignored(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:build") {
				expr := strings.TrimSpace(strings.TrimPrefix(c.Text, "//go:build"))
				if strings.Contains(expr, "ignore") || (strings.Contains(expr, "js") && !strings.Contains(expr, "!js")) || strings.Contains(expr, "plan9") || strings.Contains(expr, "windows") && !strings.Contains(expr, "!windows") {
					return true
				}
			}
		}
	}
	return false
}

func emit(f *ast.File, info *types.Info, rel func(token.Pos) (string, int)) {
	file, _ := rel(f.Pos())
	def := func(name *ast.Ident, container, kind string, end token.Pos) {
		_, line := rel(name.Pos())
		_, last := rel(end)
		out.Encode(row{T: "def", File: file, Line: line, End: last, Name: name.Name, Container: container, Kind: kind})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			container, kind := "", "function"
			if d.Recv != nil && len(d.Recv.List) > 0 {
				kind = "method"
				t := d.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				if ix, ok := t.(*ast.IndexExpr); ok {
					t = ix.X
				}
				if ix, ok := t.(*ast.IndexListExpr); ok {
					t = ix.X
				}
				if id, ok := t.(*ast.Ident); ok {
					container = id.Name
				}
			}
			def(d.Name, container, kind, d.End())
			if d.Body != nil {
				calls(d.Body, &caller{Name: d.Name.Name, Container: container}, file, info, rel)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					def(s.Name, "", "type", s.End())
					switch t := s.Type.(type) {
					case *ast.InterfaceType:
						for _, m := range t.Methods.List {
							for _, n := range m.Names {
								def(n, s.Name.Name, "method", m.End())
							}
						}
					case *ast.StructType:
						for _, fl := range t.Fields.List {
							for _, n := range fl.Names {
								def(n, s.Name.Name, "field", fl.End())
							}
						}
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						def(n, "", "var", s.End())
					}
					for _, v := range s.Values {
						calls(v, nil, file, info, rel)
					}
				}
			}
		}
	}
}

// Every call under node: the called name's line, and what go/types says it calls.
func calls(node ast.Node, in *caller, file string, info *types.Info, rel func(token.Pos) (string, int)) {
	ast.Inspect(node, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fun := c.Fun
		for {
			if p, ok := fun.(*ast.ParenExpr); ok {
				fun = p.X
			} else if ix, ok := fun.(*ast.IndexExpr); ok {
				fun = ix.X
			} else if ix, ok := fun.(*ast.IndexListExpr); ok {
				fun = ix.X
			} else {
				break
			}
		}
		var id *ast.Ident
		switch f := fun.(type) {
		case *ast.Ident:
			id = f
		case *ast.SelectorExpr:
			id = f.Sel
		default:
			return true
		}
		_, line := rel(id.Pos())
		r := row{T: "call", File: file, Line: line, Name: id.Name, Caller: in}
		obj := info.Uses[id]
		switch o := obj.(type) {
		case *types.Func:
			r.Resolved = true
			tf, tl := rel(o.Pos())
			if tf != "" {
				container := ""
				if sig, ok := o.Type().(*types.Signature); ok && sig.Recv() != nil {
					container = ownerName(sig.Recv().Type())
				}
				r.Target = &target{File: tf, Line: tl, Name: o.Name(), Container: container}
			}
		case *types.TypeName, *types.Builtin, *types.Var:
			// A conversion, a builtin, or a function value: not a call of a declared function.
			r.Resolved = true
		}
		out.Encode(r)
		return true
	})
}
