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
	if text == "" && path == "" {
		return
	}
	if len(text) > maxContentBytes {
		j.add(Ask, "guard/limit", fmt.Sprintf("the content is %d bytes, over the %d-byte limit tollgate scans; a person must check it", len(text), maxContentBytes))
		return
	}
	rel := j.projectRel(path)
	// The injected scanners run beside the secret scan (two cores halve a large write's wait).
	checked := make(chan []Hit, 1)
	go func() { checked <- j.contentCheck(rel, text) }()
	j.secrets(rel, text)
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

// secrets runs gitleaks' rules (and tollgate's credential rule) through the redact detector.
func (j *judge) secrets(rel, text string) {
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
	var secs []lite.Secret
	if text != "" {
		secs, err = det.Scan(rel, text, 1)
	}
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
		j.credentials(rel, text)
		return
	}
	// the first secret answers (a key file by its name comes first)
	if s := secs[0]; s.PathOnly {
		j.add(Deny, "secrets/"+s.RuleID, "writing "+rel+": "+s.Description+" (a key or credential file); keep it out of the project and load it from outside (use an environment variable or a secret store)")
	} else {
		j.add(Deny, "secrets/"+s.RuleID, fmt.Sprintf("writing a secret into %s (line %d, %s): %s; use an environment variable instead",
			rel, s.Line, s.Description, lite.Mask(s.LineText, s.Value)))
	}
}

// credentials finds passwords written as key = value (what gitleaks' token-shaped rules miss).
func (j *judge) credentials(rel, text string) {
	ext := strings.ToLower(filepath.Ext(rel))
	prose := ext == ".md" || ext == ".txt" || ext == ".rst" || ext == ".adoc" || ext == ".html"
	if prose {
		return
	}
	code := codeExt[ext] && ext != ".sh" && ext != ".tf"
	opts := lite.CredentialOptions{QuotedOnly: code, Attributes: ext == ".xml" || ext == ".config", Define: ext == ".php", Assign: true}
	for n, line := range strings.Split(text, "\n") {
		if len(line) > 4000 {
			continue
		}
		if c, ok := lite.FindCredential(line, opts); ok {
			j.add(Deny, "tollgate/hardcoded-credential", fmt.Sprintf("writing a password or secret (%s) into %s (line %d): %s; use an environment variable instead",
				c.Key, rel, n+1, lite.Mask(line, c.Value)))
			return
		}
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
	var added []string
	flush := func() {
		if path != "" {
			j.content(path, strings.Join(added, "\n"))
		}
		path, added = "", nil
	}
	found := false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "*** Add File: "), strings.HasPrefix(line, "*** Update File: "):
			flush()
			path = strings.TrimSpace(line[strings.Index(line, ": ")+2:])
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
		}
	}
	flush()
	if !found {
		j.add(Ask, "guard/unparsed", "tollgate could not read this patch (no *** Add/Update/Delete File lines); a person must check it")
	}
}
