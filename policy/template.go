package policy

// InitTemplate is what `tollgate init` writes: every repository key with its default, and the
// user-only keys as comments (a repository's file may not set them).
const InitTemplate = `# .tollgate.toml: tollgate's repository configuration (committed, shared by the team).
# Every key is shown with its default. Unknown keys are an error.

[repository]
# Read files through symbolic links inside the repository. Links that leave it are always refused.
follow_symlinks = false

[context]
# Limits for the context bundle sent to a model (only when a user configured one).
max_files = 20
max_total_bytes = 200000
max_expansion_rounds = 2

[scanners]
# External scanners, by name only, from the fixed list: "gosec", "shellcheck", "bandit", "semgrep".
# Enabled but not installed is reported as "not run" (exit 3), never as clean.
external = []
# How long one external scanner may run before it is reported as not run.
timeout = "120s"

[review]
# Fail the commit at this severity or above: info | low | medium | high | critical.
fail_on = "medium"
# Drop findings whose confidence is below this (0.0 to 1.0).
min_confidence = 0.0
# Report at most this many findings (the report says how many were cut).
max_findings = 100
# The deterministic checks must finish within this; past it the review is incomplete (exit 3)
# and says which files were not finished.
timeout = "30s"
# Paths no check reviews, gitignore-style: "vendor/", "**/*.min.js", "!vendor/ours.go".
# Every excluded file is counted in the report. Your user config's patterns add to these.
exclude = []

[guard]
# The agent guard (tollgate guard, in coding agents' pre-tool hooks). A repository may only add
# restrictions: more protected paths (relative to the root, or a file name) and more denied
# command prefixes. Your user config's entries add to these.
protect = []
deny = []

# The keys below are honoured ONLY in your user config
# ($XDG_CONFIG_HOME/tollgate/config.toml or ~/.config/tollgate/config.toml) or flags.
# In this file they are an error: a repository can never make tollgate send anything, weaken
# what is filtered before a send, or write the reviewer's instructions.
#
# [redaction]
# block_on_secret = true   # a secret in ADDED lines stops the send; false: every secret is redacted
#
# [policy]
# text = ""                # workspace policy appended to the base review policy a model is given
#
# [egress]
# enabled = false
#
# [net]
# connect = []             # "host:port" destinations the model client may reach
#
# [model]
# provider = ""            # "openai", "anthropic", "claude-cli", "codex-cli", "gemini-cli"
# name = ""
# base_url = ""
# api_key_env = ""         # the NAME of the environment variable holding the key, never the key
# timeout = "60s"
# verify = true            # a second pass may reject findings (only an explicit "reject" does)
# args = []                # extra arguments for an agent CLI; flags that widen its powers are refused
# allow_unsafe_args = false
# audit = true             # one JSONL line per model exchange under the user state dir
#
# [guard]
# auto_allow = false       # answer "allow" (skip the agent's prompt) for calls the rules judge safe
# allowed_dirs = []        # writable directories outside the project (absolute, or ~/...)
# model = false            # ask the [model] about calls the rules would ask a person about
# timeout = "20s"          # how long the model may take before the call goes to a person
# max_denials = 3          # model denials per agent session before every ask goes to a person
`
