//go:build !unix

package boundedread

import "os"

const nonBlock = 0

const noFollow = 0

func clearNonBlock(*os.File) error { return nil }
