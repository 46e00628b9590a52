package guard

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/tollgate-dev/tollgate/redact/lite"
	"mvdan.cc/sh/v3/syntax"
)

// Verdict is a decision, ordered from the weakest to the strictest.
type Verdict int

const (
	// NoObjection: nothing is answered; the agent's own permission rules apply.
	NoObjection Verdict = iota
	// Allow: the call is approved without the agent's prompt (only with auto_allow).
	Allow
	// Ask: a person must approve the call.
	Ask
	// Deny: the call must not run.
	Deny
)

func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return "no objection"
}

// Kind is what a tool call does, whatever the agent calls the tool.
type Kind string

// The kinds of call.
const (
	Shell   Kind = "shell"   // Command is a shell command line
	Read    Kind = "read"    // Path is read
	Write   Kind = "write"   // Path is written with Content (the whole file)
	Edit    Kind = "edit"    // Path is edited; Content is the new text
	Patch   Kind = "patch"   // Content is an apply_patch envelope naming its own paths
	Search  Kind = "search"  // Path is searched (grep, glob)
	Other   Kind = "other"   // a tool with no local effect the rules judge (web fetch, todo lists)
	Unknown Kind = "unknown" // a tool the guard does not know
)

// Call is one tool call in neutral form.
type Call struct {
	Tool    string // the agent's own tool name, for messages
	Kind    Kind
	Command string
	Path    string
	Content string
	Cwd     string // the agent's working directory ("" = the project root)
	// Args is the tool input as the agent sent it (decoded JSON). The guard reads it for a tool
	// it does not know (Unknown: MCP tools and others), whose path, content and command
	// arguments it judges by their names (tools.go), and for an edit's old text (the file is
	// judged as it would be after the edit).
	Args map[string]any
}

// Answer is the decision about one call.
type Answer struct {
	Verdict Verdict
	Rule    string // e.g. guard/hook-bypass, secrets/github-pat
	Reason  string
	// Unscanned: the call writes content that was not scanned (Options.Detector is nil); the
	// verdict is at least Ask, and a full tollgate must judge the call.
	Unscanned bool
}

// Detector finds secrets in text and key files by their names; *redact.Detector is one. It is
// an interface so that guard links no gitleaks.
type Detector interface {
	Scan(path, text string, startLine int) ([]lite.Secret, error)
	ScanPath(path string) ([]lite.Secret, error)
}

// Hit is one finding of an injected content check.
type Hit struct {
	Rule     string
	Message  string
	Evidence string // already masked
}

// ContentCheck runs the commit-time scanners the guard cannot import (prompt injection,
// tollgate's file rules) over content about to be written at path.
type ContentCheck func(path, content string) []Hit

// Options is the compiled guard policy for one call.
type Options struct {
	Project     string   // the project root, absolute and clean
	Home        string   // the user's home directory
	Temp        []string // temporary directories writes may go to
	AllowedDirs []string // guard.allowed_dirs: more writable directories
	Protect     []string // guard.protect: more protected paths (relative to the project, or a base name)
	Deny        []string // guard.deny: more denied command prefixes
	AutoAllow   bool     // guard.auto_allow
	// Detector returns the secret detector; it is called only when content must be scanned.
	// nil: this build cannot scan content (the lean guard binary): a call that writes content
	// is answered at least Ask and marked Answer.Unscanned, so the caller hands it to a full
	// tollgate.
	Detector func() (Detector, error)
	// Content is the injected content check (nil: none).
	Content ContentCheck
	// Budget is the time the shell analysis may take (0: Budget).
	Budget time.Duration
}

// Budget is the time one decision may take. Past it the analysis stops and the answer is Ask
// (deny where the agent cannot ask): well inside the 30 s hook timeout tollgate installs, since
// an agent whose hook times out lets the call through.
const Budget = 2 * time.Second

// Limits bound the analysis; beyond them the answer is Ask.
const (
	maxCommandBytes = 256 << 10
	maxContentBytes = 8 << 20
	maxDepth        = 8
	maxCommands     = 4000
)

// Decide judges one call. It never panics: an internal error is Ask.
func Decide(call Call, opts Options) (ans Answer) {
	defer func() {
		if r := recover(); r != nil {
			ans = Answer{Verdict: Ask, Rule: "guard/internal-error",
				Reason: fmt.Sprintf("tollgate could not judge this call (internal error: %v); a person must decide", r)}
		}
	}()
	opts.Project = filepath.Clean(opts.Project)
	ans = decide(call, &opts)
	if ans.Verdict == NoObjection && opts.AutoAllow && ans.Rule != ruleUnrunnable {
		ans = Answer{Verdict: Allow, Rule: "guard/safe", Reason: "tollgate's rules found nothing to object to (guard.auto_allow)"}
	}
	return ans
}

func decide(call Call, o *Options) Answer {
	cwd := call.Cwd
	if cwd == "" || !filepath.IsAbs(cwd) {
		cwd = o.Project
	}
	budget := o.Budget
	if budget <= 0 {
		budget = Budget
	}
	j := &judge{o: o, cwd: filepath.Clean(cwd), deadline: time.Now().Add(budget)}
	switch call.Kind {
	case Shell:
		j.shell(call.Command)
		j.unparsedBypass(call.Command)
	case Read, Search:
		if call.Path != "" {
			j.readPath(call.Path)
		}
	case Write:
		j.writePath(call.Path, "write", false)
		j.content(call.Path, call.Content)
	case Edit:
		j.writePath(call.Path, "write", false)
		j.edit(call)
	case Patch:
		j.patch(call.Content)
	case Other:
	default:
		j.toolArgs(call)
	}
	if j.unscanned {
		j.add(Ask, "guard/unscanned", "this tollgate build cannot scan what the call writes; a person must check it")
		j.best.Unscanned = true
	}
	return j.best
}

// judge collects the strictest answer over everything one call does.
type judge struct {
	o    *Options
	cwd  string // "" when a cd made it unknown
	best Answer
	// shell state
	depth      int
	commands   int
	vars       map[string]string          // literal assignments seen so far
	fetched    map[string]bool            // files a downloader wrote
	gitAliases map[string]arg             // git -c alias.x='!cmd'
	aliases    map[string]string          // alias NAME=VALUE seen so far
	inAlias    map[string]bool            // aliases being expanded (no recursion)
	remote     int                        // >0 inside an ssh payload: paths are another machine's
	piped      map[*syntax.Stmt]*stdinSrc // what a pipeline's left side prints, judged once
	shallow    bool                       // render words without resolving command substitutions
	cmdEnv     map[string]string          // VAR=value words on the command being judged
	routes     *routeState                // what earlier commands in the call did (routes.go)
	// time budget
	deadline  time.Time
	steps     int
	late      bool // the budget ran out: the answer is at least Ask, and the analysis stops
	unscanned bool // content to scan met a build without a detector
	// remoteWrite: the content goes to a remote repository or service (tools.go), never into
	// a local file git ignores
	remoteWrite bool
	// what the resolution step tracks (resolve.go)
	resolveState
	funcState // functions.go
}

// tick counts one step of the shell analysis and reports whether the time budget is spent (the
// clock is read every 256 steps); once it is, the answer is at least Ask and every later tick
// is true, so the walk unwinds.
func (j *judge) tick() bool {
	if j.late {
		return true
	}
	j.steps++
	if j.steps&255 != 0 || time.Now().Before(j.deadline) {
		return false
	}
	j.late = true
	j.add(Ask, "guard/timeout", fmt.Sprintf("tollgate could not finish judging this command within its %v budget; a person must check it", Budget))
	return true
}

// add records an answer; the strictest (first among equals) wins.
func (j *judge) add(v Verdict, rule, reason string) {
	if v > j.best.Verdict {
		j.best = Answer{Verdict: v, Rule: rule, Reason: reason}
	}
}

// abs resolves p (after ~ and $HOME expansion) against the working directory. ok is false
// when the working directory is unknown and p is relative.
func (j *judge) abs(p string) (string, bool) {
	p = j.expandHome(p)
	if filepath.IsAbs(p) {
		return filepath.Clean(p), true
	}
	if j.cwd == "" {
		return "", false
	}
	return filepath.Join(j.cwd, p), true
}

func (j *judge) expandHome(p string) string {
	home := j.o.Home
	switch {
	case p == "~" || p == "$HOME" || p == "${HOME}":
		return home
	case strings.HasPrefix(p, "~/"):
		return filepath.Join(home, p[2:])
	case strings.HasPrefix(p, "$HOME/"):
		return filepath.Join(home, p[6:])
	case strings.HasPrefix(p, "${HOME}/"):
		return filepath.Join(home, p[8:])
	case strings.HasPrefix(p, "~"):
		// ~user: another user's home, outside the project in any case.
		return filepath.Join("/home", p[1:])
	}
	return p
}
