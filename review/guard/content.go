package guard

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tollgate-dev/tollgate/redact/lite"
)

// instructionFiles are read by agents as instructions: prompt injection written there is denied.
var instructionFiles = set("claude.md", "agents.md", "gemini.md", ".cursorrules", ".windsurfrules", ".clinerules",
	"copilot-instructions.md", "mcp.json", ".mcp.json", "claude.local.md", "agent.md", ".goosehints", "conventions.md")

// InstructionFile reports whether agents read the file at p as instructions (CLAUDE.md,
// AGENTS.md, .cursor/rules/..., ...): the only files where the guard acts on prompt injection,
// so a ContentCheck need not look for it elsewhere.
func InstructionFile(p string) bool { return isInstructionFile(p) }

func isInstructionFile(p string) bool {
	base := strings.ToLower(filepath.Base(p))
	if instructionFiles[base] {
		return true
	}
	slash := "/" + filepath.ToSlash(strings.ToLower(p))
	return strings.Contains(slash, "/.cursor/rules/") || strings.Contains(slash, "/.github/instructions/") ||
		strings.Contains(slash, "/.claude/commands/") || strings.Contains(slash, "/.claude/agents/")
}

// content denies a secret, a key file or prompt injection in text about to be written.
func (j *judge) content(path, text string) {
	j.contentAt(path, text, scanText{text: text, start: 1})
}

// scanText is what the secret scan reads: text whose first line is numbered start, and the
// file's text before the write (a secret already there is not the write's).
type scanText struct {
	text     string
	start    int
	existing string
}

// contentAt is content with the secret scan over st (the file as it would be after an edit)
// and the injected checks over the written fragment.
func (j *judge) contentAt(path, fragment string, st scanText) {
	if fragment == "" && path == "" {
		return
	}
	if len(fragment) > maxContentBytes || len(st.text) > maxContentBytes {
		j.add(Ask, "guard/limit", fmt.Sprintf("the content is over the %d-byte limit tollgate scans; a person must check it", maxContentBytes))
		return
	}
	rel := j.projectRel(path)
	// The injected scanners run beside the secret scan (two cores halve a large write's wait).
	checked := make(chan []Hit, 1)
	go func() { checked <- j.contentCheck(rel, fragment) }()
	j.secrets(path, rel, st)
	hits := <-checked
	if j.best.Verdict == Deny {
		return
	}
	j.contentHits(rel, hits)
}

// projectRel names path relative to the project when it is inside it (as written otherwise).
func (j *judge) projectRel(path string) string {
	if p, ok := j.abs(path); ok {
		if r, err := filepath.Rel(j.o.Project, p); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
	}
	return path
}

// contentCheck runs the injected scanners; a panic in them is a hit that asks.
func (j *judge) contentCheck(rel, text string) (hits []Hit) {
	defer func() {
		if r := recover(); r != nil {
			hits = []Hit{{Rule: "guard/scan-failed", Message: fmt.Sprintf("tollgate's content check failed (%v)", r)}}
		}
	}()
	if j.o.Content != nil {
		hits = j.o.Content(rel, text)
	}
	return hits
}

// contentHits answers the injected scanners' hits: the first secret, or prompt injection in an
// instruction file, denies; a failed scan asks.
func (j *judge) contentHits(rel string, hits []Hit) {
	for _, h := range hits {
		if h.Rule == "guard/scan-failed" {
			j.add(Ask, h.Rule, h.Message+"; a person must check the content")
			continue
		}
		injection := strings.Contains(h.Rule, "prompt-injection")
		if injection && !isInstructionFile(rel) {
			continue
		}
		reason := h.Message
		if h.Evidence != "" {
			reason += ": " + h.Evidence
		}
		if injection {
			reason = "writing prompt injection into " + rel + ", a file agents read as instructions (" + reason + ")"
		} else {
			reason += "; keep secrets and key files out of the project (use an environment variable)"
		}
		j.add(Deny, h.Rule, reason)
		return
	}
}

// secrets runs gitleaks' rules (and tollgate's credential rule) through the redact detector
// over the text, over the text as it reads once split tokens are joined (variants.go), and
// over the file's name. A secret already in st.existing is not the write's.
func (j *judge) secrets(path, rel string, st scanText) {
	if j.o.Detector == nil {
		j.unscanned = true
		return
	}
	det, err := j.o.Detector()
	if err != nil {
		j.add(Ask, "guard/scan-failed", "tollgate could not scan the content for secrets ("+err.Error()+"); a person must check it")
		return
	}
	var pathSecs []lite.Secret
	var pathErr error
	pathDone := make(chan struct{})
	go func() {
		defer close(pathDone)
		pathSecs, pathErr = det.ScanPath(rel)
	}()
	secs, err := scanAll(det, rel, st)
	<-pathDone
	secs = append(pathSecs, secs...)
	if err == nil {
		err = pathErr
	}
	if err != nil {
		j.add(Ask, "guard/scan-failed", "tollgate could not scan the content for secrets ("+err.Error()+"); a person must check it")
		return
	}
	if len(secs) == 0 {
		j.credentials(path, rel, st)
		return
	}
	// the first secret answers (a key file by its name comes first)
	s := secs[0]
	if s.Value != "" {
		rel = lite.Mask(rel, s.Value) // a token in the file's name
	}
	if s.Line == 0 && !s.PathOnly {
		j.add(Deny, "secrets/"+s.RuleID, fmt.Sprintf("the file name %s holds a secret (%s); name files without secrets", rel, s.Description))
		return
	}
	if j.ignoredLocal(path) {
		j.add(Ask, "guard/secret-in-ignored-file", fmt.Sprintf("writing %s (%s) into %s, which .gitignore keeps out of git: a local secrets file is where it belongs, but tollgate cannot be sure git ignores it; a person must check (%s)",
			s.Description, "secrets/"+s.RuleID, rel, lite.Mask(s.LineText, s.Value)))
		return
	}
	if s.PathOnly {
		j.add(Deny, "secrets/"+s.RuleID, "writing "+rel+": "+s.Description+" (a key or credential file); keep it out of the project and load it from outside (use an environment variable or a secret store)")
	} else {
		j.add(Deny, "secrets/"+s.RuleID, fmt.Sprintf("writing a secret into %s (line %d, %s): %s; use an environment variable instead",
			rel, s.Line, s.Description, lite.Mask(s.LineText, s.Value)))
	}
}

// scanAll scans st's text, its joined variant (only the lines that differ) and the file's
// base name, dropping what st.existing already holds.
func scanAll(det Detector, rel string, st scanText) ([]lite.Secret, error) {
	var out []lite.Secret
	keep := func(found []lite.Secret) {
		for _, s := range found {
			if st.existing != "" && s.Value != "" && strings.Contains(st.existing, s.Value) {
				continue
			}
			out = append(out, s)
		}
	}
	if st.text != "" {
		found, err := det.Scan(rel, st.text, st.start)
		if err != nil {
			return nil, err
		}
		keep(found)
	}
	if len(out) == 0 {
		if v, ok := joinedVariant(st.text); ok {
			found, err := det.Scan(rel, v, st.start)
			if err != nil {
				return nil, err
			}
			keep(found)
		}
	}
	if base := baseName(rel); len(out) == 0 && len(base) >= 16 {
		found, err := det.Scan(rel, base+"\n", 1)
		if err != nil {
			return nil, err
		}
		for i := range found {
			found[i].Line = 0 // the name, not a line
		}
		keep(found)
	}
	return out, nil
}

// credentials finds passwords written as key = value (what gitleaks' token-shaped rules miss).
func (j *judge) credentials(path, rel string, st scanText) {
	ext := strings.ToLower(filepath.Ext(rel))
	prose := ext == ".md" || ext == ".txt" || ext == ".rst" || ext == ".adoc" || ext == ".html"
	if prose {
		return
	}
	code := codeExt[ext] && ext != ".sh" && ext != ".tf"
	opts := lite.CredentialOptions{QuotedOnly: code, Attributes: ext == ".xml" || ext == ".config", Define: ext == ".php", Assign: true}
	for n, line := range strings.Split(st.text, "\n") {
		if len(line) > 4000 {
			continue
		}
		c, ok := lite.FindCredential(line, opts)
		if !ok || (st.existing != "" && strings.Contains(st.existing, c.Value)) {
			continue
		}
		if j.ignoredLocal(path) {
			j.add(Ask, "guard/secret-in-ignored-file", fmt.Sprintf("writing a password or secret (%s) into %s, which .gitignore keeps out of git: a local secrets file is where it belongs, but tollgate cannot be sure git ignores it; a person must check (line %d: %s)",
				c.Key, rel, st.start+n, lite.Mask(line, c.Value)))
			return
		}
		j.add(Deny, "tollgate/hardcoded-credential", fmt.Sprintf("writing a password or secret (%s) into %s (line %d): %s; use an environment variable instead",
			c.Key, rel, st.start+n, lite.Mask(line, c.Value)))
		return
	}
}

// patch judges a Codex apply_patch envelope: each file it adds, updates, deletes or moves, and
// the lines it adds.
func (j *judge) patch(text string) {
	if len(text) > maxContentBytes {
		j.add(Ask, "guard/limit", "the patch is over the size limit tollgate scans; a person must check it")
		return
	}
	var path string
	var added, body []string // body: an Update File's hunk lines, to apply to the file
	update := false
	flush := func() {
		if path != "" && !(update && j.patchResult(path, body, strings.Join(added, "\n"))) {
			j.content(path, strings.Join(added, "\n"))
		}
		path, added, body, update = "", nil, nil, false
	}
	found := false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "*** Add File: "), strings.HasPrefix(line, "*** Update File: "):
			flush()
			path = strings.TrimSpace(line[strings.Index(line, ": ")+2:])
			update = strings.HasPrefix(line, "*** Update File: ")
			j.writePath(path, "write", false)
			found = true
		case strings.HasPrefix(line, "*** Delete File: "):
			flush()
			j.writePath(strings.TrimSpace(strings.TrimPrefix(line, "*** Delete File: ")), "deleting", false)
			found = true
		case strings.HasPrefix(line, "*** Move to: "):
			j.writePath(strings.TrimSpace(strings.TrimPrefix(line, "*** Move to: ")), "moving to", false)
			if path != "" {
				j.writePath(path, "moving", false)
			}
		case strings.HasPrefix(line, "+") && path != "":
			added = append(added, line[1:])
			body = append(body, line)
		case path != "" && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "-") || strings.HasPrefix(line, "@@") || line == ""):
			body = append(body, line)
		}
	}
	flush()
	if !found {
		j.add(Ask, "guard/unparsed", "tollgate could not read this patch (no *** Add/Update/Delete File lines); a person must check it")
	}
}
