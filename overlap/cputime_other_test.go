//go:build !unix

package overlap

import "time"

// cpuTime is zero where getrusage does not exist: the benchmarks then
// report wall time only.
func cpuTime() time.Duration { return 0 }
