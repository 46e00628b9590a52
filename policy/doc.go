// Package policy turns configuration into a compiled, validated policy and holds the gates
// every other package must pass through.
//
// Rules and guarantees:
//   - Configuration is decoded from TOML into a raw struct, validated, then compiled. An unknown
//     key or a bad value is an error that names the key; nothing is guessed (a known key one typo
//     away is named as a suggestion, never applied). docs/configuration.md's key table, the
//     init template and the raw struct are held equal by keys_test.go.
//   - Two layers: the repository's .tollgate.toml and the user's config file (or --config).
//     The repository layer can never turn on egress, name a network destination, name a model
//     endpoint, name a program to run or weaken what is filtered before a send: egress.*, net.*,
//     model.*, redaction.* and policy.text there are an error. Keys are matched exactly (a key
//     differing only in letter case is unknown).
//   - Boundary: every path read from a repository is resolved under its canonical root; paths
//     that escape it, and symlinks (unless repository.follow_symlinks), are refused.
//   - Processes: this is the only package that starts processes, and only through a process
//     gate value (Procs, handed to whoever starts processes, as the network gate is; there is
//     no package-level allow list). A gate starts only programs on its own allow list (git,
//     and what the policy enabled on it), with a pinned environment and a timeout, never a
//     variable marked secret on it; an agent CLI gets only the variables its caller
//     allow-lists (OnlyEnv).
package policy
