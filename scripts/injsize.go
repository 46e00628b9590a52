//go:build ignore

// injsize prints the size of the prompt-injection detector (review/injection, its subpackage
// hidden left out: the character checks are not phrase patterns), counted the same way before
// and after a change (issue 29):
//
//	expressions   calls that compile a regular expression (lazyre.New, regexp.MustCompile, regexp.Compile)
//	phrases       elements of composite literals of a *Pattern struct type (phrasePattern, agentPattern, ...)
//	alternatives  the '|' of every raw (backquoted) string literal, plus one per such literal
//	lines         lines of the non-test .go files, generated data (weights_gen.go) left out
//	generated     lines of the generated data files ("// Code generated ... DO NOT EDIT.")
//	longest       the longest line, in bytes
//
// Usage: go run scripts/injsize.go [DIR] (default review/injection)
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	dir := "review/injection"
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		fail(err)
	}
	var exprs, phrases, alts, lines, generated, longest int
	fset := token.NewFileSet()
	for _, p := range files {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			fail(err)
		}
		if strings.HasPrefix(string(src), "// Code generated") {
			generated += strings.Count(string(src), "\n")
			continue
		}
		for _, l := range strings.Split(string(src), "\n") {
			lines++
			longest = max(longest, len(l))
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			fail(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok {
						switch x.Name + "." + sel.Sel.Name {
						case "lazyre.New", "regexp.MustCompile", "regexp.Compile":
							exprs++
						}
					}
				}
			case *ast.CompositeLit:
				if at, ok := n.Type.(*ast.ArrayType); ok {
					if id, ok := at.Elt.(*ast.Ident); ok && strings.HasSuffix(id.Name, "Pattern") {
						phrases += len(n.Elts)
					}
				}
			case *ast.BasicLit:
				if n.Kind == token.STRING && strings.HasPrefix(n.Value, "`") {
					alts += strings.Count(n.Value, "|") + 1
				}
			}
			return true
		})
	}
	fmt.Printf("expressions=%d phrases=%d alternatives=%d lines=%d generated=%d longest=%d\n", exprs, phrases, alts, lines, generated, longest)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "injsize:", err)
	os.Exit(1)
}
