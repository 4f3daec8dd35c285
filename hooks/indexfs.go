package hooks

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// IndexFS is git's index (the staged tree) as a read-only fs.FS. File
// content comes from the object store through one `git cat-file --batch`
// process, read on first use and cached. Symbolic links and submodules
// are left out: a hook checks files, and neither is one. Safe for
// concurrent use; Close stops the git process.
type IndexFS struct {
	g     git
	ctx   context.Context
	files map[string]string   // path → blob hash
	dirs  map[string][]string // folder → sorted child names

	mu    sync.Mutex
	cache map[string][]byte
	cat   *catFile
	err   error // a failed cat-file process stays failed
}

// OpenIndex reads the index of the repository whose top-level folder is
// top.
func OpenIndex(ctx context.Context, top string, env []string) (*IndexFS, error) {
	g := git{dir: top, env: env}
	out, err := g.output(ctx, "ls-files", "--stage", "-z")
	if err != nil {
		return nil, fmt.Errorf("read the index: %w", err)
	}
	x := &IndexFS{g: g, ctx: ctx, files: map[string]string{}, dirs: map[string][]string{}, cache: map[string][]byte{}}
	seen := map[string]bool{}
	for _, rec := range bytes.Split(out, []byte{0}) {
		// "<mode> <hash> <stage>\t<path>"
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 3 || f[2] != "0" || (f[0] != "100644" && f[0] != "100755") {
			continue
		}
		name := string(p)
		if !fs.ValidPath(name) {
			continue
		}
		x.files[name] = f[1]
		for child, dir := name, path.Dir(name); ; child, dir = dir, path.Dir(dir) {
			key := dir + "\x00" + path.Base(child)
			if seen[key] {
				break
			}
			seen[key] = true
			x.dirs[dir] = append(x.dirs[dir], path.Base(child))
			if dir == "." {
				break
			}
		}
	}
	for _, names := range x.dirs {
		sort.Strings(names)
	}
	if _, ok := x.dirs["."]; !ok {
		x.dirs["."] = nil
	}
	return x, nil
}

// Has reports whether the index holds file name.
func (x *IndexFS) Has(name string) bool { _, ok := x.files[name]; return ok }

// Files lists every file in the index, sorted.
func (x *IndexFS) Files() []string {
	out := make([]string, 0, len(x.files))
	for p := range x.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Close stops the cat-file process.
func (x *IndexFS) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.cat != nil {
		err := x.cat.close()
		x.cat = nil
		return err
	}
	return nil
}

// ReadFile returns a staged file's content.
func (x *IndexFS) ReadFile(name string) ([]byte, error) {
	hash, ok := x.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if b, ok := x.cache[name]; ok {
		return bytes.Clone(b), nil // callers may modify what they get
	}
	if x.err != nil {
		return nil, x.err
	}
	if x.cat == nil {
		c, err := startCatFile(x.ctx, x.g)
		if err != nil {
			x.err = err
			return nil, err
		}
		x.cat = c
	}
	b, err := x.cat.blob(hash)
	if err != nil {
		x.err = err
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	x.cache[name] = b
	return bytes.Clone(b), nil
}

// Stat describes a staged file or folder.
func (x *IndexFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	if _, ok := x.dirs[name]; ok {
		return info{name: path.Base(name), dir: true}, nil
	}
	if _, ok := x.files[name]; ok {
		b, err := x.ReadFile(name)
		if err != nil {
			return nil, err
		}
		return info{name: path.Base(name), size: int64(len(b))}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

// ReadDir lists a staged folder, sorted by name.
func (x *IndexFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	names, ok := x.dirs[name]
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	out := make([]fs.DirEntry, 0, len(names))
	for _, n := range names {
		p := path.Join(name, n)
		_, isDir := x.dirs[p]
		out = append(out, dirEntry{info{name: n, dir: isDir}, x, p})
	}
	return out, nil
}

// Open opens a staged file or folder.
func (x *IndexFS) Open(name string) (fs.File, error) {
	fi, err := x.Stat(name)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		entries, _ := x.ReadDir(name)
		return &dirFile{fi: fi, entries: entries}, nil
	}
	b, err := x.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return &file{fi: fi, r: bytes.NewReader(b)}, nil
}

type info struct {
	name string
	size int64
	dir  bool
}

func (i info) Name() string { return i.name }
func (i info) Size() int64  { return i.size }
func (i info) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return i.dir }
func (i info) Sys() any           { return nil }

type dirEntry struct {
	info
	x *IndexFS
	p string
}

func (d dirEntry) Type() fs.FileMode { return d.Mode().Type() }
func (d dirEntry) Info() (fs.FileInfo, error) {
	return d.x.Stat(d.p)
}

type file struct {
	fi fs.FileInfo
	r  *bytes.Reader
}

func (f *file) Stat() (fs.FileInfo, error) { return f.fi, nil }
func (f *file) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *file) Close() error               { return nil }

type dirFile struct {
	fi      fs.FileInfo
	entries []fs.DirEntry
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return d.fi, nil }
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.fi.Name(), Err: fs.ErrInvalid}
}
func (d *dirFile) Close() error { return nil }
func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if n <= 0 {
		e := d.entries
		d.entries = nil
		return e, nil
	}
	if len(d.entries) == 0 {
		return nil, io.EOF
	}
	if n > len(d.entries) {
		n = len(d.entries)
	}
	e := d.entries[:n]
	d.entries = d.entries[n:]
	return e, nil
}

// catFile is a running `git cat-file --batch`.
type catFile struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startCatFile(ctx context.Context, g git) (*catFile, error) {
	cmd := g.command(ctx, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start git cat-file: %w", err)
	}
	return &catFile{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

// blob reads one object: git answers "<hash> <type> <size>\n<content>\n".
func (c *catFile) blob(hash string) ([]byte, error) {
	if _, err := io.WriteString(c.in, hash+"\n"); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	head, err := c.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	f := strings.Fields(head)
	if len(f) != 3 {
		return nil, fmt.Errorf("git cat-file: object %s: %s", hash, strings.TrimSpace(head))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return nil, fmt.Errorf("git cat-file: bad size in %q", strings.TrimSpace(head))
	}
	b := make([]byte, size+1)
	if _, err := io.ReadFull(c.out, b); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return b[:size], nil
}

func (c *catFile) close() error {
	c.in.Close()
	return c.cmd.Wait()
}
