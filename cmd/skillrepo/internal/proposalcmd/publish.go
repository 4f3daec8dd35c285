package proposalcmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/remote"
)

// PublishOptions is what `proposal publish` was asked.
type PublishOptions struct {
	Factory     *cmdutil.Factory
	Ctx         context.Context
	ID          string
	DryRun      bool
	Summary     string
	PullRequest string
	// Host is --pull-request checked: "" for the library's setting.
	Host config.RemotePullRequest
}

// NewCmdPublish is `proposal publish`; runF, when not nil, runs instead of publishRun.
func NewCmdPublish(f *cmdutil.Factory, runF func(*PublishOptions) error) *cobra.Command {
	opts := &PublishOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "publish <id> [--pull-request off|gh|glab] [--dry-run]",
		Short: "Push a proposal's branch to the shared remote and open its pull request",
		Long: `Push proposals/<id> to the remote (remote.name, default origin) with a
lease: the remote's branch must be absent, or where this clone last saw it,
and contained in the proposal; it is never forced. A branch someone moved on
the host (a reviewer's commit) is left alone: exit 3, with how to bring it in.

When remote.pull_request (or --pull-request) names the host's program — gh
for GitHub, glab for GitLab — and it is installed and '<program> auth status'
passes, a pull request is opened: its title and body come from the proposal
(the summary, the skills touched, diff stats, the lint verdict, the
provenance trailers, and the 'skillrepo proposal approve' command). Publishing
again after new commits moves the branch; the pull request follows it.

Reviews and the curator publish their proposals by themselves when
remote.proposals is push; this command is for the rest (a --propose write).`,
		Example: `  skillrepo proposal publish p-20261130-0a1b2c
  skillrepo proposal publish p-20261130-0a1b2c --pull-request gh --summary "Pitfalls from today's CI failure"
  skillrepo proposal publish p-20261130-0a1b2c --dry-run --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch opts.PullRequest {
			case "":
			case "off", "gh", "glab":
				opts.Host = config.RemotePullRequest(opts.PullRequest)
			default:
				return cmdutil.UsageErrorf("--pull-request: want off, gh or glab, not %q", opts.PullRequest)
			}
			opts.ID, opts.Ctx = args[0], cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return publishRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "say what would be pushed, push nothing")
	cmd.Flags().StringVar(&opts.Summary, "summary", "", "the pull request's title and first paragraph (default: the proposal's commit subjects)")
	cmd.Flags().StringVar(&opts.PullRequest, "pull-request", "", "open a pull request with gh or glab, or not (off); default remote.pull_request")
	return cmd
}

func publishRun(opts *PublishOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	res, err := remote.New(lib).Publish(opts.Ctx, opts.ID, remote.PublishOptions{Summary: opts.Summary, PullRequest: opts.Host, DryRun: opts.DryRun})
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, cmdutil.NewPublishJSON(res))
	}
	cmdutil.ReportPublished(f, res)
	return nil
}
