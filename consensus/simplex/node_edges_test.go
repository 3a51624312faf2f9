package simplex

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// The rules of node.go that the tests of node_test.go and
// node_mutation_test.go left unpinned (found by mutation testing, see
// docs/testing.md): restored state at the root's edges, which certified
// blocks are reported and which proof of finality stands, proposals
// waiting for their parent, FETCH answered from the store and at the
// root, replies reaching the final height, and what pruneBlocks keeps.

// TestFinalizedTipAboveTheRoot: a FinalizedTip is taken only above the
// root's height; one at the root's height (it can only be the root, on
// the root's chain) leaves the root as the finalized block.
func TestFinalizedTipAboveTheRoot(t *testing.T) {
	root := &Block{Height: 5, Round: 7, Payload: []byte("epoch root")}
	same := &Block{Height: 5, Round: 7, Payload: []byte("another block at the root's height")}
	above := &Block{Parent: root.Hash(), Height: 6, Round: 8, Payload: []byte("above")}
	for _, tc := range []struct {
		name string
		tip  *Block
		want *Block
	}{
		{"none", nil, root},
		{"at the root's height", same, root},
		{"above the root", above, above},
	} {
		h, err := newNodeWith(t, 3, func(c *Config) { c.Genesis, c.FinalizedTip = root, tc.tip })
		if err != nil {
			t.Fatal(err)
		}
		s := h.node.Status()
		if s.FinalizedHash != tc.want.Hash() || s.FinalizedHeight != tc.want.Height {
			t.Errorf("%s: finalized %s at height %d, want %s at %d", tc.name, Short(s.FinalizedHash), s.FinalizedHeight, Short(tc.want.Hash()), tc.want.Height)
		}
	}
}

// TestRestoredHighQCAboveTheRoot: a restored highest certificate replaces
// the root's only if it is from a round above the root's (RoundBase): one
// of an earlier instance at that round is not this instance's.
func TestRestoredHighQCAboveTheRoot(t *testing.T) {
	h0 := newHarness(t, []uint64{1, 1, 1, 1})
	all := []int{0, 1, 2, 3}
	for _, tc := range []struct {
		round uint64
		taken bool
	}{{8, false}, {9, true}} {
		old := &Block{Parent: h0.genesis.Hash(), Height: 1, Round: tc.round, Payload: []byte("restored")}
		qc := h0.qc(old, all...)
		h, err := newNodeWith(t, 3, func(c *Config) {
			c.RoundBase = 8
			c.Restore = &HardState{Round: 3, LastVoted: 2, Locked: 1, HighQC: qc}
		})
		if err != nil {
			t.Fatal(err)
		}
		got := h.node.Status().HighQC
		if taken := got.BlockHash == old.Hash(); taken != tc.taken {
			t.Errorf("restored certificate of round %d with RoundBase 8: taken %v, want %v", tc.round, taken, tc.taken)
		}
		if !tc.taken && (got.BlockHash != h.genesis.Hash() || got.Round != 8) {
			t.Errorf("highest certificate %v, want the root's at round 8", got)
		}
	}
}

// countAggScheme counts the aggregate verifications a node makes.
type countAggScheme struct {
	Scheme
	n *int
}

func (s countAggScheme) VerifyAggregate(signers []int, msg, agg []byte) bool {
	*s.n++
	return s.Scheme.VerifyAggregate(signers, msg, agg)
}

// leaderOf2 builds validator l2 (the leader of round 2, not of round 1)
// with an aggregate-counting scheme, and the proposal of round 1.
func leaderOf2(t *testing.T) (*harness, *int, Message, *Block, int, []int) {
	t.Helper()
	h0 := newHarness(t, []uint64{1, 1, 1, 1})
	l1, l2 := h0.set.Leader(h0.seed, 1), h0.set.Leader(h0.seed, 2)
	if l1 == l2 {
		t.Fatal("one validator leads rounds 1 and 2 under the harness seed")
	}
	aggs := new(int)
	h, err := newNodeWith(t, l2, func(c *Config) { c.Scheme = countAggScheme{c.Scheme, aggs} })
	if err != nil {
		t.Fatal(err)
	}
	m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	var others []int
	for i := 0; i < 4; i++ {
		if i != l1 && i != l2 {
			others = append(others, i)
		}
	}
	return h, aggs, m1, b1, l1, others
}

// TestLateVoteDoesNotReformTheCertificate: once the leader of round 2
// formed b1's certificate, a late vote is only kept for the proposal's
// justify (fullerQC): no aggregate is checked for it, and the certificate
// the node holds stays the one formed at quorum until it proposes.
func TestLateVoteDoesNotReformTheCertificate(t *testing.T) {
	h, aggs, m1, b1, _, others := leaderOf2(t)
	if err := h.deliver(m1); err != nil {
		t.Fatal(err)
	}
	if err := h.deliver(h.vote(others[0], b1)); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.Round != 2 || len(s.HighQC.Signers.Indices()) != 3 {
		t.Fatalf("no 3-signer certificate for b1 at quorum: %v", s)
	}
	before := *aggs
	if err := h.deliver(h.vote(others[1], b1)); err != nil {
		t.Fatal(err)
	}
	if *aggs != before {
		t.Errorf("a vote after the quorum cost %d aggregate checks, want 0", *aggs-before)
	}
	for _, k := range h.node.Known() {
		if k.Hash == b1.Hash() && (k.QC == nil || len(k.QC.Signers.Indices()) != 3) {
			t.Errorf("b1's certificate after a late vote: %v, want the 3-signer one formed at quorum", k.QC)
		}
	}
}

// TestPeerCertificateStandsAgainstAnEqualCollector: the leader of round 2
// holds a peer's certificate for b1 (signers l1 and the two others) and
// four votes of its own, one with a bad signature. Re-aggregating its
// votes leaves three signers, no more than the peer's certificate, so the
// proposal's justify is the peer's certificate, unchanged.
func TestPeerCertificateStandsAgainstAnEqualCollector(t *testing.T) {
	h, _, m1, b1, l1, others := leaderOf2(t)
	if err := h.deliver(m1); err != nil { // l1's vote and l2's own
		t.Fatal(err)
	}
	peer := h.qc(b1, l1, others[0], others[1])
	if err := h.deliver(h.newView(l1, 1, peer, nil)); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.Round != 2 {
		t.Fatalf("the peer's certificate did not move the node: %v", s)
	}
	bad := h.vote(others[1], b1)
	bad.Signature = h.schemes[others[1]].Sign([]byte("not the vote"))
	for _, m := range []Message{h.vote(others[0], b1), bad} {
		if err := h.node.Step(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.node.Propose(2, []byte("b2")); err != nil {
		t.Fatal(err)
	}
	prop := sentProposal(h.node.Ready().Messages)
	if prop == nil {
		t.Fatal("no proposal sent")
	}
	if got, want := fmt.Sprint(prop.Justify.Signers.Indices()), fmt.Sprint(peer.Signers.Indices()); got != want {
		t.Fatalf("justify names %s, want the peer's certificate's %s", got, want)
	}
}

// TestCommittedOnlyAboveTheFinalHeight: a block certified after its height
// became final (a fork c at height 1, once b1 is final) is not reported in
// Committed.
func TestCommittedOnlyAboveTheFinalHeight(t *testing.T) {
	h, err := newNodeWith(t, -1, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := []int{0, 1, 2, 3}
	mc, c := h.propose(1, h.genesisQC(), "c", nil)
	m1, b1 := h.propose(2, h.genesisQC(), "b1", h.tc(1, all...))
	m2, b2 := h.propose(3, h.qc(b1, all...), "b2", nil)
	m3, _ := h.propose(4, h.qc(b2, all...), "b3", nil)
	for _, m := range []Message{mc, m1, m2, m3} {
		if err := h.deliver(m); err != nil {
			t.Fatal(err)
		}
	}
	if s := h.node.Status(); s.FinalizedHash != b1.Hash() || h.node.Block(c.Hash()) == nil {
		t.Fatalf("want b1 final and the fork c held: %v", s)
	}
	if err := h.node.Step(h.newView(0, 4, h.qc(c, all...), nil)); err != nil {
		t.Fatal(err)
	}
	for _, cc := range h.node.Ready().Committed {
		if cc.Block.Hash() == c.Hash() {
			t.Fatal("the fork at the final height was reported committed")
		}
	}
}

// finalized runs Ready and returns the heights it finalized and its proof.
func finalized(n *Node) ([]uint64, *Certified) {
	rd := n.Ready()
	var got []uint64
	for _, c := range rd.Finalized {
		got = append(got, c.Block.Height)
	}
	return got, rd.FinalProof
}

// TestFinalityProofWhenTheBlockArrives: a follower that missed b2 knows
// b2 final (b3 certified in the round after b2's); when b2 arrives and is
// certified itself, that proves only b1, below what is already proven:
// b1 and b2 are finalized, with b3 as the proof.
func TestFinalityProofWhenTheBlockArrives(t *testing.T) {
	h, err := newNodeWith(t, -1, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := []int{0, 1, 2, 3}
	m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	_, b2 := h.propose(2, h.qc(b1, all...), "b2", nil)
	m3, b3 := h.propose(3, h.qc(b2, all...), "b3", nil)
	m4, _ := h.propose(4, h.qc(b3, all...), "b4", nil)
	for _, m := range []Message{m1, m3, m4} {
		if err := h.deliver(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.node.Step(Message{Type: MsgBlock, From: 0, Blocks: []*Block{b2}}); err != nil {
		t.Fatal(err)
	}
	got, proof := finalized(h.node)
	if fmt.Sprint(got) != "[1 2]" || proof == nil || proof.Block.Hash() != b3.Hash() {
		t.Fatalf("finalized %v with proof %v, want [1 2] proven by b3", got, proof)
	}
}

// TestFirstFinalityProofStands: two blocks of round 2 on the missing p
// are both certified (a Byzantine quorum signed both); the first
// certificate learned proves p final, and the second, proving the same
// height, does not replace it as the proof delivered with p.
func TestFirstFinalityProofStands(t *testing.T) {
	h, err := newNodeWith(t, -1, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := []int{0, 1, 2, 3}
	_, p := h.propose(1, h.genesisQC(), "p", nil)
	ma, a := h.propose(2, h.qc(p, all...), "a", nil)
	_, b := h.propose(2, h.qc(p, all...), "b", nil)
	if err := h.deliver(ma); err != nil {
		t.Fatal(err)
	}
	for _, x := range []*Block{a, b} {
		if err := h.deliver(h.newView(0, 3, h.qc(x, all...), nil)); err != nil {
			t.Fatal(err)
		}
	}
	for _, x := range []*Block{b, p} {
		if err := h.deliver(Message{Type: MsgBlock, From: 0, Blocks: []*Block{x}}); err != nil {
			t.Fatal(err)
		}
	}
	// deliver drained Ready; the finality is in the node's state.
	if s := h.node.Status(); s.FinalizedHash != p.Hash() {
		t.Fatalf("p not final: %v", s)
	}
	h2, err := newNodeWith(t, -1, nil)
	if err != nil {
		t.Fatal(err)
	}
	h2.node.Step(ma)
	for _, x := range []*Block{a, b} {
		h2.node.Step(h2.newView(0, 3, h2.qc(x, all...), nil))
	}
	for _, x := range []*Block{b, p} {
		if err := h2.node.Step(Message{Type: MsgBlock, From: 0, Blocks: []*Block{x}}); err != nil {
			t.Fatal(err)
		}
	}
	got, proof := finalized(h2.node)
	if fmt.Sprint(got) != "[1]" || proof == nil || proof.Block.Hash() != a.Hash() {
		t.Fatalf("finalized %v with proof %v, want [1] proven by a, the first certified", got, proof)
	}
}

// TestCertifiedChildOfAForgedRootHalts: a quorum certifying a block x at
// height 0 other than the root, and then a child of x in the next round,
// proves x final at height 0, where the root is: conflicting finality, the
// node halts.
func TestCertifiedChildOfAForgedRootHalts(t *testing.T) {
	h, err := newNodeWith(t, -1, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := []int{0, 1, 2, 3}
	x := &Block{Height: 0, Round: 1, Payload: []byte("not the root")}
	mc, c := h.propose(2, h.qc(x, all...), "c", nil)
	if err := h.deliver(mc); err != nil {
		t.Fatal(err)
	}
	h.node.Step(h.newView(0, 2, h.qc(c, all...), nil))
	if err := h.node.Halted(); !errors.Is(err, ErrSafety) {
		t.Fatalf("halted %v, want ErrSafety", err)
	}
}

// TestProposalAtTheFinalHeightNotStored: a proposal for a height already
// final (on the root, once b1 is final) is not stored.
func TestProposalAtTheFinalHeightNotStored(t *testing.T) {
	h, err := newNodeWith(t, -1, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := []int{0, 1, 2, 3}
	bs := h.chain(h.genesisQC(), 1, 3)
	if err := h.deliver(h.newView(0, 3, h.qc(bs[2], all...), nil)); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.FinalizedHeight != 2 || s.Round != 4 {
		t.Fatalf("want b2 final in round 4: %v", s)
	}
	m, low := h.propose(4, h.qc(bs[0], all...), "at the final height", h.tc(3, all...))
	if err := h.deliver(m); err != nil {
		t.Fatal(err)
	}
	if h.node.Block(low.Hash()) != nil {
		t.Fatal("a proposal at the final height was stored")
	}
}

// TestParkedProposalVotedWhenItsParentArrives: the proposal of the
// current round on a parent the node lacks waits for it; once the parent
// comes in a BLOCK reply, the proposal is judged and voted for.
func TestParkedProposalVotedWhenItsParentArrives(t *testing.T) {
	h, err := newNodeWith(t, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := []int{0, 1, 2, 3}
	_, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	m2, b2 := h.propose(2, h.qc(b1, all...), "b2", nil)
	if err := h.deliver(m2); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.Round != 2 || s.LastVoted != 0 {
		t.Fatalf("want round 2, no vote yet: %v", s)
	}
	if err := h.deliver(Message{Type: MsgBlock, From: b2.Proposer, Blocks: []*Block{b1}}); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.LastVoted != 2 || s.Locked != 1 {
		t.Fatalf("after b1 arrived: %v, want a vote for b2 in round 2", s)
	}
}

// TestFetchAnswers: FETCH is answered with at most Count blocks, from the
// store for blocks pruned from memory, and a FETCH of the root with the
// root alone.
func TestFetchAnswers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		store   bool
		from    int // height asked for (0: the root)
		count   int
		heights string
	}{
		{"in memory, count 2", false, 20, 2, "[20 19]"},
		{"pruned, no store", false, 5, 3, "[]"},
		{"pruned, from the store", true, 5, 3, "[5 4 3]"},
		{"the root, from the store", true, 0, 5, "[0]"},
	} {
		st := memStore{}
		h, err := newNodeWith(t, 3, func(c *Config) {
			c.KeepFinalized = 4
			if tc.store {
				c.Store = st
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		blocks := h.chain(h.genesisQC(), 1, 20)
		h.node.Ready()
		for _, b := range append(blocks, h.genesis) {
			st[b.Hash()] = b
		}
		want := h.genesis.Hash()
		if tc.from > 0 {
			want = blocks[tc.from-1].Hash()
		}
		if err := h.node.Step(Message{Type: MsgFetch, From: 0, To: 3, BlockHash: want, Count: tc.count}); err != nil {
			t.Fatal(err)
		}
		got := []uint64{}
		for _, m := range h.node.Ready().Messages {
			if m.Type == MsgBlock && m.To == 0 {
				for _, b := range m.Blocks {
					got = append(got, b.Height)
				}
			}
		}
		if fmt.Sprint(got) != tc.heights {
			t.Errorf("%s: answered with heights %v, want %s", tc.name, got, tc.heights)
		}
	}
}

// TestBlockReplyParentOfTheLowest: after a BLOCK reply the node asks its
// sender for the lowest block's parent when it lacks it and it is above
// the final height, even when it already knew that parent's certificate
// (restored); it does not ask for a parent at the final height (a fork),
// nor keep wanting a block of the reply at the final height.
func TestBlockReplyParentOfTheLowest(t *testing.T) {
	all := []int{0, 1, 2, 3}
	h0 := newHarness(t, []uint64{1, 1, 1, 1})
	_, b1 := h0.propose(1, h0.genesisQC(), "b1", nil)
	// b2 is of round 3, not the round after b1's, so that its
	// certificate proves nothing final (which would fetch b1 too).
	_, b2 := h0.propose(3, h0.qc(b1, all...), "b2", h0.tc(2, all...))
	h, err := newNodeWith(t, 3, func(c *Config) { c.Restore = &HardState{Round: 2, HighQC: h0.qc(b1, all...)} })
	if err != nil {
		t.Fatal(err)
	}
	if err := h.node.Step(h.newView(1, 3, h.qc(b2, all...), nil)); err != nil {
		t.Fatal(err)
	}
	if f := fetches(h.node); len(f) != 1 || f[0] != b2.Hash() {
		t.Fatalf("b2's certificate: FETCH %v, want b2", f)
	}
	if err := h.node.Step(Message{Type: MsgBlock, From: 1, Blocks: []*Block{b2}}); err != nil {
		t.Fatal(err)
	}
	var asked []Message
	for _, m := range h.node.Ready().Messages {
		if m.Type == MsgFetch {
			asked = append(asked, m)
		}
	}
	if len(asked) != 1 || asked[0].BlockHash != b1.Hash() || asked[0].To != 1 {
		t.Fatalf("after b2 arrived without its parent: FETCH %v, want b1 from validator 1", asked)
	}

	// A fork c1 ← c2 beside the final b1.
	for _, withC1 := range []bool{false, true} {
		h, err := newNodeWith(t, 3, func(c *Config) { c.TimeoutTicks = 5 })
		if err != nil {
			t.Fatal(err)
		}
		h.chain(h.genesisQC(), 1, 3)
		h.node.Ready()
		if s := h.node.Status(); s.FinalizedHeight != 1 {
			t.Fatalf("want b1 final: %v", s)
		}
		c1 := &Block{Parent: h.genesis.Hash(), Height: 1, Round: 1, Payload: []byte("c1"), Justify: h.genesisQC()}
		c2 := &Block{Parent: c1.Hash(), Height: 2, Round: 3, Payload: []byte("c2"), Justify: h.qc(c1, all...)}
		if err := h.node.Step(h.newView(0, 4, h.qc(c2, all...), nil)); err != nil {
			t.Fatal(err)
		}
		if f := fetches(h.node); len(f) != 1 || f[0] != c2.Hash() {
			t.Fatalf("c2's certificate: FETCH %v, want c2", f)
		}
		reply := []*Block{c2}
		if withC1 {
			reply = append(reply, c1)
		}
		if err := h.node.Step(Message{Type: MsgBlock, From: 0, Blocks: reply}); err != nil {
			t.Fatal(err)
		}
		if f := fetches(h.node); len(f) != 0 {
			t.Fatalf("reply with c1 %v: FETCH %v, want none (c1 is at the final height)", withC1, f)
		}
		if h.node.Block(c2.Hash()) == nil || h.node.Block(c1.Hash()) != nil {
			t.Fatalf("reply with c1 %v: want c2 kept and c1 not", withC1)
		}
		for i := 0; i < 5; i++ {
			h.node.Tick()
		}
		if f := fetches(h.node); len(f) != 0 {
			t.Fatalf("reply with c1 %v: FETCH %v at the timeout, want none", withC1, f)
		}
	}
}

// hashSet is the sorted short form of a set of hashes, for comparing.
func hashSet[V any](m map[Hash]V) string {
	var out []string
	for h := range m {
		out = append(out, Short(h))
	}
	sort.Strings(out)
	return fmt.Sprint(out)
}

func shortSet(bs ...*Block) string {
	m := map[Hash]bool{}
	for _, b := range bs {
		m[b.Hash()] = true
	}
	return hashSet(m)
}

// TestPruneBlocks: once finality reaches height 10 with KeepFinalized 4,
// the node holds the final chain from height 6 and what is above the
// final height, and nothing of forks at or below it: not the fetched fork
// f10 at the final height, not the certificate of g10 (never fetched),
// and it no longer wants g10 (a fork it would otherwise ask for every
// timeout for the rest of the epoch). It still wants w, a fork above.
func TestPruneBlocks(t *testing.T) {
	h, err := newNodeWith(t, -1, func(c *Config) { c.KeepFinalized = 4 })
	if err != nil {
		t.Fatal(err)
	}
	all := []int{0, 1, 2, 3}
	bs := h.chain(h.genesisQC(), 1, 11) // b1..b11, b9 final
	b := func(height int) *Block { return bs[height-1] }
	if s := h.node.Status(); s.FinalizedHeight != 9 {
		t.Fatalf("finalized %d, want 9", s.FinalizedHeight)
	}
	f10 := &Block{Parent: b(9).Hash(), Height: 10, Round: 10, Payload: []byte("f10"), Justify: h.qc(b(9), all...)}
	g10 := &Block{Parent: b(9).Hash(), Height: 10, Round: 10, Payload: []byte("g10"), Justify: h.qc(b(9), all...)}
	w := &Block{Parent: b(10).Hash(), Height: 11, Round: 11, Payload: []byte("w"), Justify: h.qc(b(10), all...)}
	for _, x := range []*Block{f10, g10, w} {
		if err := h.deliver(h.newView(0, 11, h.qc(x, all...), nil)); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.deliver(Message{Type: MsgBlock, From: 0, Blocks: []*Block{f10}}); err != nil {
		t.Fatal(err)
	}
	if h.node.Block(f10.Hash()) == nil || !h.node.wanted[g10.Hash()] || !h.node.wanted[w.Hash()] {
		t.Fatal("want f10 held, g10 and w wanted before b10 is final")
	}
	m12, b12 := h.propose(12, h.qc(b(11), all...), "b12", nil)
	if err := h.deliver(m12); err != nil {
		t.Fatal(err)
	}
	n := h.node
	if s := n.Status(); s.FinalizedHeight != 10 {
		t.Fatalf("finalized %d, want 10", s.FinalizedHeight)
	}
	chain := []*Block{b(6), b(7), b(8), b(9), b(10), b(11)}
	if got, want := hashSet(n.blocks), shortSet(append(chain, b12)...); got != want {
		t.Errorf("blocks %s, want %s (b6..b12)", got, want)
	}
	if got, want := hashSet(n.qcs), shortSet(append(chain, w)...); got != want {
		t.Errorf("certificates %s, want %s (b6..b11, w)", got, want)
	}
	if got, want := hashSet(n.committed), shortSet(chain...); got != want {
		t.Errorf("committed %s, want %s (b6..b11)", got, want)
	}
	if got, want := hashSet(n.wanted), shortSet(w); got != want {
		t.Errorf("wanted %s, want %s (w)", got, want)
	}
	var heights []uint64
	for ht := range n.finalChain {
		heights = append(heights, ht)
	}
	sort.Slice(heights, func(i, j int) bool { return heights[i] < heights[j] })
	if fmt.Sprint(heights) != "[6 7 8 9 10]" {
		t.Errorf("final chain heights %v, want [6 7 8 9 10]", heights)
	}
}

// TestParkedForgottenOnANewRound: a proposal waiting for its parent is
// forgotten when the node leaves its round.
func TestParkedForgottenOnANewRound(t *testing.T) {
	h, err := newNodeWith(t, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := []int{0, 1, 2, 3}
	_, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	m2, _ := h.propose(2, h.qc(b1, all...), "b2", nil)
	if err := h.deliver(m2); err != nil {
		t.Fatal(err)
	}
	if len(h.node.parked) != 1 {
		t.Fatalf("%d parked, want b2 waiting for b1", len(h.node.parked))
	}
	if err := h.deliver(h.newView(0, 2, h.qc(b1, all...), h.tc(2, all...))); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.Round != 3 || len(h.node.parked) != 0 {
		t.Fatalf("round %d with %d parked, want round 3 and none", s.Round, len(h.node.parked))
	}
}

// TestBlockReplyMustLink: a BLOCK reply whose second block is not the
// parent of the first is refused, naming the pair, and none of it kept.
func TestBlockReplyMustLink(t *testing.T) {
	all := []int{0, 1, 2, 3}
	h, err := newNodeWith(t, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	_, b2 := h.propose(2, h.qc(b1, all...), "b2", nil)
	_, other := h.propose(1, h.genesisQC(), "not b2's parent", nil)
	if err := h.node.Step(h.newView(0, 2, h.qc(b2, all...), nil)); err != nil {
		t.Fatal(err)
	}
	err = h.node.Step(Message{Type: MsgBlock, From: 0, Blocks: []*Block{b2, other}})
	if err == nil || !strings.Contains(err.Error(), "block 1 is not the parent of block 0") {
		t.Fatalf("a reply that does not link: %v", err)
	}
	if h.node.Block(b2.Hash()) != nil || h.node.Block(other.Hash()) != nil {
		t.Fatal("a block of the refused reply was kept")
	}
}

// TestRefetchInHashOrder: the blocks still missing at a timeout are asked
// for in ascending hash order, not map order.
func TestRefetchInHashOrder(t *testing.T) {
	all := []int{0, 1, 2, 3}
	h, err := newNodeWith(t, 3, func(c *Config) { c.TimeoutTicks = 5 })
	if err != nil {
		t.Fatal(err)
	}
	var missing []*Block
	for i := 0; i < 4; i++ {
		b := &Block{Parent: h.genesis.Hash(), Height: 1, Round: 1, Payload: []byte{byte(i)}}
		missing = append(missing, b)
		if err := h.node.Step(h.newView(0, 1, h.qc(b, all...), nil)); err != nil {
			t.Fatal(err)
		}
	}
	h.node.Ready()
	for i := 0; i < 5; i++ {
		h.node.Tick()
	}
	got := fetches(h.node)
	if len(got) != len(missing) {
		t.Fatalf("%d FETCH at the timeout, want %d", len(got), len(missing))
	}
	for i := 1; i < len(got); i++ {
		if bytes.Compare(got[i-1][:], got[i][:]) >= 0 {
			t.Fatalf("FETCH %d (%s) not after %d (%s)", i, Short(got[i]), i-1, Short(got[i-1]))
		}
	}
}
