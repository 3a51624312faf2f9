package simplex

import (
	"flag"
	"strings"
	"testing"
)

var (
	seeds   = flag.Int("seeds", 200, "number of seeds the randomized simulation runs")
	oneSeed = flag.Int("seed", -1, "run only this seed of the randomized simulation, logging each phase")
)

func TestHappyPathFinalizes(t *testing.T) {
	c := newCluster(t, clusterOpts{stakes: []uint64{1, 1, 1, 1}, seed: 1, timeoutTicks: 20})
	c.run(100)
	c.checkAgreement()
	// Each round takes two message delays (proposal, vote to the next
	// leader), so 100 ticks at delay 1 must finalize well over 30 blocks.
	if h := c.minFinal(); h < 30 {
		t.Fatalf("finalized only %d blocks in 100 ticks without faults", h)
	}
	if c.errs != 0 {
		t.Fatalf("%d messages refused in a fault-free run", c.errs)
	}
	if c.proofsChecked == 0 {
		t.Fatal("no Ready carried a finality proof")
	}
}

func TestHappyPathWithBLS(t *testing.T) {
	c := newCluster(t, clusterOpts{stakes: []uint64{10, 20, 30, 40}, seed: 2, bls: true, timeoutTicks: 20})
	c.wire = true // and every message crosses the wire encoding
	c.run(40)
	c.checkAgreement()
	if h := c.minFinal(); h < 10 {
		t.Fatalf("finalized only %d blocks in 40 ticks with BLS", h)
	}
	if c.errs != 0 {
		t.Fatalf("%d messages refused", c.errs)
	}
}

// A follower (no validator index) finalizes the same chain from the
// proposals it receives, and never sends anything.
func TestFollowerFinalizes(t *testing.T) {
	c := newCluster(t, clusterOpts{stakes: []uint64{1, 2, 3, 4}, seed: 8, timeoutTicks: 10, followers: 1})
	c.minDelay, c.maxDelay = 1, 3
	c.run(150)
	c.checkAgreement()
	f := c.nodes[4]
	if f.node.Status().ID != -1 {
		t.Fatal("node 4 is not a follower")
	}
	if h := len(f.final) - 1; h < 20 {
		t.Fatalf("follower finalized only %d blocks", h)
	}
	if f.hard.LastVoted != 0 {
		t.Fatalf("follower voted: %+v", f.hard)
	}
}

// Twins: one validator runs two honest instances with one key, each
// talking to half of the others, so it double-proposes and double-votes
// with perfectly valid messages (no single peer sees both halves, so no
// evidence arises). Safety and liveness hold.
func TestTwins(t *testing.T) {
	c := newCluster(t, clusterOpts{stakes: []uint64{1, 1, 1, 1}, seed: 12, timeoutTicks: 10,
		behaviours: map[int]behaviour{1: twins}})
	c.minDelay, c.maxDelay = 1, 3
	c.run(400)
	c.checkAgreement()
	if h := c.minFinal(); h < 20 {
		t.Fatalf("finalized only %d blocks with twins", h)
	}
	if c.errs != 0 {
		t.Fatalf("%d messages refused", c.errs)
	}
}

// A silent validator with a quarter of the stake costs the rounds it leads
// (and the round before, whose votes went to it) but not finality.
func TestSilentLeaderTimesOut(t *testing.T) {
	c := newCluster(t, clusterOpts{stakes: []uint64{1, 1, 1, 1}, seed: 3, timeoutTicks: 10,
		behaviours: map[int]behaviour{2: silent}})
	c.run(400)
	c.checkAgreement()
	if h := c.minFinal(); h < 20 {
		t.Fatalf("finalized only %d blocks with one silent node", h)
	}
}

// With two of four validators crashed no quorum exists: nothing new is
// final and nothing conflicting appears. After both restart from their
// persisted state, finality resumes.
func TestCrashTwoThenRestart(t *testing.T) {
	c := newCluster(t, clusterOpts{stakes: []uint64{1, 1, 1, 1}, seed: 4, timeoutTicks: 10})
	c.run(50)
	c.crash(1)
	c.run(100)
	before := c.minFinal()
	c.crash(3)
	c.run(50) // let in-flight certificates land
	stalled := c.minFinal()
	c.run(200)
	if h := c.minFinal(); h != stalled {
		t.Fatalf("finality moved from %d to %d with half the stake down", stalled, h)
	}
	c.restart(1)
	c.restart(3)
	c.run(300)
	c.checkAgreement()
	if h := c.minFinal(); h < stalled+10 {
		t.Fatalf("after restart finality reached %d, stalled at %d (before second crash %d)", h, stalled, before)
	}
}

// Equivocation and double votes are caught as evidence and do not break
// safety.
func TestEquivocatorProducesEvidence(t *testing.T) {
	c := newCluster(t, clusterOpts{stakes: []uint64{1, 1, 1, 1}, seed: 5, timeoutTicks: 10,
		behaviours: map[int]behaviour{0: equivocator}})
	c.run(300)
	c.checkAgreement()
	caught := 0
	for i, sn := range c.nodes {
		for _, e := range sn.evidence {
			if e.Signer != 0 {
				t.Fatalf("node %d accuses honest validator %d", i, e.Signer)
			}
			if !c.schemes[0].Verify(0, VoteMessage(e.BlockA, e.HeightA, e.Round), e.SignatureA) ||
				!c.schemes[0].Verify(0, VoteMessage(e.BlockB, e.HeightB, e.Round), e.SignatureB) || e.BlockA == e.BlockB {
				t.Fatalf("evidence does not hold: %+v", e)
			}
			caught++
		}
	}
	if caught == 0 {
		t.Fatal("equivocation went unnoticed")
	}
	if h := c.minFinal(); h < 10 {
		t.Fatalf("finalized only %d blocks with an equivocator", h)
	}
}

// An invalid payload gets no honest vote: the round times out and the
// chain goes on without it.
func TestInvalidPayloadNotVoted(t *testing.T) {
	c := newCluster(t, clusterOpts{stakes: []uint64{1, 1, 1, 1}, seed: 6, timeoutTicks: 10})
	for i := range c.nodes {
		c.nodes[i].invalid["block r3 by "+string(rune('0'+c.set.Leader(c.nodes[0].cfg.Seed, 3)))] = true
	}
	c.run(200)
	c.checkAgreement()
	for _, h := range c.nodes[0].final {
		if b := c.nodes[0].node.Block(h); b != nil && b.Round == 3 {
			t.Fatalf("block of round 3 with an invalid payload was finalized")
		}
	}
	if h := c.minFinal(); h < 20 {
		t.Fatalf("finalized only %d blocks", h)
	}
}

// TestSimulationSeeds is the randomized run: per seed, 4 to 10 validators
// with random stakes, up to f Byzantine validators holding less than a third
// of the stake, random delays, losses and partitions for a chaotic phase,
// then a healed phase. Safety is checked at every finalization; liveness
// is that every honest node finalizes new blocks after the heal.
func TestSimulationSeeds(t *testing.T) {
	if *oneSeed >= 0 {
		simulateSeed(t, uint64(*oneSeed), true)
		return
	}
	n := *seeds
	if testing.Short() {
		n = 40
	}
	for s := 0; s < n; s++ {
		simulateSeed(t, uint64(s), false)
	}
}

// TestSimulationIsReplayable: a run is a function of its seed.
func TestSimulationIsReplayable(t *testing.T) {
	logOf := func(seed uint64) string {
		c := newCluster(t, clusterOpts{stakes: []uint64{3, 1, 4, 1, 5}, seed: seed, timeoutTicks: 10,
			behaviours: map[int]behaviour{1: equivocator}})
		c.minDelay, c.maxDelay, c.dropRate = 1, 5, 0.1
		c.log = &strings.Builder{}
		c.run(60)
		c.partition([]int{0, 1}, []int{2, 3, 4})
		c.run(60)
		c.heal()
		c.run(100)
		return c.log.String()
	}
	a, b := logOf(11), logOf(11)
	if a != b {
		t.Fatal("two runs of one seed differ")
	}
	if a == logOf(12) {
		t.Fatal("two seeds gave the same run")
	}
	if !strings.Contains(a, "finalized") {
		t.Fatal("the replayed run finalized nothing")
	}
}

func simulateSeed(t *testing.T, seed uint64, verbose bool) {
	t.Helper()
	logf := func(format string, args ...any) {
		if verbose {
			t.Logf(format, args...)
		}
	}
	r := newCluster(t, clusterOpts{stakes: []uint64{1}, seed: seed}).rng // only for drawing the setup
	nv := 4 + r.IntN(7)
	stakes := make([]uint64, nv)
	var total uint64
	for i := range stakes {
		stakes[i] = 1 + uint64(r.IntN(100))
		total += stakes[i]
	}
	// Up to f Byzantine validators: a random set whose stake stays below
	// a third, each with a random misbehaviour.
	byz := map[int]behaviour{}
	var byzStake uint64
	want := r.IntN(nv/3 + 1)
	for _, i := range r.Perm(nv) {
		if len(byz) == want {
			break
		}
		if 3*(byzStake+stakes[i]) < total {
			byz[i] = behaviour(1 + r.IntN(5))
			byzStake += stakes[i]
		}
	}
	c := newCluster(t, clusterOpts{stakes: stakes, seed: seed, timeoutTicks: 15, behaviours: byz})
	c.minDelay, c.maxDelay = 1, 1+r.IntN(6)
	c.dropRate = float64(r.IntN(20)) / 100
	c.wire = seed%10 == 0
	logf("seed %d: stakes %v byzantine %v delay 1..%d drop %.2f", seed, stakes, byz, c.maxDelay, c.dropRate)
	status := func() {
		for _, sn := range c.nodes {
			logf("  %v", sn.node.Status())
		}
	}
	// Chaotic phase: partitions come and go, a node may crash and restart.
	crashed := -1
	for phase := 0; phase < 6; phase++ {
		switch r.IntN(4) {
		case 0:
			c.heal()
			logf("heal")
		case 1:
			perm := r.Perm(nv)
			cut := 1 + r.IntN(nv-1)
			c.partition(perm[:cut], perm[cut:])
			logf("partition %v %v", perm[:cut], perm[cut:])
		case 2:
			x := r.IntN(nv)
			c.partition([]int{x})
			logf("isolate %d", x)
		case 3:
			if crashed < 0 {
				crashed = r.IntN(nv)
				c.crash(crashed)
				logf("crash %d", crashed)
			}
		}
		c.run(40 + r.IntN(40))
		status()
	}
	// Heal: no partition, no loss, everyone up.
	c.heal()
	c.dropRate = 0
	if crashed >= 0 {
		c.restart(crashed)
	}
	before := c.minFinal()
	c.run(600)
	logf("after the heal")
	status()
	c.checkAgreement()
	if after := c.minFinal(); after < before+5 {
		t.Fatalf("seed %d (%d validators, byzantine %v, delay ≤%d): finality went from %d to %d after the heal",
			seed, nv, byz, c.maxDelay, before, after)
	}
}

// The randomized conditions with real BLS keys and the wire encoding: a
// Byzantine equivocator, losses, reordering, a partition, a heal.
func TestChaosWithBLS(t *testing.T) {
	c := newCluster(t, clusterOpts{stakes: []uint64{25, 30, 20, 25}, seed: 77, bls: true, timeoutTicks: 12,
		behaviours: map[int]behaviour{2: equivocator}})
	c.wire = true
	c.minDelay, c.maxDelay, c.dropRate = 1, 4, 0.1
	c.run(60)
	c.partition([]int{0, 2}, []int{1, 3})
	c.run(60)
	c.heal()
	c.dropRate = 0
	before := c.minFinal()
	c.run(150)
	c.checkAgreement()
	if after := c.minFinal(); after < before+5 {
		t.Fatalf("finality went from %d to %d after the heal", before, after)
	}
	// Every message, the equivocator's included, is well-formed and
	// signed: nothing is refused as invalid.
	if c.errs != 0 {
		t.Fatalf("%d messages refused", c.errs)
	}
	caught := false
	for _, sn := range c.nodes {
		caught = caught || len(sn.evidence) > 0
	}
	if !caught {
		t.Fatal("the equivocator was never caught")
	}
}

// A later epoch's instance builds on the previous epoch's last finalized
// block (its root) with rounds above epoch<<32: it finalizes from the
// root's height on, every round it uses is above the base, each batch of
// finalized blocks comes with the child that proves the last one final,
// and a certificate from below the base is refused.
func TestEpochInstanceOnRoot(t *testing.T) {
	root := &Block{Parent: Hash{9}, Height: 40, Round: 77, Payload: []byte("last block of epoch 0")}
	const base = 1 << 32
	c := newCluster(t, clusterOpts{stakes: []uint64{1, 2, 3, 4}, seed: 5, timeoutTicks: 20, root: root, roundBase: base})
	c.run(60)
	c.checkAgreement()
	if h := c.minFinal(); h < 10 {
		t.Fatalf("finalized only %d blocks above the root", h)
	}
	if c.errs != 0 {
		t.Fatalf("%d messages refused", c.errs)
	}
	for _, sn := range c.nodes {
		if sn.lastFinal.Round <= base || sn.lastFinal.Height <= root.Height {
			t.Fatalf("finalized %d/r%d: not above the root and the round base", sn.lastFinal.Height, sn.lastFinal.Round)
		}
	}

	// Proofs and refusals on a fresh node.
	n, err := NewNode(Config{ID: 0, Validators: c.set, Scheme: c.schemes[0], Seed: [32]byte{5}, Genesis: root, RoundBase: base})
	if err != nil {
		t.Fatal(err)
	}
	if st := n.Status(); st.Round != base+1 || st.FinalizedHeight != root.Height || st.HighQC.Round != base {
		t.Fatalf("fresh epoch node: %v", st)
	}
	old := &QC{BlockHash: root.Hash(), Height: root.Height, Round: root.Round}
	if err := n.observeQC(old, 1); err == nil || !strings.Contains(err.Error(), "only the root") {
		t.Fatalf("a round-%d certificate of the root under base %d: %v", root.Round, uint64(base), err)
	}
}
