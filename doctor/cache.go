package doctor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/mcpserver"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// The set-up checks run every installed command as its agent would, which
// takes seconds with four agents set up; `status` shows their findings on
// every call. Cached runs them again only when what they read has changed
// (docs/agents.md, "status"): the key is a hash of the environment, the project, the
// agents' folders, and the size, modification time and identity of every
// file they read or that could bring a new installation (settings files at
// every scope, MCP entries, plugin records, the trust record, the files
// the last findings name, the binaries the installed commands name, the
// folders of PATH and those files' folders). What no file says — a model
// endpoint that stopped answering, a library a hook names by --library
// whose settings changed — is re-checked at the latest after CacheTTL.

// CacheTTL bounds how long cached findings are shown without a new run.
const CacheTTL = 10 * time.Minute

// cacheVersion is the cache file's schema version.
const cacheVersion = 1

// cacheLimit bounds a read of the cache file.
const cacheLimit = 4 << 20

type cachedReport struct {
	Version int       `json:"version"`
	Key     string    `json:"key"`
	At      time.Time `json:"at"`
	Report  *Report   `json:"report"`
	// Files are the findings' paths and commands the key also covers
	// (known only after a run).
	Files []string `json:"files"`
}

// Cached is Run, answered from the cache file at path when the checks'
// inputs are unchanged and it is younger than CacheTTL; otherwise it runs
// the checks and replaces the file. A cache that cannot be read or
// written only costs the run. extra names files the caller's checks also
// depend on (the library's settings).
func Cached(ctx context.Context, env *Env, path string, extra ...string) *Report {
	f := statefile.File[cachedReport]{Path: path, Limit: cacheLimit, Version: cacheVersion, Perm: 0o600}
	now := time.Now()
	if env.Now != nil {
		now = env.Now()
	}
	if c, err := f.Read(); err == nil && c.Version == cacheVersion && c.Report != nil {
		age := now.Sub(c.At)
		if age >= 0 && age < CacheTTL && c.Key == cacheKey(env, append(slices.Clone(extra), c.Files...)) {
			return c.Report
		}
	} else if _, ok := err.(*statefile.CorruptError); ok {
		os.Remove(path) // never trusted; the write below replaces it
	}
	before := cacheKey(env, extra)
	rep := Run(ctx, env)
	if cacheKey(env, extra) != before {
		return rep // a file changed while the checks ran: which did they see?
	}
	files := reportFiles(rep)
	_ = f.Write(cachedReport{Version: cacheVersion, Key: cacheKey(env, append(slices.Clone(extra), files...)), At: now, Report: rep, Files: files})
	return rep
}

// reportFiles are the files and commands a report's findings name.
func reportFiles(rep *Report) []string {
	var out []string
	for _, fd := range rep.Findings {
		if fd.Path != "" {
			out = append(out, fd.Path)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// cacheKey hashes what the checks of env read, with the files extra.
func cacheKey(env *Env, extra []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "project %q\nscope %q\nagents %q\ntrust %v\n", env.Project, env.Scope, env.Agents, env.Trust)
	fmt.Fprintf(h, "homes %q %q %q %q %q\n", env.Homes.Home, env.Homes.ClaudeConfig, env.Homes.CodexHome, env.Homes.GeminiDir, env.Homes.HermesHome)
	// The installed commands run with this process's environment
	// (agentEnviron), so any variable may change what they answer.
	environ := slices.Clone(os.Environ())
	slices.Sort(environ)
	for _, kv := range environ {
		fmt.Fprintf(h, "env %q\n", kv)
	}
	files := slices.Clone(extra)
	if exe, err := os.Executable(); err == nil {
		files = append(files, exe)
	}
	files = append(files, hooks.TrustFile(env.Homes))
	for _, c := range env.Checkers {
		files = append(files, checkerFiles(env, c)...)
	}
	dirs := []string{env.Homes.Home, env.Homes.ClaudeConfig, env.Homes.CodexHome, env.Homes.GeminiDir, env.Homes.HermesHome, env.Project}
	for _, d := range filepath.SplitList(env.getenv("PATH")) {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	for _, p := range files {
		dirs = append(dirs, filepath.Dir(p))
	}
	slices.Sort(files)
	slices.Sort(dirs)
	for _, p := range slices.Compact(files) {
		statLine(h, p)
	}
	for _, d := range slices.Compact(dirs) {
		statLine(h, d)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// checkerFiles are the files an agent's checks read: its settings file at
// every scope, its MCP entry's file, the settings of the library it uses
// by default, the programs its installed commands start (a bare name as
// PATH finds it).
func checkerFiles(env *Env, c Checker) []string {
	var out []string
	scopes := []agent.Scope{agent.ScopeUser, agent.ScopeProject, agent.ScopeLocal}
	t, ok := c.(hooks.Target)
	for _, s := range scopes {
		if p, err := mcpserver.ConfigPath(mcpOptions(env, c.Name(), string(s))); err == nil {
			out = append(out, p)
		}
		if !ok {
			continue
		}
		if lib := t.DefaultLibrary(s, env.Homes, env.Project); lib != "" {
			out = append(out, filepath.Join(lib, filepath.FromSlash(config.Path)))
		}
		in := hooks.Inspect(t, s, env.Homes, env.Project)
		if in.Settings == "" {
			continue
		}
		out = append(out, in.Settings)
		for _, hd := range in.Handlers {
			out = append(out, commandProgram(hd.Command))
		}
	}
	return slices.DeleteFunc(out, func(s string) bool { return s == "" })
}

// commandProgram is the program a shell command starts (its first word,
// a bare name looked up on PATH), "" when there is none.
func commandProgram(cmd string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(cmd), " ")
	first = strings.Trim(first, `'"`)
	if first == "" {
		return ""
	}
	if !strings.Contains(first, "/") {
		if p, err := exec.LookPath(first); err == nil {
			return p
		}
		return ""
	}
	return first
}

// statLine writes what a file's stat says of it: absent, or its size,
// modification time and mode.
func statLine(h hash.Hash, p string) {
	fi, err := os.Stat(p)
	if err != nil {
		fmt.Fprintf(h, "file %q absent\n", p)
		return
	}
	fmt.Fprintf(h, "file %q %d %d %v\n", p, fi.Size(), fi.ModTime().UnixNano(), fi.Mode())
}
