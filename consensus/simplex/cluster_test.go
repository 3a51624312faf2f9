package simplex

import (
	"bytes"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/crypto/bls"
)

// fakeScheme is a cheap stand-in for BLS in long simulations: a signature
// is BLAKE3(secret_i || msg) and an aggregate is the XOR of the parts. It
// checks exactly what BLS checks (who signed which bytes), only without
// security against someone who reads the secrets, which no test node does
// except through its own key.
type fakeScheme struct {
	id      int
	secrets [][32]byte
}

func newFakeSchemes(n int, seed uint64) []Scheme {
	secrets := make([][32]byte, n)
	for i := range secrets {
		secrets[i] = crypto.Blake3([]byte("fake"), binary.BigEndian.AppendUint64(nil, seed), []byte{byte(i)})
	}
	out := make([]Scheme, n)
	for i := range out {
		out[i] = &fakeScheme{id: i, secrets: secrets}
	}
	return out
}

func (f *fakeScheme) sig(i int, msg []byte) []byte {
	s := crypto.Blake3(f.secrets[i][:], msg)
	return s[:]
}
func (f *fakeScheme) Sign(msg []byte) []byte { return f.sig(f.id, msg) }
func (f *fakeScheme) Verify(i int, msg, sig []byte) bool {
	return i >= 0 && i < len(f.secrets) && bytes.Equal(f.sig(i, msg), sig)
}
func (f *fakeScheme) Aggregate(sigs [][]byte) ([]byte, error) {
	out := make([]byte, 32)
	for _, s := range sigs {
		if len(s) != 32 {
			return nil, fmt.Errorf("fake aggregate: signature of %d bytes", len(s))
		}
		for k := range out {
			out[k] ^= s[k]
		}
	}
	return out, nil
}
func (f *fakeScheme) VerifyAggregate(signers []int, msg, agg []byte) bool {
	parts := make([][]byte, len(signers))
	for k, i := range signers {
		if i < 0 || i >= len(f.secrets) {
			return false
		}
		parts[k] = f.sig(i, msg)
	}
	want, _ := f.Aggregate(parts)
	return len(signers) > 0 && bytes.Equal(want, agg)
}
func (f *fakeScheme) VRFProve(input []byte) ([32]byte, []byte) {
	p := f.Sign(input)
	return crypto.Blake3(p), p
}
func (f *fakeScheme) VRFVerify(i int, input, proof []byte) ([32]byte, bool) {
	if !f.Verify(i, input, proof) {
		return [32]byte{}, false
	}
	return crypto.Blake3(proof), true
}

// blsSetup builds a validator set of real BLS keys with proofs of
// possession and one BLSScheme per validator.
func blsSetup(t testing.TB, stakes []uint64) (*ValidatorSet, []Scheme) {
	t.Helper()
	keys := make([]*bls.SecretKey, len(stakes))
	vs := make([]Validator, len(stakes))
	for i, st := range stakes {
		sk, err := bls.GenerateKey(bytes.Repeat([]byte{byte(i + 1)}, 32))
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = sk
		vs[i] = Validator{PublicKey: sk.PublicKey().Bytes(), Possession: sk.ProvePossession().Bytes(), Stake: st}
	}
	set, err := NewValidatorSet(vs)
	if err != nil {
		t.Fatal(err)
	}
	schemes := make([]Scheme, len(stakes))
	for i := range schemes {
		s, err := NewBLSScheme(keys[i], set)
		if err != nil {
			t.Fatal(err)
		}
		schemes[i] = s
	}
	return set, schemes
}

func fakeSetup(t testing.TB, stakes []uint64, seed uint64) (*ValidatorSet, []Scheme) {
	t.Helper()
	vs := make([]Validator, len(stakes))
	for i, st := range stakes {
		vs[i] = Validator{Stake: st}
	}
	set, err := NewValidatorSet(vs)
	if err != nil {
		t.Fatal(err)
	}
	return set, newFakeSchemes(len(stakes), seed)
}

// behaviour is how a node misbehaves; honest is the zero value.
type behaviour int

const (
	honest      behaviour = iota
	silent                // nuller: runs but sends nothing
	equivocator           // two proposals per led round, and a second vote per vote
	conflicter            // votes for a block nobody proposed instead of the real one
	withholder            // proposes, never votes
	badPartials           // votes and proposes with corrupted beacon partials
	noPartials            // votes and proposes without beacon partials
	twins                 // two honest instances share the key, each seeing half the network
)

func (b behaviour) String() string {
	return [...]string{"honest", "silent", "equivocator", "conflicter", "withholder", "twins"}[b]
}

type envelope struct {
	at  int
	seq int
	to  int
	msg Message
}

type queue []*envelope

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(*envelope)) }
func (q *queue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

type simNode struct {
	node      *Node
	cfg       Config
	behaviour behaviour
	down      bool
	hard      HardState
	final     []Hash // final[h] = finalized hash at height h
	lastFinal *Block
	finalTick []int // tick at which each height was finalized
	proposeAt map[Hash]int
	evidence  []Evidence
	invalid   map[string]bool // payloads this node's application refuses
	disk      memStore        // finalized blocks, kept across a crash
	twin      *Node           // twins: the second instance, talking to odd-indexed peers
}

// memStore is the BlockStore of a simulated node's disk.
type memStore map[Hash]*Block

func (m memStore) Block(h Hash) *Block { return m[h] }

// cluster is N nodes on a simulated network. Time is a tick counter; each
// message is delivered after a delay drawn from the seeded generator, and
// may be dropped, held by a partition or sent to an isolated node.
type cluster struct {
	t        testing.TB
	rng      *rand.Rand
	set      *ValidatorSet
	schemes  []Scheme
	nodes    []*simNode
	genesis  *Block
	now      int
	seq      int
	q        queue
	minDelay int
	maxDelay int
	dropRate float64
	group    []int // partition group of each node; messages cross groups only if equal
	manual   bool  // datadriven: messages wait for an explicit deliver
	wire     bool  // send every message through EncodeMessage/DecodeMessage
	pending  []*envelope
	log      *strings.Builder // datadriven output, nil in simulations
	finalAt  map[uint64]Hash  // height -> first hash any honest node finalized
	proposed map[Hash]int     // block -> tick proposed, for latency
	latency  []int            // ticks from proposal to finality at each node
	errs     int              // invalid messages refused
	// proofsChecked counts Readys whose FinalProof was checked to prove
	// their last finalized block final.
	proofsChecked int
	// randAt is the block randomness R each height was finalized with
	// (beacon clusters), for agreement across nodes.
	randAt map[uint64][32]byte
}

type clusterOpts struct {
	stakes       []uint64
	seed         uint64
	bls          bool
	timeoutTicks int
	behaviours   map[int]behaviour
	followers    int // non-voting nodes after the validators
	// beacon gives the epoch a threshold beacon key (needs bls), dealt
	// with DealBeacon.
	beacon bool
	// plainDraw keeps the leader draw without rotation (datadriven scripts).
	plainDraw bool
	// root and roundBase build the cluster as a later epoch's instance:
	// on a finalized root block above height 0, rounds above roundBase.
	root      *Block
	roundBase uint64
}

func newCluster(t testing.TB, o clusterOpts) *cluster {
	t.Helper()
	var set *ValidatorSet
	var schemes []Scheme
	if o.bls {
		set, schemes = blsSetup(t, o.stakes)
	} else {
		set, schemes = fakeSetup(t, o.stakes, o.seed)
	}
	c := &cluster{t: t, rng: rand.New(rand.NewPCG(o.seed, 0x5eed)), set: set, schemes: schemes,
		genesis: o.root, minDelay: 1, maxDelay: 1,
		group: make([]int, len(o.stakes)+o.followers), finalAt: map[uint64]Hash{}, proposed: map[Hash]int{}}
	if c.genesis == nil {
		c.genesis = &Block{Payload: []byte("genesis")}
	}
	var seed [32]byte
	binary.BigEndian.PutUint64(seed[:], o.seed)
	var bkey *BeaconKey
	var bmine [][][]byte
	c.randAt = map[uint64][32]byte{}
	if o.beacon {
		keys := make([]*bls.SecretKey, len(o.stakes))
		for i := range keys {
			keys[i], _ = bls.GenerateKey(bytes.Repeat([]byte{byte(i + 1)}, 32))
		}
		var err error
		if bkey, bmine, err = DealBeacon(set, keys); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < len(o.stakes)+o.followers; i++ {
		disk := memStore{c.genesis.Hash(): c.genesis}
		id, scheme := i, Scheme(nil)
		if i >= len(o.stakes) {
			id = -1 // a follower verifies with everyone's keys and has none of its own
			if o.bls {
				bs, err := NewBLSScheme(nil, set)
				if err != nil {
					t.Fatal(err)
				}
				scheme = bs
			} else {
				scheme = &fakeScheme{id: -1, secrets: schemes[0].(*fakeScheme).secrets}
			}
		} else {
			scheme = schemes[i]
		}
		cfg := Config{ID: id, Validators: set, Scheme: scheme, Seed: seed, Genesis: c.genesis, RoundBase: o.roundBase, TimeoutTicks: o.timeoutTicks, Store: disk, plainDraw: o.plainDraw}
		if bkey != nil {
			var mine [][]byte
			if id >= 0 {
				mine = bmine[id]
			}
			b, err := NewBLSBeacon(set, bkey, id, mine)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Beacon = b
		}
		n, err := NewNode(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var twin *Node
		if o.behaviours[i] == twins {
			if twin, err = NewNode(cfg); err != nil {
				t.Fatal(err)
			}
		}
		c.nodes = append(c.nodes, &simNode{node: n, twin: twin, cfg: cfg, behaviour: o.behaviours[i], disk: disk,
			final: []Hash{c.genesis.Hash()}, lastFinal: c.genesis, finalTick: []int{0}, invalid: map[string]bool{}})
	}
	return c
}

func (c *cluster) logf(format string, args ...any) {
	if c.log != nil {
		fmt.Fprintf(c.log, format+"\n", args...)
	}
}

func (c *cluster) honest(i int) bool { return c.nodes[i].behaviour == honest }

// enqueue puts one message on the wire from node `from` to node `to`.
func (c *cluster) enqueue(to int, m Message) {
	if c.wire {
		b, err := EncodeMessage(m)
		if err != nil {
			c.t.Fatalf("encode %v: %v", m, err)
		}
		if m, err = DecodeMessage(b, m.To); err != nil {
			c.t.Fatalf("decode %v: %v", m, err)
		}
	}
	c.seq++
	e := &envelope{at: c.now + c.minDelay + c.rng.IntN(c.maxDelay-c.minDelay+1), seq: c.seq, to: to, msg: m}
	if c.manual {
		c.pending = append(c.pending, e)
		return
	}
	if c.dropRate > 0 && c.rng.Float64() < c.dropRate {
		return
	}
	heap.Push(&c.q, e)
}

// send routes a node's outgoing message, through its misbehaviour.
func (c *cluster) send(from int, m Message) {
	sn := c.nodes[from]
	if m.Type == MsgPropose && sn.behaviour != silent {
		if _, ok := c.proposed[m.Block.Hash()]; !ok {
			c.proposed[m.Block.Hash()] = c.now
		}
	}
	dests := func(m Message) []int {
		if m.To != Broadcast {
			return []int{m.To}
		}
		var out []int
		for j := range c.nodes {
			if j != from {
				out = append(out, j)
			}
		}
		return out
	}
	switch sn.behaviour {
	case silent:
		return
	case withholder:
		if m.Type == MsgVote {
			return
		}
	case equivocator:
		switch m.Type {
		case MsgPropose:
			// A second block for the same round: the even peers get one,
			// the odd peers the other.
			b2 := *m.Block
			b2.Payload = append(append([]byte(nil), b2.Payload...), " twin"...)
			m2 := m
			m2.Block = &b2
			m2.Signature = c.schemes[from].Sign(VoteMessage(b2.Hash(), b2.Height, b2.Round))
			for _, to := range dests(m) {
				if to%2 == 0 {
					c.enqueue(to, m)
				} else {
					c.enqueue(to, m2)
				}
			}
			return
		case MsgVote:
			other := crypto.Blake3(m.BlockHash[:])
			m2 := m
			m2.BlockHash = Hash(other)
			m2.Signature = c.schemes[from].Sign(VoteMessage(m2.BlockHash, m.Height, m.Round))
			c.enqueue(m.To, m2)
		}
	case badPartials:
		if len(m.Partials) > 0 {
			ps := make([][]byte, len(m.Partials))
			for k := range ps {
				// A valid signature, on the wrong message.
				ps[k] = c.schemes[from].Sign([]byte("not the vote"))
			}
			m.Partials = ps
		}
	case noPartials:
		m.Partials = nil
	case twins:
		for _, to := range c.twinDests(from, m, 0) {
			c.enqueue(to, m)
		}
		return
	case conflicter:
		if m.Type == MsgVote {
			m.BlockHash = Hash(crypto.Blake3([]byte("conflict"), m.BlockHash[:]))
			m.Signature = c.schemes[from].Sign(VoteMessage(m.BlockHash, m.Height, m.Round))
		}
	}
	for _, to := range dests(m) {
		c.enqueue(to, m)
	}
}

// process handles every node's Ready until none has anything. A node
// whose Ready never empties (HasReady true after Ready took everything)
// fails the test instead of hanging it.
func (c *cluster) process() {
	for passes, progress := 0, true; progress; passes++ {
		if passes > 10000 {
			c.t.Fatalf("a node still has Ready after %d passes: its Ready never empties", passes)
		}
		progress = false
		for i, sn := range c.nodes {
			if sn.down || !sn.node.HasReady() {
				continue
			}
			progress = true
			c.handleReady(i, sn.node.Ready())
		}
		for i, sn := range c.nodes {
			if sn.twin != nil && !sn.down && sn.twin.HasReady() {
				progress = true
				c.handleTwinReady(i, sn.twin.Ready())
			}
		}
	}
}

// handleTwinReady runs the second instance of a twins validator: honest
// code, the same key, its messages going only to odd-indexed peers (the
// first instance's only to even ones).
func (c *cluster) handleTwinReady(i int, rd Ready) {
	tw := c.nodes[i].twin
	for _, m := range rd.Messages {
		for _, to := range c.twinDests(i, m, 1) {
			c.enqueue(to, m)
		}
	}
	for _, v := range rd.Verify {
		tw.Verdict(v.Hash(), true)
	}
	if pr := rd.ProposeRequest; pr != nil {
		if err := tw.Propose(pr.Round, []byte(fmt.Sprintf("twin block r%d by %d", pr.Round, i))); err != nil && !errors.Is(err, ErrStaleRequest) {
			c.t.Fatalf("twin %d: %v", i, err)
		}
	}
}

// twinDests are the recipients of m from twins validator i's instance of
// the given parity.
func (c *cluster) twinDests(i int, m Message, parity int) []int {
	var out []int
	for j := range c.nodes {
		if j != i && j%2 == parity && (m.To == Broadcast || m.To == j) {
			out = append(out, j)
		}
	}
	return out
}

func (c *cluster) handleReady(i int, rd Ready) {
	sn := c.nodes[i]
	if rd.HardState != nil {
		sn.hard = *rd.HardState
	}
	for _, m := range rd.Messages {
		c.send(i, m)
	}
	for _, v := range rd.Verify {
		ok := !sn.invalid[string(v.Payload)]
		c.logf("node %d: verify %s h=%d r=%d payload=%q -> %v", i, Short(v.Hash()), v.Height, v.Round, v.Payload, ok)
		sn.node.Verdict(v.Hash(), ok)
	}
	if pr := rd.ProposeRequest; pr != nil {
		payload := fmt.Sprintf("block r%d by %d", pr.Round, i)
		c.logf("node %d: propose r=%d h=%d parent=%s", i, pr.Round, pr.Height, Short(pr.Parent))
		if err := sn.node.Propose(pr.Round, []byte(payload)); err != nil && !errors.Is(err, ErrStaleRequest) {
			c.t.Fatalf("node %d: %v", i, err)
		}
	}
	for _, cb := range rd.Committed {
		c.logf("node %d: committed %s h=%d r=%d", i, Short(cb.QC.BlockHash), cb.Block.Height, cb.Block.Round)
	}
	for _, f := range rd.Finalized {
		h := f.QC.BlockHash
		c.logf("node %d: finalized %s h=%d r=%d", i, Short(h), f.Block.Height, f.Block.Round)
		if f.Block.Height != c.genesis.Height+uint64(len(sn.final)) {
			c.t.Fatalf("node %d finalized height %d after height %d", i, f.Block.Height, c.genesis.Height+uint64(len(sn.final))-1)
		}
		if f.Block.Parent != sn.final[len(sn.final)-1] {
			c.t.Fatalf("node %d finalized %s whose parent is not its last final block", i, Short(h))
		}
		sn.final = append(sn.final, h)
		sn.disk[h] = f.Block
		sn.finalTick = append(sn.finalTick, c.now)
		sn.lastFinal = f.Block
		if t0, ok := c.proposed[h]; ok && c.honest(i) {
			c.latency = append(c.latency, c.now-t0)
		}
		if !c.honest(i) {
			continue
		}
		if prev, ok := c.finalAt[f.Block.Height]; ok && prev != h {
			c.t.Fatalf("SAFETY: height %d finalized as %s and %s (node %d)", f.Block.Height, Short(prev), Short(h), i)
		}
		c.finalAt[f.Block.Height] = h
		if sn.cfg.Beacon != nil {
			if err := VerifyBeacon(sn.cfg.Beacon, f.QC); err != nil {
				c.t.Fatalf("node %d finalized height %d: %v", i, f.Block.Height, err)
			}
			r, _ := f.QC.Randomness()
			if prev, ok := c.randAt[f.Block.Height]; ok && prev != r {
				c.t.Fatalf("node %d: randomness of height %d differs from another node's", i, f.Block.Height)
			}
			c.randAt[f.Block.Height] = r
		}
	}
	if n := len(rd.Finalized); n > 0 {
		last := rd.Finalized[n-1]
		p := rd.FinalProof
		if p == nil || p.Block.Parent != last.QC.BlockHash || p.Block.Justify.Round+1 != p.Block.Round ||
			p.QC.BlockHash != p.Block.Hash() || p.QC.Round != p.Block.Round {
			c.t.Fatalf("node %d: finalized %s without a proof of finality (%+v)", i, Short(last.QC.BlockHash), p)
		}
		c.proofsChecked++
	}
	for _, e := range rd.Evidence {
		c.logf("node %d: evidence: validator %d signed %s and %s in round %d", i, e.Signer, Short(e.BlockA), Short(e.BlockB), e.Round)
		sn.evidence = append(sn.evidence, e)
	}
}

// deliver hands one envelope to its node unless the network loses it.
func (c *cluster) deliver(e *envelope) {
	sn := c.nodes[e.to]
	if sn.down || c.group[e.msg.From] != c.group[e.to] {
		return
	}
	c.logf("deliver to %d: %v", e.to, e.msg)
	target := sn.node
	if sn.twin != nil && e.msg.From%2 == 1 {
		target = sn.twin
	}
	if err := target.Step(e.msg); err != nil {
		c.errs++
		c.logf("node %d: refused: %v", e.to, err)
	}
	if err := sn.node.Halted(); err != nil && c.honest(e.to) {
		c.t.Fatalf("node %d halted: %v", e.to, err)
	}
}

// step advances the simulation by one tick: deliver what is due, tick
// every live node, handle every Ready.
func (c *cluster) step() {
	c.now++
	for c.q.Len() > 0 && c.q[0].at <= c.now {
		e := heap.Pop(&c.q).(*envelope)
		c.deliver(e)
		c.process()
	}
	for _, sn := range c.nodes {
		if !sn.down {
			sn.node.Tick()
			if sn.twin != nil {
				sn.twin.Tick()
			}
		}
	}
	c.process()
}

func (c *cluster) run(ticks int) {
	for k := 0; k < ticks; k++ {
		c.step()
	}
}

// crash stops node i; its HardState and finalized tip survive as on disk.
func (c *cluster) crash(i int) { c.nodes[i].down = true }

// restart rebuilds node i from what it persisted.
func (c *cluster) restart(i int) {
	sn := c.nodes[i]
	cfg := sn.cfg
	hs := sn.hard
	cfg.Restore = &hs
	cfg.FinalizedTip = sn.lastFinal
	n, err := NewNode(cfg)
	if err != nil {
		c.t.Fatal(err)
	}
	sn.node, sn.down = n, false
}

func (c *cluster) partition(groups ...[]int) {
	for g, members := range groups {
		for _, i := range members {
			c.group[i] = g + 1
		}
	}
}

func (c *cluster) heal() {
	for i := range c.group {
		c.group[i] = 0
	}
}

// minFinal is the lowest finalized height among the honest live nodes.
func (c *cluster) minFinal() int {
	m := -1
	for i, sn := range c.nodes {
		if !c.honest(i) || sn.down {
			continue
		}
		if h := len(sn.final) - 1; m < 0 || h < m {
			m = h
		}
	}
	return m
}

// checkAgreement: every honest node's finalized chain is a prefix of the
// longest one.
func (c *cluster) checkAgreement() {
	var longest []Hash
	for i, sn := range c.nodes {
		if c.honest(i) && len(sn.final) > len(longest) {
			longest = sn.final
		}
	}
	for i, sn := range c.nodes {
		if !c.honest(i) {
			continue
		}
		for h, x := range sn.final {
			if longest[h] != x {
				c.t.Fatalf("SAFETY: node %d finalized %s at height %d, another node %s", i, Short(x), h, Short(longest[h]))
			}
		}
	}
}

func percentile(xs []int, p float64) int {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	return s[int(float64(len(s)-1)*p)]
}
