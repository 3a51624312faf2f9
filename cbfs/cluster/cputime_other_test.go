//go:build !unix

package cluster

import "time"

// processCPU is unavailable here; the CPU metric is then not reported.
func processCPU() time.Duration { return 0 }
