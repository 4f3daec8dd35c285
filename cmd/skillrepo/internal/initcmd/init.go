// Package initcmd is `skillrepo init`, which turns a skills folder into a
// library in place: Options, NewCmdInit that only parses flags and
// arguments into it (handed a runF, a test checks the parse without a
// folder) and initRun (docs/architecture.md §6).
package initcmd

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// Options is what `init` was asked.
type Options struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	Dir     string
	Example bool
	DryRun  bool
	// Runtime is --runtime, parsed ("" when not given: detected from the
	// path).
	Runtime skill.Runtime
	OwnRepo bool
	Adopt   bool
}

// NewCmdInit is `init`; runF, when not nil, runs instead of initRun.
func NewCmdInit(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	var runtime string
	cmd := &cobra.Command{
		Use:   "init [<dir>] [--example | --dry-run]",
		Short: "Turn a skills folder into a library, in place",
		Long: `Turn an existing skills folder (flat <name>/SKILL.md or with categories
<category>/<name>/SKILL.md, e.g. ~/.claude/skills or ~/.hermes/skills) into a
skillrepo library in place. An existing git repository keeps its history;
nothing of yours is moved or rewritten. init writes .skillrepo/config.yaml,
adds the usage sidecar to .gitignore and records everything in one import
commit. Running it again changes nothing.

With --example, a small sample library is created first (the folder must be
new or empty), so you can try every command. With --dry-run, init says what
it would do (the repository, the branch, the files it would write, the
skills and files the import commit would record) and changes nothing.

The library's runtime (--runtime: hermes, claude-code, codex, gemini or
generic) decides which write rules apply and the default lint profile; by
default it is detected from the path: ~/.hermes/skills is hermes,
.claude/skills is claude-code, .gemini/skills is gemini, .agents/skills and
.codex/skills are codex (Gemini CLI reads .agents/skills too: say
--runtime gemini), anything else is generic. Only hermes refuses a new
skill's description over 60 characters and support files outside
references/, templates/, scripts/ and assets/; only gemini refuses a name
Gemini CLI would rename and a description on several lines, and warns of a
category folder, which its loader never reads.

A folder inside an existing git work tree (a project's .claude/skills, say)
becomes a library in that folder of the project's repository: init commits
the library's files under the folder to the project's current branch, makes
no new repository, and every clone of the project has the library with no
init. Commands then find the library by walking up from the current folder.
--own-repo makes the folder a git repository of its own instead.
See docs/project-libraries.md.

The skills init imports stay yours: a background review's change to one
waits as a proposal for your approval (skillrepo proposal list), and the
curator leaves them alone. --adopt hands every one of them to the agent in
one commit (Skill-Action: adopt), so reviews change them directly and the
curator ages them; on an existing library it adopts the skills still yours.
'skillrepo skill adopt NAME' hands over one, 'skill disown NAME' takes it
back.`,
		Example: `  skillrepo init ~/.hermes/skills --dry-run
  skillrepo init ~/.hermes/skills
  skillrepo init --example /tmp/demo-skills
  skillrepo init .claude/skills              # in a project: a folder of its repository
  skillrepo init ~/.claude/skills --adopt    # let the agent's reviews change your skills directly`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dir = f.Dir
			if len(args) == 1 {
				opts.Dir = args[0]
			}
			if runtime != "" {
				var err error
				if opts.Runtime, err = skill.ParseRuntime(runtime); err != nil {
					return cmdutil.UsageErrorf("--runtime: %v", err)
				}
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return initRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Example, "example", false, "create a sample library first")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "say what init would do; change nothing")
	cmd.Flags().StringVar(&runtime, "runtime", "", "the agent that reads the library: hermes, claude-code, codex, gemini or generic (default: detected from the path)")
	cmd.Flags().BoolVar(&opts.OwnRepo, "own-repo", false, "make the folder a git repository of its own, even inside a project's work tree")
	cmd.Flags().BoolVar(&opts.Adopt, "adopt", false, "hand every skill that is yours to the agent's reviews and curator (one adopt commit)")
	cmd.MarkFlagsMutuallyExclusive("example", "dry-run")
	_ = cmd.RegisterFlagCompletionFunc("runtime", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, r := range skill.Runtimes() {
			out = append(out, string(r))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

type initJSON struct {
	Root       string `json:"root"`
	Repository string `json:"repository"`
	Prefix     string `json:"prefix"`
	Branch     string `json:"branch"`
	Created    bool   `json:"created_repository"`
	// FolderCreated: the folder did not exist and init made it.
	FolderCreated bool     `json:"created_folder"`
	Already       bool     `json:"already_library"`
	Commit        string   `json:"commit,omitempty"`
	Files         int      `json:"files"`
	Skills        []string `json:"skills"`
	AgentSkills   []string `json:"agent_skills"`
	Writes        []string `json:"writes"`
	// Ignored are Hermes' housekeeping files and folders the library
	// ignores; Untracked those an earlier import committed, which init
	// stopped tracking (they stay on disk).
	Ignored   []string `json:"ignored"`
	Untracked []string `json:"untracked"`
	// Unreadable are imported skills whose SKILL.md does not parse.
	Unreadable []skillrepo.UnreadableSkill `json:"unreadable"`
	// HermesHome is the Hermes home whose repository versions the
	// library and its memory ("" for any other library).
	HermesHome string `json:"hermes_home,omitempty"`
	// Adopted are the skills --adopt handed to the agent.
	Adopted []string `json:"adopted"`
	DryRun  bool     `json:"dry_run"`
}

func initRun(opts *Options) error {
	f := opts.Factory
	res, err := skillrepo.Init(opts.Ctx, opts.Dir, skillrepo.InitOptions{
		OpenOptions: skillrepo.OpenOptions{Getenv: f.Getenv, Now: f.Now, Progress: f.LibraryProgress(), Warn: f.Warn},
		Example:     opts.Example,
		DryRun:      opts.DryRun,
		Runtime:     opts.Runtime,
		OwnRepo:     opts.OwnRepo,
	})
	if err != nil {
		return err
	}
	var adopted []string
	var adoptCommit skillrepo.Hash
	if opts.Adopt && !res.DryRun {
		if adopted, adoptCommit, err = adoptAll(opts.Ctx, f, res.Root); err != nil {
			return err
		}
	}
	skills := []string{}
	for _, s := range res.Skills {
		if !s.Archived {
			skills = append(skills, s.Dir)
		}
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, initJSON{Root: res.Root, Repository: res.RepoRoot, Prefix: res.Prefix, Branch: res.Branch, Created: res.Created, FolderCreated: res.FolderCreated, Already: res.Already,
			Commit: cmdutil.HashString(res.Commit), Files: res.Files, Skills: skills, AgentSkills: cmdutil.NonNil(res.AgentSkills),
			Writes: cmdutil.NonNil(res.Writes), Ignored: cmdutil.NonNil(res.Ignored), Untracked: cmdutil.NonNil(res.Untracked),
			Unreadable: cmdutil.NonNil(res.Unreadable), HermesHome: res.HermesHome, Adopted: cmdutil.NonNil(adopted), DryRun: res.DryRun})
	}
	w := f.IO.ErrOut
	if res.DryRun {
		return printInitPlan(f, res, skills, opts.Adopt)
	}
	if res.Already && !opts.Adopt {
		fmt.Fprintf(w, "%s is already a library on branch %s; nothing to do (%s)\n", res.Root, res.Branch, cmdutil.NounCount(len(skills), "skill"))
		return nil
	}
	if res.Already {
		printAdopted(f, adopted, adoptCommit, len(skills))
		return nil
	}
	if len(res.Untracked) > 0 {
		fmt.Fprintf(w, "%s stopped tracking Hermes' housekeeping (%s) as %s; the files stay on disk, ignored\n", f.IO.Green("✓"), cmdutil.NounCount(len(res.Untracked), "file"), cmdutil.Short(res.UntrackCommit))
	}
	if res.Commit.IsZero() {
		return nil
	}
	if res.FolderCreated {
		fmt.Fprintf(w, "created the folder %s (it did not exist)\n", res.Root)
	}
	if res.HermesHomeCreated {
		fmt.Fprintf(w, "initialised a git repository in the Hermes home %s: it versions skills/ and memories/ only (.gitignore)\n", res.HermesHome)
	} else if res.Created {
		fmt.Fprintf(w, "initialised a git repository in %s\n", res.Root)
	}
	if res.HermesHome != "" && !res.MemoryCommit.IsZero() {
		fmt.Fprintf(w, "%s recorded Hermes' memory where Hermes keeps it (memories/MEMORY.md, USER.md) as %s\n", f.IO.Green("✓"), cmdutil.Short(res.MemoryCommit))
	}
	if res.Prefix != "" && res.HermesHome == "" {
		fmt.Fprintf(w, "recorded the library in folder %s of the repository at %s (no new repository; --own-repo makes one)\n", res.Prefix, res.RepoRoot)
	}
	fmt.Fprintf(w, "%s imported %s (%s) on %s as %s\n", f.IO.Green("✓"), cmdutil.NounCount(len(skills), "skill"), cmdutil.NounCount(res.Files, "file"), res.Branch, cmdutil.Short(res.Commit))
	if len(res.AgentSkills) > 0 {
		fmt.Fprintf(w, "  %s the usage sidecar marks as agent-created stay curator-managed\n", cmdutil.NounCount(len(res.AgentSkills), "skill"))
	}
	if opts.Adopt {
		printAdopted(f, adopted, adoptCommit, len(skills))
	} else if yours := len(skills) - len(res.AgentSkills); yours > 0 {
		fmt.Fprintf(w, "  your %s stay yours: a review's change to one waits as a proposal for you; to let reviews change them directly: skillrepo skill adopt NAME (all: skillrepo init --adopt)\n", cmdutil.NounCount(yours, "skill"))
	}
	printIgnored(w, res.Ignored)
	warnUnreadable(f, res.Unreadable, "imported")
	return nil
}

// adoptAll hands every skill still the person's to the agent, in one
// commit on the library's main branch (init --adopt).
func adoptAll(ctx context.Context, f *cmdutil.Factory, root string) ([]string, skillrepo.Hash, error) {
	lib, err := skillrepo.Open(root, skillrepo.OpenOptions{Getenv: f.Getenv, Now: f.Now, Warn: f.Warn})
	if err != nil {
		return nil, skillrepo.Hash{}, err
	}
	defer lib.Close()
	pol, err := lib.Policy(skillrepo.Writer{})
	if err != nil {
		return nil, skillrepo.Hash{}, err
	}
	names, res, err := pol.AdoptAll(ctx, skillrepo.MetaOptions{Reason: "init --adopt"})
	if err != nil {
		return nil, skillrepo.Hash{}, fmt.Errorf("adopt: %w", err)
	}
	var commit skillrepo.Hash
	if res != nil && len(names) > 0 {
		commit = res.New
	}
	return names, commit, nil
}

// printAdopted says what init --adopt handed to the agent.
func printAdopted(f *cmdutil.Factory, adopted []string, commit skillrepo.Hash, total int) {
	w := f.IO.ErrOut
	if len(adopted) == 0 {
		fmt.Fprintf(w, "every one of the %s is the agent's already: nothing to adopt\n", cmdutil.NounCount(total, "skill"))
		return
	}
	fmt.Fprintf(w, "%s adopted %s as %s: the agent's reviews change them directly and the curator ages them (skillrepo skill disown NAME takes one back)\n", f.IO.Green("✓"), cmdutil.NounCount(len(adopted), "skill"), cmdutil.Short(commit))
}

// warnUnreadable names, on stderr, the skills whose SKILL.md does not
// parse: agents skip them, so they are as good as missing until fixed.
func warnUnreadable(f *cmdutil.Factory, bad []skillrepo.UnreadableSkill, verb string) {
	if len(bad) == 0 {
		return
	}
	f.Warn(fmt.Sprintf("%s %s whose SKILL.md does not parse (agents skip them):", verb, cmdutil.NounCount(len(bad), "skill")))
	for _, u := range bad {
		fmt.Fprintf(f.IO.ErrOut, "  %s: %s\n", u.Dir, u.Error)
	}
	fmt.Fprintln(f.IO.ErrOut, "hint: fix the frontmatter (a value holding \": \" needs quotes), then run 'skillrepo lint' to check")
}

// printIgnored says which of Hermes' own files the library ignores.
func printIgnored(w io.Writer, ignored []string) {
	if len(ignored) > 0 {
		fmt.Fprintf(w, "  ignoring Hermes' housekeeping (per-clone state, not skills): %s\n", strings.Join(ignored, ", "))
	}
}

// printInitPlan tells what init --dry-run found.
func printInitPlan(f *cmdutil.Factory, res *skillrepo.InitResult, skills []string, adopt bool) error {
	w := f.IO.Out
	fmt.Fprintf(w, "dry run: nothing was changed in %s\n", res.Root)
	if res.Already {
		fmt.Fprintf(w, "already a library on branch %s: init would do nothing (%s)\n", res.Branch, cmdutil.NounCount(len(skills), "skill"))
		return nil
	}
	if res.HermesHomeCreated {
		fmt.Fprintf(w, "would create a git repository in the Hermes home %s versioning skills/ and memories/ only (branch %s)\n", res.HermesHome, res.Branch)
	} else if res.Created {
		fmt.Fprintf(w, "would create a git repository (branch %s)\n", res.Branch)
	} else if res.Prefix != "" {
		fmt.Fprintf(w, "would record the library in folder %s of the repository at %s (branch %s)\n", res.Prefix, res.RepoRoot, res.Branch)
	} else {
		fmt.Fprintf(w, "would keep the git repository and its history (branch %s)\n", res.Branch)
	}
	for _, p := range res.Writes {
		fmt.Fprintf(w, "would write %s\n", p)
	}
	if len(res.Untracked) > 0 {
		fmt.Fprintf(w, "would stop tracking %s of Hermes' housekeeping in one commit (they stay on disk, ignored)\n", cmdutil.NounCount(len(res.Untracked), "file"))
	}
	fmt.Fprintf(w, "would commit %s with %s in one import commit\n", cmdutil.NounCount(res.Files, "file"), cmdutil.NounCount(len(skills), "skill"))
	for _, s := range skills {
		fmt.Fprintf(w, "  %s\n", s)
	}
	if len(res.AgentSkills) > 0 {
		fmt.Fprintf(w, "%s the usage sidecar marks as agent-created would stay curator-managed\n", cmdutil.NounCount(len(res.AgentSkills), "skill"))
	}
	if adopt {
		fmt.Fprintln(w, "would adopt every skill that is yours in one more commit (--adopt)")
	}
	printIgnored(w, res.Ignored)
	warnUnreadable(f, res.Unreadable, "would import")
	return nil
}
