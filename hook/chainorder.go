package hook

// ReviewFirst reports whether tollgate's review runs before the hook that install kept
// (hook.tollgate-chained), which then runs only when the review passed. So it is for the hooks
// that guard data leaving: a kept pre-push hook may send it (git-lfs's uploads the LFS objects
// of the push), and a kept pre-receive hook may act on what it receives. Before a commit the
// kept hook runs first, as it may change what the review must see (a formatter that stages
// its changes).
func ReviewFirst(hook string) bool {
	return hook == "pre-push" || hook == "pre-receive"
}

// chainedOrder says when a kept hook runs, for install's message.
func chainedOrder(hook string) string {
	if ReviewFirst(hook) {
		return "runs after tollgate's review, only if it passed"
	}
	return "runs first"
}
