package node

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/p2p"
	"github.com/cowboy-chain/cowboy/rpc"
)

// openFull opens a full node (no validator key in the genesis) of tn's
// chain in home dir; mod adjusts its network config.
func (tn *testNet) openFull(dir string, mod func(*NetworkConfig)) *Node {
	tn.t.Helper()
	keys, err := GenerateKeys(dir)
	if err != nil {
		tn.t.Fatal(err)
	}
	nc := &NetworkConfig{Keys: keys, ListenAddr: "127.0.0.1:0", Tick: 50 * time.Millisecond}
	if mod != nil {
		mod(nc)
	}
	n, err := Open(Config{Home: dir, Genesis: tn.gen, Logger: quietLog(), Network: nc})
	if err != nil {
		tn.t.Fatal(err)
	}
	return n
}

// runExtra runs n alongside the validators, stopped with them.
func (tn *testNet) runExtra(n *Node) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	tn.nodes = append(tn.nodes, n)
	tn.cancel = append(tn.cancel, cancel)
	tn.done = append(tn.done, done)
}

// TestPushedBlocksAndBlockStatus runs four validators and a full node that
// neither polls sync nor reads consensus messages: it follows the chain by
// the finalized blocks the validators push on the block topic alone.
// Meanwhile every block the validators report as proposed or committed
// must answer cowboy_getBlockStatus with that state (or a later one), and
// later as finalized. Then, on a fresh full node, a pushed batch of real
// finalized blocks is applied, and tampered copies of it are refused,
// score their sender down and change nothing.
func TestPushedBlocksAndBlockStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a four-validator network for ~15 s")
	}
	tn := newTestNet(t, 4)
	for i := 0; i < 4; i++ {
		tn.start(i)
	}
	full := tn.openFull(filepath.Join(tn.dir, "full"), func(nc *NetworkConfig) { nc.SyncEvery = -1; nc.gossipOnly = true })
	tn.runExtra(full)
	last := tn.transfer(tn.nodes[0], 0, 0)

	// Watch the validators' consensus status while the chain grows.
	seen := map[types.Hash]string{} // consensus hash -> furthest state seen before final
	seenState := map[string]int{}
	deadline := time.Now().Add(60 * time.Second)
	for full.Head().Height < 12 || seenState[rpc.StatusProposed] == 0 || seenState[rpc.StatusCommitted] == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("full node at %d (validator 0 at %d), states seen %v", full.Head().Height, tn.nodes[0].Head().Height, seenState)
		}
		for _, v := range tn.nodes[:4] {
			st := v.ConsensusStatus()
			for want, list := range map[string][]rpc.ConsensusBlock{rpc.StatusProposed: st.Proposed, rpc.StatusCommitted: st.Committed} {
				for _, b := range list {
					if b.Height <= st.FinalizedHeight {
						t.Fatalf("%s block at %d listed with finalized height %d", want, b.Height, st.FinalizedHeight)
					}
					bs, err := v.BlockStatusByHash(b.Hash)
					if errors.Is(err, rpc.ErrNotFound) {
						continue // a fork dropped since
					}
					if err != nil {
						t.Fatal(err)
					}
					if bs.Height != b.Height || bs.ConsensusHash == nil || *bs.ConsensusHash != b.Hash || bs.Round == nil || *bs.Round != b.Round {
						t.Fatalf("status of %s block %+v: %+v", want, b, bs)
					}
					if bs.Status == want {
						seen[b.Hash] = want
						seenState[want]++
						if bs.Hash != b.Hash {
							t.Fatalf("a %s block's hash %s is not its consensus hash %s", want, bs.Hash, b.Hash)
						}
					} else if bs.Status != rpc.StatusCommitted && bs.Status != rpc.StatusFinalized {
						t.Fatalf("%s block reported %q", want, bs.Status)
					}
				}
			}
		}
		time.Sleep(15 * time.Millisecond)
	}
	tn.waitReceipt(last, 30*time.Second)
	ci, _ := full.Consensus()
	if full.PushedBlocks() < 10 || ci.Synced != 0 {
		t.Fatalf("full node: %d blocks pushed, %d synced", full.PushedBlocks(), ci.Synced)
	}
	if v := tn.nodes[0].PushedBlocks(); v != 0 {
		t.Fatalf("validator applied %d pushed blocks", v)
	}

	// Over the network: a peer pushes real blocks with a forged
	// certificate to the full node, which penalizes it (disconnected, its
	// score lowered) and does not relay the push (no validator sees it, so
	// none penalizes anyone).
	rogue, err := p2p.New(p2p.Config{Key: mustNodeKey(t), ListenAddr: "127.0.0.1:0", ChainID: tn.gen.ChainID,
		GenesisHash: tn.gen.Hash(), DialInterval: time.Hour, PexInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer rogue.Close()
	if err := rogue.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := rogue.Connect(ctx, full.P2PID().String()+"@"+full.P2PAddr()); err != nil {
		t.Fatal(err)
	}
	var forged [][]byte
	for h := uint64(1); h <= 3; h++ {
		c, err := tn.nodes[0].certified(h)
		if err != nil {
			t.Fatal(err)
		}
		if h == 3 {
			c.QC.Signature = bytes.Clone(c.QC.Signature)
			c.QC.Signature[5] ^= 1
		}
		enc, err := simplex.EncodeCertified(c)
		if err != nil {
			t.Fatal(err)
		}
		forged = append(forged, enc)
	}
	raw, err := types.Marshal(&syncMsg{Type: syncPush, From: 1, Blocks: forged})
	if err != nil {
		t.Fatal(err)
	}
	// What reaches each validator's host on the block topic, seen beside
	// its node (every subscriber gets every delivered message).
	var watch []<-chan p2p.Message
	for _, v := range tn.nodes[:4] {
		watch = append(watch, v.net.host.Subscribe(p2p.TopicBlock))
	}
	if err := rogue.Publish(p2p.TopicBlock, raw); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); full.net.host.Stats().Violations == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the full node did not penalize a forged push")
		}
	}
	// Then the full node pushes a valid marker on the same topic. Frames
	// of one topic travel in order on a connection, so a validator that
	// has the marker has whatever the full node relayed before it: no
	// sleep that a slow machine would pass without checking anything.
	marker := validPushMarker(t, tn.nodes[0])
	if err := full.net.host.Publish(p2p.TopicBlock, marker); err != nil {
		t.Fatal(err)
	}
	for i, ch := range watch {
		deadline := time.After(30 * time.Second)
		for got := false; !got; {
			select {
			case m := <-ch:
				if bytes.Equal(m.Payload, raw) {
					t.Fatalf("validator %d received the forged push from %s: it was relayed", i, m.From)
				}
				got = bytes.Equal(m.Payload, marker)
			case <-deadline:
				t.Fatalf("validator %d: the marker push did not arrive", i)
			}
		}
	}
	for i, v := range tn.nodes[:4] {
		if st := v.net.host.Stats(); st.Violations != 0 {
			t.Fatalf("validator %d saw the forged push (violations %d): it was relayed", i, st.Violations)
		}
	}
	for _, p := range full.net.host.Peers() {
		if p.ID == rogue.ID() && p.Score >= 0 {
			t.Fatalf("the forger reconnected with score %d", p.Score)
		}
	}
	for i := range tn.nodes {
		tn.stop(i)
	}

	// Every block seen proposed or committed is final now (no validator
	// failed, so no fork lost), on every validator and the full node, with
	// the round and chain hash of the stored block.
	v0 := tn.open(0)
	defer v0.Close()
	head := v0.Head().Height
	finalSeen := 0
	for h, was := range seen {
		bs, err := v0.BlockStatusByHash(h)
		if errors.Is(err, rpc.ErrNotFound) {
			continue // above where validator 0 stopped, or a fork
		}
		if err != nil || bs.Status != rpc.StatusFinalized {
			t.Fatalf("block %s, seen %s: now %+v, %v", h, was, bs, err)
		}
		c, err := v0.certified(bs.Height)
		if err != nil {
			t.Fatal(err)
		}
		blk, _ := v0.BlockByNumber(bs.Height)
		if types.Hash(c.QC.BlockHash) != h || *bs.Round != c.Block.Round || bs.Hash != blk.Header.Hash() {
			t.Fatalf("finalized status %+v does not match the stored block", bs)
		}
		byChain, err := v0.BlockStatusByHash(bs.Hash)
		if a, b := mustJSON(t, byChain), mustJSON(t, bs); err != nil || a != b {
			t.Fatalf("by chain hash %+v, by consensus hash %+v (%v)", byChain, bs, err)
		}
		finalSeen++
	}
	if finalSeen == 0 {
		t.Fatal("no block seen pending was found final")
	}
	if bs, err := v0.BlockStatusByHeight(0); err != nil || bs.Status != rpc.StatusFinalized || *bs.Round != 0 {
		t.Fatalf("genesis status %+v, %v", bs, err)
	}
	if _, err := v0.BlockStatusByHeight(head + 100); !errors.Is(err, rpc.ErrNotFound) {
		t.Fatalf("far height: %v", err)
	}

	// A fresh full node gets pushes by hand: real finalized blocks from
	// validator 0's store. A block whose own round follows its justify's
	// proves the blocks below it final; proofs lists those heights.
	all := [][]byte{nil} // by height; genesis has no certified record
	var proofs []uint64
	for h := uint64(1); h <= head; h++ {
		c, err := v0.certified(h)
		if err != nil {
			t.Fatal(err)
		}
		enc, err := simplex.EncodeCertified(c)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, enc)
		if h >= 2 && c.Block.Justify.Round+1 == c.Block.Round {
			proofs = append(proofs, h)
		}
	}
	if len(proofs) < 3 {
		t.Fatalf("%d proofs of finality among %d stored blocks", len(proofs), head)
	}
	proof := proofs[0]
	raws := all[1 : proof+1]
	fresh := tn.openFull(filepath.Join(tn.dir, "fresh"), func(nc *NetworkConfig) { nc.gossipOnly = true })
	defer fresh.Close()
	// pushFrom sends blocks with the last of them as the proof.
	pushFrom := func(from uint64, blocks [][]byte) p2p.Message {
		m := &syncMsg{Type: syncPush, From: from, Blocks: blocks, Proof: [][]byte{}}
		if len(blocks) > 1 {
			m.Blocks, m.Proof = blocks[:len(blocks)-1], blocks[len(blocks)-1:]
		}
		b, err := types.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return p2p.Message{Topic: p2p.TopicBlock, From: p2p.PeerID{0xba, 0xd}, Payload: b, ID: p2p.MsgID{1}}
	}
	push := func(blocks [][]byte) p2p.Message { return pushFrom(1, blocks) }
	tamper := func(i int, f func(c *simplex.Certified)) [][]byte {
		out := append([][]byte(nil), raws...)
		c, err := simplex.DecodeCertified(raws[i])
		if err != nil {
			t.Fatal(err)
		}
		f(&c)
		if out[i], err = simplex.EncodeCertified(c); err != nil {
			t.Fatal(err)
		}
		return out
	}
	last2 := len(raws) - 1
	bad := []struct {
		name string
		msg  p2p.Message
	}{
		{"garbage", p2p.Message{Topic: p2p.TopicBlock, Payload: []byte("not cbor"), ID: p2p.MsgID{2}}},
		{"one block, no proof", push(raws[:1])},
		{"proof of the wrong round", push(tamper(last2, func(c *simplex.Certified) { c.Block.Round++ }))},
		{"proof left out", push(raws[:last2])},
		{"payload changed", push(tamper(0, func(c *simplex.Certified) {
			c.Block.Payload = append(bytes.Clone(c.Block.Payload), 0)
		}))},
		{"proof signature changed", push(tamper(last2, func(c *simplex.Certified) {
			c.QC.Signature = bytes.Clone(c.QC.Signature)
			c.QC.Signature[10] ^= 1
		}))},
		{"final block's certificate below quorum", push(tamper(0, func(c *simplex.Certified) {
			c.QC.Signers = simplex.NewBitmap(4)
			c.QC.Signers.Set(0)
		}))},
		{"proof from a later round", push(tamper(last2, func(c *simplex.Certified) { c.QC.Round++ }))},
	}
	for i, b := range bad {
		if err := fresh.onBlockTopic(b.msg); !errors.Is(err, errBadPush) {
			t.Fatalf("%s: %v", b.name, err)
		}
		if fresh.Head().Height != 0 || fresh.PushedBlocks() != 0 {
			t.Fatalf("%s: head moved to %d", b.name, fresh.Head().Height)
		}
		if v := fresh.net.host.Stats().Violations; v != uint64(i+1) {
			t.Fatalf("%s: sender not penalized (violations %d)", b.name, v)
		}
	}
	if err := fresh.onBlockTopic(push(raws)); err != nil {
		t.Fatal(err)
	}
	if got := fresh.Head().Height; got != proof-1 || fresh.PushedBlocks() != proof-1 {
		t.Fatalf("after a valid push: head %d, pushed %d, want %d", got, fresh.PushedBlocks(), proof-1)
	}
	// A push that starts beyond head+1 is held, then applied once the
	// push for the gap arrives.
	p1, p2 := proofs[1], proofs[2]
	if err := fresh.onBlockTopic(pushFrom(p1, all[p1:p2+1])); err != nil {
		t.Fatal(err)
	}
	if got := fresh.Head().Height; got != proof-1 {
		t.Fatalf("a push from %d moved the head from %d to %d", p1, proof-1, got)
	}
	if err := fresh.onBlockTopic(pushFrom(proof, all[proof:p1+1])); err != nil {
		t.Fatal(err)
	}
	if got := fresh.Head().Height; got != p2-1 || fresh.PushedBlocks() != p2-1 {
		t.Fatalf("after the gap: head %d, pushed %d, want %d", got, fresh.PushedBlocks(), p2-1)
	}
	for h := uint64(1); h < p2; h++ {
		a, _ := fresh.BlockByNumber(h)
		b, _ := v0.BlockByNumber(h)
		if a.Header.Hash() != b.Header.Hash() {
			t.Fatalf("height %d: pushed block executed to %s, validator has %s", h, a.Header.Hash(), b.Header.Hash())
		}
	}
	if v := fresh.net.host.Stats().Violations; v != uint64(len(bad)) {
		t.Fatalf("valid push penalized: violations %d", v)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEncodePush: a push carries the newest finalized blocks and the proof,
// at most syncBatch entries and at most the byte limit, or nothing.
func TestEncodePush(t *testing.T) {
	cert := func(h uint64, payload int) simplex.Certified {
		b := &simplex.Block{Height: h, Round: h, Payload: make([]byte, payload), VRFProof: make([]byte, 96),
			Justify: &simplex.QC{Height: h - 1, Round: h - 1, Signature: make([]byte, 96), Signers: simplex.NewBitmap(4)}}
		return simplex.Certified{Block: b, QC: &simplex.QC{BlockHash: b.Hash(), Height: h, Round: h, Signature: make([]byte, 96), Signers: simplex.NewBitmap(4)}}
	}
	chain := func(from, n uint64, payload int) []simplex.Certified {
		var out []simplex.Certified
		for h := from; h < from+n; h++ {
			out = append(out, cert(h, payload))
		}
		return out
	}
	cases := []struct {
		name      string
		fin       []simplex.Certified
		child     simplex.Certified // the proof
		limit     int
		wantFirst uint64 // 0: no push
		wantLen   int
	}{
		{"one block", chain(5, 1, 10), cert(6, 10), 1 << 20, 5, 1},
		{"three blocks", chain(5, 3, 10), cert(8, 10), 1 << 20, 5, 3},
		{"capped at syncBatch", chain(1, 100, 10), cert(101, 10), 4 << 20, 101 - (syncBatch - 1), syncBatch - 1},
		{"capped by bytes: the newest kept", chain(1, 4, 1000), cert(5, 1000), 4500, 3, 2},
		{"too large", chain(1, 1, 4000), cert(2, 4000), 5000, 0, 0},
	}
	for _, c := range cases {
		b, err := encodePush(c.fin, []simplex.Certified{c.child}, c.limit)
		if c.wantFirst == 0 {
			if err == nil {
				t.Errorf("%s: pushed %d bytes over a %d limit", c.name, len(b), c.limit)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var m syncMsg
		if err := types.Unmarshal(b, &m); err != nil || m.Type != syncPush || m.From != c.wantFirst || len(m.Blocks) != c.wantLen || len(b) > c.limit {
			t.Fatalf("%s: type %d from %d, %d blocks, %d bytes (%v)", c.name, m.Type, m.From, len(m.Blocks), len(b), err)
		}
		chain, err := decodeCertifiedBatch(m.Blocks)
		if err != nil {
			t.Fatal(err)
		}
		for i, cb := range chain {
			if cb.Block.Height != c.wantFirst+uint64(i) {
				t.Fatalf("%s: block %d at height %d", c.name, i, cb.Block.Height)
			}
		}
		proof, err := decodeCertifiedBatch(m.Proof)
		if err != nil || len(proof) != 1 || proof[0].QC.BlockHash != c.child.QC.BlockHash {
			t.Fatalf("%s: the proof is not the child (%v)", c.name, err)
		}
	}
}

func mustNodeKey(t *testing.T) *crypto.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// validPushMarker builds a push of block 1 with its finality proof from
// v's store that no node has sent before (Count, which receivers ignore in
// a push, set to a nonce), so a receiver checks it without penalizing the
// sender and p2p's duplicate filter does not swallow it.
func validPushMarker(t *testing.T, v *Node) []byte {
	t.Helper()
	top, err := v.certified(1)
	if err != nil {
		t.Fatal(err)
	}
	first, err := simplex.EncodeCertified(top)
	if err != nil {
		t.Fatal(err)
	}
	// The proof: certified blocks from the child up to one proposed in
	// the round right after its justify's (node/finalproof.go).
	var proof [][]byte
	for h := uint64(2); ; h++ {
		if h > 1+syncBatch/2 {
			t.Fatal("no block up to the head proves block 1 final")
		}
		c, err := v.certified(h)
		if err != nil {
			t.Fatal(err)
		}
		enc, err := simplex.EncodeCertified(c)
		if err != nil {
			t.Fatal(err)
		}
		proof = append(proof, enc)
		if c.Block.Justify.Round+1 == c.Block.Round {
			break
		}
	}
	b, err := types.Marshal(&syncMsg{Type: syncPush, From: 1, Count: 0x6d61726b, Blocks: [][]byte{first}, Proof: proof})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
