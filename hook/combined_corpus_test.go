package hook

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestCombinedUnitsCorpus holds the units read from combined diffs to those the listings
// against each parent give, on every merge of the repositories TOLLGATE_MERGE_CORPUS names
// (space-separated; e.g. clones of pallets/flask and spf13/cobra), and reports how many merges
// are read the old way instead. Skipped without it.
func TestCombinedUnitsCorpus(t *testing.T) {
	repos := strings.Fields(os.Getenv("TOLLGATE_MERGE_CORPUS"))
	if len(repos) == 0 {
		t.Skip("TOLLGATE_MERGE_CORPUS not set")
	}
	ctx := context.Background()
	for _, dir := range repos {
		r, merges := repoMerges(t, dir)
		g, _ := r.treeGit()
		want, err := r.listedMergeUnits(ctx, g, merges)
		if err != nil {
			t.Fatal(err)
		}
		got, rest, err := r.combinedUnits(ctx, g, merges)
		if err != nil {
			t.Fatal(err)
		}
		fallback := map[int]bool{}
		for _, i := range rest {
			fallback[i] = true
		}
		files, lines := 0, 0
		for i, c := range merges {
			if fallback[i] {
				continue
			}
			if !sameMergeOut(got[i], want[i]) {
				t.Errorf("%s: merge %s: combined %+v, listed %+v", dir, c.id, got[i], want[i])
				continue
			}
			for _, f := range got[i].u.Files {
				files++
				lines += f.AddedCount()
			}
		}
		all, err := r.mergeUnits(ctx, g, merges)
		if err != nil {
			t.Fatal(err)
		}
		for i := range merges {
			if !sameMergeOut(all[i], want[i]) {
				t.Errorf("%s: mergeUnits differs on merge %s", dir, merges[i].id)
			}
		}
		t.Logf("%s: %d merges, %d read from combined diffs (%d files, %d added lines of their own), %d the old way: %v",
			dir, len(merges), len(merges)-len(rest), files, lines, len(rest), restIDs(merges, rest))
		r.Close()
	}
}

func restIDs(merges []listedCommit, rest []int) []string {
	var ids []string
	for _, i := range rest {
		ids = append(ids, merges[i].id[:8])
	}
	return ids
}
