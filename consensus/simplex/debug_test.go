package simplex

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestDebugSeed(t *testing.T) {
	s := os.Getenv("SIMPLEX_SEED")
	if s == "" {
		t.Skip("set SIMPLEX_SEED")
	}
	seed, _ := strconv.Atoi(s)
	defer func() {}()
	simulateSeedDebug(t, uint64(seed))
}

func simulateSeedDebug(t *testing.T, seed uint64) {
	r := newCluster(t, clusterOpts{stakes: []uint64{1}, seed: seed}).rng
	nv := 4 + r.IntN(7)
	stakes := make([]uint64, nv)
	var total uint64
	for i := range stakes {
		stakes[i] = 1 + uint64(r.IntN(100))
		total += stakes[i]
	}
	byz := map[int]behaviour{}
	cand := r.IntN(nv)
	if 3*stakes[cand] < total {
		byz[cand] = behaviour(1 + r.IntN(4))
	}
	t.Logf("stakes %v byz %v", stakes, byz)
	c := newCluster(t, clusterOpts{stakes: stakes, seed: seed, timeoutTicks: 15, behaviours: byz})
	c.minDelay, c.maxDelay = 1, 1+r.IntN(6)
	c.dropRate = float64(r.IntN(20)) / 100
	crashed := -1
	for phase := 0; phase < 6; phase++ {
		switch r.IntN(4) {
		case 0:
			c.heal()
			t.Logf("heal")
		case 1:
			perm := r.Perm(nv)
			cut := 1 + r.IntN(nv-1)
			c.partition(perm[:cut], perm[cut:])
			t.Logf("partition %v %v", perm[:cut], perm[cut:])
		case 2:
			x := r.IntN(nv)
			c.partition([]int{x})
			t.Logf("isolate %d", x)
		case 3:
			if crashed < 0 {
				crashed = r.IntN(nv)
				c.crash(crashed)
				t.Logf("crash %d", crashed)
			}
		}
		c.run(40 + r.IntN(40))
		for _, sn := range c.nodes {
			t.Logf("  %v", sn.node.Status())
		}
	}
	c.heal()
	c.dropRate = 0
	if crashed >= 0 {
		c.restart(crashed)
	}
	c.log = &strings.Builder{}
	c.run(60)
	for _, sn := range c.nodes {
		t.Logf("  %v", sn.node.Status())
	}
	if os.Getenv("SIMPLEX_LOG") != "" {
		t.Log(c.log.String())
	}
}
