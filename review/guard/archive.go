package guard

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Archives extracted where their members could land on a protected path: tar -x and unzip
// into the project's root (or above it) write whatever names the archive holds, .git/hooks/
// pre-commit or .tollgate.toml included. The member list of an archive on disk is read
// (tar, tar.gz, tar.bz2, zip; bounded) and each member is judged as a write; an archive that
// cannot be read there (stdin, written by this call, another compression, too large) is asked
// about. Extracting into a subdirectory is judged as a write of that directory alone.

const (
	maxArchiveBytes   = 64 << 20 // a compressed tar is read through to list it
	maxArchiveMembers = 20000
)

// extractInto judges an extraction of archive (raw, as the command names it; "" for stdin)
// into dir (raw; "" for the working directory).
func (j *judge) extractInto(tool string, archive, dir arg) {
	root, ok := j.abs(dir.s) // "" is the working directory
	if dir.dyn || !ok {
		return // the directory itself is judged by the caller (target)
	}
	root = resolve(root)
	if !under(fold(j.o.Project), fold(root)) {
		return // a subdirectory: no member reaches the project's own files
	}
	members, why := j.archiveMembers(archive)
	if why != "" {
		j.add(Ask, "guard/dynamic", tool+" extracts "+why+" into "+root+", where a member could overwrite the hooks or their configuration; a person must check it")
		return
	}
	for _, m := range members {
		j.writePath(filepath.Join(root, m), "extracting", false)
		if j.best.Verdict == Deny {
			return
		}
	}
}

// archiveMembers lists the member paths an archive on disk holds, cleaned (a leading / or ../
// is what tar and unzip strip or refuse); why says what could not be read.
func (j *judge) archiveMembers(a arg) (members []string, why string) {
	if a.s == "" || a.s == "-" {
		return nil, "an archive read from stdin"
	}
	p, ok := j.abs(a.s)
	if a.dyn || !ok {
		return nil, "an archive named only at run time"
	}
	if j.written[p] != nil || j.fetched[p] {
		return nil, "an archive this command writes first"
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, "an archive that does not exist yet (" + a.s + ")"
	}
	if fi.Size() > maxArchiveBytes {
		return nil, "an archive too large to list (" + a.s + ")"
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, "an archive tollgate cannot open (" + a.s + ")"
	}
	defer f.Close()
	names, err := listArchive(f, fi.Size())
	if err != nil {
		return nil, "an archive tollgate cannot list (" + a.s + ": " + err.Error() + ")"
	}
	for _, n := range names {
		n = filepath.Clean("/" + filepath.ToSlash(n))[1:]
		if n != "" && !strings.HasPrefix(n, "..") {
			members = append(members, n)
		}
	}
	return members, ""
}

// listArchive reads the member names of a zip, or of a tar plain, gzip'd or bzip2'd.
func listArchive(f *os.File, size int64) ([]string, error) {
	br := bufio.NewReader(f)
	magic, _ := br.Peek(4)
	switch {
	case len(magic) >= 4 && string(magic[:4]) == "PK\x03\x04":
		zr, err := zip.NewReader(f, size)
		if err != nil {
			return nil, err
		}
		if len(zr.File) > maxArchiveMembers {
			return nil, errTooMany
		}
		names := make([]string, 0, len(zr.File))
		for _, m := range zr.File {
			names = append(names, m.Name)
		}
		return names, nil
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		return tarNames(gz)
	case len(magic) >= 3 && string(magic[:3]) == "BZh":
		return tarNames(bzip2.NewReader(br))
	}
	return tarNames(br)
}

func tarNames(r io.Reader) ([]string, error) {
	tr := tar.NewReader(io.LimitReader(r, 4*maxArchiveBytes))
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names, nil
		}
		if err != nil {
			return nil, err
		}
		if len(names) >= maxArchiveMembers {
			return nil, errTooMany
		}
		names = append(names, h.Name)
	}
}

var errTooMany = errors.New("too many members")
