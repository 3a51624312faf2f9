package simplex

import (
	"fmt"
	"testing"
)

// BenchmarkRounds measures how many consensus rounds per second of wall
// time the simulation runs: every node's full protocol work (signing,
// verifying, aggregating) on a network with one tick of delay.
func BenchmarkRounds(b *testing.B) {
	for _, useBLS := range []bool{false, true} {
		for _, n := range []int{4, 16, 64} {
			name := fmt.Sprintf("fake/n=%d", n)
			if useBLS {
				name = fmt.Sprintf("bls/n=%d", n)
			}
			b.Run(name, func(b *testing.B) {
				stakes := make([]uint64, n)
				for i := range stakes {
					stakes[i] = 1
				}
				c := newCluster(b, clusterOpts{stakes: stakes, seed: 1, bls: useBLS, timeoutTicks: 20})
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					c.step()
				}
				rounds := c.nodes[0].node.Status().Round
				b.ReportMetric(float64(rounds)/b.Elapsed().Seconds(), "rounds/s")
			})
		}
	}
}

// BenchmarkFinality runs the simulator with a tick of 10 ms and a one-way
// latency of 40 to 60 ms (4 to 6 ticks, uniform) and reports, in simulated time, the median and
// 99th percentile from a block's proposal to its finalization at each
// honest node, and finalized blocks per simulated second. One op is one
// simulated second.
func BenchmarkFinality(b *testing.B) {
	const tickMS, latencyTicks = 10, 5
	for _, n := range []int{4, 16, 64} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			stakes := make([]uint64, n)
			for i := range stakes {
				stakes[i] = 1
			}
			c := newCluster(b, clusterOpts{stakes: stakes, seed: 1, timeoutTicks: 100})
			c.minDelay, c.maxDelay = latencyTicks-1, latencyTicks+1 // 40..60 ms
			for i := 0; i < b.N; i++ {
				c.run(1000 / tickMS)
			}
			c.checkAgreement()
			secs := float64(c.now*tickMS) / 1000
			b.ReportMetric(float64(percentile(c.latency, 0.5)*tickMS), "p50-ms")
			b.ReportMetric(float64(percentile(c.latency, 0.99)*tickMS), "p99-ms")
			b.ReportMetric(float64(c.minFinal())/secs, "blocks/s")
		})
	}
}
