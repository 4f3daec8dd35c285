package worker

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/remote"
)

// remoteBudget bounds the worker's sync with the shared remote after an
// entry: the wait for the clone's remote lock and the network.
const remoteBudget = 2 * time.Minute

// shareRemote runs after an entry that changed the library: with the
// remote: section on, a proposal the entry left is published (with its
// pull request) and main, when the entry landed on it, is sent out with a
// lease (docs/remote.md §3, §5). A failure is logged and kept for status;
// the entry's outcome stands (the next sync tries again).
func (w *worker) shareRemote(ctx context.Context, e queue.Entry, out *queue.Outcome) {
	if out == nil || (!out.Merged && out.Proposal == "" && !(e.Kind == queue.KindCurator && out.Status == "ran")) {
		return
	}
	lib, err := skillrepo.Open(w.opts.Dir, skillrepo.OpenOptions{Getenv: w.opts.Getenv, Now: w.opts.Now})
	if err != nil {
		w.logf(e.ID, "remote: %v", err)
		return
	}
	defer lib.Close()
	cfg := lib.Config.Remote
	publish := out.Proposal != "" && !out.Merged && cfg.Publishes()
	if !publish && !(cfg.Main.Pushes() && out.Merged) && !(e.Kind == queue.KindCurator && cfg.Enabled()) {
		return
	}
	var ids []string
	if publish {
		ids = append(ids, out.Proposal)
	}
	ctx, cancel := context.WithTimeout(ctx, remoteBudget)
	defer cancel()
	res, err := remote.New(lib).Sync(ctx, remote.SyncOptions{Publish: ids, Summary: out.Summary, LockWait: remoteBudget})
	if err != nil {
		w.logf(e.ID, "remote: %v", err)
		return
	}
	var parts []string
	if res.Main != remote.MainSkipped {
		parts = append(parts, "main "+res.Main)
	}
	if res.Proposal != "" {
		parts = append(parts, fmt.Sprintf("this clone's work became proposal %s (%s)", res.Proposal, res.Reason))
	}
	for _, p := range res.Published {
		s := "published " + p.ID
		if p.PullRequest != "" {
			s += " (" + p.PullRequest + ")"
		}
		parts = append(parts, s)
	}
	parts = append(parts, res.Notes...)
	if len(parts) > 0 {
		w.logf(e.ID, "remote %s: %s", res.Remote, strings.Join(parts, "; "))
	}
}
