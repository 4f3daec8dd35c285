package skillrepo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/locate"
)

// findLibrary is the library a command run in dir works on: the one
// holding dir, else, in a project whose known skills folders hold
// exactly one library, that one (Inferred). Errors match ErrNotLibrary
// and carry a hint: outside any repository; a project with several
// libraries (named); a project with none (naming a skills folder that
// holds skills but is not a library yet, when there is one).
func findLibrary(dir string) (locate.Location, error) {
	loc, err := locate.Find(dir)
	if err != nil {
		return loc, err
	}
	if loc.Top == "" {
		return loc, WithHint(fmt.Errorf("%s: %w (no git repository here or above)", loc.Dir, ErrNotLibrary), "run 'skillrepo init' in the skills folder")
	}
	if loc.Library != "" {
		return loc, nil
	}
	switch inHead, sparse := configMissing(loc.Top, OpenOptions{Getenv: os.Getenv, Now: time.Now}); {
	case inHead && sparse:
		return loc, WithHint(fmt.Errorf("%s: %s is outside the sparse checkout", loc.Top, config.Path),
			"add it with 'git sparse-checkout add .skillrepo' (a cone keeps only the top folder's files and the folders you list)")
	case inHead:
		return loc, WithHint(fmt.Errorf("%s: %s was deleted from the work tree (the checked-out commit has it)", loc.Top, config.Path),
			"restore it with 'git checkout HEAD -- "+config.Path+"'")
	}
	found := locate.ProjectLibraries(loc.Top)
	switch {
	case len(found) == 1:
		loc.Library, loc.Inferred = filepath.Join(loc.Top, filepath.FromSlash(found[0])), true
		return loc, nil
	case len(found) > 1:
		return loc, WithHint(fmt.Errorf("%s: %w (no %s here or above; this repository has libraries in %s)", loc.Dir, ErrNotLibrary, config.Path, strings.Join(found, ", ")),
			"run the command inside the library's folder, or pass -C "+locate.Rel(loc.Dir, filepath.Join(loc.Top, filepath.FromSlash(found[0]))))
	}
	if folder := locate.SkillsFolder(loc.Top); folder != "" {
		target := locate.Rel(loc.Dir, filepath.Join(loc.Top, filepath.FromSlash(folder)))
		return loc, WithHint(fmt.Errorf("%s: %w (no %s; %s holds skills but is not a library yet)", loc.Dir, ErrNotLibrary, config.Path, folder),
			"run 'skillrepo init "+target+"' to turn it into a library")
	}
	return loc, WithHint(fmt.Errorf("%s: %w (no %s)", loc.Top, ErrNotLibrary, config.Path), "run 'skillrepo init "+dir+"' to turn this folder into a library")
}

// libraryPrefix is libRoot relative to the work tree root, slash-separated
// ("" when they are the same folder).
func libraryPrefix(root, libRoot string) (string, error) {
	rel, err := filepath.Rel(root, libRoot)
	if err != nil {
		return "", err
	}
	return gitstore.CleanPrefix(filepath.ToSlash(rel))
}
