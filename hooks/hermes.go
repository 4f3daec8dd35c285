package hooks

// Hermes Agent's shell hooks live in ~/.hermes/config.yaml, under hooks:
// event -> list of {matcher, command, timeout}. Hermes runs a command
// without a shell (shlex.split after expanding ~), gives it the event as
// JSON on standard input, and runs it only once the user consented to
// that (event, command) pair (docs/hermes.md §6).

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hermes"
	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// HermesHandler is one entry skillrepo installs under hooks:.
type HermesHandler struct {
	Event   string
	Matcher string // a regular expression the tool name must match whole
	Timeout int    // seconds (Hermes' default is 60, its maximum 300)
}

// HermesHandlers are the entries skillrepo installs: session start records
// what changed outside a session (sync), each turn's first model call says
// whether the turn is Hermes' background review (its harness prompt), a
// skill_manage or memory call becomes a commit with its session and
// origin, and the session's end exports its transcript for review.
func HermesHandlers() []HermesHandler {
	return []HermesHandler{
		{Event: agent.HermesSessionStart, Timeout: 60},
		{Event: agent.HermesPreLLMCall, Timeout: 10},
		{Event: agent.HermesPostToolCall, Matcher: "skill_manage|memory", Timeout: 60},
		{Event: agent.HermesSessionFinalize, Timeout: 30},
	}
}

// HermesCommand is the command Hermes runs for an event: the executable
// and the library, quoted for shlex.
func HermesCommand(executable, event, library string) string {
	return hermes.Quote(executable) + " hooks run " + string(agent.Hermes) + " " + event + " --library " + hermes.Quote(library)
}

// isOurHermesCommand reports whether a command is one of skillrepo's.
func isOurHermesCommand(command string) bool {
	words, err := hermes.Split(command)
	if err != nil {
		return false
	}
	for i := 0; i+2 < len(words); i++ {
		if words[i] == "hooks" && words[i+1] == "run" && words[i+2] == string(agent.Hermes) {
			return true
		}
	}
	return false
}

// HermesOptions say what a Hermes install or uninstall writes.
type HermesOptions struct {
	// Home is the Hermes home (~/.hermes, or HERMES_HOME).
	Home string
	// Executable is the skillrepo the hooks run; Library the skills folder
	// they serve.
	Executable, Library string
	// Accept records the user's consent in Hermes' allowlist, as
	// Hermes' own prompt would (the person running the install asks).
	Accept bool
	// Now stamps an approval.
	Now    func() time.Time
	DryRun bool
}

// HermesResult says what an install or uninstall did.
type HermesResult struct {
	Path      string
	Unchanged bool
	// Content is the resulting config.yaml (DryRun prints it).
	Content []byte
	// Commands are the installed commands by event.
	Commands map[string]string
	// Accepted says the consent was recorded.
	Accepted bool
}

// maxConfig bounds the config read: a few kilobytes.
const maxConfig = 4 << 20

// InstallHermes merges skillrepo's shell hooks into Hermes' config.yaml:
// an entry of skillrepo's per event (an older one of ours replaced), every
// other key, hook and comment kept; installing twice changes nothing. A
// config.yaml that is not a YAML mapping, or whose hooks: is not one of
// lists, is refused and nothing is written.
func InstallHermes(opts HermesOptions) (*HermesResult, error) {
	res, doc, err := readHermesConfig(opts.Home)
	if err != nil {
		return nil, err
	}
	res.Commands = map[string]string{}
	hooksNode, err := hooksMapping(doc, true)
	if err != nil {
		return nil, err
	}
	for _, h := range HermesHandlers() {
		cmd := HermesCommand(opts.Executable, h.Event, opts.Library)
		res.Commands[h.Event] = cmd
		list, err := eventList(hooksNode, h.Event, true)
		if err != nil {
			return nil, err
		}
		kept := list.Content[:0:0]
		have := false
		for _, item := range list.Content {
			c := mapValue(item, "command")
			switch {
			case c == cmd && !have && mapValue(item, "matcher") == h.Matcher:
				have = true
				kept = append(kept, item)
			case isOurHermesCommand(c):
				// an older entry of ours: replaced
			default:
				kept = append(kept, item)
			}
		}
		if !have {
			kept = append(kept, handlerNode(h, cmd))
		}
		list.Content = kept
	}
	if err := finishHermes(res, doc, opts.DryRun); err != nil {
		return nil, err
	}
	if opts.Accept && !opts.DryRun {
		var pairs [][2]string
		for _, h := range HermesHandlers() {
			pairs = append(pairs, [2]string{h.Event, res.Commands[h.Event]})
		}
		now := time.Now
		if opts.Now != nil {
			now = opts.Now
		}
		if err := hermes.Approve(opts.Home, filepath.Dir(opts.Home), now(), pairs); err != nil {
			return nil, err
		}
		res.Accepted = true
	}
	return res, nil
}

// UninstallHermes removes skillrepo's entries (and only those) from
// Hermes' config.yaml; an event left with no entry is removed, and hooks:
// too when it is left empty.
func UninstallHermes(opts HermesOptions) (*HermesResult, error) {
	res, doc, err := readHermesConfig(opts.Home)
	if err != nil {
		return nil, err
	}
	hooksNode, err := hooksMapping(doc, false)
	if err != nil || hooksNode == nil {
		res.Unchanged = true
		return res, err
	}
	for i := 0; i+1 < len(hooksNode.Content); {
		list := hooksNode.Content[i+1]
		if list.Kind == yaml.SequenceNode {
			kept := list.Content[:0:0]
			for _, item := range list.Content {
				if !isOurHermesCommand(mapValue(item, "command")) {
					kept = append(kept, item)
				}
			}
			if len(kept) == 0 && len(list.Content) > 0 {
				hooksNode.Content = append(hooksNode.Content[:i], hooksNode.Content[i+2:]...)
				continue
			}
			list.Content = kept
		}
		i += 2
	}
	if len(hooksNode.Content) == 0 {
		removeKey(doc.Content[0], "hooks")
	}
	return res, finishHermes(res, doc, opts.DryRun)
}

func readHermesConfig(home string) (*HermesResult, *yaml.Node, error) {
	path := filepath.Join(home, hermes.ConfigFile)
	res := &HermesResult{Path: path}
	data, err := boundedread.ReadFile(path, maxConfig)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	res.Content = data
	var doc yaml.Node
	if len(bytes.TrimSpace(data)) > 0 {
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return nil, nil, fmt.Errorf("%s: %v: %w", path, err, ErrMalformed)
		}
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("%s: not a YAML mapping of settings: %w", path, ErrMalformed)
	}
	return res, &doc, nil
}

// hooksMapping is hooks: of the document (added when create), which must
// be a mapping.
func hooksMapping(doc *yaml.Node, create bool) (*yaml.Node, error) {
	top := doc.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "hooks" {
			v := top.Content[i+1]
			if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
				*v = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			}
			if v.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("hooks: at line %d is not a mapping of event -> list of hooks: %w", v.Line, ErrMalformed)
			}
			return v, nil
		}
	}
	if !create {
		return nil, nil
	}
	v := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	top.Content = append(top.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "hooks"}, v)
	return v, nil
}

// eventList is hooks.<event>, a list (added when create).
func eventList(hooksNode *yaml.Node, event string, create bool) (*yaml.Node, error) {
	for i := 0; i+1 < len(hooksNode.Content); i += 2 {
		if hooksNode.Content[i].Value == event {
			v := hooksNode.Content[i+1]
			if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
				*v = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			}
			if v.Kind != yaml.SequenceNode {
				return nil, fmt.Errorf("hooks.%s at line %d is not a list of hooks: %w", event, v.Line, ErrMalformed)
			}
			return v, nil
		}
	}
	if !create {
		return nil, nil
	}
	v := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	hooksNode.Content = append(hooksNode.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: event}, v)
	return v, nil
}

func handlerNode(h HermesHandler, cmd string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	add := func(k, v, tag string) {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v})
	}
	if h.Matcher != "" {
		add("matcher", h.Matcher, "!!str")
	}
	add("command", cmd, "!!str")
	add("timeout", fmt.Sprint(h.Timeout), "!!int")
	return n
}

func mapValue(n *yaml.Node, key string) string {
	if n == nil || n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1].Value
		}
	}
	return ""
}

func removeKey(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

// finishHermes encodes the document and, when it changed, writes it in
// place of the old file (same mode, atomic).
func finishHermes(res *HermesResult, doc *yaml.Node, dryRun bool) error {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	out := b.Bytes()
	if len(doc.Content[0].Content) == 0 {
		out = nil
	}
	if bytes.Equal(out, res.Content) || (len(res.Content) > 0 && bytes.Equal(out, normalizedYAML(res.Content))) {
		res.Unchanged = true
		return nil
	}
	res.Content = out
	if dryRun {
		return nil
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(res.Path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(res.Path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(res.Path, out, mode, false)
}

// normalizedYAML is data as the encoder writes it, to tell an edit from a
// reformatting: a file nothing changed is not rewritten.
func normalizedYAML(data []byte) []byte {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if enc.Encode(&doc) != nil || enc.Close() != nil {
		return nil
	}
	return b.Bytes()
}

// HermesHook is one of skillrepo's entries as Hermes will treat it.
type HermesHook struct {
	Event   string         `json:"event"`
	Command string         `json:"command"`
	Consent hermes.Consent `json:"consent"`
}

// HermesStatus lists skillrepo's entries in Hermes' config.yaml and
// whether Hermes will run each: the user consented (allowlist), consents
// automatically (hooks_auto_accept, HERMES_ACCEPT_HOOKS), or will ask —
// a run without a terminal then skips the hook.
func HermesStatus(home string, getenv func(string) string) ([]HermesHook, error) {
	cfg, err := hermes.ReadConfig(home)
	if err != nil {
		return nil, err
	}
	var out []HermesHook
	for _, h := range HermesHandlers() {
		for _, spec := range cfg.Hooks[h.Event] {
			if isOurHermesCommand(spec.Command) {
				out = append(out, HermesHook{Event: h.Event, Command: spec.Command, Consent: hermes.ConsentFor(home, cfg, getenv, h.Event, strings.TrimSpace(spec.Command))})
			}
		}
	}
	return out, nil
}
