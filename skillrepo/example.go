package skillrepo

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// exampleFS is the sample library of `skillrepo init --example`: a few
// realistic skills, flat and in categories, with references/, templates/
// and scripts/, so a newcomer can try every command.
//
//go:embed example
var exampleFS embed.FS

// writeExample copies the sample library into dir, which must be new or
// empty: init --example never mixes samples into someone's skills.
func writeExample(dir string) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("init --example: %s is not empty; choose a new folder", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return fs.WalkDir(exampleFS, "example", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("example", filepath.FromSlash(p))
		dst := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := exampleFS.ReadFile(p)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if filepath.Base(filepath.Dir(dst)) == "scripts" {
			mode = 0o755
		}
		return os.WriteFile(dst, data, mode)
	})
}
