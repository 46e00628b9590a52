package review

import (
	"path"
	"strings"
)

// kind is a coarse file type: it decides which rules apply and how comments look.
type kind string

const (
	kGo       kind = "go"
	kPython   kind = "python"
	kJS       kind = "js"
	kJava     kind = "java"
	kPHP      kind = "php"
	kRuby     kind = "ruby"
	kShell    kind = "shell"
	kDocker   kind = "docker"
	kMake     kind = "make"
	kC        kind = "c"
	kYAML     kind = "yaml"
	kJSON     kind = "json"
	kXML      kind = "xml"
	kINI      kind = "ini"
	kProps    kind = "properties"
	kEnv      kind = "env"
	kTOML     kind = "toml"
	kSQL      kind = "sql"
	kMarkdown kind = "markdown"
	kText     kind = "text"
	kOther    kind = "other"
)

var extKinds = map[string]kind{
	".go": kGo, ".py": kPython, ".pyw": kPython,
	".js": kJS, ".jsx": kJS, ".ts": kJS, ".tsx": kJS, ".mjs": kJS, ".cjs": kJS,
	".java": kJava, ".kt": kJava, ".scala": kJava, ".groovy": kJava, ".cs": kJava, ".csx": kJava,
	".php": kPHP, ".phtml": kPHP, ".rb": kRuby, ".erb": kRuby, ".rake": kRuby,
	".sh": kShell, ".bash": kShell, ".zsh": kShell, ".ksh": kShell,
	".c": kC, ".h": kC, ".cc": kC, ".cpp": kC, ".hpp": kC, ".rs": kC, ".swift": kC, ".sol": kC,
	".yml": kYAML, ".yaml": kYAML, ".json": kJSON, ".jsonc": kJSON,
	".xml": kXML, ".config": kXML, ".csproj": kXML, ".plist": kXML,
	".ini": kINI, ".cfg": kINI, ".conf": kINI, ".cnf": kINI,
	".properties": kProps, ".env": kEnv, ".toml": kTOML, ".tfvars": kTOML, ".tf": kTOML, ".hcl": kTOML,
	".sql": kSQL, ".md": kMarkdown, ".mdx": kMarkdown, ".rst": kMarkdown, ".mdc": kMarkdown,
	".txt": kText, ".adoc": kMarkdown,
}

var nameKinds = map[string]kind{
	"dockerfile": kDocker, "containerfile": kDocker, "makefile": kMake, "gnumakefile": kMake,
	".bashrc": kShell, ".bash_profile": kShell, ".profile": kShell, ".zshrc": kShell, ".envrc": kShell,
	".env": kEnv, ".npmrc": kINI, ".pypirc": kINI, ".gitconfig": kINI, ".netrc": kText,
	"jenkinsfile": kJava, "vagrantfile": kRuby, "gemfile": kRuby, "rakefile": kRuby,
}

// kindOf classifies a repository path.
func kindOf(p string) kind {
	base := strings.ToLower(path.Base(p))
	if k, ok := nameKinds[base]; ok {
		return k
	}
	if strings.HasPrefix(base, "dockerfile") || strings.HasSuffix(base, ".dockerfile") {
		return kDocker
	}
	if strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env") {
		return kEnv
	}
	if k, ok := extKinds[path.Ext(base)]; ok {
		return k
	}
	return kOther
}

var testPath = lazyRegexp(`(?i)(?:^|/)(?:tests?|testdata|testing|__tests__|fixtures?|spec|mocks?)/|_test\.go$|(?:^|/)test_[^/]*\.py$|_test\.py$|\.(?:test|spec)\.[jt]sx?$|Tests?\.(?:java|kt|cs)$|_spec\.rb$`)

// isTestPath reports test code: insecure settings there usually talk to a local test server, so
// code and credential findings in tests are lowered to low severity (reported, not failing).
func isTestPath(p string) bool { return testPath.MatchString(p) }

// isCode reports a programming language (where literals are quoted and comments are code's).
func (k kind) isCode() bool {
	switch k {
	case kGo, kPython, kJS, kJava, kPHP, kRuby, kShell, kDocker, kMake, kC:
		return true
	}
	return false
}

// isConfig reports a data/config format where values may be unquoted.
func (k kind) isConfig() bool {
	switch k {
	case kYAML, kJSON, kXML, kINI, kProps, kEnv, kTOML, kOther:
		return true
	}
	return false
}

// isProse reports documentation, where code rules do not apply.
func (k kind) isProse() bool { return k == kMarkdown || k == kText }

// commentStyle returns the line-comment tokens of a kind and whether /* */ blocks exist.
func (k kind) commentStyle() (line []string, block bool) {
	switch k {
	case kGo, kJS, kJava, kC:
		return []string{"//"}, true
	case kPHP:
		return []string{"//", "#"}, true
	case kPython, kRuby, kShell, kDocker, kMake, kYAML, kTOML, kEnv:
		return []string{"#"}, false
	case kINI:
		return []string{"#", ";"}, false
	case kProps:
		return []string{"#", "!"}, false
	case kSQL:
		return []string{"--"}, true
	}
	return nil, false
}

// codePart returns the part of a line that is code: it drops a whole-line comment and a
// trailing comment outside string literals. Block comments are handled per line: a line that
// starts inside one ("*" or "/*") is treated as comment.
func codePart(k kind, line string) string {
	toks, block := k.commentStyle()
	t := strings.TrimSpace(line)
	if t == "" {
		return ""
	}
	if block && (strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*") && !strings.HasPrefix(t, "*/") && !strings.HasPrefix(t, "**=")) {
		return ""
	}
	if k == kXML || k == kMarkdown {
		if strings.HasPrefix(t, "<!--") {
			return ""
		}
	}
	if len(toks) == 0 && !block {
		return line
	}
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		if quote != 0 {
			if c == '\\' {
				i++
				continue
			}
			if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'', '`':
			// A quote in a shell/ini word ("don't") would swallow the rest; only code kinds and
			// YAML/TOML/JSON quote strings reliably.
			if k.isCode() || k == kYAML || k == kTOML || k == kJSON || k == kSQL {
				quote = c
			}
			continue
		}
		if block && strings.HasPrefix(line[i:], "/*") {
			return line[:i]
		}
		for _, tok := range toks {
			if !strings.HasPrefix(line[i:], tok) {
				continue
			}
			// "#" starts a comment only at the start or after a space (values like a#b, URLs#x).
			if tok == "#" || tok == ";" || tok == "!" {
				if i > 0 && line[i-1] != ' ' && line[i-1] != '\t' {
					continue
				}
			}
			if tok == "//" && i > 0 && line[i-1] == ':' {
				continue // a URL, not a comment
			}
			return line[:i]
		}
	}
	return line
}
