// Package policy turns configuration into a compiled, validated policy and holds the gates
// every other package must pass through.
//
// Rules and guarantees:
//   - Configuration is decoded from TOML into a raw struct, validated, then compiled. An unknown
//     key or a bad value is an error that names the key; nothing is guessed.
//   - Two layers: the repository's .tollgate.toml and the user's config file (or --config).
//     The repository layer can never turn on egress, name a network destination, name a model
//     endpoint or name a program to run: egress.*, net.* and model.* there are an error.
//   - Boundary: every path read from a repository is resolved under its canonical root; paths
//     that escape it, and symlinks (unless repository.follow_symlinks), are refused.
//   - Processes: this is the only package that starts processes (Run), and it starts only
//     programs on its allow list, with a pinned environment and a timeout.
package policy
