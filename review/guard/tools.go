package guard

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// Tools the guard does not know (MCP tools, a new built-in) are judged by their arguments,
// whatever the tool is called: an argument named like a path gets the path rules, one named
// like file content the content rules, one named like a command the shell rules. A tool with
// no such argument is no objection (the agent's own permissions apply).

// toolArg is one argument found in a tool's input: a path, content (with the path beside it in
// the same object, if any) or a command line.
type toolArg struct {
	kind  byte // 'p' path, 'c' content, 'x' command
	value string
	path  string // for content: a path argument in the same object
}

// Keys are compared folded: lower case without '_', '-' and '.' (filePath, file_path and
// file-path are one name).
var (
	pathKeys = set("path", "paths", "filepath", "filepaths", "filename", "filenames", "file", "files",
		"absolutepath", "notebookpath", "dirpath", "dir", "directory", "target", "targetfile", "targetpath",
		"destination", "dest", "destpath", "destinationpath", "source", "src", "sourcepath", "from",
		"oldpath", "newpath", "relativepath", "relativeworkspacepath", "uri", "location", "output", "outputpath")
	contentKeys = set("content", "contents", "text", "newstring", "newstr", "newtext", "newsource",
		"filetext", "patch", "diff", "data", "body", "code", "newcontent", "newcontents", "replacement",
		"filecontent", "filecontents", "snippet", "codeedit", "insertion")
	commandKeys = set("command", "cmd", "commandline", "script", "shellcommand")
)

// Bounds of the walk over one tool's input.
const (
	maxArgDepth  = 8
	maxArgValues = 512
	maxPathBytes = 4096
)

func foldKey(k string) string {
	k = strings.ToLower(k)
	return strings.NewReplacer("_", "", "-", "", ".", "").Replace(k)
}

// collectArgs walks the tool input (objects and arrays, bounded) and returns its path, content
// and command arguments; over is true when the walk met its bounds.
func collectArgs(in map[string]any) (args []toolArg, over bool) {
	seen := 0
	var walk func(v any, key string, depth int, sibling string)
	walkObj := func(m map[string]any, depth int) {
		// keys in order: the same input is always answered with the same reason
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		// the object's own path, for the content beside it
		sibling := ""
		for _, k := range keys {
			if s, ok := m[k].(string); ok && pathKeys[foldKey(k)] && isPathValue(s) {
				sibling = s
				break
			}
		}
		for _, k := range keys {
			walk(m[k], foldKey(k), depth+1, sibling)
		}
	}
	walk = func(v any, key string, depth int, sibling string) {
		if over {
			return
		}
		if seen++; seen > maxArgValues || depth > maxArgDepth {
			over = true
			return
		}
		switch x := v.(type) {
		case map[string]any:
			walkObj(x, depth)
		case []any:
			for _, e := range x {
				walk(e, key, depth+1, sibling)
			}
		case string:
			switch {
			case x == "":
			case pathKeys[key] && isPathValue(x):
				args = append(args, toolArg{kind: 'p', value: strings.TrimPrefix(x, "file://")})
			case contentKeys[key] || pathKeys[key]:
				// a path-named argument with several lines is text (NotebookEdit's source)
				args = append(args, toolArg{kind: 'c', value: x, path: sibling})
			case commandKeys[key]:
				args = append(args, toolArg{kind: 'x', value: x})
			}
		}
	}
	walkObj(in, 0)
	return args, over
}

// isPathValue: one line, not too long, and not a URL other than file://.
func isPathValue(s string) bool {
	if s == "" || len(s) > maxPathBytes || strings.ContainsAny(s, "\n\r\x00") {
		return false
	}
	if i := strings.Index(s, "://"); i > 0 && !strings.HasPrefix(s, "file://") {
		return false
	}
	return true
}

// toolClass is what a tool's name says it does.
type toolClass int

const (
	classUnknown toolClass = iota
	classRead
	classWrite
	classDelete
	classExec
	classRemote // writes to a remote repository or service (push files, merge, release, ...)
)

var (
	readVerbs = set("get", "list", "read", "search", "find", "view", "show", "fetch", "query", "describe",
		"stat", "info", "check", "diff", "compare", "lookup", "count", "head", "tail", "grep", "glob", "ls",
		"open", "inspect", "explain", "download", "watch", "status", "resolve", "retrieve", "browse", "preview")
	writeVerbs = set("write", "edit", "create", "update", "put", "move", "rename", "patch", "append",
		"replace", "insert", "save", "copy", "cp", "mv", "mkdir", "make", "set", "apply", "overwrite",
		"modify", "truncate", "chmod", "touch", "add", "upsert", "change", "store", "new")
	deleteVerbs = set("delete", "remove", "rm", "unlink", "rmdir", "trash", "erase", "destroy", "drop", "purge")
	execVerbs   = set("run", "exec", "execute", "shell", "bash", "terminal", "spawn", "eval", "process", "sh", "cmd", "command", "interact")
	// remote: publishing verbs anywhere in the name, or a forge server's write to its files
	remoteVerbs  = set("push", "merge", "publish", "release", "deploy", "upload", "fork")
	forgeServers = []string{"github", "gitlab", "bitbucket", "gitea", "forgejo", "codeberg", "azure", "sourcehut"}
	forgeObjects = set("file", "files", "commit", "branch", "tag", "ref", "release", "repository", "repo", "contents")
)

// toolWords splits a tool's name into its server (for mcp__server__tool) and lower-case words
// (snake_case, kebab-case and camelCase).
func toolWords(name string) (server string, words []string) {
	if strings.HasPrefix(name, "mcp__") || strings.HasPrefix(name, "mcp_") {
		rest := strings.TrimLeft(strings.TrimPrefix(name, "mcp"), "_")
		if i := strings.Index(rest, "__"); i >= 0 {
			server, name = strings.ToLower(rest[:i]), rest[i+2:]
		} else {
			name = rest
		}
	}
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prev := rune(0)
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return server, words
}

// classify reads a tool's name: the first verb it holds decides (get_file_contents reads,
// push_files pushes), and a forge server's write to files, commits or releases is remote.
func classify(name string) toolClass {
	server, words := toolWords(name)
	forge := false
	for _, f := range forgeServers {
		if strings.Contains(server, f) || server == "" && len(words) > 0 && words[0] == f {
			forge = true // mcp__github__x, or mcp_github_x (no server boundary)
		}
	}
	for _, w := range words {
		if remoteVerbs[w] {
			return classRemote
		}
	}
	for _, w := range words {
		switch {
		case readVerbs[w]:
			return classRead
		case deleteVerbs[w] || writeVerbs[w]:
			if forge && anyIn(words, forgeObjects) {
				return classRemote
			}
			if deleteVerbs[w] {
				return classDelete
			}
			return classWrite
		case execVerbs[w]:
			return classExec
		}
	}
	return classUnknown
}

func anyIn(words []string, s map[string]bool) bool {
	for _, w := range words {
		if s[w] {
			return true
		}
	}
	return false
}

// toolArgs judges a tool the guard does not know by its arguments.
func (j *judge) toolArgs(call Call) {
	args, over := collectArgs(call.Args)
	class := classify(call.Tool)
	if over {
		j.add(Ask, "guard/limit", fmt.Sprintf("the input of %s is nested too deeply or holds too many values for tollgate to read; a person must check it", call.Tool))
	}
	hasContent := false
	for _, a := range args {
		hasContent = hasContent || a.kind == 'c'
	}
	if class == classRemote {
		j.remoteWrite = true
		j.add(Ask, "guard/remote-write", fmt.Sprintf("%s writes to a remote repository or service (push, merge, release, publish); a person must approve what leaves the machine", call.Tool))
	}
	if class != classRead && class != classRemote && commitsLocally(call.Tool) {
		j.add(Ask, "guard/tool-commit", fmt.Sprintf("%s commits through a tool, which may not run git's hooks (tollgate's review among them); a person must approve", call.Tool))
	}
	size := 0
	for _, a := range args {
		switch a.kind {
		case 'x':
			j.shell(a.value)
		case 'p':
			j.toolPath(call.Tool, class, a.value, hasContent)
		case 'c':
			if size += len(a.value); size > maxContentBytes {
				j.add(Ask, "guard/limit", fmt.Sprintf("the content %s writes is over the %d-byte limit tollgate scans; a person must check it", call.Tool, maxContentBytes))
				return
			}
			j.content(a.path, a.value)
		}
		if j.best.Verdict == Deny {
			return
		}
	}
	// an edit tool (the filesystem server's edit_file {path, edits: [{oldText, newText}]}):
	// the file as it would be after the edits, as for the agents' own Edit
	if class == classWrite || class == classUnknown {
		if p, ok := firstString(call.Args, "path", "file_path", "filePath"); ok && isPathValue(p) {
			if _, ok := editsOf(call.Args); ok {
				j.edit(Call{Kind: Edit, Tool: call.Tool, Path: p, Args: call.Args})
			}
		}
	}
}

// toolPath applies the path rules to one path argument of an unknown tool: a tool named for
// reading gets the read rules, one named for writing (or holding content) the write rules, and
// one whose name says neither is asked about a protected path it names.
func (j *judge) toolPath(tool string, class toolClass, p string, hasContent bool) {
	switch {
	case class == classRemote:
		// a path in the remote repository: its name is scanned with the content
		j.readName(p)
	case class == classRead:
		j.readPath(p)
	case class == classDelete:
		j.writePath(p, "deleting", false)
	case class == classWrite || hasContent:
		j.writePath(p, "write", false)
	default:
		j.readPath(p)
		if abs, ok := j.abs(p); ok {
			why := j.protectedWhy(abs)
			if why == "" {
				why = j.protectedWhy(resolve(abs))
			}
			if why != "" {
				j.add(Ask, "guard/protected-file", fmt.Sprintf("%s names %s (%s), and tollgate cannot tell from its name whether it changes it; a person must decide", tool, p, why))
			}
		}
	}
}

// readName judges a remote path by its name only (a key file pushed is a key file leaked).
func (j *judge) readName(p string) {
	if why := j.secretWhy("/" + strings.TrimLeft(p, "/")); why != "" {
		j.add(Ask, "guard/secret-write", "sends "+p+" ("+why+") to a remote repository or service; a person must approve")
	}
}

// commitsLocally: a tool named for a git commit (an MCP git server's git_commit writes the
// commit itself, without git's hooks).
func commitsLocally(name string) bool {
	_, words := toolWords(name)
	return anyIn(words, set("commit", "commits"))
}
