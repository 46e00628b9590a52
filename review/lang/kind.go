package lang

import (
	"path"
	"strings"
)

// Kind is a coarse file type: it decides which built-in rules apply and how comments look.
type Kind string

// The kinds. A path of no known kind is Other.
const (
	Go         Kind = "go"
	Python     Kind = "python"
	JS         Kind = "js"
	Java       Kind = "java"
	PHP        Kind = "php"
	Ruby       Kind = "ruby"
	Shell      Kind = "shell"
	Docker     Kind = "docker"
	Make       Kind = "make"
	C          Kind = "c"
	YAML       Kind = "yaml"
	JSON       Kind = "json"
	XML        Kind = "xml"
	INI        Kind = "ini"
	Properties Kind = "properties"
	Env        Kind = "env"
	TOML       Kind = "toml"
	HCL        Kind = "hcl"
	SQL        Kind = "sql"
	Markdown   Kind = "markdown"
	Text       Kind = "text"
	Other      Kind = "other"
)

var extKinds = map[string]Kind{
	".go": Go, ".py": Python, ".pyw": Python,
	".js": JS, ".jsx": JS, ".ts": JS, ".tsx": JS, ".mjs": JS, ".cjs": JS,
	".java": Java, ".kt": Java, ".scala": Java, ".groovy": Java, ".cs": Java, ".csx": Java,
	".php": PHP, ".phtml": PHP, ".rb": Ruby, ".erb": Ruby, ".rake": Ruby,
	".sh": Shell, ".bash": Shell, ".zsh": Shell, ".ksh": Shell,
	".c": C, ".h": C, ".cc": C, ".cpp": C, ".hpp": C, ".rs": C, ".swift": C, ".sol": C,
	".yml": YAML, ".yaml": YAML, ".json": JSON, ".jsonc": JSON,
	".xml": XML, ".config": XML, ".csproj": XML, ".plist": XML,
	".ini": INI, ".cfg": INI, ".conf": INI, ".cnf": INI,
	".properties": Properties, ".env": Env, ".toml": TOML, ".tfvars": HCL, ".tf": HCL, ".hcl": HCL,
	".sql": SQL, ".md": Markdown, ".mdx": Markdown, ".rst": Markdown, ".mdc": Markdown,
	".txt": Text, ".adoc": Markdown,
}

var nameKinds = map[string]Kind{
	"dockerfile": Docker, "containerfile": Docker, "makefile": Make, "gnumakefile": Make,
	".bashrc": Shell, ".bash_profile": Shell, ".profile": Shell, ".zshrc": Shell, ".envrc": Shell,
	".env": Env, ".npmrc": INI, ".pypirc": INI, ".gitconfig": INI, ".netrc": Text,
	"jenkinsfile": Java, "vagrantfile": Ruby, "gemfile": Ruby, "rakefile": Ruby,
}

// KindOf classifies a repository path.
func KindOf(p string) Kind {
	base := strings.ToLower(path.Base(strings.ReplaceAll(p, "\\", "/")))
	if k, ok := nameKinds[base]; ok {
		return k
	}
	if strings.HasPrefix(base, "dockerfile") || strings.HasSuffix(base, ".dockerfile") {
		return Docker
	}
	if strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env") {
		return Env
	}
	if k, ok := extKinds[path.Ext(base)]; ok {
		return k
	}
	return Other
}

// IsCode reports a programming language (where literals are quoted and comments are code's).
func (k Kind) IsCode() bool {
	switch k {
	case Go, Python, JS, Java, PHP, Ruby, Shell, Docker, Make, C:
		return true
	}
	return false
}

// IsConfig reports a data/config format where values may be unquoted.
func (k Kind) IsConfig() bool {
	switch k {
	case YAML, JSON, XML, INI, Properties, Env, TOML, HCL, Other:
		return true
	}
	return false
}

// IsProse reports documentation (Markdown, plain text), where code rules do not apply.
func (k Kind) IsProse() bool { return k == Markdown || k == Text }

// quotesStrings reports a kind whose quotes reliably delimit strings: a quote in a shell or INI
// word ("don't") would swallow the rest of the line.
func (k Kind) quotesStrings() bool {
	return k.IsCode() || k == YAML || k == TOML || k == HCL || k == JSON || k == SQL
}

// Syntax is how comments and strings look in a file.
type Syntax struct {
	Line        []string // line-comment markers
	Block       bool     // /* ... */ block comments
	Triple      bool     // Python triple-quoted strings (docstrings) count as comments
	SingleQuote bool     // ' delimits strings
	Guess       bool     // the language is unknown: these are the common markers, a guess
}

// The syntaxes, built once: Syntax is called for every line a scanner cuts at its comment
// (CodePart), and a syntax built there allocated its markers each time. Their Line slices are
// shared, never to be changed.
var (
	slashes    = Syntax{Line: []string{"//"}, Block: true, SingleQuote: true}
	hashes     = Syntax{Line: []string{"#"}, SingleQuote: true}
	guess      = Syntax{Line: []string{"#", "//"}, Block: true, SingleQuote: true, Guess: true}
	phpSyntax  = Syntax{Line: []string{"//", "#"}, Block: true, SingleQuote: true}
	pySyntax   = Syntax{Line: []string{"#"}, Triple: true, SingleQuote: true}
	hclSyntax  = Syntax{Line: []string{"#", "//"}, Block: true, SingleQuote: true}
	jsonSyntax = Syntax{Line: []string{"//"}, Block: true}
	iniSyntax  = Syntax{Line: []string{"#", ";"}, SingleQuote: true}
	propSyntax = Syntax{Line: []string{"#", "!"}, SingleQuote: true}
	sqlSyntax  = Syntax{Line: []string{"--"}, Block: true, SingleQuote: true}
)

// Syntax returns the comment syntax of a kind, decided once for every scanner. Prose kinds and
// Other have none (a file of kind Other may still have a family syntax: see Classify).
func (k Kind) Syntax() Syntax {
	switch k {
	case Go, JS, Java, C:
		return slashes
	case PHP:
		return phpSyntax
	case Python:
		return pySyntax
	case Ruby, Shell, Docker, Make, YAML, TOML, Env:
		return hashes
	case HCL: // Terraform and HCL take all three
		return hclSyntax
	case JSON: // JSON has no comments; JSONC and JSON5 (and tolerant parsers) take C's
		return jsonSyntax
	case INI:
		return iniSyntax
	case Properties:
		return propSyntax
	case SQL:
		return sqlSyntax
	}
	return Syntax{}
}
