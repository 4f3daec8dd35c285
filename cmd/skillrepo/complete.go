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
	"regexp"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/skillrepo/skillrepo/lint"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// finishCommandTree applies the rules every command shares; run calls it
// once the whole tree is built.
func finishCommandTree(f *factory, root *cobra.Command) {
	guardCommandGroups(root)
	registerCompletions(f, root)
}

func registerCompletions(f *factory, root *cobra.Command) {
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

func completeKind(f *factory, cmd *cobra.Command, kind string, args []string) ([]string, cobra.ShellCompDirective) {
	switch kind {
	case "file", "path", "transcript":
		return nil, cobra.ShellCompDirectiveDefault
	case "dir":
		return nil, cobra.ShellCompDirectiveFilterDirs
	case "name", "umbrella":
		return completeSkills(f, false), cobra.ShellCompDirectiveNoFileComp
	case "category":
		return completeSkills(f, true), cobra.ShellCompDirectiveNoFileComp
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
var listedValues = regexp.MustCompile(`(?:^|: )([a-z0-9][a-z0-9-]*(?:, [a-z0-9][a-z0-9-]*)*,? or [a-z0-9][a-z0-9-]*)`)

func flagCompletion(f *factory, c *cobra.Command, fl *pflag.Flag) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	fixed := func(vals ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return vals, cobra.ShellCompDirectiveNoFileComp
		}
	}
	switch fl.Name {
	case "category":
		return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return completeSkills(f, true), cobra.ShellCompDirectiveNoFileComp
		}
	case "absorbed-into":
		return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return completeSkills(f, false), cobra.ShellCompDirectiveNoFileComp
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
		return fixed(skillrepo.StateActive, skillrepo.StateStale, skillrepo.StateArchived)
	case "target":
		return fixed("memory", "user")
	}
	if vals := valuesFromUse(c.Use, fl.Name); len(vals) > 0 {
		return fixed(vals...)
	}
	if m := listedValues.FindStringSubmatch(fl.Usage); m != nil {
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
func completionLibrary(f *factory) *skillrepo.Library {
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

// completeSkills lists skill names (archived ones too: restore takes them),
// or the categories they live in.
func completeSkills(f *factory, categories bool) []string {
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
	seen := map[string]bool{}
	var out []string
	for _, si := range infos {
		v := si.Name
		if categories {
			v = si.Category
		}
		if v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

// completeRunRefs completes curator run ids from the runs that kept
// their pre-run tip.
func completeRunRefs(f *factory) []string {
	return completeIDs(f, (*skillrepo.Library).CuratorRunIDs)
}

// completeProposals completes open proposal ids.
func completeProposals(f *factory) []string {
	return completeIDs(f, (*skillrepo.Library).ProposalIDs)
}

func completeIDs(f *factory, list func(*skillrepo.Library) ([]string, error)) []string {
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
