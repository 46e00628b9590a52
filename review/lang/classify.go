package lang

import (
	"path"
	"strings"
)

// File is what a scanner needs to know about a path: its kind, its comment syntax, and how the
// injection scanner reads its lines.
type File struct {
	Kind   Kind
	Syntax Syntax
	// Prose: every line is text a person or a model reads (documentation, markup, templates),
	// not code with comments in it.
	Prose bool
	// JSON: a JSON document, whose comment fields ("_comment", "//") are hidden carriers.
	JSON bool
	// Agent: an agent instruction or configuration file (CLAUDE.md, AGENTS.md, .cursorrules,
	// mcp.json, .claude/settings.json, ...).
	Agent bool
	// AgentConfig is "" or what a "command" key of an agent configuration starts: "an MCP
	// server", "an agent hook", or GeminiSettings (either; the line's section tells).
	AgentConfig string
	// Translation: a message catalogue (.po, .xliff, .strings, .resx, .arb, or a file under a
	// locales/, i18n/, l10n/ or translations/ folder), where scripts mix by design.
	Translation bool
}

// Extension families of the files of no known kind, by comment syntax.
var (
	proseExts = SetOf("md", "markdown", "mdx", "mdc", "txt", "text", "rst", "adoc", "asciidoc",
		"org", "textile", "wiki", "html", "htm", "xhtml", "xml", "svg", "vue", "svelte", "astro",
		"hbs", "handlebars", "mustache", "njk", "jinja", "jinja2", "j2", "twig", "liquid", "erb",
		"ejs", "jsp", "prompt", "ipynb")
	proseNames = SetOf("readme", "changelog", "changes", "news", "notes", "contributing",
		"authors", "todo", "history", "security", "codeowners")
	jsonExts = SetOf("json", "jsonc", "json5", "jsonl", "ndjson", "geojson", "har", "webmanifest")
	cExts    = SetOf("go", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "c++", "java", "js",
		"jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts", "cs", "csx", "swift", "kt", "kts", "scala",
		"rs", "dart", "sol", "groovy", "gradle", "m", "mm", "proto", "zig", "v", "d",
		"css", "scss", "less", "sass", "fs", "fsx", "glsl", "hlsl", "cu", "cuh", "ino",
		"jenkinsfile")
	hashExts = SetOf("py", "pyw", "pyi", "rb", "sh", "bash", "zsh", "fish", "ksh", "pl", "pm",
		"r", "yml", "yaml", "toml", "conf", "cfg", "mk", "cmake", "nix", "tfvars", "ps1", "psm1",
		"ex", "exs", "jl", "cr", "coffee", "awk", "tcl", "properties", "env", "gitignore",
		"dockerignore", "gitattributes", "editorconfig", "rake", "gemspec", "podspec", "bzl",
		"bazel", "star", "mojo", "nim", "gd", "dockerfile", "containerfile", "makefile", "gemfile",
		"rakefile", "vagrantfile", "procfile", "build", "workspace", "pyx", "pxd")
	pyLikeExts = SetOf("py", "pyw", "pyi", "pyx", "mojo", "star", "bzl")
	dashExts   = SetOf("sql", "lua", "hs", "lhs", "elm", "ada", "adb", "ads", "vhd", "vhdl", "purs")
	semiExts   = SetOf("s", "asm", "lisp", "lsp", "clj", "cljs", "cljc", "edn", "el", "scm", "ss",
		"rkt", "ini", "reg")
	pctExts = SetOf("tex", "sty", "cls", "bib", "erl", "hrl", "mat")
	vbExts  = SetOf("vb", "vbs", "bas")

	translationExts = SetOf("po", "pot", "mo", "xliff", "xlf", "strings", "stringsdict", "resx",
		"resw", "arb", "ftl", "lproj")
	translationDirs = []string{"/locale/", "/locales/", "/i18n/", "/l10n/", "/translations/", "/lang/", "/langs/"}
)

func translationDir(dirs string) bool {
	for _, d := range translationDirs {
		if strings.Contains(dirs, d) {
			return true
		}
	}
	return strings.Contains(dirs, ".lproj/")
}

// SetOf is a set of the given strings.
func SetOf(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// name is a path taken apart for classification.
type name struct {
	base  string // lower-case base name
	ext   string // its extension, without the dot
	noExt string // the base without its extension
	dirs  string // "/" + the directory + "/"
}

func split(p string) name {
	lp := strings.ToLower(strings.ReplaceAll(p, "\\", "/"))
	base := path.Base(lp)
	return name{
		base:  base,
		ext:   strings.TrimPrefix(path.Ext(base), "."),
		noExt: strings.TrimSuffix(base, path.Ext(base)),
		dirs:  "/" + path.Dir(lp) + "/",
	}
}

// Classify decides how the lines of a file are read, from its path alone.
func Classify(p string) File {
	n := split(p)
	f := File{Kind: KindOf(p)}
	if agentInstructions(n) {
		f.Agent, f.Prose = true, true
		return f
	}
	if cfg := agentConfig(n); cfg != "" {
		f.Agent, f.JSON, f.AgentConfig = true, true, cfg
		f.Syntax = JSON.Syntax() // JSONC is common in these files
		return f
	}
	f.Prose = proseExts[n.ext] || proseNames[n.base] || proseNames[n.noExt] && n.ext == "" ||
		f.Kind.IsProse() || f.Kind == XML
	f.JSON = jsonExts[n.ext]
	f.Translation = translationExts[n.ext] || translationDir(n.dirs)
	f.Syntax = f.Kind.Syntax()
	if f.Kind == Other {
		f.Syntax = familySyntax(n)
	}
	return f
}

var (
	agentNames = SetOf("claude.md", "claude.local.md", "agents.md", "agent.md", "gemini.md",
		".cursorrules", ".windsurfrules", ".clinerules")
	agentDirs = []string{"/.cursor/rules/", "/.clinerules/", "/.windsurf/rules/",
		"/.claude/commands/", "/.claude/agents/"}
	// agentDirFiles: a directory and the suffix of the files in it that are instructions.
	agentDirFiles = [][2]string{{"/.github/instructions/", ".instructions.md"}, {"/.github/prompts/", ".prompt.md"}}
	mcpNames      = SetOf("mcp.json", ".mcp.json", "mcp_config.json")
)

// agentInstructions reports an agent instruction file, in any directory.
func agentInstructions(n name) bool {
	if agentNames[n.base] || n.base == "copilot-instructions.md" && strings.HasSuffix(n.dirs, "/.github/") {
		return true
	}
	for _, d := range agentDirs {
		if strings.Contains(n.dirs, d) {
			return true
		}
	}
	for _, df := range agentDirFiles {
		if strings.Contains(n.dirs, df[0]) && strings.HasSuffix(n.base, df[1]) {
			return true
		}
	}
	return false
}

// GeminiSettings is the AgentConfig of Gemini CLI's settings.json, which holds both MCP servers
// and hooks.
const GeminiSettings = "an MCP server or an agent hook"

// agentConfig returns what a "command" key of an agent configuration file starts, or "".
func agentConfig(n name) string {
	switch {
	case mcpNames[n.base]:
		return "an MCP server"
	case n.base == "settings.json" && strings.HasSuffix(n.dirs, "/.gemini/"):
		return GeminiSettings // the section a command is in tells which (review/injection)
	case (n.base == "settings.json" || n.base == "settings.local.json") && strings.HasSuffix(n.dirs, "/.claude/"),
		n.base == "hooks.json" && (strings.HasSuffix(n.dirs, "/.codex/") || strings.HasSuffix(n.dirs, "/.cursor/")),
		n.ext == "json" && (strings.HasSuffix(n.dirs, "/.github/hooks/") || strings.HasSuffix(n.dirs, "/.copilot/hooks/")):
		return "an agent hook"
	}
	return ""
}

// familySyntax is the comment syntax of a file of no known kind, from its language family.
func familySyntax(n name) Syntax {
	switch {
	case jsonExts[n.ext]:
		return JSON.Syntax()
	case cExts[n.ext]:
		return slashes
	case hashFamily(n):
		s := hashes
		s.Triple = pyLikeExts[n.ext]
		return s
	case dashExts[n.ext]:
		return Syntax{Line: []string{"--"}, SingleQuote: true}
	case n.ext == "s" || n.ext == "asm":
		return Syntax{Line: []string{";", "#", "//"}, Block: true, SingleQuote: true}
	case n.ext == "reg":
		return Syntax{Line: []string{";", "#"}, SingleQuote: true}
	case semiExts[n.ext]:
		return Syntax{Line: []string{";"}, SingleQuote: true}
	case pctExts[n.ext]:
		return Syntax{Line: []string{"%"}}
	case vbExts[n.ext]:
		return Syntax{Line: []string{"'"}}
	}
	return guess
}

func hashFamily(n name) bool {
	return hashExts[n.ext] || hashExts[n.base] || hashExts[n.noExt] && n.ext == "" ||
		strings.HasPrefix(n.base, "dockerfile") || strings.HasPrefix(n.base, ".bash") ||
		strings.HasPrefix(n.base, ".zsh")
}
