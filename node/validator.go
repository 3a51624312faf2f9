package node

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/crypto/dkg"
	"github.com/cowboy-chain/cowboy/p2p"
	"github.com/cowboy-chain/cowboy/store"
)

// NetworkConfig makes a node a member of a multi-validator chain: it runs
// the simplex consensus over p2p instead of producing blocks alone. The
// genesis (Config.Genesis) must list the validators.
type NetworkConfig struct {
	// Keys are the home's keys. The node validates if its node key's
	// address is in the genesis validator set (then the BLS key must
	// match the listed one); otherwise it follows without voting.
	Keys *NodeKeys
	// ListenAddr is the UDP "ip:port" the p2p host listens on.
	ListenAddr string
	// Bootstrap peers ("0x<id>@ip:port" or "ip:port"). Nil means every
	// other genesis validator's p2p address.
	Bootstrap []string
	// Tick is the consensus timer's period; default 100 ms.
	Tick time.Duration
	// TimeoutTicks is how many ticks a round lasts before NEW_VIEW;
	// default simplex.DefaultTimeoutTicks (2 s at the default tick).
	TimeoutTicks int
	// KeepFinalized is how many finalized blocks the consensus keeps in
	// memory for FETCH; default simplex.DefaultKeepFinalized. Tests make
	// it small so that a validator that was down must sync from disk.
	KeepFinalized uint64
	// SyncEvery is how often the node asks a peer for the finalized blocks
	// after its head (node/sync.go); default 1 s, negative: never (tests
	// of the block push, node/gossip.go).
	SyncEvery time.Duration
	// gossipOnly (tests) makes a full node ignore consensus messages, so
	// its head moves by pushed finalized blocks alone.
	gossipOnly bool
}

// ConsensusInfo is a snapshot of the consensus, for RPC, logs and tests.
type ConsensusInfo struct {
	Validator       int    // index in the current epoch's validator set, -1 if not in it
	Epoch           uint64 // the epoch of the next block
	Round           uint64 // current round
	FinalizedHeight uint64 // executed and committed
	Peers           int
	// Synced counts the finalized blocks this node applied from sync
	// responses (node/sync.go) rather than from its own consensus.
	Synced uint64
}

// network is the state of a multi-validator node; the consensus and the
// fields below it are owned by the event loop goroutine.
type network struct {
	cfg     NetworkConfig
	host    *p2p.Host
	index   int // validator index, -1 for a full node
	peers   []p2p.PeerID
	byPeer  map[p2p.PeerID]int
	genesis *simplex.Block
	ep      *epoch // the current epoch: its set, root and consensus config
	sx      *simplex.Node
	scfg    simplex.Config

	syncTurn   int
	lastSync   time.Time
	advancedAt time.Time // when the finalized head last moved (for sync)

	reported map[[2]uint64]bool              // (validator, round) of evidence already reported
	dkg      dkgState                        // this validator's part in the open beacon DKG (node/dkg.go)
	mangle   func([]byte) []byte             // tests only: rewrites this node's proposed payloads
	cheat    func(*dkg.Config, *dkg.Dealing) // tests only: corrupts this node's DKG dealing
	dropDKG  func(payload []byte) bool       // tests only: loses the DKG registry calls it returns true for
	early    []p2p.Message                   // consensus messages of the next epoch, replayed when it starts

	pending   *simplex.ProposeRequest
	pendingAt time.Time

	mu     sync.Mutex // guards the fields below, read by RPC
	round  uint64
	synced uint64 // finalized blocks applied from sync responses
	epoch  uint64 // the current epoch's number

	gossip gossipState // finalized-block pushes (node/gossip.go)
	status statusState // consensus snapshot for RPC (node/status.go)
}

// openNetwork builds the p2p host and the consensus node after the store is
// open and the head loaded.
func (n *Node) openNetwork() error {
	nc := *n.cfg.Network
	g := n.cfg.Genesis
	if nc.Keys == nil || nc.Keys.Node == nil {
		return errors.New("network: no node key")
	}
	if len(g.Validators) == 0 {
		return errors.New("network: the genesis lists no validators")
	}
	if nc.Tick <= 0 {
		nc.Tick = 100 * time.Millisecond
	}
	net := &network{cfg: nc, byPeer: map[p2p.PeerID]int{}, reported: map[[2]uint64]bool{}}
	gh := g.Hash()
	if err := n.checkGenesisHash(gh); err != nil {
		return err
	}
	var boot []string
	for _, v := range g.Validators {
		if v.Address != n.proposer && v.P2PAddr != "" {
			boot = append(boot, fmt.Sprintf("%s@%s", p2p.PeerID(v.Address), v.P2PAddr))
		}
	}
	if nc.Bootstrap == nil {
		nc.Bootstrap = boot
	}
	net.cfg = nc
	net.genesis = &simplex.Block{Payload: gh[:]}
	n.net = net // loadEpoch reads the keys and genesis block through it
	opened := false
	defer func() {
		if !opened {
			n.net = nil
		}
	}()
	ep, err := n.loadEpoch()
	if err != nil {
		return err
	}
	n.useEpoch(ep)
	scfg := net.scfg
	if raw, err := n.db.GetRaw(keyHardState); err == nil {
		if scfg.Restore, err = simplex.DecodeHardState(raw); err != nil {
			return err
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("read hard state: %w", err)
	}
	if head := n.Head(); head.Height > ep.root.Height {
		c, err := n.certified(head.Height)
		if err != nil {
			return fmt.Errorf("finalized tip: %w", err)
		}
		scfg.FinalizedTip = c.Block
	}
	if net.sx, err = simplex.NewNode(scfg); err != nil {
		return err
	}
	net.round = net.sx.Status().Round
	net.advancedAt = time.Now()
	if net.host, err = p2p.New(p2p.Config{Key: nc.Keys.Node, ListenAddr: nc.ListenAddr, Bootstrap: nc.Bootstrap,
		ChainID: g.ChainID, GenesisHash: gh, Height: func() uint64 { return n.Head().Height },
		ReconnectMin: 200 * time.Millisecond, ReconnectMax: 2 * time.Second, DialInterval: 500 * time.Millisecond,
		Logger: n.log.With("module", "p2p"), HoldRelay: pushTopics}); err != nil {
		return err
	}
	n.cfg.Network = &nc
	opened = true
	return nil
}

// checkGenesisHash records the genesis hash on first open and refuses a
// home that holds another chain.
func (n *Node) checkGenesisHash(gh types.Hash) error {
	raw, err := n.db.GetRaw(keyGenesisHash)
	if errors.Is(err, store.ErrNotFound) {
		return n.db.PutRaw([]store.RawWrite{{Key: keyGenesisHash, Value: gh[:]}})
	}
	if err != nil {
		return fmt.Errorf("read genesis hash: %w", err)
	}
	if !bytes.Equal(raw, gh[:]) {
		return fmt.Errorf("home %s holds the chain of genesis %x, not %s", n.cfg.Home, raw, gh)
	}
	return nil
}

// certified reads the finalized simplex block (and its QC) at height.
func (n *Node) certified(height uint64) (simplex.Certified, error) {
	raw, err := n.db.GetRaw(certKey(height))
	if err != nil {
		return simplex.Certified{}, fmt.Errorf("finalized consensus block %d: %w", height, err)
	}
	return simplex.DecodeCertified(raw)
}

// certStore serves finalized simplex blocks from disk to the consensus
// (answers to FETCH from peers that fell behind).
type certStore struct{ n *Node }

func (s certStore) Block(h simplex.Hash) *simplex.Block {
	raw, err := s.n.db.GetRaw(certByHashKey(h))
	if err != nil || len(raw) != 8 {
		return nil
	}
	c, err := s.n.certified(binary.BigEndian.Uint64(raw))
	if err != nil {
		return nil
	}
	return c.Block
}

// P2PAddr is the address the p2p host listens on ("" on a devnet).
func (n *Node) P2PAddr() string {
	if n.net == nil {
		return ""
	}
	return n.net.host.Addr()
}

// P2PID is the node's p2p identity (its node key address).
func (n *Node) P2PID() p2p.PeerID {
	if n.net == nil {
		return p2p.PeerID{}
	}
	return n.net.host.ID()
}

// Consensus reports the consensus state; ok is false on a devnet.
func (n *Node) Consensus() (ConsensusInfo, bool) {
	if n.net == nil {
		return ConsensusInfo{}, false
	}
	net := n.net
	net.mu.Lock()
	defer net.mu.Unlock()
	return ConsensusInfo{Validator: net.index, Epoch: net.epoch, Round: net.round, FinalizedHeight: n.Head().Height,
		Peers: len(net.host.Peers()), Synced: net.synced}, true
}

// runNetwork is the event loop of a multi-validator node: one goroutine
// owns the consensus; it takes p2p messages, timer ticks and gossiped
// transactions, and after each input acts on Ready.
func (n *Node) runNetwork(ctx context.Context) error {
	net := n.net
	cons := net.host.Subscribe(p2p.TopicConsensus)
	votes := net.host.Subscribe(p2p.TopicVote)
	txs := net.host.Subscribe(p2p.TopicTx)
	blocks := net.host.Subscribe(p2p.TopicBlock)
	if err := net.host.Start(ctx); err != nil {
		return err
	}
	tick := time.NewTicker(net.cfg.Tick)
	defer tick.Stop()
	if err := n.drain(); err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case m, ok := <-cons:
			if !ok {
				return nil
			}
			n.stepNet(m)
		case m, ok := <-votes:
			if !ok {
				return nil
			}
			n.stepNet(m)
		case m, ok := <-txs:
			if !ok {
				return nil
			}
			n.gossipedTxs(m, txs)
		case m, ok := <-blocks:
			if !ok {
				return nil
			}
			if err := n.onBlockTopic(m); err != nil {
				n.log.Debug("block topic", "from", m.From, "direct", m.Direct, "err", err)
			}
		case <-tick.C:
			net.sx.Tick()
			n.checkLeader()
			if every := net.syncEvery(); every > 0 && time.Since(net.lastSync) >= every && n.askSync() {
				// With no peer connected yet nothing was sent, and the
				// next tick asks again rather than a syncEvery later.
				net.lastSync = time.Now()
			}
		}
		if err := n.drain(); err != nil {
			return err
		}
	}
}

// checkLeader tells the consensus when the current round's leader has no
// connection to this node (simplex.LeaderUnreachable): a crashed
// validator's rounds then cost a few ticks instead of a full timeout once
// its connections are gone (QUIC notices within the 6 s idle timeout).
func (n *Node) checkLeader() {
	net := n.net
	if net.index < 0 {
		return
	}
	st := net.sx.Status()
	if st.TimedOut {
		return
	}
	l := net.sx.Leader(st.Round)
	if l == net.index || l < 0 || l >= len(net.peers) || net.host.Connected(net.peers[l]) {
		return
	}
	net.sx.LeaderUnreachable(st.Round)
}

// stepNet feeds one consensus message from a peer. A direct message must
// come from the validator it claims to be from; gossip may be relayed by
// anyone, and the consensus checks the signatures on it.
func (n *Node) stepNet(pm p2p.Message) {
	net := n.net
	if net.cfg.gossipOnly {
		return
	}
	to := simplex.Broadcast
	if pm.Direct {
		to = net.index
	}
	m, err := simplex.DecodeMessage(pm.Payload, to)
	if err != nil {
		n.log.Debug("bad consensus message", "from", pm.From, "err", err)
		return
	}
	if r := messageRound(m); epochOfRound(r) > net.ep.number {
		// A peer that already runs the next epoch: keep its message until
		// this node has executed the epoch's last block too (its sender
		// index is of the next set, checked then), or the first rounds of
		// every epoch would wait out a timeout on the nodes that switch
		// last.
		if epochOfRound(r) == net.ep.number+1 && len(net.early) < maxEarlyMessages {
			net.early = append(net.early, pm)
		}
		return
	}
	if pm.Direct {
		if i, ok := net.byPeer[pm.From]; !ok || i != m.From {
			n.log.Debug("direct consensus message from the wrong peer", "from", pm.From, "claims", m.From)
			return
		}
	}
	if err := net.sx.Step(m); err != nil {
		n.log.Debug("consensus message refused", "from", pm.From, "msg", m, "err", err)
		return
	}
	if n.log.Enabled(context.Background(), slog.LevelDebug) {
		n.log.Debug("consensus in", "msg", m, "direct", pm.Direct)
	}
}

// gossipedTxs takes a gossiped transaction and whatever more are queued,
// and adds them to the pool in one batch (signatures on all cores).
func (n *Node) gossipedTxs(first p2p.Message, more <-chan p2p.Message) {
	batch := make([]*types.Tx, 0, 64)
	add := func(m p2p.Message) {
		if tx, err := types.DecodeTx(m.Payload); err == nil {
			batch = append(batch, tx)
		}
	}
	add(first)
	for len(batch) < 1024 {
		select {
		case m, ok := <-more:
			if !ok {
				goto done
			}
			add(m)
			continue
		default:
		}
		break
	}
done:
	if len(batch) > 0 {
		n.pool.AddBatch(batch, committedView{stateReader{n.db, n.cache}}, fees.NextBasefees(n.Head()))
	}
}

// drain acts on everything the consensus has ready: persist the hard state
// (synced) before any message goes out, send, judge proposals, apply final
// blocks. It also answers a pending propose request once the block time
// since the request has passed.
func (n *Node) drain() error {
	net := n.net
	for {
		n.maybePropose()
		if !net.sx.HasReady() {
			break
		}
		rd := net.sx.Ready()
		if rd.HardState != nil {
			enc, err := simplex.EncodeHardState(rd.HardState)
			if err != nil {
				return err
			}
			if err := n.db.PutRaw([]store.RawWrite{{Key: keyHardState, Value: enc}}); err != nil {
				return fmt.Errorf("persist consensus state: %w", err)
			}
			net.mu.Lock()
			net.round = rd.HardState.Round
			net.mu.Unlock()
			n.log.Debug("consensus state", "status", net.sx.Status())
		}
		for _, m := range rd.Messages {
			n.sendNet(m)
		}
		if rd.ProposeRequest != nil {
			net.pending, net.pendingAt = rd.ProposeRequest, time.Now()
		}
		for _, b := range rd.Verify {
			err := n.judge(b)
			net.sx.Verdict(b.Hash(), err == nil)
			if err != nil {
				n.reportInvalidProposal(b, err)
			}
		}
		applied, proof, err := n.applyFinalized(rd)
		if err != nil {
			return err
		}
		n.announceFinal(applied, proof)
		for _, e := range rd.Evidence {
			n.reportEvidence(e)
		}
	}
	n.dkgTick()
	n.publishStatus()
	if err := net.sx.Halted(); err != nil {
		return fmt.Errorf("consensus halted: %w", err)
	}
	return nil
}

// applyFinalized applies a Ready's finalized blocks up to the epoch's last
// block. It returns what it applied and the chain that proves the last of
// them final (the finalized blocks after them in the Ready, tail blocks of
// the epoch, then FinalProof), for the push to peers. The epoch's last
// block is stored with that proof, and applying it moves the node to the
// next epoch's instance, so the rest of this Ready (tail blocks of the old
// instance) is dropped.
func (n *Node) applyFinalized(rd simplex.Ready) (applied, proof []simplex.Certified, err error) {
	net := n.net
	ep := net.ep
	cut := len(rd.Finalized)
	for i, c := range rd.Finalized {
		if c.Block.Height > ep.last {
			cut = i // tail blocks: they certify the last block, never executed
			break
		}
	}
	if cut == 0 {
		return nil, nil, nil
	}
	if rd.FinalProof == nil {
		return nil, nil, fmt.Errorf("finalized %d blocks without a proof", cut)
	}
	proof = append(append(proof, rd.Finalized[cut:]...), *rd.FinalProof)
	if _, err := n.applyFinals(rd.Finalized[:cut], proof); err != nil {
		return nil, nil, err
	}
	return rd.Finalized[:cut], proof, nil
}

// sendNet routes a consensus message: VOTE and NEW_VIEW on the vote topic,
// the rest on the consensus topic; Broadcast floods, a validator index goes
// straight to that validator (flooded instead if it is not connected).
//
// NEW_VIEW and FETCH are repeated with the very same bytes while a node is
// stuck (BLS signatures are deterministic), and gossip drops a payload it
// has seen; so they also go directly to every connected validator, which
// is what lets a validator that was down rejoin a stalled round.
func (n *Node) sendNet(m simplex.Message) {
	net := n.net
	data, err := simplex.EncodeMessage(m)
	if err != nil {
		n.log.Error("encode consensus message", "err", err)
		return
	}
	topic := p2p.TopicConsensus
	if m.Type == simplex.MsgVote || m.Type == simplex.MsgNewView {
		topic = p2p.TopicVote
	}
	n.log.Debug("consensus out", "msg", m)
	if m.To != simplex.Broadcast && m.To >= 0 && m.To < len(net.peers) {
		err := net.host.Send(net.peers[m.To], topic, data)
		if err == nil {
			return
		}
		n.log.Debug("direct consensus send failed; flooding", "to", m.To, "err", err)
	}
	if m.To == simplex.Broadcast && (m.Type == simplex.MsgNewView || m.Type == simplex.MsgFetch) {
		for i, id := range net.peers {
			if i != net.index {
				net.host.Send(id, topic, data) // best effort; not connected is fine
			}
		}
	}
	if err := net.host.Publish(topic, data); err != nil {
		n.log.Debug("publish consensus message", "type", m.Type, "err", err)
	}
}

// maybePropose answers the pending propose request once BlockTime has
// passed since it came (the protocol itself runs as fast as the network;
// this paces it to the block time).
func (n *Node) maybePropose() {
	net := n.net
	req := net.pending
	if req == nil || time.Since(net.pendingAt) < n.cfg.BlockTime {
		return
	}
	net.pending = nil
	p := n.buildPayload(req)
	enc, err := p.encode()
	if err != nil {
		n.log.Error("build payload", "err", err)
		return
	}
	if net.mangle != nil { // tests: a Byzantine proposer
		enc = net.mangle(enc)
	}
	// Its transactions are the pool's, senders recovered: judge and
	// applyFinal use them as they are.
	n.payloads.put(payloadKey(enc), p, req.Height)
	if err := net.sx.Propose(req.Round, enc); err != nil && !errors.Is(err, simplex.ErrStaleRequest) {
		n.log.Error("propose", "round", req.Round, "err", err)
	}
}

// buildPayload picks the candidates for a block on req.Parent: the pool's
// best executable transactions against the finalized state, minus those
// already in the certified but not yet final blocks between the finalized
// head and the parent.
func (n *Node) buildPayload(req *simplex.ProposeRequest) *payload {
	head := n.Head()
	parentTime := n.payloadTime(req.Parent)
	t := max(uint64(n.cfg.Now().Unix()), parentTime, head.Time)
	inFlight := map[types.Hash]bool{}
	for h := req.Parent; ; {
		b := n.net.sx.Block(h)
		if b == nil || b.Height <= head.Height {
			break
		}
		if p, err := n.payloadOf(b.Payload, b.Height); err == nil {
			for _, tx := range p.Txs {
				inFlight[tx.Hash()] = true
			}
		}
		h = b.Parent
	}
	out := &payload{Time: t, Anchor: n.net.ep.anchor}
	if req.Height > n.net.ep.last {
		return out // a tail block of the epoch carries no transactions
	}
	cands := n.pool.Select(n.newState(), fees.NextBasefees(head), n.cfg.MaxBlockTxs)
	size := 0
	for _, tx := range cands {
		if inFlight[tx.Hash()] {
			continue
		}
		if size += tx.Size(); size > maxPayloadBytes {
			break
		}
		out.Txs = append(out.Txs, tx)
	}
	return out
}

// payloadTime is the block time carried by a simplex block (the genesis
// time for the genesis block; 0 if the block is unknown or malformed).
func (n *Node) payloadTime(h simplex.Hash) uint64 {
	if h == n.net.genesis.Hash() {
		return n.cfg.Genesis.Time
	}
	b := n.net.sx.Block(h)
	if b == nil {
		b = certStore{n}.Block(h)
	}
	if b == nil {
		return 0
	}
	p, err := n.payloadOf(b.Payload, b.Height)
	if err != nil {
		return 0
	}
	return p.Time
}

// judge is the Verdict on a proposal (docs/consensus.md "Consensus
// wiring"): the payload decodes canonically, names the epoch's anchor
// (certificate.go), every transaction passes the stateless checks, and the time is not before the parent's nor more than
// maxFutureDriftSeconds ahead of this node's clock. The clock is used only
// here, to decide a vote; execution reads the time from the payload.
//
// The payload is decoded once (payloadOf) and kept for applyFinal. Senders
// are recovered on all cores for the transactions this node has not seen;
// those already in its mempool are the pool's objects and reuse the sender
// recovered at admission. A signature that does not recover a sender makes
// the proposal invalid.
func (n *Node) judge(b *simplex.Block) error {
	p, err := n.payloadOf(b.Payload, b.Height)
	if err != nil {
		return err
	}
	if pt := n.payloadTime(b.Parent); p.Time < pt {
		return fmt.Errorf("payload time %d is before the parent's %d", p.Time, pt)
	}
	if now := uint64(n.cfg.Now().Unix()); p.Time > now+maxFutureDriftSeconds {
		return fmt.Errorf("payload time %d is more than %d s ahead of %d", p.Time, maxFutureDriftSeconds, now)
	}
	if ep := n.net.ep; p.Anchor != ep.anchor {
		return fmt.Errorf("payload anchor %s is not epoch %d's root header %s", p.Anchor, ep.number, ep.anchor)
	}
	if ep := n.net.ep; b.Height > ep.last && len(p.Txs) > 0 {
		return fmt.Errorf("block %d is past epoch %d's last block %d and carries %d transactions", b.Height, ep.number, ep.last, len(p.Txs))
	}
	chainID := n.cfg.ChainID
	return parallel(len(p.Txs), func(i int) error {
		if _, err := execution.CheckStateless(p.Txs[i], chainID); err != nil {
			return fmt.Errorf("tx %d %s: %w", i, p.Txs[i].Hash(), err)
		}
		return nil
	})
}

// applyFinal executes a finalized simplex block against the committed state
// and commits it as the chain block of the same height, with the simplex
// block and its QC in the same atomic commit. Everything that reaches the
// state comes from the block: transactions, time, proposer, its beacon and
// who certified its parent. The epoch's last block needs proof, the chain
// that proves it final (stored with it), and moves the node to the next
// epoch.
func (n *Node) applyFinal(c simplex.Certified, proof []simplex.Certified) error {
	_, err := n.applyFinals([]simplex.Certified{c}, proof)
	return err
}

// applyFinals applies a run of finalized blocks in order, as applyFinal
// each, through the block pipeline (blockpipe.go): block i+1 is executed
// and prepared on top of block i while i's batch is written and synced,
// and block i+2's payload is decoded and its senders recovered on the
// other cores meanwhile (recoverAhead). closing is the proof of finality
// of the epoch's last block, if the run reaches it; that block is drained
// before the node enters the next epoch, whose validator set it reads
// from the committed state. applyFinals returns once every block it
// applied is committed (the head moved), so the consensus, sync and the
// push see "finalized" as "applied and synced" as before. It returns how
// many blocks it applied (blocks at or below the head are skipped).
func (n *Node) applyFinals(chain, closing []simplex.Certified) (int, error) {
	n.prodMu.Lock()
	defer n.prodMu.Unlock()
	var staged []finalBlock
	done := 0 // blocks committed before an epoch switch
	var ahead <-chan struct{}
	var err error
	for i := range chain {
		if ahead != nil {
			<-ahead // block i is decoded and its senders recovered
			ahead = nil
		}
		if i+1 < len(chain) {
			ahead = n.recoverAhead(chain[i+1].Block)
		}
		last := chain[i].Block.Height == n.net.ep.last
		var proof []simplex.Certified
		if last {
			proof = closing
		}
		var blk *types.Block
		if blk, err = n.stageFinal(chain[i], proof); err != nil {
			break
		}
		if blk == nil {
			continue
		}
		staged = append(staged, finalBlock{chain[i].Block, blk})
		if last {
			if err = n.drainLocked(); err != nil {
				break
			}
			n.finalsCommitted(staged)
			done += len(staged)
			staged = nil
			if err = n.enterNextEpoch(); err != nil {
				break
			}
		}
	}
	if ahead != nil {
		<-ahead
	}
	if derr := n.drainLocked(); err == nil {
		err = derr
	}
	applied := 0
	for _, f := range staged {
		if f.sx.Height <= n.Head().Height {
			applied++
		}
	}
	n.finalsCommitted(staged[:applied])
	return done + applied, err
}

// finalBlock is a finalized simplex block and the chain block it became.
type finalBlock struct {
	sx  *simplex.Block
	blk *types.Block
}

// finalsCommitted logs finalized blocks once they are committed and notes
// that the finalized head moved (sync's syncStuck).
func (n *Node) finalsCommitted(fs []finalBlock) {
	if len(fs) == 0 {
		return
	}
	n.net.advancedAt = time.Now()
	for _, f := range fs {
		if h := f.blk.Header; len(f.blk.Txs) > 0 {
			n.log.Info("block", "height", h.Height, "txs", len(f.blk.Txs), "hash", h.Hash(), "proposer", f.sx.Proposer)
		} else {
			n.log.Debug("block", "height", h.Height, "txs", 0, "round", f.sx.Round, "proposer", f.sx.Proposer)
		}
	}
}

// stageFinal executes the finalized block c on top of the pipeline's tip
// (the block in flight or the head) and starts its commit behind the block
// in flight, and returns the chain block; nil for a block already
// applied. The caller holds prodMu and drains.
func (n *Node) stageFinal(c simplex.Certified, proof []simplex.Certified) (*types.Block, error) {
	parent, st, err := n.pipeTip()
	if err != nil {
		return nil, err
	}
	b := c.Block
	if b.Height <= parent.Height {
		return nil, nil // already applied (a redelivery after restart)
	}
	if b.Height != parent.Height+1 {
		return nil, fmt.Errorf("finalized block %d does not follow the head %d", b.Height, parent.Height)
	}
	ep := n.net.ep
	if b.Height > ep.last {
		return nil, fmt.Errorf("finalized block %d is past epoch %d's last block %d", b.Height, ep.number, ep.last)
	}
	if b.Height == ep.last && len(proof) == 0 {
		return nil, fmt.Errorf("epoch %d: last block %d without a proof of finality", ep.number, b.Height)
	}
	p, err := n.payloadOf(b.Payload, b.Height)
	if err != nil {
		// A quorum voted for it, so this needs a third of the stake to be
		// Byzantine; it is still applied the same way everywhere: empty.
		n.log.Error("finalized block has a bad payload; applied as empty", "height", b.Height, "err", err)
		p = &payload{}
	}
	enc, err := simplex.EncodeCertified(c)
	if err != nil {
		return nil, err
	}
	extra := []store.RawWrite{
		{Key: certKey(b.Height), Value: enc},
		{Key: certByHashKey(c.QC.BlockHash), Value: binary.BigEndian.AppendUint64(nil, b.Height)},
	}
	if b.Height == ep.last {
		w, err := epochProofWrite(ep.number, proof)
		if err != nil {
			return nil, err
		}
		extra = append(extra, w)
	}
	sb, err := n.stageBlock(parent, st, blockInput{Height: b.Height, Time: max(p.Time, parent.Time),
		Proposer: ep.proposerOf(b), Beacon: blockRandomness(c), Signers: ep.signersOf(b.Justify), Txs: p.Txs}, extra)
	if err != nil {
		return nil, err
	}
	n.commitBehind(sb, st)
	return sb.block, nil
}

// blockRandomness is R_n of a finalized block (§3.4): BLAKE3 of σ, the
// threshold signature its certificate carries, in an epoch with a beacon
// key; otherwise its proposer's VRF output.
func blockRandomness(c simplex.Certified) [32]byte {
	if r, ok := c.QC.Randomness(); ok {
		return r
	}
	return c.Block.Beacon()
}
