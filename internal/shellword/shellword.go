// Package shellword quotes and reads back one word of POSIX sh: the module's one quoter, for
// the hook shims, the agent hook commands and the commands a report or an installer prints.
//
// Guarantees: Quote's result is read by sh as exactly the string given (NUL aside, which no
// shell word holds); Unquote accepts only literal words (no expansion of any kind) and never
// panics.
package shellword

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Quote quotes s as one word for POSIX sh: the one quoter of the module (shims, agent hook
// commands, the fix lines a report prints). It is mvdan.cc/sh's syntax.Quote, which leaves a
// word that needs no quoting as it is; a string POSIX has no escape for (a newline, a control
// character) is single-quoted, which keeps every byte but NUL literally.
func Quote(s string) string {
	if q, err := syntax.Quote(s, syntax.LangPOSIX); err == nil {
		return q
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Unquote reads back one word Quote wrote (unquoted, '...', "..." with no expansion,
// and backslash escapes): ok is false for anything else (an expansion, several words).
func Unquote(word string) (s string, ok bool) {
	defer func() {
		if recover() != nil { // the parser is not expected to panic; never let a shim's text crash status
			s, ok = "", false
		}
	}()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader("x="+word+"\n"), "")
	if err != nil || len(f.Stmts) != 1 {
		return "", false
	}
	call, isCall := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Assigns) != 1 || len(call.Args) != 0 || call.Assigns[0].Value == nil {
		return "", false
	}
	return literal(call.Assigns[0].Value)
}

// Assigned reads the literal value the first statement of script that is a bare assignment of
// name gives it (b='/x/tollgate' in "b='/x/tollgate'; ..."): ok is false when there is none or
// its value is not literal.
func Assigned(script, name string) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			s, ok = "", false
		}
	}()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(script), "")
	if err != nil {
		return "", false
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if found {
			return false
		}
		call, isCall := n.(*syntax.CallExpr)
		if !isCall || len(call.Args) != 0 || len(call.Assigns) != 1 || call.Assigns[0].Name == nil ||
			call.Assigns[0].Name.Value != name || call.Assigns[0].Value == nil {
			return true
		}
		found = true
		s, ok = literal(call.Assigns[0].Value)
		return false
	})
	return s, ok
}

// literal is a word's value when it holds no expansion of any kind.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.Contains(p.Value, "$") { // $'...' is ANSI-C quoting where sh is bash
				return "", false
			}
			b.WriteString(unescape(p.Value, ""))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, isLit := q.(*syntax.Lit)
				if !isLit {
					return "", false
				}
				b.WriteString(unescape(l.Value, "$`\"\\\n"))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// unescape drops the backslash before a character it escapes: any character outside quotes
// (only "" given), the ones in special inside double quotes. An escaped newline is a line
// continuation and goes too.
func unescape(s, special string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (special == "" || strings.IndexByte(special, s[i+1]) >= 0) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
