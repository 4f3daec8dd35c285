package lint

import (
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"strings"
)

// osDirFSType is the type of the file systems os.DirFS returns.
var osDirFSType = reflect.TypeOf(os.DirFS("."))

// osDirRoot returns the folder fsys reads when it is an os.DirFS, whose
// files lint can then read with fewer system calls (see readDirFile).
func osDirRoot(fsys fs.FS) (string, bool) {
	if reflect.TypeOf(fsys) != osDirFSType {
		return "", false
	}
	root := reflect.ValueOf(fsys).String()
	return root, root != ""
}

// dirFilePath is the path os.DirFS(root) opens for name, or false for a
// name os.DirFS refuses (or would join differently).
func dirFilePath(root, name string) (string, bool) {
	if !fs.ValidPath(name) || strings.IndexByte(name, 0) >= 0 || os.PathSeparator != '/' {
		return "", false
	}
	if strings.HasSuffix(root, "/") {
		return root + name, true
	}
	return root + "/" + name, true
}

// readFile reads a file of the linted tree unless it is larger than limit
// (then nil; limit < 0 means no limit). From an os.DirFS it reads the
// file directly, without os.File's set-up (non-blocking mode switched on
// and off, a poller registration refused for a regular file): a third of
// the system calls per file on a library of small files (bench/README.md,
// "## lint"). Any failure there is left to the file system, so errors read
// as before.
func (c *checker) readFile(name string, limit int64) ([]byte, error) {
	if c.osDir != "" {
		if p, ok := dirFilePath(c.osDir, name); ok {
			if data, ok := readDirFile(p, limit); ok {
				return data, nil
			}
		}
	}
	if limit < 0 {
		return fs.ReadFile(c.fsys, name)
	}
	return readLimited(c.fsys, name, limit)
}

// readRegular reads a file that must be a regular file of at most limit
// bytes: a SKILL.md linked to /dev/zero or a FIFO is an error, never a
// read that does not end (issue 40 item 7). The file is checked before it
// is opened, as opening a FIFO blocks until a writer comes.
func (c *checker) readRegular(name string, limit int64) ([]byte, error) {
	fi, err := fs.Stat(c.fsys, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", fi.Mode().Type())
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%d bytes, over the limit of %d", fi.Size(), limit)
	}
	data, err := c.readFile(name, limit)
	if err == nil && data == nil && fi.Size() > 0 {
		return nil, fmt.Errorf("over the limit of %d bytes", limit)
	}
	return data, err
}
