package redact

import (
	"context"
	"fmt"

	"github.com/zricethezav/gitleaks/v8/config"
)

// The repository's .gitleaks.toml allowlists (global or per rule: regexes, stopwords, paths,
// commits) drop matches inside gitleaks' detector, where nothing counts them. So that every
// suppression is counted, a detector built from a .gitleaks.toml that has allowlists keeps a
// second engine of the same rules without the file's own allowlists (gitleaks' default rules
// keep theirs: they are the rules' own false-positive filters, not a team's choice), and
// Allowlisted returns what only that engine finds.

// withoutAllowlists clears every allowlist a decoded repository config declares.
func withoutAllowlists(vc *config.ViperConfig) bool {
	//lint:ignore SA1019 the [allowlist] table still decodes into this field
	had := vc.AllowList != nil || len(vc.Allowlists) > 0
	//lint:ignore SA1019 the [allowlist] table still decodes into this field
	vc.AllowList, vc.Allowlists = nil, nil
	for i := range vc.Rules {
		r := &vc.Rules[i]
		had = had || r.AllowList != nil || len(r.Allowlists) > 0
		r.AllowList, r.Allowlists = nil, nil
	}
	return had
}

// Allowlisted returns the secrets in text that the repository's .gitleaks.toml allowlists
// dropped: found by its rules without its allowlists, and not in found (what ScanContext
// returned for the same text). Without repository allowlists it returns nil.
func (d *Detector) Allowlisted(ctx context.Context, path, text string, startLine int, found []Secret) ([]Secret, error) {
	if d.unallowed == nil || d.definesRules(path) || text == "" {
		return nil, nil
	}
	all, err := d.unallowed.ScanContext(ctx, path, text, startLine)
	if err != nil {
		return nil, err
	}
	kept := map[string]bool{}
	for _, s := range found {
		kept[secretKey(s)] = true
	}
	var out []Secret
	for _, s := range all {
		if !kept[secretKey(s)] {
			out = append(out, s)
		}
	}
	return out, nil
}

// secretKey identifies one detected secret: rule, place and value.
func secretKey(s Secret) string {
	return fmt.Sprintf("%s\x00%d\x00%d\x00%s", s.RuleID, s.Line, s.StartColumn, s.Value)
}

// unallowedDetector is the detector of data's rules without its own allowlists, or nil when the
// file declares none.
func unallowedDetector(data []byte, name string, def config.Config) (*Detector, error) {
	viperMu.Lock()
	vc, err := decode(data)
	viperMu.Unlock()
	if err != nil || !withoutAllowlists(&vc) {
		return nil, nil // a file that does not decode fails in repoConfig
	}
	cfg, _, _, err := repoConfig(data, name, def, true)
	if err != nil {
		return nil, err
	}
	return &Detector{cfg: &cfg, e: newEngine(newCompiledSet(cfg)), ignore: map[string]bool{}}, nil
}
