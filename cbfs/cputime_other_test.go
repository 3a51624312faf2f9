//go:build !unix

package cbfs

import "time"

// processCPU is unavailable here; the CPU metric is then not reported.
func processCPU() time.Duration { return 0 }
