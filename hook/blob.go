package hook

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// bigFileThreshold is git's core.bigFileThreshold for every call: git diffs a file above it as
// binary instead of holding its lines (its diff of a new file of 10 MB of empty lines peaks at
// 400 MB). A new file git showed as binary is read from its blob instead (addedText); any other
// is diffed again as text (textIfText).
const bigFileThreshold = "1m"

// addedText reads a new regular file that git showed as binary from its blob and, when the
// blob is text (diff.IsBinary: no NUL in its first 8000 bytes, as git decides, nor a binary
// format's magic number or a share of control characters), gives it the hunk git's text diff
// would: every line added, from line 1. The text is read once, at its exact size.
func (r *Repo) addedText(ctx context.Context, commit string, e *rawEntry, f *diff.FileDiff) error {
	text, err := r.blobString(ctx, e.newOID)
	if err != nil {
		if missingObject(err) {
			return &unreadableError{commit: commit, err: err}
		}
		return err
	}
	if diff.IsBinary(text) {
		return nil
	}
	f.Binary, f.Hunks = false, nil
	if text != "" {
		f.Hunks = []diff.Hunk{diff.TextHunk(text)}
	}
	return nil
}

// blobString reads blob oid into a string grown to the blob's size first, git's output
// streamed into it (one copy, through the review's cat-file process).
func (r *Repo) blobString(ctx context.Context, oid string) (string, error) {
	if !blobID(oid) {
		return "", fmt.Errorf("no blob %q", oid)
	}
	var b strings.Builder
	err := r.cat.read(ctx, r.Git, oid, func(size int, src io.Reader) error {
		b.Grow(size)
		_, err := io.Copy(&b, src)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("failed to read blob %s: %w", oid, err)
	}
	return b.String(), nil
}

// blobID reports an id that can name a blob: not empty, not all zeros, nothing git could
// take for an option or a revision expression.
func blobID(oid string) bool {
	return oid != "" && !isZeroOID(oid) && !strings.ContainsAny(oid, " -\n:^~.@{")
}

// ReadBlob implements review.BlobReader: the content of one blob, read through the review's
// one `git cat-file --batch` process.
func (r *Repo) ReadBlob(ctx context.Context, oid string) ([]byte, error) {
	if !blobID(oid) {
		return nil, fmt.Errorf("no blob %q", oid)
	}
	if data, ok, err := r.lfsRead(oid); ok {
		return data, err
	}
	var data []byte
	err := r.cat.read(ctx, r.Git, oid, func(size int, src io.Reader) error {
		data = make([]byte, size)
		_, err := io.ReadFull(src, data)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("failed to read blob %s: %w", oid, err)
	}
	return data, nil
}

// Close ends the review's cat-file process, if it was started. The repository stays usable:
// a later read starts it again.
func (r *Repo) Close() error {
	r.cat.close()
	for _, s := range r.subs {
		s.Close()
	}
	return nil
}
