package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/tollgate-dev/tollgate/hook"
)

// maxSubmoduleDepth bounds how deep install and status follow submodules inside submodules.
const maxSubmoduleDepth = 8

// eachSubmodule calls fn for every submodule of repo, depth first, submodules of submodules
// included, with its path from repo's root.
func eachSubmodule(ctx context.Context, repo *hook.Repo, fn func(path string, sub hook.Submodule) error) error {
	var walk func(r *hook.Repo, prefix string, depth int) error
	walk = func(r *hook.Repo, prefix string, depth int) error {
		if depth >= maxSubmoduleDepth {
			return nil
		}
		subs, err := r.Submodules(ctx)
		if err != nil {
			return err
		}
		for _, sub := range subs {
			path := prefix + sub.Path
			if err := fn(path, sub); err != nil {
				return err
			}
			if sub.Repo != nil {
				if err := walk(sub.Repo, path+"/", depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(repo, "", 0)
}

// installSubmodules installs the same hooks into every initialised submodule (--recurse-
// submodules) and says which are not initialised; without the flag it only says that there
// are submodules and how to install into them.
func installSubmodules(ctx context.Context, w io.Writer, repo *hook.Repo, o hook.InstallOptions, recurse bool) error {
	var uninit []string
	n := 0
	err := eachSubmodule(ctx, repo, func(path string, sub hook.Submodule) error {
		n++
		if sub.Repo == nil {
			uninit = append(uninit, path)
			return nil
		}
		if !recurse {
			return nil
		}
		msgs, err := sub.Repo.Install(ctx, o)
		for _, m := range msgs {
			fmt.Fprintf(w, "tollgate: submodule %s: %s\n", path, m)
		}
		if err != nil && !printManaged(w, "submodule "+path+": ", err) {
			return fmt.Errorf("submodule %s: %w", path, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	switch {
	case n == 0:
	case !recurse:
		fmt.Fprintf(w, "tollgate: this repository has %d submodule(s); their own pushes and commits are reviewed only with hooks of their own: `tollgate install --recurse-submodules` installs them\n", n)
	case len(uninit) > 0:
		fmt.Fprintf(w, "tollgate: not installed in submodules not initialised here: %s (`git submodule update --init --recursive`, then install again)\n", strings.Join(uninit, ", "))
	}
	return nil
}

// printSubmoduleStatus lists the submodules that lack tollgate's hooks (hooks: the hooks the
// superproject has installed).
func printSubmoduleStatus(ctx context.Context, w io.Writer, repo *hook.Repo) {
	var want []string
	for _, h := range repo.HookStates() {
		if h.Installed {
			want = append(want, h.Name)
		}
	}
	var lines []string
	err := eachSubmodule(ctx, repo, func(path string, sub hook.Submodule) error {
		if sub.Repo == nil {
			lines = append(lines, fmt.Sprintf("  %s: not initialised here", path))
			return nil
		}
		installed := map[string]bool{}
		for _, h := range sub.Repo.HookStates() {
			installed[h.Name] = h.Installed
		}
		var missing []string
		for _, h := range want {
			if !installed[h] {
				missing = append(missing, h)
			}
		}
		state := "tollgate's hooks installed"
		if len(missing) > 0 {
			state = "LACKS tollgate's " + strings.Join(missing, ", ") + " (tollgate install --recurse-submodules)"
		}
		lines = append(lines, fmt.Sprintf("  %s: %s", path, state))
		return nil
	})
	if err != nil {
		lines = append(lines, "  could not list submodules: "+err.Error())
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(w, "submodules:")
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}
