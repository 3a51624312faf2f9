package simplex

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestKnownOrdersByHeightFirst: Known sorts by height before round, so a
// fork's later-round block at a lower height comes before an earlier-round
// block above it. b1 ← b2 (round 2) ← b3 (round 3) finalizes b1; then the
// round-5 leader forks at height 2 on b1 (justified by a timeout of round
// 4). The node stores the fork (it does not vote: it is locked on b2's
// round), and lists b2 (h2 r2), the fork (h2 r5), b3 (h3 r3): by round
// within a height, though the fork's hash sorts first.
func TestKnownOrdersByHeightFirst(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	all := []int{0, 1, 2, 3}
	m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	m2, b2 := h.propose(2, h.qc(b1, all...), "b2", nil)
	m3, b3 := h.propose(3, h.qc(b2, all...), "b3", nil)
	for _, m := range []Message{m1, m2, m3} {
		if err := h.deliver(m); err != nil {
			t.Fatal(err)
		}
	}
	if s := h.node.Status(); s.FinalizedHeight != 1 {
		t.Fatalf("finalized %d, want 1", s.FinalizedHeight)
	}
	// The fork's payload is chosen so that its hash sorts before b2's:
	// ordered by hash instead of round (known.go's round clause broken),
	// the two blocks at height 2 would swap.
	var m5 Message
	var fork *Block
	for i := 0; fork == nil; i++ {
		if i == 64 {
			t.Fatal("no fork payload among 64 hashes below b2's")
		}
		m, b := h.propose(5, h.qc(b1, all...), fmt.Sprintf("fork%d", i), h.tc(4, all...))
		if bh, h2 := b.Hash(), b2.Hash(); bytes.Compare(bh[:], h2[:]) < 0 {
			m5, fork = m, b
		}
	}
	if err := h.deliver(m5); err != nil {
		t.Fatal(err)
	}
	want := []*Block{b2, fork, b3}
	got := h.node.Known()
	if len(got) != len(want) {
		t.Fatalf("%d known blocks, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Hash != w.Hash() {
			t.Errorf("known[%d] = h%d r%d, want h%d r%d", i, got[i].Block.Height, got[i].Block.Round, w.Height, w.Round)
		}
	}
}

// TestReadyEmpty: Ready is empty only when every field a node can fill is
// empty, so a driver loop `for n.HasReady()` ends once it took everything
// and never skips work; and a node drained by Ready has nothing more.
func TestReadyEmpty(t *testing.T) {
	if zero := (Ready{}); !zero.Empty() {
		t.Fatal("the zero Ready is not empty")
	}
	for _, tc := range []struct {
		name string
		r    Ready
	}{
		{"HardState", Ready{HardState: &HardState{}}},
		{"Messages", Ready{Messages: []Message{{}}}},
		{"ProposeRequest", Ready{ProposeRequest: &ProposeRequest{}}},
		{"Verify", Ready{Verify: []*Block{{}}}},
		{"Committed", Ready{Committed: []Certified{{}}}},
		{"Finalized", Ready{Finalized: []Certified{{}}}},
		{"Evidence", Ready{Evidence: []Evidence{{}}}},
	} {
		if tc.r.Empty() {
			t.Errorf("a Ready with only %s set is empty", tc.name)
		}
	}
	h := newHarness(t, []uint64{1, 1, 1, 1})
	m1, _ := h.propose(1, h.genesisQC(), "b1", nil)
	if err := h.node.Step(m1); err != nil {
		t.Fatal(err)
	}
	if !h.node.HasReady() {
		t.Fatal("a proposal to judge left nothing in Ready")
	}
	if rd := h.node.Ready(); len(rd.Verify) != 1 || rd.HardState != nil {
		t.Fatalf("Ready after a proposal: %d to verify, hard state %v", len(rd.Verify), rd.HardState)
	}
	if h.node.HasReady() {
		t.Fatal("HasReady after Ready took everything")
	}
}

// newNodeWith builds a node for a four-validator set under the seed
// newHarness picks, with the config changed by mod (ID -1: a follower).
func newNodeWith(t *testing.T, id int, mod func(*Config)) (*harness, error) {
	t.Helper()
	h := newHarness(t, []uint64{1, 1, 1, 1})
	cfg := Config{ID: id, Validators: h.set, Scheme: h.schemes[max(id, 0)], Seed: h.seed, Genesis: h.genesis}
	if mod != nil {
		mod(&cfg)
	}
	n, err := NewNode(cfg)
	if err != nil {
		return nil, err
	}
	h.node, h.me = n, id
	h.node.Ready()
	return h, nil
}

// chain delivers proposals for rounds from..to, each on the certificate of
// the one before, starting on parent's; it returns the blocks.
func (h *harness) chain(parent *QC, from, to uint64) []*Block {
	h.t.Helper()
	all := []int{0, 1, 2, 3}
	var out []*Block
	for r := from; r <= to; r++ {
		m, b := h.propose(r, parent, fmt.Sprintf("b%d", r), nil)
		if err := h.deliver(m); err != nil {
			h.t.Fatalf("round %d: %v", r, err)
		}
		out = append(out, b)
		parent = h.qc(b, all...)
	}
	return out
}

// TestNewNodeConfig: the validator index must name a member of the set
// (the set's size is one too many), and the zero TimeoutTicks means
// DefaultTimeoutTicks: a validator gives its round up at that tick, not
// before.
func TestNewNodeConfig(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	for _, id := range []int{-2, 4, 5} {
		if _, err := NewNode(Config{ID: id, Validators: h.set, Scheme: h.schemes[0], Genesis: h.genesis}); err == nil {
			t.Errorf("NewNode accepted validator index %d of a set of 4", id)
		}
	}
	for _, id := range []int{-1, 0, 3} {
		if _, err := NewNode(Config{ID: id, Validators: h.set, Scheme: h.schemes[0], Genesis: h.genesis}); err != nil {
			t.Errorf("NewNode refused validator index %d: %v", id, err)
		}
	}
	hv, err := newNodeWith(t, 3, nil) // TimeoutTicks 0
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= DefaultTimeoutTicks; i++ {
		hv.node.Tick()
		gaveUp := hv.node.Status().TimedOut
		if gaveUp != (i == DefaultTimeoutTicks) {
			t.Fatalf("after %d ticks: timed out %v (default timeout %d ticks)", i, gaveUp, DefaultTimeoutTicks)
		}
	}
}

// TestKeepFinalized: a node keeps the last KeepFinalized finalized blocks
// (to serve FETCH) and drops older ones; zero means DefaultKeepFinalized,
// which keeps all of a 20-block chain.
func TestKeepFinalized(t *testing.T) {
	for _, tc := range []struct {
		keep     uint64
		blocks   uint64 // the chain's length; all but the last two are final
		keptFrom uint64 // lowest height still held
	}{
		{0, 20, 1},
		{4, 20, 14},
		{4, 19, 13}, // pruned at every finalized block, not every other
	} {
		h, err := newNodeWith(t, -1, func(c *Config) { c.KeepFinalized = tc.keep })
		if err != nil {
			t.Fatal(err)
		}
		blocks := h.chain(h.genesisQC(), 1, tc.blocks)
		if s := h.node.Status(); s.FinalizedHeight != tc.blocks-2 {
			t.Fatalf("keep %d: finalized %d, want %d", tc.keep, s.FinalizedHeight, tc.blocks-2)
		}
		for _, b := range blocks {
			held := h.node.Block(b.Hash()) != nil
			if held != (b.Height >= tc.keptFrom) {
				t.Errorf("keep %d: block at height %d held=%v, want blocks from height %d", tc.keep, b.Height, held, tc.keptFrom)
			}
		}
	}
}

// TestRestoreLastTC: a restarted node keeps the timeout certificate it
// persisted only if it ended the round before the restored one; its
// NEW_VIEW then carries it.
func TestRestoreLastTC(t *testing.T) {
	all := []int{0, 1, 2, 3}
	for _, tc := range []struct {
		tcRound uint64
		carried bool
	}{
		{4, true},
		{3, false},
		{5, false},
	} {
		h0 := newHarness(t, []uint64{1, 1, 1, 1}) // for its keys

		h, err := newNodeWith(t, 3, func(c *Config) {
			c.TimeoutTicks = 2
			c.Restore = &HardState{Round: 5, LastVoted: 3, Locked: 1, LastTC: h0.tc(tc.tcRound, all...)}
		})
		if err != nil {
			t.Fatal(err)
		}
		h.node.Tick()
		h.node.Tick()
		var nv *Message
		for _, m := range h.node.Ready().Messages {
			if m.Type == MsgNewView {
				nv = &m
			}
		}
		if nv == nil || nv.Round != 5 {
			t.Fatalf("TC of round %d: no NEW_VIEW for round 5: %v", tc.tcRound, nv)
		}
		if got := nv.TC != nil; got != tc.carried || (got && nv.TC.Round != tc.tcRound) {
			t.Errorf("TC of round %d restored at round 5: NEW_VIEW carries %v, want carried=%v", tc.tcRound, nv.TC, tc.carried)
		}
	}
}

// fetches returns the hashes of the FETCH messages in Ready.
func fetches(n *Node) []Hash {
	var out []Hash
	for _, m := range n.Ready().Messages {
		if m.Type == MsgFetch {
			out = append(out, m.BlockHash)
		}
	}
	return out
}

// TestRefetchEveryTimeout: a block still missing is asked for again from
// everyone once every TimeoutTicks ticks, not sooner, by every validator
// including index 0, and never by a follower (the node syncs it).
func TestRefetchEveryTimeout(t *testing.T) {
	all := []int{0, 1, 2, 3}
	for _, id := range []int{0, 3, -1} {
		h, err := newNodeWith(t, id, func(c *Config) { c.TimeoutTicks = 5 })
		if err != nil {
			t.Fatal(err)
		}
		// Round 2's proposal builds on b1, which the node never saw.
		_, b1 := h.propose(1, h.genesisQC(), "b1", nil)
		r := uint64(2)
		for h.set.Leader(h.seed, r) == id {
			r++
		}
		m, _ := h.propose(r, h.qc(b1, all...), "b2", h.tc(r-1, all...))
		if err := h.node.Step(m); err != nil {
			t.Fatal(err)
		}
		first := fetches(h.node)
		if id < 0 {
			if len(first) != 0 {
				t.Fatalf("follower sent FETCH %v", first)
			}
		} else if len(first) != 1 || first[0] != b1.Hash() {
			t.Fatalf("validator %d: first FETCH %v, want b1", id, first)
		}
		for i := 1; i <= 5; i++ {
			h.node.Tick()
			got := fetches(h.node)
			want := 0
			if i == 5 && id >= 0 {
				want = 1
			}
			if len(got) != want || (want == 1 && got[0] != b1.Hash()) {
				t.Fatalf("validator %d, tick %d: FETCH %v, want %d of b1", id, i, got, want)
			}
		}
	}
}

// TestLeaderUnreachableGrace: told that the current round's leader is
// unreachable, a validator gives the round up once it has lasted
// UnreachableGraceTicks, not a tick before.
func TestLeaderUnreachableGrace(t *testing.T) {
	for _, id := range []int{0, 3} {
		h, err := newNodeWith(t, id, func(c *Config) { c.TimeoutTicks = 10 })
		if err != nil {
			t.Fatal(err)
		}
		r := uint64(1)
		if h.set.Leader(h.seed, r) == id {
			t.Fatalf("validator %d leads round 1 under the harness seed", id)
		}
		for i := 0; i < UnreachableGraceTicks; i++ {
			h.node.LeaderUnreachable(r)
			if h.node.Status().TimedOut {
				t.Fatalf("validator %d gave round 1 up after %d ticks (grace %d)", id, i, UnreachableGraceTicks)
			}
			h.node.Tick()
		}
		h.node.LeaderUnreachable(r)
		if !h.node.Status().TimedOut {
			t.Fatalf("validator %d did not give round 1 up after %d ticks", id, UnreachableGraceTicks)
		}
	}
}

// TestStepRefusesSenderOutsideSet: a message from index len(set) (one past
// the last validator) is refused with an error, as any index outside.
func TestStepRefusesSenderOutsideSet(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	m1, _ := h.propose(1, h.genesisQC(), "b1", nil)
	for _, from := range []int{-1, 4, 5} {
		m := m1
		m.From = from
		if err := h.node.Step(m); err == nil || !strings.Contains(err.Error(), "outside the validator set") {
			t.Errorf("Step from %d: %v, want refused as outside the set", from, err)
		}
	}
	if s := h.node.Status(); s.LastVoted != 0 || len(h.node.Known()) != 0 {
		t.Fatalf("a refused message changed the node: %v", s)
	}
}

// TestNoProposeAfterVotingInTheRound: a leader asked to propose that has
// meanwhile voted in the round (for a block signed with its own key: a
// twin, or its previous incarnation) must not propose a second block in
// the round: Propose answers ErrStaleRequest and sends nothing.
func TestNoProposeAfterVotingInTheRound(t *testing.T) {
	h0 := newHarness(t, []uint64{1, 1, 1, 1})
	leader := h0.set.Leader(h0.seed, 1)
	h, err := newNodeWith(t, leader, nil)
	if err != nil {
		t.Fatal(err)
	}
	m1, _ := h.propose(1, h.genesisQC(), "twin", nil)
	if err := h.deliver(m1); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.LastVoted != 1 {
		t.Fatalf("did not vote for the round-1 block: %v", s)
	}
	if err := h.node.Propose(1, []byte("second")); !errors.Is(err, ErrStaleRequest) {
		t.Fatalf("Propose after voting in the round: %v, want ErrStaleRequest", err)
	}
	for _, m := range h.node.Ready().Messages {
		if m.Type == MsgPropose {
			t.Fatalf("sent a second proposal for round 1: %v", m.Block)
		}
	}
}

// TestProposalJustifiedByItsOwnRound: a proposal whose justification is
// from its own round (not an earlier one) is refused, even with a valid
// timeout certificate for the round before.
func TestProposalJustifiedByItsOwnRound(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	all := []int{0, 1, 2, 3}
	_, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	m, bad := h.propose(1, h.qc(b1, all...), "same round", h.tc(0, all...))
	err := h.deliver(m)
	if err == nil || !strings.Contains(err.Error(), "does not certify the parent") {
		t.Fatalf("proposal justified by its own round: %v", err)
	}
	if h.node.Block(bad.Hash()) != nil {
		t.Fatal("the refused proposal was stored")
	}
}

// TestSecondProposalOfTheRoundIsEvidence: a leader's second, different
// proposal for a round is reported as double signing and not stored; a
// repeat of the first is a duplicate and reports nothing.
func TestSecondProposalOfTheRoundIsEvidence(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	m2, b2 := h.propose(1, h.genesisQC(), "b1 again, other payload", nil)
	if err := h.deliver(m1); err != nil {
		t.Fatal(err)
	}
	if err := h.node.Step(m1); err != nil {
		t.Fatal(err)
	}
	if rd := h.node.Ready(); len(rd.Evidence) != 0 {
		t.Fatalf("a repeated proposal gave evidence %v", rd.Evidence)
	}
	if err := h.node.Step(m2); err != nil {
		t.Fatal(err)
	}
	rd := h.node.Ready()
	if len(rd.Evidence) != 1 {
		t.Fatalf("a second proposal gave %d evidence, want 1", len(rd.Evidence))
	}
	e := rd.Evidence[0]
	if e.Signer != b1.Proposer || e.Round != 1 || !((e.BlockA == b1.Hash() && e.BlockB == b2.Hash()) || (e.BlockA == b2.Hash() && e.BlockB == b1.Hash())) {
		t.Fatalf("evidence %+v, want validator %d's two round-1 blocks", e, b1.Proposer)
	}
	if h.node.Block(b2.Hash()) != nil {
		t.Fatal("the second proposal was stored")
	}
}

// vote is validator i's vote for b.
func (h *harness) vote(i int, b *Block) Message {
	return Message{Type: MsgVote, From: i, To: h.me, BlockHash: b.Hash(), Height: b.Height, Round: b.Round,
		Signature: h.schemes[i].Sign(VoteMessage(b.Hash(), b.Height, b.Round))}
}

// TestLateVoteJoinsTheJustify: the leader of round 2 forms b1's
// certificate at quorum and moves to round 2; a vote for b1 that arrives
// after that (round 1 is the previous round) is still kept, and the
// proposal's justify names all four voters.
func TestLateVoteJoinsTheJustify(t *testing.T) {
	h0 := newHarness(t, []uint64{1, 1, 1, 1})
	l1, l2 := h0.set.Leader(h0.seed, 1), h0.set.Leader(h0.seed, 2)
	if l1 == l2 {
		t.Fatalf("one validator leads rounds 1 and 2 under the harness seed")
	}
	h, err := newNodeWith(t, l2, nil)
	if err != nil {
		t.Fatal(err)
	}
	m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	if err := h.deliver(m1); err != nil { // the proposer's vote and l2's own
		t.Fatal(err)
	}
	var others []int
	for i := 0; i < 4; i++ {
		if i != l1 && i != l2 {
			others = append(others, i)
		}
	}
	if err := h.deliver(h.vote(others[0], b1)); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.Round != 2 || s.HighQC.BlockHash != b1.Hash() {
		t.Fatalf("no certificate for b1 at quorum: %v", s)
	}
	if err := h.node.Step(h.vote(others[1], b1)); err != nil {
		t.Fatal(err)
	}
	if err := h.node.Propose(2, []byte("b2")); err != nil {
		t.Fatal(err)
	}
	prop := sentProposal(h.node.Ready().Messages)
	if prop == nil {
		t.Fatal("no proposal sent")
	}
	if got := len(prop.Justify.Signers.Indices()); got != 4 {
		t.Fatalf("justify names %d voters, want all 4 (the late vote kept)", got)
	}
	// The fuller certificate is also the one the node passes on.
	if hq := h.node.Status().HighQC; hq.BlockHash != b1.Hash() || len(hq.Signers.Indices()) != 4 {
		t.Fatalf("highest certificate after proposing names %d voters, want the fuller one's 4", len(hq.Signers.Indices()))
	}
}

// TestRepeatedVoteIsNoEvidence: the same vote delivered twice is not
// double signing; a vote for another block in the same round is.
func TestRepeatedVoteIsNoEvidence(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	_, other := h.propose(1, h.genesisQC(), "other", nil)
	if err := h.deliver(m1); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := h.node.Step(h.vote(0, b1)); err != nil {
			t.Fatal(err)
		}
	}
	if rd := h.node.Ready(); len(rd.Evidence) != 0 {
		t.Fatalf("a repeated vote gave evidence %+v", rd.Evidence)
	}
	if err := h.node.Step(h.vote(0, other)); err != nil {
		t.Fatal(err)
	}
	if rd := h.node.Ready(); len(rd.Evidence) != 1 || rd.Evidence[0].Signer != 0 {
		t.Fatalf("a vote for another block of the round gave evidence %+v, want validator 0's", rd.Evidence)
	}
}

// TestProposalRoundWindow: a proposal is kept for the previous round (its
// certificate may still form) and up to MaxRoundsAhead rounds ahead; the
// error for a skipped round without a timeout certificate names the round
// that needs one.
func TestProposalRoundWindow(t *testing.T) {
	all := []int{0, 1, 2, 3}
	// Ahead: at round 1, having voted for b1, a proposal for round 1+MaxRoundsAhead (on b1 with
	// a timeout certificate for the round before) is kept and voted for.
	h, err := newNodeWith(t, 3, func(c *Config) { c.MaxRoundsAhead = 4 })
	if err != nil {
		t.Fatal(err)
	}
	m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	if err := h.deliver(m1); err != nil {
		t.Fatal(err)
	}
	m5, b5 := h.propose(5, h.qc(b1, all...), "b5", h.tc(4, all...))
	if err := h.deliver(m5); err != nil {
		t.Fatal(err)
	}
	if h.node.Block(b5.Hash()) == nil || h.node.Status().LastVoted != 5 {
		t.Fatalf("proposal MaxRoundsAhead rounds ahead not kept: %v", h.node.Status())
	}
	// Behind: at round 3, round 2's proposal is kept; at round 4 it is not.
	for _, tc := range []struct {
		at   uint64
		kept bool
	}{{3, true}, {4, false}} {
		h := newHarness(t, []uint64{1, 1, 1, 1})
		m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
		if err := h.deliver(m1); err != nil {
			t.Fatal(err)
		}
		if err := h.deliver(Message{Type: MsgNewView, From: 0, Round: tc.at - 1, Signature: h.schemes[0].Sign(NewViewMessage(tc.at - 1)),
			QC: h.qc(b1, all...), TC: h.tc(tc.at-1, all...)}); err != nil {
			t.Fatal(err)
		}
		if s := h.node.Status(); s.Round != tc.at {
			t.Fatalf("node in round %d, want %d", s.Round, tc.at)
		}
		m2, b2 := h.propose(2, h.qc(b1, all...), "b2", nil)
		if err := h.deliver(m2); err != nil {
			t.Fatal(err)
		}
		if kept := h.node.Block(b2.Hash()) != nil; kept != tc.kept {
			t.Errorf("at round %d, round 2's proposal kept=%v, want %v", tc.at, kept, tc.kept)
		}
	}
	// A skipped round without a timeout certificate: the error names it.
	h = newHarness(t, []uint64{1, 1, 1, 1})
	m3, _ := h.propose(3, h.genesisQC(), "b3", nil)
	if err := h.deliver(m3); err == nil || !strings.Contains(err.Error(), "no timeout certificate for round 2") {
		t.Fatalf("round 3 on the genesis without a TC: %v", err)
	}
}

// newView is validator i's NEW_VIEW for round, carrying qc and tc.
func (h *harness) newView(i int, round uint64, qc *QC, tc *TC) Message {
	return Message{Type: MsgNewView, From: i, Round: round, Signature: h.schemes[i].Sign(NewViewMessage(round)), QC: qc, TC: tc}
}

// TestFutureRoundWindow: votes and NEW_VIEWs are kept up to exactly
// MaxRoundsAhead rounds ahead and dropped beyond: double votes there are
// evidence, and a quorum of NEW_VIEWs there forms a timeout certificate
// that moves the node on.
func TestFutureRoundWindow(t *testing.T) {
	for _, tc := range []struct {
		round uint64
		kept  bool
	}{{5, true}, {6, false}} {
		h, err := newNodeWith(t, 3, func(c *Config) { c.MaxRoundsAhead = 4 })
		if err != nil {
			t.Fatal(err)
		}
		a := &Block{Height: 1, Round: tc.round, Payload: []byte("a")}
		b := &Block{Height: 1, Round: tc.round, Payload: []byte("b")}
		for _, blk := range []*Block{a, b} {
			if err := h.node.Step(h.vote(0, blk)); err != nil {
				t.Fatal(err)
			}
		}
		if got := len(h.node.Ready().Evidence) == 1; got != tc.kept {
			t.Errorf("double vote %d rounds ahead: evidence %v, want %v", tc.round-1, got, tc.kept)
		}
		for i := 0; i < 3; i++ {
			if err := h.deliver(h.newView(i, tc.round, h.genesisQC(), nil)); err != nil {
				t.Fatal(err)
			}
		}
		want := uint64(1)
		if tc.kept {
			want = tc.round + 1
		}
		if s := h.node.Status(); s.Round != want {
			t.Errorf("NEW_VIEW quorum for round %d at round 1: node in round %d, want %d", tc.round, s.Round, want)
		}
	}
}

// TestOneThirdNewViewsGiveUp: when validators with more than a third of
// the stake gave the current round up, a validator (index 0 too) gives it
// up at once instead of waiting out its timer.
func TestOneThirdNewViewsGiveUp(t *testing.T) {
	for _, id := range []int{0, 3} {
		h, err := newNodeWith(t, id, func(c *Config) { c.TimeoutTicks = 100 })
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i := 0; i < 4 && n < 2; i++ {
			if i == id {
				continue
			}
			n++
			if err := h.node.Step(h.newView(i, 1, h.genesisQC(), nil)); err != nil {
				t.Fatal(err)
			}
			gaveUp := false
			for _, m := range h.node.Ready().Messages {
				gaveUp = gaveUp || (m.Type == MsgNewView && m.Round == 1)
			}
			if gaveUp != (n == 2) {
				t.Fatalf("validator %d after %d NEW_VIEWs of 4: sent its own NEW_VIEW %v", id, n, gaveUp)
			}
		}
	}
}

// TestForgedTCReusingASignature: a timeout certificate for another round
// that copies the signature and signers of the one the node holds is not
// taken for it: its aggregate is checked, and it is refused.
func TestForgedTCReusingASignature(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	all := []int{0, 1, 2, 3}
	tc1 := h.tc(1, all...)
	if err := h.deliver(h.newView(0, 1, h.genesisQC(), tc1)); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.Round != 2 {
		t.Fatalf("TC for round 1 did not move the node: %v", s)
	}
	forged := &TC{Round: 2, Signature: tc1.Signature, Signers: tc1.Signers}
	if err := h.deliver(h.newView(0, 2, h.genesisQC(), forged)); err == nil || !strings.Contains(err.Error(), "bad aggregate signature") {
		t.Fatalf("forged TC for round 2: %v, want a bad aggregate", err)
	}
	if s := h.node.Status(); s.Round != 2 {
		t.Fatalf("forged TC moved the node: %v", s)
	}
}

// TestRestoredLeaderLearnsTheTC: a leader restarted in round 5 without the
// certificate that ended round 4 cannot propose; the TC for round 4 (the
// round before its own) arriving later lets it ask for a payload.
func TestRestoredLeaderLearnsTheTC(t *testing.T) {
	h0 := newHarness(t, []uint64{1, 1, 1, 1})
	all := []int{0, 1, 2, 3}
	leader := h0.set.Leader(h0.seed, 5)
	h, err := newNodeWith(t, leader, func(c *Config) { c.Restore = &HardState{Round: 5} })
	if err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.Round != 5 {
		t.Fatalf("restored in round %d", s.Round)
	}
	from := (leader + 1) % 4
	if err := h.node.Step(h.newView(from, 4, h.genesisQC(), h.tc(4, all...))); err != nil {
		t.Fatal(err)
	}
	rd := h.node.Ready()
	if rd.ProposeRequest == nil || rd.ProposeRequest.Round != 5 || rd.ProposeRequest.Parent != h.genesis.Hash() {
		t.Fatalf("leader of round 5 given the TC of round 4: propose request %+v", rd.ProposeRequest)
	}
}

// TestKnownRoundTCIgnored: a timeout certificate for a round the node
// already knows ended (it holds that round's TC, or the certificate of a
// block of that round) is ignored, not checked: even a forged one is no
// error and changes nothing.
func TestKnownRoundTCIgnored(t *testing.T) {
	all := []int{0, 1, 2, 3}
	forged := func(h *harness, round uint64) *TC {
		tc := h.tc(round, 0, 1, 2)
		tc.Signature = h.tc(round+7, 0, 1, 2).Signature
		return tc
	}
	// The node holds TC(1).
	h := newHarness(t, []uint64{1, 1, 1, 1})
	if err := h.deliver(h.newView(0, 1, h.genesisQC(), h.tc(1, all...))); err != nil {
		t.Fatal(err)
	}
	if err := h.deliver(h.newView(0, 2, h.genesisQC(), forged(h, 1))); err != nil {
		t.Fatalf("a TC for round 1, already held: %v", err)
	}
	// The node moved to round 2 with b1's certificate.
	h = newHarness(t, []uint64{1, 1, 1, 1})
	m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	if err := h.deliver(m1); err != nil {
		t.Fatal(err)
	}
	if err := h.deliver(h.newView(0, 2, h.qc(b1, all...), nil)); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.Round != 2 {
		t.Fatalf("b1's certificate did not move the node: %v", s)
	}
	if err := h.deliver(h.newView(0, 2, h.qc(b1, all...), forged(h, 1))); err != nil {
		t.Fatalf("a TC for round 1, which ended with a certificate: %v", err)
	}
	if s := h.node.Status(); s.Round != 2 || s.HighQC.BlockHash != b1.Hash() {
		t.Fatalf("an ignored TC changed the node: %v", s)
	}
}

// TestHighQCOnlyMovesUp: a certificate of the same round as the highest
// one (a conflicting block: only a Byzantine quorum can make it) does not
// replace it.
func TestHighQCOnlyMovesUp(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	all := []int{0, 1, 2, 3}
	_, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	_, c1 := h.propose(1, h.genesisQC(), "c1", nil)
	for _, b := range []*Block{b1, c1} {
		if err := h.deliver(h.newView(0, 2, h.qc(b, all...), nil)); err != nil {
			t.Fatal(err)
		}
	}
	if s := h.node.Status(); s.HighQC.BlockHash != b1.Hash() {
		t.Fatalf("highest certificate is %s, want the first of round 1 (b1 %s)", Short(s.HighQC.BlockHash), Short(b1.Hash()))
	}
}

// TestNoFetchAtFinalHeight: a certificate for a block the node lacks is
// fetched only above the finalized height; a fork at the final height is
// not.
func TestNoFetchAtFinalHeight(t *testing.T) {
	h, err := newNodeWith(t, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := []int{0, 1, 2, 3}
	blocks := h.chain(h.genesisQC(), 1, 3) // b1 final
	h.node.Ready()
	if s := h.node.Status(); s.FinalizedHeight != 1 {
		t.Fatalf("finalized %d, want 1", s.FinalizedHeight)
	}
	fork := &Block{Parent: h.genesis.Hash(), Height: 1, Round: 1, Payload: []byte("fork")}
	if err := h.node.Step(h.newView(0, 4, h.qc(fork, all...), nil)); err != nil {
		t.Fatal(err)
	}
	if f := fetches(h.node); len(f) != 0 {
		t.Fatalf("fetched %v for a fork at the final height", f)
	}
	above := &Block{Parent: blocks[0].Hash(), Height: 2, Round: 2, Payload: []byte("fork above")}
	if err := h.node.Step(h.newView(0, 4, h.qc(above, all...), nil)); err != nil {
		t.Fatal(err)
	}
	if f := fetches(h.node); len(f) != 1 || f[0] != above.Hash() {
		t.Fatalf("fetched %v for a certified block above the final height, want it", f)
	}
}

// TestRestoredLeaderLearnsTheQC: a leader restarted in round 2 that holds
// b1 but not its certificate asks for a payload once the certificate of
// round 1 arrives, though it is from a round below its own.
func TestRestoredLeaderLearnsTheQC(t *testing.T) {
	h0 := newHarness(t, []uint64{1, 1, 1, 1})
	all := []int{0, 1, 2, 3}
	leader := h0.set.Leader(h0.seed, 2)
	h, err := newNodeWith(t, leader, func(c *Config) { c.Restore = &HardState{Round: 2} })
	if err != nil {
		t.Fatal(err)
	}
	m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	if err := h.node.Step(m1); err != nil {
		t.Fatal(err)
	}
	if h.node.Block(b1.Hash()) == nil {
		t.Fatal("round 1's proposal not kept in round 2")
	}
	h.node.Ready()
	from := (leader + 1) % 4
	if err := h.node.Step(h.newView(from, 1, h.qc(b1, all...), nil)); err != nil {
		t.Fatal(err)
	}
	rd := h.node.Ready()
	if rd.ProposeRequest == nil || rd.ProposeRequest.Round != 2 || rd.ProposeRequest.Parent != b1.Hash() {
		t.Fatalf("leader of round 2 given b1's certificate: propose request %+v", rd.ProposeRequest)
	}
}

// TestFinalityWaitsForAMissingBlock: a follower that missed b2 learns
// that b2 is final (b3 certified in the round after b2), then that b3 is
// final too (b4 certified); once b2 arrives it finalizes up to the higher
// proof, b3, in one step.
func TestFinalityWaitsForAMissingBlock(t *testing.T) {
	h, err := newNodeWith(t, -1, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := []int{0, 1, 2, 3}
	m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	_, b2 := h.propose(2, h.qc(b1, all...), "b2", nil)
	m3, b3 := h.propose(3, h.qc(b2, all...), "b3", nil)
	m4, b4 := h.propose(4, h.qc(b3, all...), "b4", nil)
	m5, _ := h.propose(5, h.qc(b4, all...), "b5", nil)
	for _, m := range []Message{m1, m3, m4, m5} {
		if err := h.deliver(m); err != nil {
			t.Fatal(err)
		}
	}
	if s := h.node.Status(); s.FinalizedHeight != 0 {
		t.Fatalf("finalized %d without b2", s.FinalizedHeight)
	}
	if err := h.node.Step(Message{Type: MsgBlock, From: 0, Blocks: []*Block{b2}}); err != nil {
		t.Fatal(err)
	}
	rd := h.node.Ready()
	var got []uint64
	for _, c := range rd.Finalized {
		got = append(got, c.Block.Height)
	}
	if fmt.Sprint(got) != "[1 2 3]" || h.node.Status().FinalizedHash != b3.Hash() {
		t.Fatalf("finalized heights %v (final %s), want [1 2 3] up to b3", got, Short(h.node.Status().FinalizedHash))
	}
	if rd.FinalProof == nil || rd.FinalProof.Block.Hash() != b4.Hash() {
		t.Fatalf("final proof %v, want b4 certified", rd.FinalProof)
	}
}

// TestPruneKeepsThePreviousRound: entering a round drops what belongs to
// rounds before the previous one and keeps the previous round's proposal
// (its signature is what invalid-proposal evidence carries) and its votes
// (a double vote there is still evidence), and NEW_VIEWs that arrived
// early for the round being entered.
func TestPruneKeepsThePreviousRound(t *testing.T) {
	all := []int{0, 1, 2, 3}
	h, err := newNodeWith(t, 3, func(c *Config) { c.TimeoutTicks = 100 })
	if err != nil {
		t.Fatal(err)
	}
	m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	_, c1 := h.propose(1, h.genesisQC(), "c1", nil)
	if err := h.deliver(m1); err != nil {
		t.Fatal(err)
	}
	if err := h.node.Step(h.vote(0, b1)); err != nil {
		t.Fatal(err)
	}
	// One NEW_VIEW for round 2 while still in round 1.
	if err := h.deliver(h.newView(0, 2, h.genesisQC(), nil)); err != nil {
		t.Fatal(err)
	}
	// Round 2 begins with b1's certificate.
	if err := h.deliver(h.newView(1, 1, h.qc(b1, all...), nil)); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.Round != 2 || s.TimedOut {
		t.Fatalf("not in round 2: %v", s)
	}
	if h.node.ProposalSignature(b1) == nil {
		t.Fatal("round 1's proposal signature dropped in round 2")
	}
	if err := h.node.Step(h.vote(0, c1)); err != nil {
		t.Fatal(err)
	}
	if rd := h.node.Ready(); len(rd.Evidence) != 1 {
		t.Fatalf("double vote of the previous round: %d evidence, want 1", len(rd.Evidence))
	}
	// A second NEW_VIEW for round 2: with the early one, more than a third.
	if err := h.node.Step(h.newView(1, 2, h.genesisQC(), nil)); err != nil {
		t.Fatal(err)
	}
	gaveUp := false
	for _, m := range h.node.Ready().Messages {
		gaveUp = gaveUp || (m.Type == MsgNewView && m.Round == 2)
	}
	if !gaveUp {
		t.Fatalf("the NEW_VIEW that arrived before round 2 was dropped on entering it: %v", h.node.Status())
	}
	// Round 3 (its own NEW_VIEW made round 2's TC): round 1 is now too old.
	if err := h.deliver(h.newView(1, 2, h.genesisQC(), h.tc(2, all...))); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.Round != 3 {
		t.Fatalf("not in round 3: %v", s)
	}
	if h.node.ProposalSignature(b1) != nil {
		t.Fatal("round 1's proposal kept in round 3")
	}
}

// TestFetchServesTheChainDown: FETCH is answered with the block and its
// ancestors, newest first, down to but not including the root.
func TestFetchServesTheChainDown(t *testing.T) {
	h, err := newNodeWith(t, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	blocks := h.chain(h.genesisQC(), 1, 3)
	h.node.Ready()
	if err := h.node.Step(Message{Type: MsgFetch, From: 0, To: 3, BlockHash: blocks[2].Hash(), Count: MaxFetchBlocks}); err != nil {
		t.Fatal(err)
	}
	var got []*Block
	for _, m := range h.node.Ready().Messages {
		if m.Type == MsgBlock && m.To == 0 {
			got = m.Blocks
		}
	}
	if len(got) != 3 || got[0] != blocks[2] || got[1] != blocks[1] || got[2] != blocks[0] {
		t.Fatalf("FETCH of b3 answered with %d blocks, want b3 b2 b1", len(got))
	}
}

// TestBlockReply: a reply of exactly MaxFetchBlocks blocks is taken, one
// more is refused; and a reply whose lowest block's parent is missing
// (above the final height) asks the sender for that parent.
func TestBlockReply(t *testing.T) {
	all := []int{0, 1, 2, 3}
	h, err := newNodeWith(t, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	var chain []*Block
	parent := h.genesisQC()
	for r := uint64(1); r <= MaxFetchBlocks+1; r++ {
		_, b := h.propose(r, parent, fmt.Sprintf("b%d", r), nil)
		chain = append(chain, b)
		parent = h.qc(b, all...)
	}
	rev := func(bs []*Block) []*Block {
		out := make([]*Block, len(bs))
		for i, b := range bs {
			out[len(bs)-1-i] = b
		}
		return out
	}
	if err := h.node.Step(Message{Type: MsgBlock, From: 0, Blocks: rev(chain)}); err == nil {
		t.Fatalf("a reply of %d blocks was taken", len(chain))
	}
	top := chain[MaxFetchBlocks]
	// The node learns top's certificate and asks for top.
	if err := h.node.Step(h.newView(0, top.Round+1, h.qc(top, all...), nil)); err != nil {
		t.Fatal(err)
	}
	h.node.Ready()
	if err := h.node.Step(Message{Type: MsgBlock, From: 0, Blocks: rev(chain[1:])}); err != nil {
		t.Fatalf("a reply of exactly %d blocks: %v", MaxFetchBlocks, err)
	}
	if h.node.Block(top.Hash()) == nil || h.node.Block(chain[1].Hash()) == nil {
		t.Fatal("the blocks of the reply were not kept")
	}
	var asked []Message
	for _, m := range h.node.Ready().Messages {
		if m.Type == MsgFetch {
			asked = append(asked, m)
		}
	}
	if len(asked) != 1 || asked[0].BlockHash != chain[0].Hash() || asked[0].To != 0 {
		t.Fatalf("after a reply down to height 2: FETCH %v, want b1 from validator 0", asked)
	}
}
