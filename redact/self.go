package redact

import "sync"

// An allowlist never applies to the file that defines it: a .gitleaks.toml whose allowlist
// regex spells out a whole token would otherwise allowlist the very token it commits, and a
// .gitleaksignore or an [allowlist] paths entry could name itself. The repository's rule file
// is scanned with gitleaks' default rules and allowlists (its own rules and allowlists are
// what is under review), its path is never allowlisted by its own paths, and no
// .gitleaksignore entry applies to the .gitleaksignore file.

// ownFiles are the names of the files a detector's repository configuration came from.
type ownFiles struct {
	config string // the rule file (.gitleaks.toml), "" when the defaults run
	ignore string // the ignore file (.gitleaksignore)
	once   sync.Once
	plain  *Detector // gitleaks' defaults, for the rule file itself
	err    error
}

// definesRules reports whether path is the file the detector's repository rules came from.
func (d *Detector) definesRules(path string) bool {
	return d.own.config != "" && path == d.own.config
}

// forPath returns the detector that scans path: the defaults for the rule file itself, d for
// every other path.
func (d *Detector) forPath(path string) (*Detector, error) {
	if !d.definesRules(path) {
		return d, nil
	}
	d.own.once.Do(func() { d.own.plain, d.own.err = New(Options{}) })
	return d.own.plain, d.own.err
}
