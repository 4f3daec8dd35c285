// Package boundedread reads input that a user or an agent hands us — a
// --content-file, an --ops file, standard input, a transcript — through a
// limit, so no input can make us load more than the limit into memory:
// reading stops at limit+1 bytes. A path must name a regular file: a FIFO
// would block forever, a device (/dev/zero) never end; standard input is
// read whatever it is. When the size is known (a regular file, or standard
// input redirected from one) an input over the limit is refused before a
// byte is read, with its true size; otherwise the error says it is over
// the limit. It imports nothing of ours, so every package can use it.
package boundedread

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// TooLargeError is an input over its limit.
type TooLargeError struct {
	Name  string // the input as the user named it
	Limit int64
	// Size is the input's true size when known, else -1.
	Size int64
}

func (e *TooLargeError) Error() string {
	if e.Size >= 0 {
		return fmt.Sprintf("%s is %d bytes (%s); the limit is %d bytes (%s)", e.Name, e.Size, Human(e.Size), e.Limit, Human(e.Limit))
	}
	return fmt.Sprintf("%s is over the limit of %d bytes (%s)", e.Name, e.Limit, Human(e.Limit))
}

// NotRegularError is a path that names something other than a regular
// file (a FIFO, a device, a directory, a socket).
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file (%s): give a file, or - to read standard input", e.Path, kind(e.Mode))
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

// Human writes n bytes the way people read sizes (KiB, MiB, GiB).
func Human(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, suffix := float64(n), ""
	for _, s := range []string{"KiB", "MiB", "GiB", "TiB"} {
		v /= unit
		suffix = s
		if v < unit {
			break
		}
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), suffix)
	}
	return fmt.Sprintf("%.1f %s", v, suffix)
}

// Open opens path for reading and refuses anything but a regular file,
// without blocking on a FIFO (it is opened non-blocking, then checked on
// the open descriptor, so a file swapped for a FIFO in between is caught
// too).
func Open(path string) (*os.File, error) {
	return open(path, 0)
}

func open(path string, flags int) (*os.File, error) {
	return openWith(os.OpenFile, path, flags)
}

func openWith(openFile func(string, int, fs.FileMode) (*os.File, error), path string, flags int) (*os.File, error) {
	f, err := openFile(path, os.O_RDONLY|nonBlock|flags, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	if err := clearNonBlock(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// OpenNoFollow is Open for a path another program chose: a final symlink
// is not followed (the open fails), so the file opened is the one named.
func OpenNoFollow(path string) (*os.File, error) {
	return open(path, noFollow)
}

// ReadFileIn reads the regular file name inside root, at most limit
// bytes: the root keeps the open (and every symlink on the way) inside
// its folder, even against a file swapped in between a check and the
// open.
func ReadFileIn(root *os.Root, name string, limit int64) ([]byte, error) {
	f, err := openWith(root.OpenFile, name, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, name, limit)
}

// ReadFile reads the regular file at path, at most limit bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, path, limit)
}

// ReadInput reads path, or standard input when path is "-".
func ReadInput(path string, stdin io.Reader, limit int64) ([]byte, error) {
	if path == "-" {
		return ReadAll(stdin, "standard input", limit)
	}
	return ReadFile(path, limit)
}

// chunk is the unit read at a time: the data is kept in chunks and joined
// once, so the peak is the data plus one chunk, not twice the data as a
// doubling buffer would reach.
const chunk = 256 << 10

// ReadAll reads r to its end, at most limit bytes; name says what r is in
// errors. An *os.File on a regular file (standard input redirected from a
// file) is checked by size first.
func ReadAll(r io.Reader, name string, limit int64) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			// The part of the file still to read (stdin may be positioned).
			size := fi.Size()
			if off, err := f.Seek(0, io.SeekCurrent); err == nil && off <= size {
				size -= off
			}
			if size > limit {
				return nil, &TooLargeError{Name: name, Limit: limit, Size: size}
			}
		}
	}
	var chunks [][]byte
	var total int64
	lr := io.LimitReader(r, limit+1)
	for {
		n := min(int64(chunk), limit+1-total)
		if n <= 0 {
			break
		}
		buf := make([]byte, n)
		got, err := io.ReadFull(lr, buf)
		if got > 0 {
			chunks = append(chunks, buf[:got])
			total += int64(got)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
	}
	if total > limit {
		return nil, &TooLargeError{Name: name, Limit: limit, Size: -1}
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, nil
}
