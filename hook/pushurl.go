package hook

import (
	"context"
	"fmt"
	"strings"
)

// pushDest returns the URL that `git ls-remote` must ask what the remote of a push already has:
// the URL git pushes to. That is url, git's second pre-push argument (git has applied
// remote.<name>.pushurl and url.<base>.pushInsteadOf to it already), or, when git gave none,
// `git remote get-url --push remote`. git rewrites any URL it fetches from, ls-remote included,
// with url.<base>.insteadOf: when that would send the question to another URL (a read
// mirror, say, which may have a branch the push target lacks), the push URL cannot be asked,
// and why says so (dest is then ""); the caller then reviews against what this repository
// knows only (more, never less), or fails closed.
func (r *Repo) pushDest(ctx context.Context, remote, url string) (dest, why string) {
	dest = url
	if dest == "" && remote != "" {
		dest = r.remotePushURL(ctx, remote)
	}
	if dest == "" {
		return "", "no remote was named, so what it already has is unknown"
	}
	if strings.ContainsAny(dest, "\n\x00") {
		return "", "the push URL holds a newline, so it cannot be asked what it has"
	}
	var (
		lsRemote = "ls-remote"
		getURL   = "--get-url"
		end      = "--end-of-options"
	)
	asked, err := r.Git.output(ctx, lsRemote, getURL, end, dest)
	if err != nil {
		return "", fmt.Sprintf("could not tell which URL git would ask for %s (%v)", displayURL(dest), err)
	}
	if asked != dest {
		return "", fmt.Sprintf("the push goes to %s, but url.<base>.insteadOf makes git ask %s what it has (a mirror need not have what the push target has), so the push URL cannot be asked", displayURL(dest), displayURL(asked))
	}
	return dest, ""
}

// remotePushURL returns the URL git pushes to for a configured remote (pushurl and
// pushInsteadOf applied), or remote itself when it is not a configured remote's name (a URL or
// path pushed to directly).
func (r *Repo) remotePushURL(ctx context.Context, remote string) string {
	var (
		remoteCmd = "remote"
		getURL    = "get-url"
		push      = "--push"
		sep       = "--"
	)
	out, err := r.Git.output(ctx, remoteCmd, getURL, push, sep, remote)
	if err != nil || out == "" || strings.Contains(out, "\n") {
		return remote
	}
	return out
}

// displayURL is a URL fit for a report: any user name and password in it are masked.
func displayURL(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	host := rest
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		host = rest[:i]
	}
	at := strings.LastIndexByte(host, '@')
	if at < 0 {
		return u
	}
	return scheme + "://***@" + rest[at+1:]
}
