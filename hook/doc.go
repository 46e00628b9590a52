// Package hook is tollgate's side of git: the one runner for git commands, the selection of
// what a review looks at (staged set, commit, range — ROOT..B from the first commit —, push,
// every file at HEAD or in the index), and the hook shims with install,
// uninstall and status.
//
// Rules and guarantees:
//   - Every git call goes through Git.runTo (Git.run returns its output), with argv in named
//     variables and hardened flags: no colour, no pager, no external diff or textconv, fixed
//     a/ b/ prefixes, unquoted paths, -z wherever names are parsed, and an environment without
//     pagers or external diff programs. A user's git config can never change what is parsed.
//   - git never holds the lines of a large file: above core.bigFileThreshold (1 MiB, set on
//     every call) git shows a file's diff as binary, and the file is read again as text, a new
//     one from its blob streamed into a string of its exact size (no second copy), any other
//     with `--text`; the result is the hunk git's text diff would give.
//   - A merge in a range or push is reviewed for what it adds against every parent (an evil
//     merge); what it brings from a branch is reviewed at the branch's commits. Only the files
//     that differ from every parent are diffed with their lines: in git's combined diff
//     (`diff-tree -c`, after its listing names them and their blobs' sizes are checked), or,
//     for a merge whose combined diff could say otherwise (a file added or deleted against a
//     parent, which rename detection may pair; a symlink, submodule or type change; a binary
//     file; a blob above core.bigFileThreshold), after its raw listings against each parent.
//   - Blobs are read through one long-lived `git cat-file --batch` process per Repo (started
//     on first use, ended by Repo.Close), never one process per blob.
//   - Reading a change never writes to the repository: no stash, no index refresh
//     (GIT_OPTIONAL_LOCKS=0), no checkout. Only install and uninstall write, and only in the
//     hooks directory git really uses.
//   - Reading a change never fetches: GIT_NO_LAZY_FETCH=1 keeps a partial clone from asking its
//     promisor remote, and a change with a missing object is listed in Repo.Unreadable (the
//     review is incomplete), never read as clean. A whole tree (All) with missing blobs is
//     reviewed file by file where it can be: each file whose blob is missing is listed, the
//     others are read.
//   - The staged set is read through git plumbing that honours GIT_INDEX_FILE, so
//     `git commit -- path` and `git commit -a` are reviewed at what they will commit, and
//     always at the staged blobs: the index is diffed with an empty directory as the work tree,
//     so git never substitutes a work-tree file that merely looks unchanged.
//   - A push is reviewed against what the remote really has: the remote ids git hands the
//     pre-push hook and, where a ref is new there, `git ls-remote` (the one network call a
//     review makes, to the URL git pushes to); never the local remote-tracking refs. Only
//     commits this repository holds serve as exclusions; when the remote cannot be asked (or
//     url.<base>.insteadOf would send ls-remote to another URL than the push's) the review
//     covers more, never less. A ref on a blob or a tree is reviewed by its content.
//   - A Git LFS pointer (as git-lfs parses one) is reviewed at the object it names, read from
//     the LFS storage directory and checked against the pointer's sha256 and size; an object
//     that is absent, too large or not matching is listed in Repo.Unreadable, never clean.
//     git-lfs is never run.
//   - A push that moves a submodule's gitlink also brings the submodule's commits old..new,
//     each at its own content, read from the submodule's repository on this machine (listed
//     in Repo.Unreadable when it is not there); only a clean name and path under the common
//     git directory's modules or the work tree are opened.
//   - A push received by a (bare) repository is reviewed by its pre-receive hook from git's
//     `<old> <new> <ref>` lines, against every ref the repository already has; the pushed
//     objects are read from git's quarantine, whose directories git names in the hook's
//     environment and every git call inherits. A bare repository has no staged set (ErrBare).
//   - What leaves besides file content is part of the change (meta.go, message.go): each
//     commit's message, author and committer read from its raw object (one `git cat-file
//     --batch` for all commits of a range or push), each pushed ref's name and each pushed
//     annotated tag's message and tagger, as diff.Unit.Meta under names that say what they are
//     and never hold the text; the commit-msg hook's message with only what git will strip
//     left out (comments and the scissors cut, per commit.cleanup, core.commentChar and
//     whether an editor was used), read only from inside the work tree or git directory.
//   - install never writes where another hook manager regenerates hooks or into the work
//     tree: husky, lefthook, the pre-commit framework's hook and a hooks directory in the work
//     tree are detected (DetectManager) and the integration to add is returned instead.
//   - The shims never pass on their own errors, keep no temp files, and guard recursion per
//     repository, hook and remote. A kept (chained) hook runs before the review, except for
//     pre-push and pre-receive (ReviewFirst), where it runs only after the review passed.
package hook
