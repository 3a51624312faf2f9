package simplex

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto/vrf"
)

// harness drives one Node with messages forged from the other validators'
// keys, to test each rule on its own.
type harness struct {
	t       *testing.T
	set     *ValidatorSet
	schemes []Scheme
	seed    [32]byte
	genesis *Block
	node    *Node
	me      int
}

// newHarness picks a seed under which `me` leads none of rounds 1..8, so
// every proposal in those rounds comes from a peer.
func newHarness(t *testing.T, stakes []uint64) *harness {
	t.Helper()
	set, schemes := fakeSetup(t, stakes, 9)
	for s := uint64(0); s < 1000; s++ {
		var seed [32]byte
		binary.BigEndian.PutUint64(seed[:], s)
		me := len(stakes) - 1
		ok := true
		for r := uint64(1); r <= 8; r++ {
			if set.Leader(seed, r) == me {
				ok = false
			}
		}
		if !ok {
			continue
		}
		g := &Block{Payload: []byte("genesis")}
		n, err := NewNode(Config{ID: me, Validators: set, Scheme: schemes[me], Seed: seed, Genesis: g, TimeoutTicks: 5})
		if err != nil {
			t.Fatal(err)
		}
		h := &harness{t: t, set: set, schemes: schemes, seed: seed, genesis: g, node: n, me: me}
		h.node.Ready()
		return h
	}
	t.Fatal("no suitable seed")
	return nil
}

// sentProposal is the block of the last MsgPropose among msgs (a node's
// Ready output), nil if it sent none.
func sentProposal(msgs []Message) *Block {
	var b *Block
	for _, m := range msgs {
		if m.Type == MsgPropose {
			b = m.Block
		}
	}
	return b
}

func (h *harness) genesisQC() *QC { return &QC{BlockHash: h.genesis.Hash()} }

func (h *harness) qc(b *Block, signers ...int) *QC {
	bm := NewBitmap(h.set.Len())
	var sigs [][]byte
	for _, i := range signers {
		bm.Set(i)
		sigs = append(sigs, h.schemes[i].Sign(VoteMessage(b.Hash(), b.Height, b.Round)))
	}
	agg, err := h.schemes[0].Aggregate(sigs)
	if err != nil {
		h.t.Fatal(err)
	}
	return &QC{BlockHash: b.Hash(), Height: b.Height, Round: b.Round, Signature: agg, Signers: bm}
}

func (h *harness) tc(round uint64, signers ...int) *TC {
	bm := NewBitmap(h.set.Len())
	var sigs [][]byte
	for _, i := range signers {
		bm.Set(i)
		sigs = append(sigs, h.schemes[i].Sign(NewViewMessage(round)))
	}
	agg, _ := h.schemes[0].Aggregate(sigs)
	return &TC{Round: round, Signature: agg, Signers: bm}
}

// propose builds the leader's proposal for round on justify.
func (h *harness) propose(round uint64, justify *QC, payload string, tc *TC) (Message, *Block) {
	l := h.set.Leader(h.seed, round)
	_, proof := h.schemes[l].VRFProve(vrf.Input(h.seed, justify.Height+1))
	b := &Block{Parent: justify.BlockHash, Height: justify.Height + 1, Round: round, Proposer: l,
		Payload: []byte(payload), VRFProof: proof, Justify: justify}
	sig := h.schemes[l].Sign(VoteMessage(b.Hash(), b.Height, b.Round))
	return Message{Type: MsgPropose, From: l, To: Broadcast, Block: b, Signature: sig, TC: tc}, b
}

// deliver steps m and approves every payload the node asks about.
func (h *harness) deliver(m Message) error {
	err := h.node.Step(m)
	for passes := 0; h.node.HasReady(); passes++ {
		if passes > 10000 {
			h.t.Fatalf("the node still has Ready after %d passes: its Ready never empties", passes)
		}
		rd := h.node.Ready()
		for _, b := range rd.Verify {
			h.node.Verdict(b.Hash(), true)
		}
	}
	return err
}

func TestLockRefusesOlderJustification(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	all := []int{0, 1, 2, 3}
	m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	if err := h.deliver(m1); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.LastVoted != 1 || s.Locked != 0 {
		t.Fatalf("after round 1: %v", s)
	}
	m2, b2 := h.propose(2, h.qc(b1, all...), "b2", nil)
	if err := h.deliver(m2); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.LastVoted != 2 || s.Locked != 1 {
		t.Fatalf("after round 2: %v", s)
	}
	// Rounds 2 and 3 time out. Round 4's leader builds on genesis, which
	// conflicts with b1 that the node is locked on: no vote.
	m4, _ := h.propose(4, h.genesisQC(), "fork", h.tc(3, all...))
	if err := h.deliver(Message{Type: MsgNewView, From: 0, Round: 2, Signature: h.schemes[0].Sign(NewViewMessage(2)), QC: h.genesisQC(), TC: h.tc(2, all...)}); err != nil {
		t.Fatal(err)
	}
	if err := h.deliver(m4); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.Round != 4 || s.LastVoted != 2 {
		t.Fatalf("voted for a block below its lock: %v", s)
	}
	// Round 5 builds on b2's certificate (round 2 ≥ lock 1): vote.
	m5, _ := h.propose(5, h.qc(b2, all...), "b5", h.tc(4, all...))
	if err := h.deliver(m5); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.Round != 5 || s.LastVoted != 5 || s.Locked != 2 {
		t.Fatalf("did not vote for a block above its lock: %v", s)
	}
}

func TestOneVotePerRound(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	m1, _ := h.propose(1, h.genesisQC(), "a", nil)
	if err := h.deliver(m1); err != nil {
		t.Fatal(err)
	}
	// The leader equivocates: the second proposal of round 1 gets no vote.
	m1b, _ := h.propose(1, h.genesisQC(), "b", nil)
	votes := 0
	if err := h.node.Step(m1b); err != nil {
		t.Fatal(err)
	}
	for h.node.HasReady() {
		rd := h.node.Ready()
		for _, b := range rd.Verify {
			h.node.Verdict(b.Hash(), true)
		}
		for _, m := range rd.Messages {
			if m.Type == MsgVote {
				votes++
			}
		}
	}
	if votes != 0 {
		t.Fatalf("voted %d times for a second proposal in round 1", votes)
	}
}

func TestRefusesBadProposals(t *testing.T) {
	all := []int{0, 1, 2, 3}
	cases := []struct {
		name   string
		build  func(h *harness) Message
		reason string
	}{
		{"not the leader", func(h *harness) Message {
			m, _ := h.propose(1, h.genesisQC(), "x", nil)
			m.From = (m.From + 1) % 3
			m.Block.Proposer = m.From
			return m
		}, "does not lead"},
		{"bad proposer signature", func(h *harness) Message {
			m, _ := h.propose(1, h.genesisQC(), "x", nil)
			m.Signature = h.schemes[m.From].Sign([]byte("other"))
			return m
		}, "bad proposer signature"},
		{"bad VRF proof", func(h *harness) Message {
			m, b := h.propose(1, h.genesisQC(), "x", nil)
			_, b.VRFProof = h.schemes[b.Proposer].VRFProve(vrf.Input(h.seed, 7))
			m.Signature = h.schemes[b.Proposer].Sign(VoteMessage(b.Hash(), b.Height, b.Round))
			return m
		}, "bad VRF proof"},
		{"certificate without quorum", func(h *harness) Message {
			_, b1 := h.propose(1, h.genesisQC(), "x", nil)
			m, _ := h.propose(2, h.qc(b1, 0, 1), "y", nil)
			return m
		}, "not a quorum"},
		{"certificate with a forged signer", func(h *harness) Message {
			_, b1 := h.propose(1, h.genesisQC(), "x", nil)
			q := h.qc(b1, 0, 1, 2)
			q.Signers.Set(3) // claims 3 signed, signature has 3 parts
			m, _ := h.propose(2, q, "y", nil)
			return m
		}, "bad aggregate"},
		{"skips a round without a timeout certificate", func(h *harness) Message {
			m, _ := h.propose(3, h.genesisQC(), "x", nil)
			return m
		}, "no timeout certificate"},
		{"timeout certificate without quorum", func(h *harness) Message {
			m, _ := h.propose(3, h.genesisQC(), "x", h.tc(2, 0, 1))
			return m
		}, "not a quorum"},
		{"parent is not what the certificate certifies", func(h *harness) Message {
			m, b := h.propose(1, h.genesisQC(), "x", nil)
			b.Parent[0] ^= 1
			m.Signature = h.schemes[b.Proposer].Sign(VoteMessage(b.Hash(), b.Height, b.Round))
			return m
		}, "does not certify the parent"},
		{"fake genesis certificate", func(h *harness) Message {
			q := h.genesisQC()
			q.BlockHash[0] ^= 1
			m, _ := h.propose(1, q, "x", nil)
			return m
		}, "only the root"},
	}
	_ = all
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, []uint64{1, 1, 1, 1})
			err := h.deliver(c.build(h))
			if err == nil || !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("error %v, want one mentioning %q", err, c.reason)
			}
			if s := h.node.Status(); s.LastVoted != 0 {
				t.Fatalf("voted after a refused proposal: %v", s)
			}
		})
	}
}

func TestQuorumIsStrictlyMoreThanTwoThirds(t *testing.T) {
	bm := func(n int, idx ...int) Bitmap {
		b := NewBitmap(n)
		for _, i := range idx {
			b.Set(i)
		}
		return b
	}
	cases := []struct {
		stakes []uint64
		signed []int
		quorum bool
	}{
		{[]uint64{1, 1, 1}, []int{0, 1}, false}, // exactly 2/3
		{[]uint64{1, 1, 1}, []int{0, 1, 2}, true},
		{[]uint64{1, 1, 1, 1}, []int{0, 1, 2}, true},
		{[]uint64{1, 1, 1, 1}, []int{0, 1}, false},
		{[]uint64{1, 1, 1, 10}, []int{3}, true},         // 10/13 by stake alone
		{[]uint64{10, 10, 10, 1}, []int{0, 1}, false},   // 20/31
		{[]uint64{10, 10, 10, 1}, []int{0, 1, 3}, true}, // 21/31 > 2/3
		{[]uint64{10, 10, 10, 1}, []int{0, 1, 2}, true},
		{[]uint64{^uint64(0), ^uint64(0), ^uint64(0)}, []int{0, 1}, false}, // no overflow
	}
	for _, c := range cases {
		vs := make([]Validator, len(c.stakes))
		for i, s := range c.stakes {
			vs[i].Stake = s
		}
		set, err := NewValidatorSet(vs)
		if err != nil {
			t.Fatal(err)
		}
		if got := set.IsQuorum(bm(len(c.stakes), c.signed...)); got != c.quorum {
			t.Errorf("stakes %v signed %v: quorum %v, want %v", c.stakes, c.signed, got, c.quorum)
		}
	}
}

func TestLeaderDrawFollowsStake(t *testing.T) {
	cases := [][]uint64{
		{10, 20, 30, 40},
		{1, 1, 1, 1, 1, 1, 1},
		{100, 1, 1, 1},
		{5, 5, 5, 5, 5, 5, 5, 5, 5, 30, 30},
		{3, 7},
	}
	for _, stakes := range cases {
		t.Run(fmt.Sprint(stakes), func(t *testing.T) {
			vs := make([]Validator, len(stakes))
			for i, s := range stakes {
				vs[i].Stake = s
			}
			set, _ := NewValidatorSet(vs)
			counts := make([]int, len(stakes))
			const rounds = 40000
			prev := -1
			for r := uint64(1); r <= rounds; r++ {
				l := set.Leader([32]byte{7}, r)
				if l == prev {
					t.Fatalf("validator %d leads rounds %d and %d", l, r-1, r)
				}
				prev = l
				counts[l]++
			}
			want := leaderShares(stakes)
			chi2 := 0.0
			for i := range stakes {
				e := want[i] * rounds
				chi2 += (float64(counts[i]) - e) * (float64(counts[i]) - e) / e
				t.Logf("validator %d stake %d: led %d, expected %.0f (stake share %.0f)", i, stakes[i], counts[i], e, float64(stakes[i])*rounds/float64(sum(stakes)))
			}
			// 99.9% quantile of chi-square with len−1 degrees of freedom
			// (at most 10 here): 29.59; a fixed seed makes the test
			// deterministic.
			if chi2 > 29.59 {
				t.Fatalf("chi-square %.1f over %d validators: frequencies do not match the draw", chi2, len(stakes))
			}
		})
	}
	set, _ := NewValidatorSet([]Validator{{Stake: 1}, {Stake: 2}, {Stake: 3}, {Stake: 4}})
	differ := false
	for r := uint64(1); r < 20; r++ {
		differ = differ || set.Leader([32]byte{7}, r) != set.Leader([32]byte{8}, r)
	}
	if !differ {
		t.Error("the epoch seed does not change the draw")
	}
}

func sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

// leaderShares is the exact long-run share of rounds each validator leads
// under Leader's rule: half the rounds are a plain draw by stake p_i; the
// other half draw by stake among everyone but the two neighbouring
// even-round leaders a and b (independent draws by stake).
func leaderShares(stakes []uint64) []float64 {
	n := len(stakes)
	p := make([]float64, n)
	for i, s := range stakes {
		p[i] = float64(s) / float64(sum(stakes))
	}
	out := make([]float64, n)
	if n == 2 {
		return []float64{0.5, 0.5}
	}
	for i := range out {
		out[i] = p[i] / 2
	}
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			rest := 1 - p[a] - p[b]
			if a == b {
				rest = 1 - p[a]
			}
			for i := 0; i < n; i++ {
				if i != a && i != b {
					out[i] += p[a] * p[b] * p[i] / rest / 2
				}
			}
		}
	}
	return out
}

// A bad signature among the buffered votes fails the aggregate; the
// collector drops it and certifies with the good ones.
func TestCollectorDropsBadSignature(t *testing.T) {
	set, schemes := fakeSetup(t, []uint64{1, 1, 1, 1, 1}, 3)
	msg := VoteMessage(Hash{1}, 1, 1)
	c := newCollector(5)
	c.add(0, schemes[0].Sign(msg), nil)
	c.add(1, schemes[1].Sign([]byte("wrong")), nil)
	c.add(2, schemes[2].Sign(msg), nil)
	c.add(3, schemes[3].Sign(msg), nil)
	if _, _, ok := c.quorum(set, schemes[0], msg); ok {
		t.Fatal("certified with a bad signature among four of five")
	}
	c.add(1, schemes[1].Sign(msg), nil) // a dropped signer cannot come back
	c.add(4, schemes[4].Sign(msg), nil)
	signers, agg, ok := c.quorum(set, schemes[0], msg)
	if !ok {
		t.Fatal("no certificate from four good signatures")
	}
	if signers.Has(1) || signers.Count() != 4 || !schemes[0].VerifyAggregate(signers.Indices(), msg, agg) {
		t.Fatalf("certificate signers %v", signers.Indices())
	}
}

func TestRestartDoesNotVoteTwice(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	m1, _ := h.propose(1, h.genesisQC(), "a", nil)
	if err := h.node.Step(m1); err != nil {
		t.Fatal(err)
	}
	var hs *HardState
	for h.node.HasReady() {
		rd := h.node.Ready()
		for _, b := range rd.Verify {
			h.node.Verdict(b.Hash(), true)
		}
		if rd.HardState != nil {
			hs = rd.HardState
		}
	}
	if hs == nil || hs.LastVoted != 1 {
		t.Fatalf("hard state after voting: %+v", hs)
	}
	n2, err := NewNode(Config{ID: h.me, Validators: h.set, Scheme: h.schemes[h.me], Seed: h.seed, Genesis: h.genesis, Restore: hs})
	if err != nil {
		t.Fatal(err)
	}
	n2.Ready()
	m1b, _ := h.propose(1, h.genesisQC(), "b", nil)
	if err := n2.Step(m1b); err != nil {
		t.Fatal(err)
	}
	for n2.HasReady() {
		rd := n2.Ready()
		for _, b := range rd.Verify {
			n2.Verdict(b.Hash(), true)
		}
		for _, m := range rd.Messages {
			if m.Type == MsgVote {
				t.Fatal("restarted node voted a second time in round 1")
			}
		}
	}
}

func TestStepRefusesUnknownSender(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	if err := h.node.Step(Message{Type: MsgVote, From: 9, Round: 1, Signature: []byte{1}}); err == nil {
		t.Fatal("message from outside the set accepted")
	}
}

func TestSafetyViolationHalts(t *testing.T) {
	// With every key forged (more than a third Byzantine, here all of
	// them) two conflicting chains can both be certified in consecutive
	// rounds; the node must notice and halt rather than apply both.
	h := newHarness(t, []uint64{1, 1, 1, 1})
	all := []int{0, 1, 2, 3}
	m1, b1 := h.propose(1, h.genesisQC(), "a", nil)
	m2, b2 := h.propose(2, h.qc(b1, all...), "a2", nil)
	m3, _ := h.propose(3, h.qc(b2, all...), "a3", nil)
	for _, m := range []Message{m1, m2, m3} {
		if err := h.deliver(m); err != nil {
			t.Fatal(err)
		}
	}
	if h.node.Status().FinalizedHeight != 1 {
		t.Fatalf("b1 not final: %v", h.node.Status())
	}
	// A conflicting b1' at round 4 with child at round 5, certified.
	_, c1 := h.propose(4, h.genesisQC(), "fork", h.tc(3, all...))
	_, c2 := h.propose(5, h.qc(c1, all...), "fork2", nil)
	m6, _ := h.propose(6, h.qc(c2, all...), "fork3", nil)
	_ = h.deliver(Message{Type: MsgBlock, From: 0, Blocks: []*Block{c1}})
	h.node.wanted[c1.Hash()] = true
	h.node.wanted[c2.Hash()] = true
	_ = h.deliver(Message{Type: MsgBlock, From: 0, Blocks: []*Block{c1}})
	_ = h.deliver(Message{Type: MsgBlock, From: 0, Blocks: []*Block{c2}})
	_ = h.deliver(m6)
	if err := h.node.Halted(); !errors.Is(err, ErrSafety) {
		t.Fatalf("conflicting finality not detected: %v (status %v)", err, h.node.Status())
	}
}

// The counterexample of docs/consensus.md: under the plain rule "a block is
// final when its direct child has a QC", B1 and X (both height 1) would
// both be final. With the consecutive-round rule neither is.
func TestPlainTwoChainCounterexampleIsNotFinal(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	all := []int{0, 1, 2, 3}
	m1, b1 := h.propose(1, h.genesisQC(), "B1", nil)
	mX, x := h.propose(3, h.genesisQC(), "X", h.tc(2, all...))
	mC, c := h.propose(5, h.qc(b1, all...), "C", h.tc(4, all...))
	mY, y := h.propose(6, h.qc(x, all...), "Y", h.tc(5, all...))
	for _, m := range []Message{m1, mX, mC, mY} {
		if err := h.deliver(m); err != nil {
			t.Fatal(err)
		}
		if s := h.node.Status(); s.LastVoted != m.Block.Round {
			t.Fatalf("round %d: the node should vote under the locking rule: %v", m.Block.Round, s)
		}
	}
	// Now the node learns both children's certificates.
	for _, q := range []*QC{h.qc(c, all...), h.qc(y, all...)} {
		nv := Message{Type: MsgNewView, From: 0, Round: 6, Signature: h.schemes[0].Sign(NewViewMessage(6)), QC: q}
		if err := h.deliver(nv); err != nil {
			t.Fatal(err)
		}
	}
	if s := h.node.Status(); s.FinalizedHeight != 0 || h.node.Halted() != nil {
		t.Fatalf("a block became final without a consecutive-round child: %v (halted: %v)", s, h.node.Halted())
	}
	// The rule is not vacuous: a child of Y from round 7, once certified,
	// does finalize Y and X.
	m7, z := h.propose(7, h.qc(y, all...), "Z", nil)
	if err := h.deliver(m7); err != nil {
		t.Fatal(err)
	}
	nv := Message{Type: MsgNewView, From: 0, Round: 7, Signature: h.schemes[0].Sign(NewViewMessage(7)), QC: h.qc(z, all...)}
	if err := h.deliver(nv); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.FinalizedHeight != 2 || s.FinalizedHash != y.Hash() {
		t.Fatalf("Y not final after its round-7 child was certified: %v", s)
	}
}

func TestBeaconAndEpochSeed(t *testing.T) {
	set, schemes := blsSetup(t, []uint64{1, 1})
	_ = set
	in := vrf.Input([32]byte{5}, 9)
	out, proof := schemes[1].VRFProve(in)
	b := &Block{Height: 9, VRFProof: proof}
	if b.Beacon() != out {
		t.Fatal("beacon is not the VRF output of the block's proof")
	}
	s1 := vrf.NextEpochSeed([32]byte{5}, out)
	if s1 == vrf.NextEpochSeed([32]byte{5}, [32]byte{}) || s1 == vrf.NextEpochSeed([32]byte{6}, out) {
		t.Fatal("next epoch seed ignores an input")
	}
	if s1 != vrf.NextEpochSeed([32]byte{5}, out) {
		t.Fatal("next epoch seed is not deterministic")
	}
}

// A proposal's timeout certificate is verified even when the node already
// knows that the round timed out.
func TestForgedTCRefusedEvenWhenRoundKnownTimedOut(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	all := []int{0, 1, 2, 3}
	nv := Message{Type: MsgNewView, From: 0, Round: 2, Signature: h.schemes[0].Sign(NewViewMessage(2)), QC: h.genesisQC(), TC: h.tc(2, all...)}
	if err := h.deliver(nv); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.Round != 3 {
		t.Fatalf("TC(2) did not move the node to round 3: %v", s)
	}
	forged := h.tc(2, all...)
	forged.Signature = h.tc(1, all...).Signature // a real aggregate, of another round
	m, _ := h.propose(3, h.genesisQC(), "x", forged)
	if err := h.deliver(m); err == nil || !strings.Contains(err.Error(), "bad aggregate") {
		t.Fatalf("forged TC: %v", err)
	}
	if s := h.node.Status(); s.LastVoted != 0 {
		t.Fatalf("voted on a proposal with a forged TC: %v", s)
	}
}

// The leader forms a certificate at quorum, but the proposal it sends
// when the block time has passed carries every vote that reached it by
// then: the chain counts missed votes from justify certificates, so a
// quorum-only certificate would blame honest, slower validators.
func TestProposalCarriesLateVotes(t *testing.T) {
	set, schemes := fakeSetup(t, []uint64{1, 1, 1, 1}, 9)
	for s := uint64(0); s < 1000; s++ {
		var seed [32]byte
		binary.BigEndian.PutUint64(seed[:], s)
		me := set.Leader(seed, 2)
		l1 := set.Leader(seed, 1)
		if me == l1 {
			continue
		}
		g := &Block{Payload: []byte("genesis")}
		n, err := NewNode(Config{ID: me, Validators: set, Scheme: schemes[me], Seed: seed, Genesis: g, TimeoutTicks: 50})
		if err != nil {
			t.Fatal(err)
		}
		h := &harness{t: t, set: set, schemes: schemes, seed: seed, genesis: g, node: n, me: me}
		h.node.Ready()
		m, b1 := h.propose(1, h.genesisQC(), "b1", nil)
		if err := h.deliver(m); err != nil {
			t.Fatal(err)
		}
		// me voted for b1 (to itself) and l1's proposal is its vote: one
		// more forms the quorum, the last one comes late.
		var others []int
		for i := 0; i < 4; i++ {
			if i != me && i != l1 {
				others = append(others, i)
			}
		}
		vote := func(i int) Message {
			return Message{Type: MsgVote, From: i, To: me, BlockHash: b1.Hash(), Height: 1, Round: 1,
				Signature: schemes[i].Sign(VoteMessage(b1.Hash(), 1, 1))}
		}
		var req *ProposeRequest
		step := func(m Message) {
			if err := n.Step(m); err != nil {
				t.Fatal(err)
			}
			for n.HasReady() {
				if rd := n.Ready(); rd.ProposeRequest != nil {
					req = rd.ProposeRequest
				}
			}
		}
		step(vote(others[0]))
		if req == nil || req.Round != 2 {
			t.Fatalf("no propose request after the quorum: %+v", req)
		}
		if q := n.Status().HighQC; q.Signers.Count() != 3 {
			t.Fatalf("certificate formed with %d signers, want 3 (at quorum)", q.Signers.Count())
		}
		step(vote(others[1]))
		if err := n.Propose(2, []byte("b2")); err != nil {
			t.Fatal(err)
		}
		sent := sentProposal(n.Ready().Messages)
		if sent == nil || sent.Justify.Signers.Count() != 4 {
			t.Fatalf("proposal justify %+v, want all 4 signers", sent)
		}
		if !schemes[0].VerifyAggregate(sent.Justify.Signers.Indices(), VoteMessage(b1.Hash(), 1, 1), sent.Justify.Signature) {
			t.Fatal("the fuller certificate does not verify")
		}
		return
	}
	t.Fatal("no suitable seed")
}

// LeaderUnreachable gives the round up early, after the grace ticks, and
// only while nothing was proposed in it; a report about another round or
// after a proposal changes nothing.
func TestLeaderUnreachableGivesUpEarly(t *testing.T) {
	newViews := func(h *harness) int {
		c := 0
		for h.node.HasReady() {
			for _, m := range h.node.Ready().Messages {
				if m.Type == MsgNewView {
					c++
				}
			}
		}
		return c
	}
	h := newHarness(t, []uint64{1, 1, 1, 1}) // TimeoutTicks 5
	for i := 0; i < UnreachableGraceTicks-1; i++ {
		h.node.Tick()
	}
	h.node.LeaderUnreachable(1)
	h.node.LeaderUnreachable(2)
	if c := newViews(h); c != 0 || h.node.Status().TimedOut {
		t.Fatalf("gave up before the grace ticks: %d NEW_VIEWs", c)
	}
	h.node.Tick()
	h.node.LeaderUnreachable(2) // not the current round
	if newViews(h) != 0 {
		t.Fatal("a report about another round gave this one up")
	}
	h.node.LeaderUnreachable(1)
	if c := newViews(h); c != 1 || !h.node.Status().TimedOut {
		t.Fatalf("leader unreachable after the grace ticks: %d NEW_VIEWs", c)
	}

	// Once the round's proposal is in, the report changes nothing.
	h = newHarness(t, []uint64{1, 1, 1, 1})
	m, _ := h.propose(1, h.genesisQC(), "b1", nil)
	if err := h.deliver(m); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < UnreachableGraceTicks; i++ {
		h.node.Tick()
	}
	h.node.LeaderUnreachable(1)
	if c := newViews(h); c != 0 {
		t.Fatalf("gave up a round whose proposal came: %d NEW_VIEWs", c)
	}
}
