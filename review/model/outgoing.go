package model

import (
	"context"
	"fmt"
	"strings"

	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/model/bundle"
)

// The outgoing filter over a unit's material (step 7). Every file is scanned as itself, with
// its real path, by the user's filter (gitleaks' default rules, any rules the repository adds,
// tollgate's credential rules) and by tollgate's credential-file rules, whose match makes the
// whole file a secret. With redaction.block_on_secret only a secret on an ADDED line of the
// change, not suppressed there, stops the send: secrets on removed lines, context lines, in a
// file name or on a suppressed line are redacted like everything else.

// redactedFileLine replaces every line of a file that is a secret as a whole.
const redactedFileLine = "[REDACTED:%s: the whole file is a secret]"

// screen is what the filter decided for one unit's material.
type screen struct {
	known []redact.Found // every secret value to replace before a send
	block string         // the rule of a secret on an added, unsuppressed line ("": none)
	// words are the longer words of files that are secrets as a whole: never sent, and masked
	// should a model's answer quote one.
	words []string
}

// secretWords returns the words of at least 8 characters of the lines (split at white space
// and the separators of credential files).
func secretWords(lines []fileLine) []string {
	var out []string
	for _, l := range lines {
		for _, w := range strings.FieldsFunc(l.text, func(r rune) bool {
			return r == ' ' || r == '\t' || r == ':' || r == '=' || r == '"' || r == '\'' || r == '<' || r == '>' || r == ','
		}) {
			if len(w) >= 8 {
				out = append(out, w)
			}
		}
	}
	return out
}

// fileLine is one line of a material file as the filter reads it.
type fileLine struct {
	text  string
	n     int  // new-file line (0 for a removed line)
	added bool // an added line of the change
}

func filterLines(f *bundle.File) []fileLine {
	out := make([]fileLine, 0, len(f.Lines)+len(f.Deleted))
	for _, l := range f.Lines {
		out = append(out, fileLine{text: l.Text, n: l.N, added: l.Added && f.Role == "change"})
	}
	for _, l := range f.Deleted {
		out = append(out, fileLine{text: l.Text})
	}
	return out
}

func joinFileLines(ls []fileLine, keep func(fileLine) bool) string {
	var b strings.Builder
	for _, l := range ls {
		if keep == nil || keep(l) {
			b.WriteString(l.text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// redactWhole replaces every line of the file by a placeholder naming rule.
func redactWhole(f *bundle.File, rule string) {
	ph := fmt.Sprintf(redactedFileLine, rule)
	for i := range f.Lines {
		f.Lines[i].Text = ph
	}
	for i := range f.Deleted {
		f.Deleted[i].Text = ph
	}
}

// screener checks one unit's material.
type screener struct {
	ctx    context.Context
	filter *redact.Filter
	review *redact.Detector // the review's detector: its .gitleaksignore counts as a suppression
	u      *diff.Unit
	sup    *review.Suppressor
	// secretFile is the step's SecretFile (nil: no file rule).
	secretFile func(path, text string) string
}

// secretFileRule is the id of the file rule that makes text, as the content of the file at
// path, a secret as a whole; "" if none.
func (s *screener) secretFileRule(path, text string) string {
	if s.secretFile == nil {
		return ""
	}
	return s.secretFile(path, text)
}

// suppressed reports whether a finding of rule on new-file line n of path is suppressed, as the
// review would judge it (an inline marker, gitleaks:allow, .gitleaksignore).
func (s *screener) suppressed(rule, path string, n int, text string) bool {
	if n <= 0 {
		return false
	}
	if s.sup == nil {
		s.sup = review.NewSuppressor(s.ctx, s.u.Blobs, s.u)
	}
	if s.sup.Suppressed(&review.Finding{RuleID: rule, Path: path, Line: n}) {
		return true
	}
	if id, ok := strings.CutPrefix(rule, "secrets/"); ok {
		if strings.Contains(text, "gitleaks:allow") {
			return true
		}
		if s.review != nil && s.review.Ignored(s.u.Commit, path, id, n) {
			return true
		}
	}
	return false
}

// file screens one material file: the secrets found in it (its lines redacted in place when
// the whole file is a secret), and the rule of one that blocks ("" if none).
func (s *screener) file(f *bundle.File, scr *screen) (found []redact.Found, whole, block string, err error) {
	lines := filterLines(f)
	text := joinFileLines(lines, nil)
	found, err = s.filter.FindAt(f.Path, text)
	if err != nil {
		return nil, "", "", err
	}
	for _, o := range found {
		if i := o.Line - 1; i >= 0 && i < len(lines) && lines[i].added && !s.suppressed(o.RuleID, f.Path, lines[i].n, lines[i].text) {
			block = o.RuleID
			break
		}
	}
	full := text
	if f.Whole != "" {
		// The lines are windows cut from the file: decide on the whole of it, so a secret the
		// windows cut (a PEM body whose BEGIN line is out of view) is known, and replaced line
		// by line wherever the windows show a part of it.
		full = f.Whole
		more, b, err := s.wholeFile(f, lines)
		if err != nil {
			return nil, "", "", err
		}
		found = append(found, more...)
		if block == "" {
			block = b
		}
	}
	whole = s.secretFileRule(f.Path, full)
	if whole == "" {
		if whole, err = s.filter.PathRule(f.Path); err != nil {
			return nil, "", "", err
		}
	}
	if whole == "" {
		return found, "", block, nil
	}
	if block == "" {
		block = s.wholeBlocks(f, lines, whole)
	}
	scr.words = append(scr.words, secretWords(lines)...)
	redactWhole(f, whole)
	return found, whole, block, nil
}

// wholeFile returns the secrets the filter finds in the whole of a change file whose lines are
// windows, and the rule of one that blocks: a secret spanning an added, unsuppressed line
// shown in a window ("" if none).
func (s *screener) wholeFile(f *bundle.File, lines []fileLine) ([]redact.Found, string, error) {
	found, err := s.filter.FindAt(f.Path, f.Whole)
	if err != nil {
		return nil, "", err
	}
	added := map[int]fileLine{}
	for _, l := range lines {
		if l.added {
			added[l.n] = l
		}
	}
	for _, o := range found {
		for n := o.Line; n <= o.Line+strings.Count(o.Value, "\n") && o.Line > 0; n++ {
			if l, ok := added[n]; ok && !s.suppressed(o.RuleID, f.Path, n, l.text) {
				return found, o.RuleID, nil
			}
		}
	}
	return found, "", nil
}

// wholeBlocks returns rule when a file that is a secret as a whole blocks the send: the file
// rule judged on its added lines alone, as the review does, on an unsuppressed line ("" if it
// does not block).
func (s *screener) wholeBlocks(f *bundle.File, lines []fileLine, rule string) string {
	var first *fileLine
	for i := range lines {
		if lines[i].added {
			first = &lines[i]
			break
		}
	}
	if first == nil {
		return ""
	}
	addedText := joinFileLines(lines, func(l fileLine) bool { return l.added })
	if (strings.HasPrefix(rule, "secrets/") || s.secretFileRule(f.Path, addedText) != "") && !s.suppressed(rule, f.Path, first.n, first.text) {
		return rule
	}
	return ""
}

// screen runs the filter over the material, leaving out context files that hold a secret when
// a secret blocks the send; the strings are limits to report.
func (s *screener) screen(mat *bundle.Material, blockOnSecret bool) (screen, []string, error) {
	var out screen
	var limits []string
	kept := mat.Files[:0]
	for i := range mat.Files {
		f := mat.Files[i]
		found, whole, block, err := s.file(&f, &out)
		if err != nil {
			return screen{}, nil, err
		}
		if f.Role == "context" && blockOnSecret && (len(found) > 0 || whole != "") {
			// A context file is there only to help: one that holds a secret is left out rather
			// than stopping the whole send. The change itself still blocks.
			limits = append(limits, fmt.Sprintf("context file %s left out of the model's material: it holds a secret", f.Path))
			continue
		}
		if out.block == "" && block != "" {
			out.block = block
		}
		out.known = append(out.known, found...)
		kept = append(kept, f)
	}
	mat.Files = kept
	return out, limits, nil
}

// addedHolds reports a rule of a secret among more (found in the assembled request) whose
// value is on an added, unsuppressed line of the change ("" if none).
func (s *screener) addedHolds(mat *bundle.Material, more []redact.Found) string {
	for _, f := range mat.Files {
		if f.Role != "change" {
			continue
		}
		for _, l := range f.Lines {
			if !l.Added {
				continue
			}
			for _, o := range more {
				if o.Value != "" && strings.Contains(l.Text, o.Value) && !s.suppressed(o.RuleID, f.Path, l.N, l.Text) {
					return o.RuleID
				}
			}
		}
	}
	return ""
}

// maskModelFinding removes every secret the filter knows or finds from what the model wrote,
// so no report and no cache entry holds one.
func maskModelFinding(filter *redact.Filter, scr *screen, f *review.Finding) {
	for _, field := range []*string{&f.Message, &f.Evidence, &f.Path} {
		v := redact.Replace(*field, scr.known)
		for _, w := range scr.words {
			v = strings.ReplaceAll(v, w, "[REDACTED]")
		}
		if found, err := filter.Find(v); err != nil {
			v = "[withheld: the secret detector could not check this text]"
		} else if len(found) > 0 {
			v = redact.MaskAll(v, values(found)...)
		}
		*field = v
	}
}

// maskRejected does the same for a rejected finding's path (the model wrote it).
func maskRejected(filter *redact.Filter, scr *screen, r *review.Rejected) {
	f := review.Finding{Path: r.Path}
	maskModelFinding(filter, scr, &f)
	r.Path = f.Path
}

func values(found []redact.Found) []string {
	out := make([]string, 0, len(found))
	for _, f := range found {
		out = append(out, f.Value)
	}
	return out
}
