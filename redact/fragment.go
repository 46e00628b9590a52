//lint:file-ignore SA1019 gitleaks v8 has no other way to hand a detector text; v9 renames it.

package redact

import "github.com/zricethezav/gitleaks/v8/detect"

// fragment is the one place that names gitleaks v8's detect.Fragment, deprecated ahead of v9
// (where it becomes sources.Fragment): the seam to change when the library moves.
func fragment(raw, path string, first int) detect.Fragment {
	return detect.Fragment{Raw: raw, FilePath: path, StartLine: first}
}
