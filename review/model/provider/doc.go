// Package provider holds the model providers tollgate can ask, one type a file behind the
// Provider interface: OpenAI-compatible chat completions (openai.go), Anthropic Messages
// (anthropic.go), and the agent CLIs claude, codex and gemini (cli.go runs them; claude.go,
// codex.go, gemini.go say how each is called and how it answers).
//
// Rules and guarantees:
//   - HTTP providers reach the network only through the egress gate they are given
//     (policy/egress), with plain net/http there: no SDK reads endpoints or keys from the
//     environment on its own. An API key is read only from the variable model.api_key_env
//     names, and that variable is marked secret on the process gate New is given.
//   - Agent CLIs run only through the process gate they are given (policy.Procs), only when
//     egress is enabled (they send the material to their own service), in a scratch directory
//     outside the repository, with an allow-listed environment, and with tollgate's read-only
//     flags last so they win.
//     A user flag not known to be safe is refused unless model.allow_unsafe_args is set.
//   - A refusal, a cut-off answer or an error the CLI reports is an error, never an empty
//     answer: the review is then unavailable, never clean. Replies are read up to 8 MiB.
package provider
