package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// createdFile is the record, in Scope.State, of the agent config files install created and the
// directories it made for each: uninstall removes exactly those, and keeps a file the user had
// before install, even one left as {}.
const createdFile = "agent-files.json"

type created struct {
	// Files maps a config file install created to the directories it made for it, deepest
	// first.
	Files map[string][]string `json:"files"`
}

func loadCreated(dir string) (*created, error) {
	rec := &created{Files: map[string][]string{}}
	if dir == "" {
		return rec, nil
	}
	data, err := os.ReadFile(filepath.Join(dir, createdFile))
	if errors.Is(err, os.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", filepath.Join(dir, createdFile), err)
	}
	if err := json.Unmarshal(data, rec); err != nil {
		// a record tollgate cannot read claims nothing: uninstall then keeps every file
		return &created{Files: map[string][]string{}}, nil
	}
	if rec.Files == nil {
		rec.Files = map[string][]string{}
	}
	return rec, nil
}

func saveCreated(dir string, rec *created) error {
	if dir == "" {
		return nil
	}
	path := filepath.Join(dir, createdFile)
	if len(rec.Files) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("failed to remove %s: %w", path, err)
		}
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("failed to create %s: %w", dir, err)
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("failed to encode %s: %w", path, err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	return nil
}

// recordCreated notes that install created path, and the directories made for it.
func recordCreated(dir, path string, made []string) error {
	if dir == "" {
		return nil
	}
	rec, err := loadCreated(dir)
	if err != nil {
		return err
	}
	rec.Files[path] = made
	return saveCreated(dir, rec)
}

// removeMadeDirs removes the directories install made for path that are empty now (another
// file in them keeps them), deepest first.
func removeMadeDirs(rec *created, path string) {
	dirs := append([]string{}, rec.Files[path]...)
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	for _, d := range dirs {
		if others(rec, path, d) {
			continue
		}
		os.Remove(d) // fails, and keeps it, when not empty
	}
}

// others reports another recorded file that install made dir for too.
func others(rec *created, path, dir string) bool {
	for p, dirs := range rec.Files {
		if p == path {
			continue
		}
		for _, d := range dirs {
			if d == dir {
				return true
			}
		}
	}
	return false
}
