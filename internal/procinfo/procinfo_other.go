//go:build !linux

package procinfo

func ancestors(int) []Process { return nil }
