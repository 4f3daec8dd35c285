package gitstore

// Objects are written as loose objects by this file rather than through
// go-git's storer, for two reasons the write engine depends on: the temp
// file lives in .git/skillrepo/tmp (so a killed writer leaves its debris
// where recovery removes it, never under objects/ or in the work tree), and
// each object is fsynced before it is renamed into place (so after a power
// loss a ref never points at an object that did not reach the disk).

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/adler32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Store writes new objects and reads them back, layered over the
// repository. In dry-run mode new objects stay in memory.
type Store struct {
	l       *Repo
	dryRun  bool
	pending map[plumbing.Hash][]byte // dry-run objects, and trees we built (a read cache)
	written []string                 // directories to fsync
	// trees caches decoded trees: they are immutable, and a flat library's
	// root tree (10,000 entries) would otherwise be decoded per lookup.
	// treesMu guards it: a snapshot's reads run in parallel (lint checks
	// skills on several goroutines through one snapshot's fs.FS).
	treesMu sync.RWMutex
	trees   map[plumbing.Hash]*DecodedTree
	zw      *zlib.Writer // compresses into zbuf (see compress)
	// tmpReady: .git/skillrepo/tmp exists (checked once per store).
	tmpReady bool
	zbuf     bytes.Buffer
}

// storedTreeSize is the size from which a tree is written as a stored
// (uncompressed) zlib stream. A big tree is mostly SHA-1s, which do not
// compress: deflating a flat library's 380 KB root tree saves a third of
// its size and costs 2.8 ms to write and 1.5 ms to read back, stored it
// costs 0.1 ms each way. git reads both alike (it is what
// core.looseCompression=0 writes), and git gc deltas the copies away.
const storedTreeSize = 64 << 10

// compress returns the loose-object form of an object: its header and
// content, zlib-compressed. The slice is the store's buffer, valid until
// the next call.
func (s *Store) compress(typ plumbing.ObjectType, data []byte) []byte {
	header := []byte(typ.String() + " " + strconv.Itoa(len(data)) + "\x00")
	s.zbuf.Reset()
	if typ == plumbing.TreeObject && len(data) >= storedTreeSize {
		s.zbuf.Grow(len(header) + len(data) + len(data)/65535*5 + 64)
		return appendStoredZlib(s.zbuf.Bytes(), header, data)
	}
	// One compressor per store, reset per object: setting one up
	// allocates about a megabyte, more than compressing a skill costs.
	if s.zw == nil {
		s.zw, _ = zlib.NewWriterLevel(&s.zbuf, zlib.BestSpeed) // a valid level
	} else {
		s.zw.Reset(&s.zbuf)
	}
	s.zw.Write(header)
	s.zw.Write(data)
	s.zw.Close() // writes to a bytes.Buffer cannot fail
	return s.zbuf.Bytes()
}

// appendStoredZlib appends a zlib stream (RFC 1950) of the concatenated
// parts in stored deflate blocks (RFC 1951 3.2.4): what compress/flate
// writes at level 0, without copying everything through its window.
func appendStoredZlib(dst []byte, parts ...[]byte) []byte {
	dst = append(dst, 0x78, 0x01) // deflate, 32 KiB window; 0x7801 is a multiple of 31
	sum := adler32.New()
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	for {
		size := min(n, 0xffff)
		n -= size
		final := byte(0)
		if n == 0 {
			final = 1
		}
		dst = append(dst, final, byte(size), byte(size>>8), ^byte(size), ^byte(size>>8))
		for size > 0 {
			for len(parts[0]) == 0 {
				parts = parts[1:]
			}
			k := min(size, len(parts[0]))
			dst = append(dst, parts[0][:k]...)
			sum.Write(parts[0][:k])
			parts[0] = parts[0][k:]
			size -= k
		}
		if n == 0 {
			return binary.BigEndian.AppendUint32(dst, sum.Sum32())
		}
	}
}

func (l *Repo) NewStore(dryRun bool) *Store {
	return &Store{l: l, dryRun: dryRun, pending: map[plumbing.Hash][]byte{}, trees: map[plumbing.Hash]*DecodedTree{}}
}

func (s *Store) objectPath(h plumbing.Hash) string {
	hs := h.String()
	return filepath.Join(s.l.GitDir, "objects", hs[:2], hs[2:])
}

// Put stores an object and returns its hash. An object that exists is not
// written again.
func (s *Store) Put(typ plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	h := HashObject(typ, data)
	if s.dryRun {
		s.pending[h] = data
		return h, nil
	}
	if !s.l.hasObject(h) {
		if err := s.writeLoose(h, typ, data); err != nil {
			return plumbing.ZeroHash, fmt.Errorf("write %s %s: %w", typ, h, err)
		}
	}
	if typ == plumbing.TreeObject {
		s.pending[h] = data
		if len(data) >= bigTreeSize {
			// The write's new root tree: the usage event's snapshot of
			// the new commit reads it next (treecache.go).
			if d, err := parseTree(data); err == nil {
				s.l.big.put(h, d)
			}
		}
	}
	return h, nil
}

// HashObject is git's object id. crypto/sha1 (hardware-accelerated) rather
// than go-git's collision-detecting SHA-1: these are objects we write, and
// the 400 KB root tree of a flat 10,000-skill library is hashed on every
// write.
func HashObject(typ plumbing.ObjectType, data []byte) plumbing.Hash {
	h := sha1.New()
	h.Write([]byte(typ.String()))
	h.Write([]byte{' '})
	h.Write([]byte(strconv.Itoa(len(data))))
	h.Write([]byte{0})
	h.Write(data)
	var out plumbing.Hash
	copy(out[:], h.Sum(nil))
	return out
}

func (s *Store) writeLoose(h plumbing.Hash, typ plumbing.ObjectType, data []byte) (err error) {
	tmpDir := filepath.Join(s.l.repoStateDir(), "tmp")
	if !s.tmpReady {
		if err := os.MkdirAll(tmpDir, 0o755); err != nil {
			return err
		}
		s.tmpReady = true
	}
	f, err := os.CreateTemp(tmpDir, "obj-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(s.compress(typ, data)); err != nil {
		return err
	}
	if err := f.Chmod(0o444); err != nil {
		return err
	}
	if err := s.l.syncFile(f); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	dst := s.objectPath(h)
	// The fan-out folder usually exists: make it only when the rename
	// says it is missing (one system call per object instead of three).
	if err = os.Rename(tmp, dst); errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(filepath.Dir(dst), 0o755); err == nil {
			err = os.Rename(tmp, dst)
		}
	}
	if err != nil {
		return err
	}
	s.written = append(s.written, filepath.Dir(dst))
	return nil
}

// Sync makes the renames of written objects durable.
func (s *Store) Sync() {
	seen := map[string]bool{}
	for _, d := range s.written {
		if !seen[d] {
			seen[d] = true
			s.l.syncDir(d)
		}
	}
	s.written = nil
}

// Blob reads a blob's content. The slice is the caller's.
func (s *Store) Blob(h plumbing.Hash) ([]byte, error) {
	if b, ok := s.pending[h]; ok {
		return b, nil
	}
	b, err := s.l.readObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), b...), nil
}

// TreeEntry is one entry of a git tree.
// tree reads a tree's entries (zero hash: the empty tree). The slice is
// shared: callers must not modify it.
func (s *Store) Tree(h plumbing.Hash) ([]TreeEntry, error) {
	d, err := s.Decoded(h)
	if err != nil {
		return nil, err
	}
	return d.entries(), nil
}

// Entry finds one entry of a tree by name.
func (s *Store) Entry(tree plumbing.Hash, name string) (TreeEntry, bool, error) {
	d, err := s.Decoded(tree)
	if err != nil {
		return TreeEntry{}, false, err
	}
	e, ok := d.Find(name)
	return e, ok, nil
}

// RawTree reads a tree's bytes (nil for the zero hash); the slice is
// shared: callers must not modify it.
func (s *Store) RawTree(h plumbing.Hash) ([]byte, error) {
	d, err := s.Decoded(h)
	if err != nil {
		return nil, err
	}
	return d.raw, nil
}

// Decoded reads and checks a tree (tree.go), once per store: trees are
// immutable. Reads may run on several goroutines at once.
func (s *Store) Decoded(h plumbing.Hash) (*DecodedTree, error) {
	if h.IsZero() {
		return &DecodedTree{sorted: true, canonical: true}, nil
	}
	s.treesMu.RLock()
	d, ok := s.trees[h]
	s.treesMu.RUnlock()
	if ok {
		return d, nil
	}
	b, ok := s.pending[h]
	if !ok {
		if d, ok := s.l.big.get(h); ok {
			s.treesMu.Lock()
			s.trees[h] = d
			s.treesMu.Unlock()
			return d, nil
		}
		var err error
		if b, err = s.l.readObject(plumbing.TreeObject, h); err != nil {
			return nil, err
		}
	}
	d, err := parseTree(b)
	if err != nil {
		return nil, fmt.Errorf("tree %s: %w", h, err)
	}
	if !s.dryRun || !ok {
		// In the object store (read from it, or written by Put).
		s.l.big.put(h, d)
	}
	s.treesMu.Lock()
	s.trees[h] = d
	s.treesMu.Unlock()
	return d, nil
}

// EncodeCommit formats a commit object.
func EncodeCommit(tree plumbing.Hash, parents []plumbing.Hash, author, committer object.Signature, message string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %s\n", tree)
	for _, p := range parents {
		fmt.Fprintf(&b, "parent %s\n", p)
	}
	fmt.Fprintf(&b, "author %s\n", formatSignature(author))
	fmt.Fprintf(&b, "committer %s\n", formatSignature(committer))
	b.WriteString("\n")
	b.WriteString(message)
	return b.Bytes()
}

func formatSignature(s object.Signature) string {
	return fmt.Sprintf("%s <%s> %d %s", sanitizeIdent(s.Name), sanitizeIdent(s.Email), s.When.Unix(), s.When.Format("-0700"))
}

// sanitizeIdent drops the characters git forbids in an identity.
func sanitizeIdent(s string) string {
	return string(bytes.Map(func(r rune) rune {
		switch r {
		case '<', '>', '\n', '\r', 0:
			return -1
		}
		return r
	}, []byte(s)))
}

// CommitInfo returns the tree and parents of a commit. The tree is the
// library's view: the subtree at the Repo's Prefix (zero when the commit
// has no such folder); [Store.RootCommitInfo] gives the whole tree.
func (s *Store) CommitInfo(h plumbing.Hash) (tree plumbing.Hash, parents []plumbing.Hash, err error) {
	tree, parents, err = s.RootCommitInfo(h)
	if err != nil || s.l.Prefix == "" {
		return tree, parents, err
	}
	return s.libraryTree(tree), parents, nil
}

func parseCommitHeader(b []byte) (tree plumbing.Hash, parents []plumbing.Hash, err error) {
	for _, line := range bytes.Split(b, []byte("\n")) {
		switch {
		case len(line) == 0:
			if tree.IsZero() {
				return tree, nil, fmt.Errorf("commit without tree")
			}
			return tree, parents, nil
		case bytes.HasPrefix(line, []byte("tree ")) && len(line) >= 45:
			tree = plumbing.NewHash(string(line[5:45]))
		case bytes.HasPrefix(line, []byte("parent ")) && len(line) >= 47:
			parents = append(parents, plumbing.NewHash(string(line[7:47])))
		}
	}
	if tree.IsZero() {
		return tree, nil, fmt.Errorf("commit without tree")
	}
	return tree, parents, nil
}

// readObject reads an object's content: a packed one through the pack
// reader (packreader.go), a loose one by our own reader, and anything else
// (alternates, a pack written after the reader opened) through go-git.
// Packs come first, as in git: a lookup in a mapped pack index costs no
// system call, and a failed open of a loose file does (a 10,000-skill
// listing made 10,000 of them). The slice may be shared with a cache:
// callers must not modify it.
func (l *Repo) readObject(typ plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	b, err := l.readObjectRaw(typ, h)
	if err != nil {
		return nil, err
	}
	return l.graft(typ, h, b), nil
}

// readObjectRaw is readObject without the shallow graft.
func (l *Repo) readObjectRaw(typ plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	l.objMu.Lock()
	defer l.objMu.Unlock()
	if l.packs == nil {
		l.packs = openPackReader(l.GitDir)
	}
	for reopened := false; ; reopened = true {
		if obj, ok, _ := l.packs.read(h); ok {
			if obj.typ != typ {
				return nil, fmt.Errorf("read %s %s: it is a %s", typ, h, obj.typ)
			}
			return obj.data, nil
		}
		if b, ok, err := l.readLoose(typ, h); ok || err != nil {
			return b, err
		}
		if reopened {
			break
		}
		// A git gc since the packs were listed may have packed the
		// object and deleted its loose file: list them again, once.
		l.packs.close()
		l.packs = openPackReader(l.GitDir)
	}
	obj, err := l.repo.Storer.EncodedObject(typ, h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		obj, err = l.encodedObjectAgainLocked(typ, h)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", typ, h, err)
	}
	r, err := obj.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// encodedObject reads object h through go-git's storer. go-git lists a
// repository's packs once, so a pack written since (by the git fetch of
// a remote sync, or a git gc) is not seen: on a miss it lists them again
// and retries, once. The caller must not hold objMu.
func (l *Repo) encodedObject(typ plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	obj, err := l.repo.Storer.EncodedObject(typ, h)
	if !errors.Is(err, plumbing.ErrObjectNotFound) {
		return obj, err
	}
	l.objMu.Lock()
	defer l.objMu.Unlock()
	return l.encodedObjectAgainLocked(typ, h)
}

// encodedObjectAgainLocked lists go-git's packs again and reads h. The
// caller holds objMu (readObjectRaw's other go-git reads run under it).
func (l *Repo) encodedObjectAgainLocked(typ plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	if r, ok := l.repo.Storer.(interface{ Reindex() }); ok {
		r.Reindex()
	}
	return l.repo.Storer.EncodedObject(typ, h)
}

// hasObject reports whether h is stored loose or in a pack the pack
// reader knows. A wrong "no" (the object sits in an alternate, or in a
// pack written since the reader opened) only costs a loose copy of an
// object git already has, which git tolerates and gc folds away; go-git's
// own check is not used because it loads its own copy of every pack index.
func (l *Repo) hasObject(h plumbing.Hash) bool {
	l.objMu.Lock()
	defer l.objMu.Unlock()
	hs := h.String()
	if _, err := os.Lstat(filepath.Join(l.GitDir, "objects", hs[:2], hs[2:])); err == nil {
		return true
	}
	if l.packs == nil {
		l.packs = openPackReader(l.GitDir)
	}
	return l.packs.has(h)
}

// looseReaders are readLoose's buffered file reader, inflater and header
// reader.
type looseReaders struct {
	file   *bufio.Reader
	z      io.ReadCloser
	header *bufio.Reader
}

// readLoose reads a loose object; ok is false when there is none. The
// header gives the size, so the content is inflated into one buffer of
// exactly that size (a flat library's root tree is 400 KB, read on every
// write).
func (l *Repo) readLoose(typ plumbing.ObjectType, h plumbing.Hash) ([]byte, bool, error) {
	hs := h.String()
	f, err := os.Open(filepath.Join(l.GitDir, "objects", hs[:2], hs[2:]))
	if err != nil {
		return nil, false, nil
	}
	defer f.Close()
	fail := func(err error) ([]byte, bool, error) {
		return nil, true, fmt.Errorf("read %s %s: %w", typ, h, err)
	}
	// The readers are the Library's, reset per object: a zlib reader
	// allocates its 32 KB window, and a write reads several objects.
	lr := &l.loose
	if lr.file == nil {
		lr.file = bufio.NewReaderSize(f, 32<<10)
	} else {
		lr.file.Reset(f)
	}
	if lr.z == nil {
		if lr.z, err = zlib.NewReader(lr.file); err != nil {
			lr.z = nil
			return fail(err)
		}
	} else if err := lr.z.(zlib.Resetter).Reset(lr.file, nil); err != nil {
		return fail(err)
	}
	if lr.header == nil {
		lr.header = bufio.NewReaderSize(lr.z, 64)
	} else {
		lr.header.Reset(lr.z)
	}
	br := lr.header
	header, err := br.ReadString(0)
	if err != nil || len(header) > 32 {
		return fail(errors.New("malformed loose object"))
	}
	kind, sizeText, _ := strings.Cut(header[:len(header)-1], " ")
	if kind != typ.String() {
		return fail(fmt.Errorf("it is a %s", kind))
	}
	size, err := strconv.Atoi(sizeText)
	if err != nil || size < 0 {
		return fail(errors.New("malformed loose object"))
	}
	// deflate expands at most about 1032:1: a larger size is a lie that
	// must not become an allocation.
	if fi, err := f.Stat(); err != nil || int64(size) > fi.Size()*1032+1024 {
		return fail(errors.New("malformed loose object: size out of range"))
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(br, b); err != nil {
		return fail(fmt.Errorf("size mismatch: %w", err))
	}
	if n, _ := br.Read(make([]byte, 1)); n != 0 {
		return fail(errors.New("size mismatch: longer than its header says"))
	}
	return b, true, nil
}

// CommitObject reads and decodes a commit.
func (l *Repo) CommitObject(h plumbing.Hash) (*object.Commit, error) {
	raw, err := l.readObjectRaw(plumbing.CommitObject, h)
	if err != nil {
		return nil, err
	}
	obj := &plumbing.MemoryObject{}
	obj.SetType(plumbing.CommitObject)
	obj.Write(raw)
	c, err := object.DecodeCommit(l.repo.Storer, obj)
	if err == nil && l.IsShallow(h) {
		c.ParentHashes = nil // a shallow boundary (shallow.go)
	}
	return c, err
}

// Stored is hasObject's answer for a caller outside the package: cheap,
// and sometimes a wrong "no" (see hasObject), never a wrong "yes".
func (l *Repo) Stored(h plumbing.Hash) bool { return l.hasObject(h) }

// ObjectExists reports whether the repository holds object h (loose, in a
// pack or in an alternate: git's answer, not the fast guess of hasObject).
func (l *Repo) ObjectExists(h plumbing.Hash) bool {
	if l.repo.Storer.HasEncodedObject(h) == nil {
		return true
	}
	_, err := l.encodedObject(plumbing.AnyObject, h) // a pack written since go-git listed them
	return err == nil
}

// RawCommit returns a commit's raw content (header and message), at most
// the first 64 KiB, from this store's own writes or the repository.
func (s *Store) RawCommit(c plumbing.Hash) ([]byte, error) {
	if b, ok := s.pending[c]; ok {
		return b, nil
	}
	// Through the repository's own pack reader, as trees are: go-git's
	// storer would load its own copy of every pack index on a library's
	// first commit read (a merge-base walk of each proposal the ui lists).
	raw, err := s.l.readObjectRaw(plumbing.CommitObject, c)
	if err != nil {
		return nil, err
	}
	return s.l.graft(plumbing.CommitObject, c, raw[:min(len(raw), 1<<16)]), nil
}

// ObjectReader reads objects' raw content for long walks (history): from
// the packs through its own pack reader (packreader.go), else through
// go-git's storer (loose objects, alternates). Close it when done.
type ObjectReader struct {
	l     *Repo
	packs *packReader
}

// NewObjectReader opens an ObjectReader on the packs present now.
func (l *Repo) NewObjectReader() *ObjectReader {
	return &ObjectReader{l: l, packs: openPackReader(l.GitDir)}
}

// Close releases the pack files.
func (r *ObjectReader) Close() { r.packs.close() }

// Read returns the content of object h, which must be of type typ. The
// slice may be shared with a cache: callers must not modify it.
func (r *ObjectReader) Read(typ plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	// The pack reader answers for packed objects; what it does not have
	// or cannot read (a loose object, an alternate, a damaged pack) is
	// left to go-git, whose error is the one reported.
	if obj, ok, _ := r.packs.read(h); ok {
		if obj.typ != typ {
			return nil, fmt.Errorf("read %s %s: it is a %s", typ, h, obj.typ)
		}
		return r.l.graft(typ, h, obj.data), nil
	}
	obj, err := r.l.encodedObject(typ, h)
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", typ, h, err)
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", typ, h, err)
	}
	defer rd.Close()
	buf := bytes.NewBuffer(make([]byte, 0, obj.Size()))
	if _, err := io.Copy(buf, rd); err != nil {
		return nil, fmt.Errorf("read %s %s: %w", typ, h, err)
	}
	return r.l.graft(typ, h, buf.Bytes()), nil
}
