package cmdutil

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/hermes"
	"github.com/skillrepo/skillrepo/hooks"
)

// HermesHome is the Hermes home Hermes itself would use.
func HermesHome(f *Factory, flag string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	if h := f.Getenv("HERMES_HOME"); h != "" {
		return filepath.Abs(h)
	}
	home := f.Getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", err
		}
	}
	return filepath.Join(home, ".hermes"), nil
}

// HermesStatusLine says, for status, whether Hermes' hooks are installed
// and whether Hermes will run them ("" when Hermes has none of ours).
func HermesStatusLine(f *Factory) (string, []hooks.HermesHook) {
	home, err := HermesHome(f, "")
	if err != nil {
		return "", nil
	}
	st, err := hooks.HermesStatus(home, f.Getenv)
	if err != nil || len(st) == 0 {
		return "", nil
	}
	var pending []string
	for _, h := range st {
		if h.Consent == hermes.ConsentPending {
			pending = append(pending, h.Event)
		}
	}
	line := fmt.Sprintf("Hermes: %d shell hooks in %s", len(st), filepath.Join(home, hermes.ConfigFile))
	if len(pending) > 0 {
		line += fmt.Sprintf("; consent not yet given for %s (Hermes asks at its next interactive start; 'skillrepo hooks install --hermes --accept' gives it)", strings.Join(pending, ", "))
	}
	return line, st
}
