package simplex

import (
	"bytes"
	"errors"
	"fmt"
	"sort"

	"github.com/cowboy-chain/cowboy/crypto/vrf"
)

// Config is everything a Node is built from. All of it comes from outside:
// the validator set and epoch seed from the chain, the key from the node's
// home, the restored state from its disk.
type Config struct {
	// ID is this node's validator index, or -1 for a node that follows
	// the chain without voting. A follower learns certificates from the
	// proposals it receives; it does not FETCH (it has no validator
	// identity), so the node fills its gaps by syncing finalized blocks.
	ID int
	// Validators is the epoch's validator set.
	Validators *ValidatorSet
	// Scheme signs and verifies.
	Scheme Scheme
	// Seed is the epoch seed: it draws the proposer of every round and is
	// the VRF input every proposer proves with its height (§6.1).
	Seed [32]byte
	// Genesis is the root this instance builds on: the chain's block 0, or
	// for a later epoch the last finalized block of the epoch before it
	// (v2 "Validator Set": the set changes at epoch boundaries). It is final
	// by definition and certified by an unsigned root certificate whose
	// round is max(Genesis.Round, RoundBase).
	Genesis *Block
	// RoundBase puts this instance's rounds above every round of earlier
	// instances: they start at max(Genesis.Round, RoundBase)+1. Votes sign
	// only (block, height, round) (§6.1), so an epoch that reused an older
	// epoch's rounds at the same heights could make an honest validator's
	// two votes look like double signing. The node uses epoch << 32.
	RoundBase uint64
	// TimeoutTicks is how many Tick calls a round may last before the
	// node sends NEW_VIEW (and then resends it that often). Zero means
	// DefaultTimeoutTicks.
	TimeoutTicks int
	// MaxRoundsAhead bounds buffering of future-round messages. Zero means
	// DefaultMaxRoundsAhead.
	MaxRoundsAhead uint64
	// KeepFinalized is how many finalized blocks stay in memory to serve
	// FETCH. Zero means DefaultKeepFinalized.
	KeepFinalized uint64
	// Restore, if set, is the HardState the node persisted before it
	// stopped; it keeps a restarted validator from voting twice in a round.
	Restore *HardState
	// FinalizedTip is the newest finalized block on disk when restarting
	// (the genesis if nil).
	FinalizedTip *Block
	// Beacon, if set, is the epoch's threshold beacon key (§3.4): every
	// certificate must then carry σ (QC.Beacon), votes carry partial
	// signatures, and a leader certifies a block only once it has σ. Nil
	// keeps the proposer VRF as the only randomness (Block.Beacon).
	Beacon BeaconScheme
	// Store, if set, is read to answer FETCH for finalized blocks the node
	// no longer keeps in memory (raft's Storage in the same role). The
	// node only reads it; the application writes finalized blocks to it.
	Store BlockStore
	// plainDraw, set only by this package's scripted tests, replaces the
	// rotating Leader with the plain stake draw the scripts were written
	// for (their scenarios have one validator lead consecutive rounds).
	plainDraw bool
}

// BlockStore looks up finalized blocks by hash; it returns nil for a block
// it does not have.
type BlockStore interface {
	Block(h Hash) *Block
}

// HardState is what a validator must persist before it sends the messages
// of the same Ready: forgetting LastVoted or Locked after a crash could
// make an honest node sign two conflicting votes.
type HardState struct {
	Round     uint64 // the round the node is in
	LastVoted uint64 // the highest round it voted (or proposed) in
	Locked    uint64 // the highest justify round among the blocks it voted for
	HighQC    *QC    // the highest certificate it knows
	// LastTC is the timeout certificate that ended round Round-1, if that
	// is how the node reached Round; without it a restarted node could not
	// show lagging peers why it moved on.
	LastTC *TC
}

// ProposeRequest asks the application for a payload to propose in Round,
// on top of Parent at Height-1. Answer with Node.Propose.
type ProposeRequest struct {
	Round  uint64
	Height uint64
	Parent Hash
}

// Certified is a block together with the certificate that certifies it.
type Certified struct {
	Block *Block
	QC    *QC
}

// Evidence is two valid signatures by one validator on votes for different
// blocks in the same round: double signing (v2 "Slashing": jail and slash
// 1%). Anyone can check it with the validator's public key and
// VoteMessage.
type Evidence struct {
	Signer                 int
	HeightA, HeightB       uint64
	Round                  uint64
	BlockA, BlockB         Hash
	SignatureA, SignatureB []byte
}

// Ready is what the node must act on, in this order: persist HardState,
// send Messages, then hand the rest to the application. Every list is in a
// deterministic order.
type Ready struct {
	// HardState is set when it changed since the last Ready.
	HardState *HardState
	// Messages to send; To is a validator index or Broadcast.
	Messages []Message
	// ProposeRequest is set when this node leads the current round and
	// knows the block to build on.
	ProposeRequest *ProposeRequest
	// Verify lists proposals whose payload the application must judge,
	// answering with Node.Verdict.
	Verify []*Block
	// Committed lists blocks that gained a certificate ("commit", §6.1),
	// in the order they were learned.
	Committed []Certified
	// Finalized lists blocks that became final, in ascending height, each
	// with the certificate that certifies it: the chain to apply.
	Finalized []Certified
	// Evidence lists double signing seen.
	Evidence []Evidence
	// FinalProof, set with Finalized, is the certified child that proves
	// the last Finalized block final: its QC is from the round right after
	// its justify (the two-chain rule). A node keeps it for the last block
	// of an epoch, whose finality nothing in the next epoch can prove.
	FinalProof *Certified
}

// Empty reports whether there is nothing to do.
func (r *Ready) Empty() bool {
	return r.HardState == nil && len(r.Messages) == 0 && r.ProposeRequest == nil &&
		len(r.Verify) == 0 && len(r.Committed) == 0 && len(r.Finalized) == 0 && len(r.Evidence) == 0
}

// Status is a snapshot of a node's protocol state, for logs and tests.
type Status struct {
	ID              int
	Round           uint64
	LastVoted       uint64
	Locked          uint64
	HighQC          *QC
	FinalizedHeight uint64
	FinalizedHash   Hash
	TimedOut        bool
}

// String is one log line with every field.
func (s Status) String() string {
	return fmt.Sprintf("node %d: round=%d voted=%d locked=%d highqc=%s@r%d final=%s@h%d timedout=%v",
		s.ID, s.Round, s.LastVoted, s.Locked, Short(s.HighQC.BlockHash), s.HighQC.Round,
		Short(s.FinalizedHash), s.FinalizedHeight, s.TimedOut)
}

// ErrSafety is reported (and the node halts) if two conflicting blocks are
// proven final: it means more than a third of the stake is Byzantine.
var ErrSafety = errors.New("simplex: conflicting blocks finalized")

// ErrStaleRequest is returned by Propose when the node left the round of
// the request (or gave it up) before the payload came: not a fault, the
// moment simply passed.
var ErrStaleRequest = errors.New("simplex: propose request is stale")

type voteKey struct {
	round, height uint64
	hash          Hash
}

type seenKey struct {
	round  uint64
	signer int
}

type seenVote struct {
	height uint64
	hash   Hash
	sig    []byte
	caught bool // a second vote was examined; later ones are ignored
}

type proposal struct {
	block    *Block
	hash     Hash
	msg      Message
	verdict  int8 // 0 unknown, 1 valid, -1 invalid
	asked    bool
	handled  bool // passed to the current-round logic
	waitsFor Hash // missing parent, if any
}

// Node is one validator's consensus state machine.
type Node struct {
	cfg     Config
	id      int
	set     *ValidatorSet
	scheme  Scheme
	timeout int
	genesis *Block
	genQC   *QC

	round     uint64
	lastVoted uint64
	locked    uint64
	highQC    *QC
	lastTC    *TC // certificate that ended round-1, if the node has one
	ticks     int // ticks since the round began or NEW_VIEW was last sent
	timedOut  bool
	// fetchTicks counts ticks since missing blocks were last asked for.
	fetchTicks int

	blocks    map[Hash]*Block
	qcs       map[Hash]*QC
	committed map[Hash]bool
	proposals map[uint64]*proposal   // by round: the first valid proposal seen
	votes     map[voteKey]*collector // vote collectors of the rounds this node leads next
	newViews  map[uint64]*collector
	seen      map[seenKey]*seenVote
	wanted    map[Hash]bool
	parked    map[Hash][]uint64 // missing parent -> rounds of proposals waiting for it

	finalHeight  uint64
	finalHash    Hash
	finalChain   map[uint64]Hash // finalized hashes by height, last KeepFinalized
	pendingFinal *Certified      // highest block proven final, not yet delivered
	pendingProof *Certified      // the certified child that proves pendingFinal final
	prunedAt     uint64          // finalized height at the last pruneBlocks

	proposeReq *ProposeRequest
	proposeQC  *QC

	halted error
	dirty  bool
	out    Ready
}

// NewNode builds a node from cfg.
func NewNode(cfg Config) (*Node, error) {
	if cfg.Validators == nil || cfg.Scheme == nil || cfg.Genesis == nil {
		return nil, errors.New("simplex: config needs Validators, Scheme and Genesis")
	}
	if cfg.ID < -1 || cfg.ID >= cfg.Validators.Len() {
		return nil, fmt.Errorf("simplex: node id %d outside the validator set of %d", cfg.ID, cfg.Validators.Len())
	}
	if cfg.Genesis.Height == 0 && cfg.Genesis.Round != 0 {
		return nil, errors.New("simplex: a height-0 genesis must be round 0")
	}
	if cfg.TimeoutTicks <= 0 {
		cfg.TimeoutTicks = DefaultTimeoutTicks
	}
	if cfg.MaxRoundsAhead == 0 {
		cfg.MaxRoundsAhead = DefaultMaxRoundsAhead
	}
	if cfg.KeepFinalized == 0 {
		cfg.KeepFinalized = DefaultKeepFinalized
	}
	gh := cfg.Genesis.Hash()
	n := &Node{
		cfg: cfg, id: cfg.ID, set: cfg.Validators, scheme: cfg.Scheme, timeout: cfg.TimeoutTicks,
		genesis: cfg.Genesis, genQC: &QC{BlockHash: gh, Height: cfg.Genesis.Height, Round: max(cfg.Genesis.Round, cfg.RoundBase)},
		blocks: map[Hash]*Block{gh: cfg.Genesis}, qcs: map[Hash]*QC{}, committed: map[Hash]bool{gh: true},
		proposals: map[uint64]*proposal{}, votes: map[voteKey]*collector{}, newViews: map[uint64]*collector{},
		seen: map[seenKey]*seenVote{}, wanted: map[Hash]bool{}, parked: map[Hash][]uint64{},
		finalHeight: cfg.Genesis.Height, finalHash: gh, finalChain: map[uint64]Hash{cfg.Genesis.Height: gh},
		prunedAt: cfg.Genesis.Height,
	}
	n.qcs[gh] = n.genQC
	n.highQC = n.genQC
	n.round = n.genQC.Round + 1
	if tip := cfg.FinalizedTip; tip != nil && tip.Height > cfg.Genesis.Height {
		h := tip.Hash()
		n.blocks[h] = tip
		n.committed[h] = true
		n.finalHeight, n.finalHash = tip.Height, h
		n.finalChain[tip.Height] = h
	}
	if hs := cfg.Restore; hs != nil {
		// A HardState from an earlier instance (epoch) only keeps its
		// LastVoted and Locked, which are below this instance's rounds.
		n.round = max(hs.Round, n.genQC.Round+1)
		n.lastVoted, n.locked = hs.LastVoted, hs.Locked
		if hs.HighQC != nil && hs.HighQC.Round > n.genQC.Round {
			n.highQC = hs.HighQC
			n.qcs[hs.HighQC.BlockHash] = hs.HighQC
		}
		if hs.LastTC != nil && hs.LastTC.Round+1 == n.round {
			n.lastTC = hs.LastTC
		}
	}
	n.enterRound()
	return n, nil
}

// Status reports the node's protocol state.
func (n *Node) Status() Status {
	return Status{ID: n.id, Round: n.round, LastVoted: n.lastVoted, Locked: n.locked, HighQC: n.highQC,
		FinalizedHeight: n.finalHeight, FinalizedHash: n.finalHash, TimedOut: n.timedOut}
}

// Halted is non-nil once the node saw conflicting finality and stopped.
func (n *Node) Halted() error { return n.halted }

// Block returns a block the node holds, or nil.
func (n *Node) Block(h Hash) *Block { return n.blocks[h] }

// ProposalSignature returns the proposer's signature on the vote message
// of a proposal the node holds for its round (what invalid-proposal
// evidence carries), or nil.
func (n *Node) ProposalSignature(b *Block) []byte {
	p := n.proposals[b.Round]
	if p == nil || p.hash != b.Hash() || p.msg.From != b.Proposer {
		return nil
	}
	return p.msg.Signature
}

// HasReady reports whether Ready would return something.
func (n *Node) HasReady() bool { return n.dirty || !n.out.Empty() }

// Ready returns and clears what the node needs done.
func (n *Node) Ready() Ready {
	r := n.out
	if n.dirty {
		r.HardState = &HardState{Round: n.round, LastVoted: n.lastVoted, Locked: n.locked, HighQC: n.highQC, LastTC: n.lastTC}
		n.dirty = false
	}
	n.out = Ready{}
	return r
}

func (n *Node) leader(round uint64) int {
	if n.cfg.plainDraw {
		return n.set.draw(n.cfg.Seed, round, -1, -1)
	}
	return n.set.Leader(n.cfg.Seed, round)
}

func (n *Node) send(m Message) {
	m.From = n.id
	n.out.Messages = append(n.out.Messages, m)
}

// Tick advances the node's notion of time by one tick. A round that lasts
// TimeoutTicks without a certificate is given up with NEW_VIEW, which is
// then repeated every TimeoutTicks so that peers cut off by a partition
// catch up once it heals.
func (n *Node) Tick() {
	if n.halted != nil {
		return
	}
	// Ask again for blocks still missing, from everyone: a FETCH or its
	// answer may have been lost, and finality waits for them.
	n.fetchTicks++
	if n.fetchTicks >= n.timeout {
		n.fetchTicks = 0
		if n.id >= 0 {
			for _, h := range sortedHashes(n.wanted) {
				n.send(Message{Type: MsgFetch, To: Broadcast, BlockHash: h, Count: MaxFetchBlocks})
			}
		}
	}
	if n.id < 0 {
		return
	}
	n.ticks++
	if n.ticks < n.timeout {
		return
	}
	n.giveUp()
}

// LeaderUnreachable tells the node that the leader of round is known to be
// unreachable (the transport has no connection to it). If that is the
// current round, nothing was proposed in it yet and it has lasted
// UnreachableGraceTicks, the node gives it up now instead of waiting out
// TimeoutTicks for a proposal that cannot come: a crashed validator leads
// its share of the rounds, and each one cost a full timeout (docs/
// consensus.md Known issues). Timing decides only liveness, so no safety
// rule changes; a node wrongly told gives up one round, as on a timeout.
func (n *Node) LeaderUnreachable(round uint64) {
	if n.halted != nil || n.id < 0 || round != n.round || n.timedOut || n.proposals[round] != nil ||
		n.ticks < min(UnreachableGraceTicks, n.timeout) {
		return
	}
	n.giveUp()
}

// Leader is the validator index that leads round (a stake-weighted draw
// from the epoch seed).
func (n *Node) Leader(round uint64) int { return n.leader(round) }

// giveUp sends NEW_VIEW for the current round: the node will not vote or
// propose in it any more.
func (n *Node) giveUp() {
	n.ticks = 0
	n.timedOut = true
	sig := n.scheme.Sign(NewViewMessage(n.round))
	n.send(Message{Type: MsgNewView, To: Broadcast, Round: n.round, Signature: sig, QC: n.highQC, TC: n.lastTC})
	n.addNewView(n.round, n.id, sig)
}

// Step feeds one message from a peer. An error means the message was
// invalid (the transport may score the peer down); the node's state is
// unaffected by it beyond what was valid.
func (n *Node) Step(m Message) error {
	if n.halted != nil {
		return n.halted
	}
	if m.From < 0 || m.From >= n.set.Len() {
		return fmt.Errorf("step %v: sender %d outside the validator set", m.Type, m.From)
	}
	switch m.Type {
	case MsgPropose:
		return n.onPropose(m)
	case MsgVote:
		return n.onVote(m)
	case MsgNewView:
		return n.onNewView(m)
	case MsgFetch:
		n.onFetch(m)
		return nil
	case MsgBlock:
		return n.onBlock(m)
	}
	return fmt.Errorf("step: unknown message type %d", m.Type)
}

// enterRound runs the duties of the start of a round.
func (n *Node) enterRound() {
	n.ticks, n.timedOut = 0, false
	n.proposeReq, n.proposeQC = nil, nil
	n.dirty = true
	n.prune()
	n.maybeRequestProposal()
	if p := n.proposals[n.round]; p != nil && !p.handled {
		n.considerProposal(p)
	}
}

// advance moves to round r (never backwards). tc is the timeout
// certificate for r-1 when that is how the node got here.
func (n *Node) advance(r uint64, tc *TC) {
	if r <= n.round {
		return
	}
	n.round = r
	n.lastTC = nil
	if tc != nil && tc.Round+1 == r {
		n.lastTC = tc
	}
	n.enterRound()
}

func (n *Node) maybeRequestProposal() {
	// A node that proposed in the round also voted in it (Propose sets
	// lastVoted), so lastVoted alone says it may not propose again.
	if n.id < 0 || n.leader(n.round) != n.id || n.lastVoted >= n.round || n.proposeReq != nil || n.timedOut {
		return
	}
	qc := n.highQC
	if qc.Round+1 != n.round && (n.lastTC == nil || n.lastTC.Round+1 != n.round) {
		return // cannot prove why the previous round ended yet
	}
	if n.blocks[qc.BlockHash] == nil {
		n.want(qc.BlockHash, Broadcast)
		return
	}
	n.proposeReq = &ProposeRequest{Round: n.round, Height: qc.Height + 1, Parent: qc.BlockHash}
	n.proposeQC = qc
	n.out.ProposeRequest = n.proposeReq
}

// Propose answers a ProposeRequest with the payload to propose. The node
// signs the block (the signature is also its vote) and broadcasts it.
func (n *Node) Propose(round uint64, payload []byte) error {
	if n.halted != nil {
		return n.halted
	}
	if n.proposeReq == nil || n.proposeReq.Round != round || round != n.round {
		return fmt.Errorf("propose in round %d (node is in round %d): %w", round, n.round, ErrStaleRequest)
	}
	qc := n.proposeQC
	n.proposeReq, n.proposeQC = nil, nil
	if n.timedOut || n.lastVoted >= round {
		return fmt.Errorf("propose in round %d: round already given up or voted in: %w", round, ErrStaleRequest)
	}
	qc = n.fullerQC(qc)
	height := qc.Height + 1
	_, proof := n.scheme.VRFProve(vrf.Input(n.cfg.Seed, height))
	b := &Block{Parent: qc.BlockHash, Height: height, Round: round, Proposer: n.id,
		Payload: append([]byte(nil), payload...), VRFProof: proof, Justify: qc}
	h := b.Hash()
	vm := VoteMessage(h, height, round)
	m := Message{Type: MsgPropose, To: Broadcast, Block: b, Signature: n.scheme.Sign(vm), Partials: n.partials(vm)}
	if qc.Round+1 != round {
		m.TC = n.lastTC
	}
	n.lastVoted = round
	n.locked = max(n.locked, qc.Round)
	n.dirty = true
	n.send(m)
	m.From = n.id
	p := &proposal{block: b, hash: h, msg: m, verdict: 1, asked: true, handled: true}
	n.proposals[round] = p
	n.addBlock(b)
	n.countVote(n.id, h, height, round, m.Signature, m.Partials)
	return nil
}

// Verdict gives the application's judgement of a proposal's payload, asked
// for in Ready.Verify. The node votes for a valid one if it still may.
func (n *Node) Verdict(h Hash, valid bool) {
	if n.halted != nil {
		return
	}
	p := n.proposals[n.round]
	if p == nil || p.hash != h || p.verdict != 0 {
		return
	}
	if valid {
		p.verdict = 1
		n.tryVote(p)
	} else {
		p.verdict = -1
	}
}

func (n *Node) onPropose(m Message) error {
	b := m.Block
	if b == nil || b.Justify == nil {
		return errors.New("propose: no block or no justification")
	}
	if b.Proposer != m.From {
		return fmt.Errorf("propose: block of validator %d sent by %d", b.Proposer, m.From)
	}
	if b.Round == 0 || b.Proposer != n.leader(b.Round) {
		return fmt.Errorf("propose: validator %d does not lead round %d", b.Proposer, b.Round)
	}
	if b.Parent != b.Justify.BlockHash || b.Height != b.Justify.Height+1 || b.Justify.Round >= b.Round {
		return fmt.Errorf("propose r%d: justification %v does not certify the parent", b.Round, b.Justify)
	}
	h := b.Hash()
	if old := n.proposals[b.Round]; old != nil && old.hash == h {
		return nil // duplicate
	}
	// Proposals are kept for the previous round (its certificate may still
	// form), the current one and a window ahead; older ones only if a
	// certificate names them.
	inWindow := b.Round+1 >= n.round && b.Round <= n.round+n.cfg.MaxRoundsAhead
	if b.Round+1 < n.round && !n.wanted[h] {
		return nil
	}
	if !n.scheme.Verify(b.Proposer, VoteMessage(h, b.Height, b.Round), m.Signature) {
		return fmt.Errorf("propose %s r%d: bad proposer signature", Short(h), b.Round)
	}
	if _, ok := n.scheme.VRFVerify(b.Proposer, vrf.Input(n.cfg.Seed, b.Height), b.VRFProof); !ok {
		return fmt.Errorf("propose %s r%d: bad VRF proof for height %d", Short(h), b.Round, b.Height)
	}
	if b.Justify.Round+1 != b.Round {
		if m.TC == nil || m.TC.Round+1 != b.Round {
			return fmt.Errorf("propose %s r%d: justify is from round %d and no timeout certificate for round %d", Short(h), b.Round, b.Justify.Round, b.Round-1)
		}
		if err := n.verifyTC(m.TC); err != nil {
			return fmt.Errorf("propose %s: %w", Short(h), err)
		}
		if err := n.observeTC(m.TC); err != nil {
			return fmt.Errorf("propose %s: %w", Short(h), err)
		}
	}
	if err := n.observeQC(b.Justify, m.From); err != nil {
		return fmt.Errorf("propose %s: %w", Short(h), err)
	}
	n.countVote(b.Proposer, h, b.Height, b.Round, m.Signature, m.Partials)
	if !inWindow {
		if n.wanted[h] {
			n.addBlock(b)
		}
		return nil
	}
	if old := n.proposals[b.Round]; old != nil {
		// Equivocation: countVote reported it; the first proposal stands
		// and the second is not stored, so a Byzantine leader cannot fill
		// memory with variants of its round.
		if n.wanted[h] {
			n.addBlock(b)
		}
		return nil
	}
	// Only the current round's proposal is judged and voted on; the other
	// one stored is the previous round's (observing its justification
	// brought the node to at least its round), kept for its signature.
	p := &proposal{block: b, hash: h, msg: m, handled: true}
	n.proposals[b.Round] = p
	n.addBlock(b)
	if b.Round == n.round {
		n.considerProposal(p)
	}
	return nil
}

// considerProposal handles the proposal of the current round: once its
// parent is known the application is asked to judge the payload.
func (n *Node) considerProposal(p *proposal) {
	p.handled = true
	if n.blocks[p.block.Parent] == nil {
		p.waitsFor = p.block.Parent
		n.parked[p.block.Parent] = append(n.parked[p.block.Parent], p.block.Round)
		n.want(p.block.Parent, p.msg.From)
		return
	}
	p.waitsFor = Hash{}
	if p.verdict == 0 && !p.asked {
		p.asked = true
		n.out.Verify = append(n.out.Verify, p.block)
		return
	}
	n.tryVote(p)
}

// tryVote applies the voting rule (docs/consensus.md): vote once per round,
// in the current round only, not after giving it up, and only for a block
// whose justification is at least as recent as the lock.
func (n *Node) tryVote(p *proposal) {
	b := p.block
	if n.id < 0 || b.Round != n.round || n.timedOut || n.lastVoted >= b.Round || p.verdict != 1 || p.waitsFor != (Hash{}) {
		return
	}
	if b.Justify.Round < n.locked {
		return
	}
	n.lastVoted = b.Round
	n.locked = max(n.locked, b.Justify.Round)
	n.dirty = true
	vm := VoteMessage(p.hash, b.Height, b.Round)
	sig, parts := n.scheme.Sign(vm), n.partials(vm)
	// The vote goes to the next round's leader, who certifies the block
	// and builds on it, and to the leader of the round after, so that the
	// block is still certified when the next leader is down: that leader
	// learns the certificate, passes it on in its NEW_VIEW and builds on
	// it once the dead leader's round has timed out.
	for _, to := range voteCollectors(n.leader(b.Round+1), n.leader(b.Round+2)) {
		if to == n.id {
			n.countVote(n.id, p.hash, b.Height, b.Round, sig, parts)
			continue
		}
		n.send(Message{Type: MsgVote, To: to, BlockHash: p.hash, Height: b.Height, Round: b.Round, Signature: sig, Partials: parts})
	}
}

// voteCollectors are the validators a vote of a round goes to: the leaders
// of the next two rounds, once each.
func voteCollectors(next, after int) []int {
	if next == after {
		return []int{next}
	}
	return []int{next, after}
}

func (n *Node) onVote(m Message) error {
	if m.Round == 0 || len(m.Signature) == 0 {
		return errors.New("vote: round 0 or no signature")
	}
	n.countVote(m.From, m.BlockHash, m.Height, m.Round, m.Signature, m.Partials)
	return nil
}

// partials are this node's beacon partial signatures on a vote message.
func (n *Node) partials(vm []byte) [][]byte {
	if n.cfg.Beacon == nil {
		return nil
	}
	return n.cfg.Beacon.Partials(vm)
}

// countVote records a vote (a proposal's signature is its proposer's vote)
// for double-sign evidence and, on the leader of the next round, adds it to
// the collector that forms the certificate.
func (n *Node) countVote(from int, h Hash, height, round uint64, sig []byte, partials [][]byte) {
	if round+1 < n.round || round > n.round+n.cfg.MaxRoundsAhead {
		return
	}
	k := seenKey{round, from}
	if s := n.seen[k]; s == nil {
		n.seen[k] = &seenVote{height: height, hash: h, sig: sig}
	} else if s.hash != h || s.height != height {
		// A second vote in the round: evidence if both signatures hold,
		// never counted, so each signer feeds at most one collector per
		// round and memory stays bounded.
		// Checked once per signer and round, so a flood of variants costs
		// at most two signature checks.
		if !s.caught && n.scheme.Verify(from, VoteMessage(s.hash, s.height, round), s.sig) &&
			n.scheme.Verify(from, VoteMessage(h, height, round), sig) {
			n.out.Evidence = append(n.out.Evidence, Evidence{Signer: from, Round: round,
				HeightA: s.height, BlockA: s.hash, SignatureA: s.sig,
				HeightB: height, BlockB: h, SignatureB: sig})
		}
		s.caught = true
		return
	}
	if n.id < 0 || (n.leader(round+1) != n.id && n.leader(round+2) != n.id) {
		return
	}
	vk := voteKey{round, height, h}
	c := n.votes[vk]
	if q := n.qcs[h]; q != nil && q.Round == round {
		// Already certified: a vote that comes after the quorum is kept
		// (unverified) by the collector that formed the certificate, so
		// that the proposal can carry it (see fullerQC).
		if c != nil {
			c.add(from, sig, partials)
		}
		return
	}
	if c == nil {
		c = newCollector(n.set.Len())
		n.votes[vk] = c
	}
	c.add(from, sig, partials)
	vm := VoteMessage(h, height, round)
	signers, agg, ok := c.quorum(n.set, n.scheme, vm)
	if !ok {
		return
	}
	var sigma []byte
	if n.cfg.Beacon != nil {
		// The certificate waits for σ: a quorum by stake always holds the
		// threshold of shares (dkg.Allocate), so once the honest voters'
		// partials are in, it forms; a voter with bad partials only delays
		// it until others arrive.
		if sigma, ok = c.beacon(n.cfg.Beacon, vm); !ok {
			return
		}
	}
	qc := &QC{BlockHash: h, Height: height, Round: round, Signature: agg, Signers: signers, Beacon: sigma}
	n.learnQC(qc, Broadcast)
}

// fullerQC re-aggregates qc with the votes that reached this leader after
// the quorum formed, when there are any. The certificate is formed at
// quorum so the protocol never waits, but the proposal goes out only when
// the block time has passed; by then every live validator's vote has
// usually arrived, and the justify names them all. The chain counts a
// validator's missed votes from the justify certificates (v2 "Slashing":
// extended downtime), so a certificate of only the first 2f+1 would blame
// honest but slower validators. Bad late signatures are dropped by the
// collector's check; the original qc stands if anything fails.
func (n *Node) fullerQC(qc *QC) *QC {
	c := n.votes[voteKey{qc.Round, qc.Height, qc.BlockHash}]
	if c == nil || c.signers.Count() <= qc.Signers.Count() {
		return qc
	}
	signers, agg, ok := c.quorum(n.set, n.scheme, VoteMessage(qc.BlockHash, qc.Height, qc.Round))
	if !ok || signers.Count() <= qc.Signers.Count() {
		return qc
	}
	full := &QC{BlockHash: qc.BlockHash, Height: qc.Height, Round: qc.Round, Signature: agg, Signers: signers, Beacon: qc.Beacon}
	n.qcs[qc.BlockHash] = full
	if n.highQC == qc {
		n.highQC = full
	}
	return full
}

func (n *Node) onNewView(m Message) error {
	if m.QC == nil {
		return errors.New("new_view: no highest certificate")
	}
	if err := n.observeQC(m.QC, m.From); err != nil {
		return fmt.Errorf("new_view from %d: %w", m.From, err)
	}
	if m.TC != nil {
		if err := n.observeTC(m.TC); err != nil {
			return fmt.Errorf("new_view from %d: %w", m.From, err)
		}
	}
	if m.Round < n.round || m.Round > n.round+n.cfg.MaxRoundsAhead {
		return nil
	}
	n.addNewView(m.Round, m.From, m.Signature)
	return nil
}

func (n *Node) addNewView(round uint64, from int, sig []byte) {
	c := n.newViews[round]
	if c == nil {
		c = newCollector(n.set.Len())
		n.newViews[round] = c
	}
	c.add(from, sig, nil)
	// Validators holding more than a third of the stake gave the current
	// round up, so at least one honest one did: join them rather than wait
	// out the timer (this re-synchronises rounds quickly after a heal).
	if round == n.round && !n.timedOut && n.id >= 0 && n.set.IsOneThird(c.signers) {
		n.giveUp()
		return
	}
	signers, agg, ok := c.quorum(n.set, n.scheme, NewViewMessage(round))
	if !ok {
		return
	}
	delete(n.newViews, round)
	// round is never below the node's (onNewView drops older ones), so
	// this moves it on.
	n.advance(round+1, &TC{Round: round, Signature: agg, Signers: signers})
}

// verifyTC checks a timeout certificate: a well-formed bitmap naming a
// quorum, and the aggregate of their NEW_VIEW signatures.
func (n *Node) verifyTC(tc *TC) error {
	if l := n.lastTC; l != nil && l.Round == tc.Round && bytes.Equal(l.Signature, tc.Signature) && bytes.Equal(l.Signers, tc.Signers) {
		return nil // the very certificate already verified
	}
	if !n.set.validBitmap(tc.Signers) || !n.set.IsQuorum(tc.Signers) {
		return fmt.Errorf("%v: signers are not a quorum", tc)
	}
	if !n.scheme.VerifyAggregate(tc.Signers.Indices(), NewViewMessage(tc.Round), tc.Signature) {
		return fmt.Errorf("%v: bad aggregate signature", tc)
	}
	return nil
}

// observeTC checks a timeout certificate that could move the node forward
// or let it propose, and acts on it.
func (n *Node) observeTC(tc *TC) error {
	if tc.Round+1 < n.round || (n.lastTC != nil && n.lastTC.Round >= tc.Round) ||
		(tc.Round+1 == n.round && n.highQC.Round == tc.Round) {
		return nil // nothing to learn: old, known, or the round ended with a QC
	}
	if err := n.verifyTC(tc); err != nil {
		return err
	}
	if tc.Round+1 > n.round {
		n.advance(tc.Round+1, tc)
		return nil
	}
	n.lastTC = tc // the node is in tc.Round+1 already; now it can prove it
	n.dirty = true
	n.maybeRequestProposal()
	return nil
}

// observeQC checks a certificate received from a peer and learns it.
func (n *Node) observeQC(qc *QC, from int) error {
	if g := n.genQC; qc.Round <= g.Round {
		if qc.BlockHash != g.BlockHash || qc.Height != g.Height || qc.Round != g.Round || len(qc.Beacon) != 0 {
			return fmt.Errorf("%v: rounds up to %d certify only the root %s, with no beacon", qc, g.Round, Short(g.BlockHash))
		}
		return nil
	}
	if known := n.qcs[qc.BlockHash]; known != nil && known.Round == qc.Round && known.Height == qc.Height {
		// σ is unique for the block, so a copy with another one is forged
		// (the block's randomness is read from the copy a child carries).
		if !bytes.Equal(known.Beacon, qc.Beacon) {
			return fmt.Errorf("%v: beacon differs from the certificate's", qc)
		}
		return nil
	}

	if !n.set.validBitmap(qc.Signers) || !n.set.IsQuorum(qc.Signers) {
		return fmt.Errorf("%v: signers are not a quorum", qc)
	}
	if !n.scheme.VerifyAggregate(qc.Signers.Indices(), VoteMessage(qc.BlockHash, qc.Height, qc.Round), qc.Signature) {
		return fmt.Errorf("%v: bad aggregate signature", qc)
	}
	if err := VerifyBeacon(n.cfg.Beacon, qc); err != nil {
		return err
	}
	n.learnQC(qc, from)
	return nil
}

// learnQC records a verified certificate: it may raise the highest QC,
// move the node to the next round, and prove a block final.
func (n *Node) learnQC(qc *QC, from int) {
	n.qcs[qc.BlockHash] = qc
	if qc.Round > n.highQC.Round {
		n.highQC = qc
		n.dirty = true
	}
	if n.blocks[qc.BlockHash] == nil && qc.Height > n.finalHeight {
		n.want(qc.BlockHash, from)
	}
	n.onCertified(qc.BlockHash)
	if qc.Round >= n.round {
		n.advance(qc.Round+1, nil)
	} else if qc == n.highQC {
		n.maybeRequestProposal()
	}
}

// onCertified runs when a block or its certificate arrives: report the
// commit and apply the finality rule.
func (n *Node) onCertified(h Hash) {
	b, qc := n.blocks[h], n.qcs[h]
	if b == nil || qc == nil || n.committed[h] {
		return
	}
	n.committed[h] = true
	if b.Height > n.finalHeight {
		n.out.Committed = append(n.out.Committed, Certified{Block: b, QC: qc})
	}
	// Two-chain rule with consecutive rounds: b's parent is final when b is
	// certified and b was proposed in the round right after its parent's.
	if b.Justify.Round+1 == b.Round && b.Height-1 > n.finalHeight {
		if n.pendingFinal == nil || n.pendingFinal.Block.Height < b.Height-1 {
			n.pendingProof = &Certified{Block: b, QC: qc}
			if parent := n.blocks[b.Parent]; parent != nil {
				n.pendingFinal = &Certified{Block: parent, QC: b.Justify}
			} else {
				n.pendingFinal = &Certified{Block: &Block{Height: b.Height - 1}, QC: b.Justify}
				n.want(b.Parent, Broadcast)
			}
		}
	} else if b.Justify.Round+1 == b.Round && b.Height-1 <= n.finalHeight && b.Height >= 1 {
		n.checkAgainstFinal(b.Parent, b.Height-1)
	}
	n.flushFinal()
}

func (n *Node) checkAgainstFinal(h Hash, height uint64) {
	if f, ok := n.finalChain[height]; ok && f != h {
		n.halted = fmt.Errorf("%w: %s and %s at height %d", ErrSafety, Short(f), Short(h), height)
	}
}

// flushFinal delivers the chain up to the highest block proven final once
// every block in between is known.
func (n *Node) flushFinal() {
	pf := n.pendingFinal
	if pf == nil || n.halted != nil {
		return
	}
	top := pf.QC.BlockHash
	if n.blocks[top] == nil {
		n.want(top, Broadcast)
		return
	}
	// Walk down to the finalized tip, collecting the chain.
	var chain []Certified
	h, qc := top, pf.QC
	for {
		b := n.blocks[h]
		if b == nil {
			n.want(h, Broadcast)
			return
		}
		if b.Height <= n.finalHeight {
			if b.Height == n.finalHeight && h == n.finalHash {
				break
			}
			n.halted = fmt.Errorf("%w: chain of %s reaches %s at height %d, finalized is %s",
				ErrSafety, Short(top), Short(h), b.Height, Short(n.finalChain[b.Height]))
			return
		}
		chain = append(chain, Certified{Block: b, QC: qc})
		h, qc = b.Parent, b.Justify
	}
	n.pendingFinal = nil
	n.out.FinalProof = n.pendingProof
	for i := len(chain) - 1; i >= 0; i-- {
		c := chain[i]
		n.out.Finalized = append(n.out.Finalized, c)
		ch := c.QC.BlockHash
		n.finalHeight, n.finalHash = c.Block.Height, ch
		n.finalChain[c.Block.Height] = ch
	}
	n.pruneBlocks()
}

// addBlock stores a block whose certificate chain was checked and wakes
// what waited for it.
func (n *Node) addBlock(b *Block) {
	h := b.Hash()
	if n.blocks[h] != nil {
		return
	}
	if b.Height <= n.finalHeight {
		return // a fork below the final chain, or the final block itself
	}
	n.blocks[h] = b
	delete(n.wanted, h)
	n.onCertified(h)
	if rounds := n.parked[h]; rounds != nil {
		delete(n.parked, h)
		for _, r := range rounds {
			if p := n.proposals[r]; p != nil && r == n.round && p.waitsFor == h {
				n.considerProposal(p)
			}
		}
	}
	if n.highQC.BlockHash == h {
		n.maybeRequestProposal()
	}
	// No flush of pendingFinal here: every block it waits for has its
	// certificate (the top's is pendingFinal.QC, each lower one's is the
	// justify of the block above), so onCertified above flushed it.
}

// lookup finds a block in memory or in the store.
func (n *Node) lookup(h Hash) *Block {
	if b := n.blocks[h]; b != nil {
		return b
	}
	if n.cfg.Store != nil {
		return n.cfg.Store.Block(h)
	}
	return nil
}

// onFetch answers with the wanted block and up to Count-1 ancestors.
func (n *Node) onFetch(m Message) {
	if m.From == n.id || n.id < 0 {
		return // a follower serves blocks through the node's sync, not here
	}
	count := min(max(m.Count, 1), MaxFetchBlocks)
	var out []*Block
	for h := m.BlockHash; len(out) < count; {
		b := n.lookup(h)
		if b == nil || (len(out) > 0 && b.Height <= n.genesis.Height) {
			break
		}
		out = append(out, b)
		if b.Height <= n.genesis.Height {
			break
		}
		h = b.Parent
	}
	if len(out) > 0 {
		n.send(Message{Type: MsgBlock, To: m.From, Blocks: out})
	}
}

// onBlock takes a reply to FETCH. The first block must be one the node
// asked for, and each next one the parent of the one before, so the hashes
// authenticate the whole batch; each block's own certificate is still
// verified before it is used.
func (n *Node) onBlock(m Message) error {
	if len(m.Blocks) == 0 || len(m.Blocks) > MaxFetchBlocks {
		return fmt.Errorf("block reply of %d blocks", len(m.Blocks))
	}
	top := m.Blocks[0].Hash()
	if !n.wanted[top] {
		return nil // not asked for: ignore
	}
	for i, b := range m.Blocks {
		if b == nil || b.Justify == nil {
			return errors.New("block reply: empty block")
		}
		if i > 0 && b.Hash() != m.Blocks[i-1].Parent {
			return fmt.Errorf("block reply: block %d is not the parent of block %d", i, i-1)
		}
		if b.Parent != b.Justify.BlockHash || b.Height != b.Justify.Height+1 {
			return fmt.Errorf("block %s: justification does not certify its parent", Short(b.Hash()))
		}
	}
	// Add from the oldest, so each block's parent is known when it lands.
	for i := len(m.Blocks) - 1; i >= 0; i-- {
		b := m.Blocks[i]
		if b.Height <= n.finalHeight || n.blocks[b.Hash()] != nil {
			continue
		}
		if err := n.observeQC(b.Justify, m.From); err != nil {
			return fmt.Errorf("block %s: %w", Short(b.Hash()), err)
		}
		n.wanted[b.Hash()] = true // linked to a wanted block: as good as asked for
		n.addBlock(b)
	}
	low := m.Blocks[len(m.Blocks)-1]
	if n.blocks[low.Parent] == nil && low.Height-1 > n.finalHeight {
		n.want(low.Parent, m.From)
	}
	return nil
}

// want asks for a missing block, from the peer that named it.
func (n *Node) want(h Hash, from int) {
	if n.blocks[h] != nil || n.wanted[h] {
		return
	}
	n.wanted[h] = true
	if n.id < 0 {
		return // a follower has no validator identity to ask with; the node syncs it
	}
	if from == n.id {
		from = Broadcast
	}
	n.send(Message{Type: MsgFetch, To: from, BlockHash: h, Count: MaxFetchBlocks})
}

// prune drops what can no longer matter, keeping memory bounded.
func (n *Node) prune() {
	for k := range n.votes {
		if k.round+1 < n.round {
			delete(n.votes, k)
		}
	}
	for r := range n.newViews {
		if r < n.round {
			delete(n.newViews, r)
		}
	}
	for r := range n.proposals {
		if r+1 < n.round {
			delete(n.proposals, r)
		}
	}
	for k := range n.seen {
		if k.round+1 < n.round {
			delete(n.seen, k)
		}
	}
	// A proposal parks only in the round it is for, the current one
	// (considerProposal), so every parked round is one the node has left.
	clear(n.parked)
}

// pruneBlocks drops blocks and certificates of forks below the final chain
// and final blocks older than KeepFinalized. It runs when finality has
// moved by a sixteenth of the window, so its cost is spread thin.
func (n *Node) pruneBlocks() {
	if n.finalHeight < n.prunedAt+max(n.cfg.KeepFinalized/16, 1) {
		return
	}
	n.prunedAt = n.finalHeight
	floor := n.finalHeight - min(n.finalHeight, n.cfg.KeepFinalized)
	// Wanted blocks at or below the final height are forks (or final
	// blocks that came by sync): forget them first, while the certificate
	// that tells their height is still held, or they are asked for again
	// every timeout for the rest of the epoch.
	for h := range n.wanted {
		if q := n.qcs[h]; q != nil && q.Height <= n.finalHeight {
			delete(n.wanted, h)
		}
	}
	for h, b := range n.blocks {
		if b.Height > n.finalHeight {
			continue
		}
		if f, ok := n.finalChain[b.Height]; (ok && f != h) || b.Height < floor {
			if h != n.finalHash {
				delete(n.blocks, h)
				delete(n.qcs, h)
				delete(n.committed, h)
			}
		}
	}
	for h, q := range n.qcs {
		if q.Height > n.finalHeight || h == n.finalHash {
			continue
		}
		if f, ok := n.finalChain[q.Height]; (ok && f != h) || q.Height < floor {
			delete(n.qcs, h)
			delete(n.committed, h)
		}
	}
	for ht := range n.finalChain {
		if ht < floor {
			delete(n.finalChain, ht)
		}
	}
}

func sortedHashes(m map[Hash]bool) []Hash {
	out := make([]Hash, 0, len(m))
	for h := range m {
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return bytes.Compare(out[i][:], out[j][:]) < 0 })
	return out
}
