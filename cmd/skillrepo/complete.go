package main

// Shell completion (`skillrepo completion bash|zsh|fish|powershell`, then
// cobra's hidden __complete command at each TAB). Completions are attached
// to every command by what its usage line and flags say, not by a list of
// commands, so a command added tomorrow completes too:
//   - a positional <name> or <umbrella> completes skill names, <id> under
//     `proposal` proposal ids, <run-id> curator runs, <category>
//     categories; <file>, <path>, <transcript> and <dir> complete files;
//   - --category and --absorbed-into complete from the library, --profile
//     from lint's profiles, --origin from the origins a commit may carry,
//     --state and --target from their fixed values;
//   - any other flag whose usage lists its values ("xml, markdown, hermes
//     or json", or {a|b} in the usage line) completes those values.
// A library that cannot be opened completes nothing, silently: completion
// must never print an error into the user's command line.

import (
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/lint"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// finishCommandTree applies the rules every command shares; run calls it
// once the whole tree is built. The shell completions are registered only
// for a completion request (cobra's hidden __complete command, which a
// global flag may precede): walking every command's flags to register them
// was 5 % of every other command's CPU.
func finishCommandTree(f *cmdutil.Factory, root *cobra.Command, args []string) {
	guardCommandGroups(root)
	typeUsageErrors(root)
	if slices.ContainsFunc(args, func(a string) bool { return a == cobra.ShellCompRequestCmd || a == cobra.ShellCompNoDescRequestCmd }) {
		registerCompletions(f, root)
	}
}

func registerCompletions(f *cmdutil.Factory, root *cobra.Command) {
	walkCommands(root, func(c *cobra.Command) {
		if c.ValidArgsFunction == nil && !c.HasSubCommands() {
			if kinds := positionalKinds(c.Use); len(kinds) > 0 {
				c.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
					kind := kinds[len(kinds)-1]
					if len(args) < len(kinds) {
						kind = kinds[len(args)]
					} else if !strings.HasSuffix(kind, "...") {
						return nil, cobra.ShellCompDirectiveNoFileComp
					}
					return completeKind(f, cmd, strings.TrimSuffix(kind, "..."), args)
				}
			}
		}
		c.Flags().VisitAll(func(fl *pflag.Flag) {
			if _, ok := c.GetFlagCompletionFunc(fl.Name); ok {
				return
			}
			if fn := flagCompletion(f, c, fl); fn != nil {
				_ = c.RegisterFlagCompletionFunc(fl.Name, fn)
			}
		})
	})
}

// positionalKinds reads the positional arguments of a usage line such as
// "approve {<id> | --all} [--by <who>]": placeholders that are not a
// flag's value. A repeated one ends in "...".
func positionalKinds(use string) []string {
	toks := strings.Fields(use)
	var kinds []string
	for i := 1; i < len(toks); i++ {
		t := strings.Trim(toks[i], "[]{}|")
		if !strings.HasPrefix(t, "<") {
			continue
		}
		prev := toks[i-1]
		if strings.HasPrefix(strings.Trim(prev, "[{"), "-") && !strings.HasSuffix(prev, "]") && !strings.HasSuffix(prev, "}") {
			continue // the value of the flag before it
		}
		kind := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(t, "..."), "<"), ">")
		if strings.HasSuffix(t, "...") {
			kind += "..."
		}
		kinds = append(kinds, kind)
	}
	return kinds
}

func completeKind(f *cmdutil.Factory, cmd *cobra.Command, kind string, args []string) ([]string, cobra.ShellCompDirective) {
	inSkill := cmd.Parent() != nil && cmd.Parent().Name() == "skill" && len(args) > 0
	switch kind {
	case "file", "path":
		if inSkill {
			// skill view NAME <file>: a file of that skill.
			return completeSkillFiles(f, args[0]), cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveDefault
	case "transcript":
		return nil, cobra.ShellCompDirectiveDefault
	case "dir":
		return nil, cobra.ShellCompDirectiveFilterDirs
	case "name", "umbrella":
		which := activeSkills
		switch cmd.Name() {
		case "restore":
			which = archivedSkills // only an archived skill can be restored
		case "log", "blame":
			which = allSkills // history outlives the archive
		}
		return completeSkills(f, which), cobra.ShellCompDirectiveNoFileComp
	case "category":
		return completeCategories(f), cobra.ShellCompDirectiveNoFileComp
	case "id":
		if cmd.Parent() != nil && cmd.Parent().Name() == "proposal" {
			return completeProposals(f), cobra.ShellCompDirectiveNoFileComp
		}
	case "run-id":
		return completeRunRefs(f), cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// listedValues finds "a, b or c" (after an optional "label: ") in a flag's
// usage text.
var listedValues = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|: )([a-z0-9][a-z0-9-]*(?:, [a-z0-9][a-z0-9-]*)*,? or [a-z0-9][a-z0-9-]*)`)
})

func flagCompletion(f *cmdutil.Factory, c *cobra.Command, fl *pflag.Flag) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	fixed := func(vals ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return vals, cobra.ShellCompDirectiveNoFileComp
		}
	}
	switch fl.Name {
	case "category":
		return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return completeCategories(f), cobra.ShellCompDirectiveNoFileComp
		}
	case "absorbed-into":
		return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return completeSkills(f, activeSkills), cobra.ShellCompDirectiveNoFileComp
		}
	case "file":
		if c.Parent() != nil && c.Parent().Name() == "skill" && strings.Contains(c.Use, "<name>") {
			// skill patch NAME --file <path>: a file of that skill.
			return func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
				if len(args) == 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return completeSkillFiles(f, args[0]), cobra.ShellCompDirectiveNoFileComp
			}
		}
	case "proposal":
		return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return completeProposals(f), cobra.ShellCompDirectiveNoFileComp
		}
	case "profile":
		var vals []string
		for _, p := range lint.Profiles() {
			vals = append(vals, string(p))
		}
		return fixed(vals...)
	case "origin":
		return fixed(skillrepo.OriginUser, skillrepo.OriginForeground, skillrepo.OriginBackgroundReview, skillrepo.OriginCurator, skillrepo.OriginImport)
	case "state":
		return fixed(usage.StateActive, usage.StateStale, usage.StateArchived)
	case "target":
		return fixed("memory", "user")
	}
	if vals := valuesFromUse(c.Use, fl.Name); len(vals) > 0 {
		return fixed(vals...)
	}
	if m := listedValues().FindStringSubmatch(fl.Usage); m != nil {
		s := strings.NewReplacer(", or ", ",", " or ", ",", ", ", ",").Replace(m[1])
		return fixed(strings.Split(s, ",")...)
	}
	return nil
}

// valuesFromUse finds "--name {a|b}", "--name <a|b>" or "--name a|b" in a
// usage line.
func valuesFromUse(use, name string) []string {
	toks := strings.Fields(use)
	for i := 0; i+1 < len(toks); i++ {
		if strings.Trim(toks[i], "[{") != "--"+name {
			continue
		}
		v := strings.Trim(toks[i+1], "[]{}<>")
		if strings.Contains(v, "|") {
			return strings.Split(v, "|")
		}
	}
	return nil
}

// completionLibrary opens the library for a completion: the persistent
// pre-run that resolves -C does not run for __complete.
func completionLibrary(f *cmdutil.Factory) *skillrepo.Library {
	if f.Dir == "" {
		f.Dir = f.Getenv("SKILLREPO_LIBRARY")
	}
	if f.Dir == "" {
		f.Dir = "."
	}
	lib, err := f.Library()
	if err != nil {
		return nil
	}
	return lib
}

// Which skills a name completes from.
const (
	activeSkills = iota
	archivedSkills
	allSkills
)

// completeSkills lists the names of the skills which selects.
func completeSkills(f *cmdutil.Factory, which int) []string {
	infos := completionSkillInfos(f)
	seen := map[string]bool{}
	var out []string
	for _, si := range infos {
		if which == activeSkills && si.Archived || which == archivedSkills && !si.Archived || seen[si.Name] {
			continue
		}
		seen[si.Name] = true
		out = append(out, si.Name)
	}
	sort.Strings(out)
	return out
}

// completeCategories lists the categories active skills live in.
func completeCategories(f *cmdutil.Factory) []string {
	seen := map[string]bool{}
	var out []string
	for _, si := range completionSkillInfos(f) {
		if si.Category != "" && !si.Archived && !seen[si.Category] {
			seen[si.Category] = true
			out = append(out, si.Category)
		}
	}
	sort.Strings(out)
	return out
}

func completionSkillInfos(f *cmdutil.Factory) []skillrepo.SkillInfo {
	lib := completionLibrary(f)
	if lib == nil {
		return nil
	}
	snap, err := lib.Snapshot("")
	if err != nil {
		return nil
	}
	infos, err := snap.Skills()
	if err != nil {
		return nil
	}
	return infos
}

// completeSkillFiles lists the files of skill name, relative to its
// folder (SKILL.md, references/api.md).
func completeSkillFiles(f *cmdutil.Factory, name string) []string {
	lib := completionLibrary(f)
	if lib == nil {
		return nil
	}
	snap, err := lib.Snapshot("")
	if err != nil {
		return nil
	}
	si, err := snap.FindSkill(name)
	if err != nil {
		return nil
	}
	files, err := snap.List(si.Dir)
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(files))
	for _, p := range files {
		out = append(out, strings.TrimPrefix(p, si.Dir+"/"))
	}
	return out
}

// completeRunRefs completes curator run ids from the runs that kept
// their pre-run tip.
func completeRunRefs(f *cmdutil.Factory) []string {
	return completeIDs(f, func(l *skillrepo.Library) ([]string, error) { return l.CuratorRuns().IDs() })
}

// completeProposals completes open proposal ids.
func completeProposals(f *cmdutil.Factory) []string {
	return completeIDs(f, func(l *skillrepo.Library) ([]string, error) { return l.Proposals().IDs() })
}

func completeIDs(f *cmdutil.Factory, list func(*skillrepo.Library) ([]string, error)) []string {
	lib := completionLibrary(f)
	if lib == nil {
		return nil
	}
	ids, err := list(lib)
	if err != nil {
		return nil
	}
	return ids
}

// newCompletionCmd prints a shell's completion script. Cobra writes the
// scripts; bash's is preceded by stand-ins for the two helpers it borrows
// from the bash-completion package, so it works in a bash without that
// package (a minimal Debian) instead of failing at every TAB.
func newCompletionCmd(root *cobra.Command) *cobra.Command {
	var noDesc bool
	cmd := &cobra.Command{
		Use:   "completion {bash|zsh|fish|powershell} [--no-descriptions]",
		Short: "Print the shell completion script",
		Long: `Print the completion script of a shell. Load it in the current shell, or
install it for every new one:

  bash:        source <(skillrepo completion bash)
               (or save it to ~/.local/share/bash-completion/completions/skillrepo;
               works with and without the bash-completion package)
  zsh:         skillrepo completion zsh > "${fpath[1]}/_skillrepo"
               (needs 'autoload -U compinit; compinit' in ~/.zshrc)
  fish:        skillrepo completion fish > ~/.config/fish/completions/skillrepo.fish
  powershell:  skillrepo completion powershell | Out-String | Invoke-Expression

Completion offers commands, flags and their values, skill names (only
archived skills after 'skill restore'), a skill's own files after 'skill view
NAME', categories, proposal ids and curator runs.`,
		ValidArgs: []string{"bash", "zsh", "fish", "powershell"},
		Args:      cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			w := cmd.OutOrStdout()
			switch args[0] {
			case "bash":
				if _, err := io.WriteString(w, bashCompletionShim); err != nil {
					return err
				}
				return root.GenBashCompletionV2(w, !noDesc)
			case "zsh":
				if noDesc {
					return root.GenZshCompletionNoDesc(w)
				}
				return root.GenZshCompletion(w)
			case "fish":
				return root.GenFishCompletion(w, !noDesc)
			}
			if noDesc {
				return root.GenPowerShellCompletion(w)
			}
			return root.GenPowerShellCompletionWithDesc(w)
		},
	}
	cmd.Flags().BoolVar(&noDesc, "no-descriptions", false, "leave out the descriptions of completions")
	return cmd
}

// bashCompletionShim defines, when the bash-completion package has not,
// the two of its functions cobra's bash script calls:
// _get_comp_words_by_ref (the word being completed, the one before, all
// of them, the index) and _filedir (file and folder names).
const bashCompletionShim = `# Stand-ins for the bash-completion package's helpers, defined only when
# it is not installed, so completion works in a plain bash too.
if ! declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
_get_comp_words_by_ref() {
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
}
fi
if ! declare -F _filedir >/dev/null 2>&1; then
_filedir() {
    local IFS=$'\n'
    if [[ $1 == -d ]]; then
        COMPREPLY+=($(compgen -d -- "$cur"))
    else
        COMPREPLY+=($(compgen -f -- "$cur"))
    fi
}
fi

`
