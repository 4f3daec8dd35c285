package boundedread

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, bytes.Repeat([]byte("x"), n), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if b, err := ReadFile(write("at-limit", 100), 100); err != nil || len(b) != 100 {
		t.Fatalf("at the limit: %d bytes, %v", len(b), err)
	}
	if b, err := ReadFile(write("empty", 0), 100); err != nil || len(b) != 0 {
		t.Fatalf("empty: %d bytes, %v", len(b), err)
	}
	_, err := ReadFile(write("over", 101), 100)
	var big *TooLargeError
	if !errors.As(err, &big) || big.Size != 101 || big.Limit != 100 {
		t.Fatalf("over: %v", err)
	}
	if want := "over is 101 bytes (101 B); the limit is 100 bytes (100 B)"; !strings.HasSuffix(err.Error(), want) {
		t.Errorf("message = %q", err)
	}
	// A sparse 1 GiB file is refused by its size, before a byte is read.
	huge := filepath.Join(dir, "huge")
	f, _ := os.Create(huge)
	f.Truncate(1 << 30)
	f.Close()
	_, err = ReadFile(huge, 1<<20)
	if !errors.As(err, &big) || big.Size != 1<<30 || !strings.Contains(err.Error(), "is 1073741824 bytes (1 GiB); the limit is 1048576 bytes (1 MiB)") {
		t.Fatalf("huge: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

// zeros is an endless reader, as a pipe from /dev/zero is.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += int64(len(p))
	return len(p), nil
}

// TestReadAllStream: a stream (a pipe on stdin) has no size: reading stops
// at limit+1 bytes and says "over the limit", never a made-up size.
func TestReadAllStream(t *testing.T) {
	z := &zeros{}
	_, err := ReadAll(z, "standard input", 1<<20)
	var big *TooLargeError
	if !errors.As(err, &big) || big.Size != -1 || err.Error() != "standard input is over the limit of 1048576 bytes (1 MiB)" {
		t.Fatalf("err = %v", err)
	}
	if z.n > 1<<20+chunk {
		t.Errorf("read %d bytes past a limit of %d", z.n, 1<<20)
	}
	b, err := ReadAll(strings.NewReader("hello"), "standard input", 5)
	if err != nil || string(b) != "hello" {
		t.Fatalf("short input: %q, %v", b, err)
	}
	if _, err := ReadAll(io.MultiReader(strings.NewReader("hello"), strings.NewReader("!")), "in", 5); !errors.As(err, &big) {
		t.Fatalf("limit+1: %v", err)
	}
}

// TestReadAllStdinFile: standard input redirected from a file has a size,
// and the error reports it (the part still to read).
func TestReadAllStdinFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "in")
	os.WriteFile(p, bytes.Repeat([]byte("y"), 3000), 0o644)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Seek(1000, io.SeekStart)
	_, err = ReadAll(f, "standard input", 1024)
	var big *TooLargeError
	if !errors.As(err, &big) || big.Size != 2000 {
		t.Fatalf("err = %v", err)
	}
}

// TestReadAllMemory: refusing a 1 GiB stream at a 1 MiB limit allocates
// about the limit, not the stream.
func TestReadAllMemory(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := ReadAll(io.LimitReader(&zeros{}, 1<<30), "standard input", 1<<20)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("a 1 GiB stream was accepted")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("allocated %d bytes to refuse a 1 GiB stream at 1 MiB", alloc)
	}
}

func TestHuman(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB", 16 << 20: "16 MiB", 22649241: "21.6 MiB", 1 << 30: "1 GiB"} {
		if got := Human(n); got != want {
			t.Errorf("Human(%d) = %q, want %q", n, got, want)
		}
	}
}
