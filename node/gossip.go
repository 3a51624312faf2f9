package node

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/p2p"
)

// Finalized blocks pushed on the block topic [Network Layer: blocks are
// relayed by validators]. When a node's consensus finalizes blocks it
// gossips them with their finality proof, in the sync response's shape:
//
//	push = [3, first_height, 0, [certified, ...], [proof, ...]]
//
// the finalized blocks from first_height up, each with its QC, then the
// proof that the last of them is final: certified blocks from its child up
// to one certified in the round right after its justify (usually just the
// child; at an epoch's last block the epoch's tail, node/epoch.go). Every
// block of a push is of one epoch; a node in another epoch ignores it. A receiver checks it with the very check sync uses
// (node/finalproof.go: the blocks link up, the child's QC and each final
// block's QC verify against the validator set). Only then is it relayed
// (p2p HoldRelay): an honest node never forwards what it has not checked,
// so the sender of an invalid push is scored down (p2p Penalize) and
// nobody else. A full node applies the blocks that extend its head; one
// ahead of its head is kept (a few, briefly) until the head reaches it,
// or left to sync. A validator relays a push but applies only one that
// ends its epoch (see checkPush); the rest of its chain comes from its own
// consensus and sync.
const (
	syncPush = 3
	// maxAheadPushes bounds the pushes a full node keeps for later.
	maxAheadPushes = 8
	// pushRestartLag: when a full node's head, moved by pushes, is this
	// far ahead of its own consensus, the consensus is rebuilt on the head
	// (it could not catch up alone: a follower does not FETCH).
	pushRestartLag = 2
)

// pushTopics are the p2p topics relayed only once checked (p2p HoldRelay).
var pushTopics = []p2p.Topic{p2p.TopicBlock}

// errBadPush marks a push that failed its checks: its sender is penalized.
var errBadPush = errors.New("invalid finalized-block push")

// gossipState is the event loop's state for block pushes.
type gossipState struct {
	ahead  []heldPush    // checked later, when the head reaches them
	pushed atomic.Uint64 // finalized blocks applied from pushes (read by RPC and tests)
}

// heldPush is a push kept until the head reaches it, decoded once.
type heldPush struct {
	pm p2p.Message
	m  syncMsg
}

// PushedBlocks counts the finalized blocks this node applied from pushes on
// the block topic rather than from its own consensus or sync.
func (n *Node) PushedBlocks() uint64 {
	if n.net == nil {
		return 0
	}
	return n.net.gossip.pushed.Load()
}

// announceFinal pushes blocks the consensus just finalized, with the chain
// that proves the last one final. It runs on the event loop after they
// are applied. It carries at most syncBatch blocks in all, the newest; a
// push that does not fit the block topic's cap is not sent: receivers
// sync.
func (n *Node) announceFinal(fin, proof []simplex.Certified) {
	if len(fin) == 0 || len(proof) == 0 {
		return
	}
	b, err := encodePush(fin, proof, p2p.DefaultLimits().MaxBlockBytes)
	if err != nil {
		n.log.Debug("finalized blocks not pushed", "height", fin[len(fin)-1].Block.Height, "err", err)
		return
	}
	if err := n.net.host.Publish(p2p.TopicBlock, b); err != nil {
		n.log.Debug("push finalized blocks", "err", err)
	}
}

// encodePush builds a push of the newest of fin (consecutive finalized
// blocks) and proof, the chain that proves the last final: at most
// syncBatch blocks in all (receivers refuse more), and at most limit
// bytes.
func encodePush(fin, proof []simplex.Certified, limit int) ([]byte, error) {
	const framing = 16 // CBOR array and byte-string headers, generously
	size := 2 * framing
	var proofs [][]byte
	for _, c := range proof {
		enc, err := simplex.EncodeCertified(c)
		if err != nil {
			return nil, err
		}
		size += len(enc) + framing
		proofs = append(proofs, enc)
	}
	var blocks [][]byte
	var first uint64
	for i := len(fin) - 1; i >= 0 && len(blocks)+len(proofs) < syncBatch; i-- {
		enc, err := simplex.EncodeCertified(fin[i])
		if err != nil {
			return nil, err
		}
		if size+len(enc)+framing > limit {
			break
		}
		size += len(enc) + framing
		blocks = append([][]byte{enc}, blocks...)
		first = fin[i].Block.Height
	}
	if len(blocks) == 0 || size > limit {
		return nil, fmt.Errorf("block %d and its proof exceed %d bytes", fin[len(fin)-1].Block.Height, limit)
	}
	return types.Marshal(&syncMsg{Type: syncPush, From: first, Blocks: blocks, Proof: proofs})
}

// onBlockTopic routes a block-topic message: gossip is a push, a direct
// message is a sync request or response.
func (n *Node) onBlockTopic(pm p2p.Message) error {
	if pm.Direct {
		return n.onSync(pm)
	}
	err := n.onPush(pm)
	if errors.Is(err, errBadPush) {
		n.net.host.Penalize(pm.From, err)
	}
	n.retryAhead()
	return err
}

// onPush checks a pushed batch of finalized blocks, relays it if it is
// valid and, on a full node, applies what extends the head.
func (n *Node) onPush(pm p2p.Message) error {
	var m syncMsg
	if err := types.Unmarshal(pm.Payload, &m); err != nil {
		return fmt.Errorf("%w: %v", errBadPush, err)
	}
	if m.Type != syncPush || len(m.Blocks) < 1 || len(m.Proof) < 1 || len(m.Blocks)+len(m.Proof) > syncBatch {
		return fmt.Errorf("%w: type %d with %d blocks and %d proof blocks", errBadPush, m.Type, len(m.Blocks), len(m.Proof))
	}
	if head := n.Head().Height; m.From > head+1 {
		n.keepAhead(heldPush{pm, m})
		return nil
	}
	return n.checkPush(pm, m)
}

// checkPush verifies a push that starts at or below head+1 (its
// certificates are of the validator set this node knows), relays it, and
// on a full node applies the blocks above the head.
func (n *Node) checkPush(pm p2p.Message, m syncMsg) error {
	net := n.net
	chain, err := decodeCertifiedBatch(m.Blocks)
	if err != nil {
		return fmt.Errorf("%w: %v", errBadPush, err)
	}
	if chain[0].Block == nil || chain[0].Block.Height != m.From {
		return fmt.Errorf("%w: first block is not at height %d", errBadPush, m.From)
	}
	if top := chain[len(chain)-1]; top.QC != nil && epochOfRound(top.QC.Round) != net.ep.number {
		return nil // another epoch's blocks: not checkable with this set, nothing new
	}
	final, closing, err := n.provenFinal(chain, chain[0].Block.Parent, m.From, m.Proof)
	if err != nil {
		return fmt.Errorf("%w: %v", errBadPush, err)
	}
	if err := n.verifyCertificates(chain[:final+1]); err != nil {
		return fmt.Errorf("%w: %v", errBadPush, err)
	}
	if err := net.host.Relay(pm); err != nil {
		n.log.Debug("relay push", "err", err)
	}
	if net.index >= 0 && chain[final].Block.Height != net.ep.last {
		// A validator's chain comes from its consensus and sync, except
		// the epoch's last block: the leader holding the certificate that
		// makes it final moves to the next epoch at once and never shows
		// that certificate in a proposal, so the others would wait for
		// their next sync poll before they can follow.
		return nil
	}
	head := n.Head().Height
	if chain[final].Block.Height <= head {
		return nil
	}
	i := int(head + 1 - m.From)
	tip, err := n.finalTipHash(head)
	if err != nil {
		return err
	}
	if chain[i].Block.Parent != tip {
		// Both are proven final: only a third of the stake or more
		// signing twice can do that.
		n.log.Error("pushed final block conflicts with the finalized chain", "height", head+1, "from", pm.From)
		return fmt.Errorf("pushed block %d does not extend the finalized head", head+1)
	}
	applied, err := n.applyFinals(chain[i:final+1], closing)
	net.gossip.pushed.Add(uint64(applied))
	if err != nil {
		return err
	}
	if net.sx.Status().FinalizedHeight+pushRestartLag < n.Head().Height {
		return n.restartConsensus()
	}
	return nil
}

// finalTipHash is the simplex hash of the finalized block at head.
func (n *Node) finalTipHash(head uint64) (simplex.Hash, error) {
	if head == 0 {
		return n.net.genesis.Hash(), nil
	}
	c, err := n.certified(head)
	if err != nil {
		return simplex.Hash{}, err
	}
	return c.QC.BlockHash, nil
}

// keepAhead holds a push that starts beyond head+1 until the head gets
// there (the push for the blocks between may come next), dropping the
// oldest when full.
func (n *Node) keepAhead(p heldPush) {
	g := &n.net.gossip
	if len(g.ahead) >= maxAheadPushes {
		g.ahead = g.ahead[1:]
	}
	g.ahead = append(g.ahead, p)
}

// retryAhead checks the held pushes the head has reached; those it has
// passed are dropped (their blocks came another way).
func (n *Node) retryAhead() {
	g := &n.net.gossip
	for progress := true; progress; {
		progress = false
		var keep, due []heldPush
		head := n.Head().Height
		for _, p := range g.ahead {
			switch last := p.m.From + uint64(len(p.m.Blocks)) - 1; {
			case last <= head:
			case p.m.From <= head+1:
				due = append(due, p)
			default:
				keep = append(keep, p)
			}
		}
		g.ahead = keep
		for _, p := range due {
			before := n.Head().Height
			if err := n.checkPush(p.pm, p.m); errors.Is(err, errBadPush) {
				n.net.host.Penalize(p.pm.From, err)
			} else if err != nil {
				n.log.Debug("held push", "err", err)
			}
			progress = progress || n.Head().Height > before
		}
	}
}

// syncEvery is the sync polling period; 0 means never.
func (net *network) syncEvery() time.Duration {
	switch d := net.cfg.SyncEvery; {
	case d < 0:
		return 0
	case d == 0:
		return syncEvery
	default:
		return d
	}
}
