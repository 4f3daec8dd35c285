//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package procinfo

func ancestors(int) []Process { return nil }
