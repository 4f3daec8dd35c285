package worker

import "github.com/skillrepo/skillrepo/skillrepo/config"

// DefaultSettings are the defaults of every key.
func DefaultSettings() Settings { return SettingsFrom(config.Default().Review, nil) }
