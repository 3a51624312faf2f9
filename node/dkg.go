package node

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto/bls"
	"github.com/cowboy-chain/cowboy/crypto/dkg"
	"github.com/cowboy-chain/cowboy/p2p"
)

// The validator's part in the epoch beacon's DKG (v2 §3.4; the rules are
// the registry's, chain/system/staking/dkg.go, and docs/decisions.md "DKG
// at epoch boundaries"): while DKG(k+1) is open in epoch k, a member deals
// once in the deal window and complains about every dealing whose share to
// it is bad. Both go to the registry as transactions signed with the node
// key; the chain is the DKG's broadcast channel. At the boundary the
// member rebuilds its shares from the dealings on chain (dkgShares), so
// they survive any restart: the transcript and the BLS key are all it
// needs.

// dkgState is what the validator remembers of the open DKG between
// blocks; after a restart it starts over from the chain (a second dealing
// is refused if the first landed).
type dkgState struct {
	ticked     bool
	height     uint64 // head the last tick saw
	epoch      uint64 // DKG(epoch) this state is about
	dealing    *dkg.Dealing
	deal       dkgTx          // the dealing's transaction
	judged     map[int]bool   // dealers whose dealing this node opened
	complaints map[int]*dkgTx // by dealer: this node's complaint about its dealing
}

// dkgTx is one DKG registry call that must land: a dealing or a complaint.
// Either one is sent once and may be lost (dkgSend says how it is pushed
// again and when it is replaced).
type dkgTx struct {
	payload []byte
	sent    bool      // a transaction was made (sentAt is its head)
	sentAt  uint64    // head when the transaction was last made
	tx      *types.Tx // that transaction, when the mempool admitted it
}

// dkgResend is how many blocks a validator waits for a DKG transaction to
// land before making a new one for it (the last one left its mempool
// without landing, or was not admitted).
const dkgResend = 3

// dkgTick does the validator's DKG work once per new finalized head.
func (n *Node) dkgTick() {
	net := n.net
	h := n.Head().Height
	if net.dkg.ticked && h == net.dkg.height {
		return
	}
	net.dkg.ticked, net.dkg.height = true, h
	if err := n.dkgStep(h); err != nil {
		n.log.Warn("beacon DKG", "head", h, "err", err)
	}
}

func (n *Node) dkgStep(h uint64) error {
	net := n.net
	st := n.newState()
	p, err := staking.ReadParams(st)
	if err != nil {
		return nil // no registry: no DKG
	}
	next := h + 1
	e := p.Epoch(next) + 1
	r, err := staking.ReadDKG(st, e)
	if err != nil || r == nil {
		return err
	}
	me := r.Index(n.proposer)
	sk := net.cfg.Keys.BLS
	if me < 0 || sk == nil || !bytes.Equal(sk.PublicKey().Bytes(), r.Members[me].BLSPublicKey) {
		return nil
	}
	if net.dkg.epoch != e || net.dkg.judged == nil {
		net.dkg = dkgState{ticked: true, height: h, epoch: e, judged: map[int]bool{}, complaints: map[int]*dkgTx{}}
	}
	cfg, err := r.Config()
	if err != nil {
		return err
	}
	inDeal := next-p.Epoch(next)*p.EpochLength < staking.DealBlocks(p.EpochLength)
	if r.Dealings[me] == nil && inDeal {
		if err := n.dkgDeal(cfg, e, me, len(r.Members), h); err != nil {
			return err
		}
	}
	for i, d := range r.Dealings {
		if d == nil || r.Out[i] {
			continue
		}
		if !net.dkg.judged[i] {
			net.dkg.judged[i] = true
			_, cp, err := cfg.Receive(me, sk, d)
			if err != nil || cp == nil {
				continue // a malformed dealing is refused on chain; a good one needs nothing
			}
			net.dkg.complaints[i] = &dkgTx{payload: staking.ComplainPayload(e, cp)}
		}
		// A complaint is needed until its dealer is disqualified (v2 §3.4:
		// a lost one would leave a cheating dealer qualified), so it is
		// pushed again like the dealing.
		c := net.dkg.complaints[i]
		if c == nil {
			continue
		}
		made, err := n.dkgSend(c, h)
		if err != nil {
			return fmt.Errorf("complain about dealer %d of epoch %d: %w", i, e, err)
		}
		if made {
			n.log.Warn("beacon DKG: bad share, complaint sent", "epoch", e, "dealer", r.Members[i].Address)
		}
	}
	return nil
}

// dkgDeal sends this member's dealing, or pushes it again while it has not
// landed (dkgSend).
func (n *Node) dkgDeal(cfg *dkg.Config, e uint64, me, members int, h uint64) error {
	net := n.net
	if net.dkg.dealing == nil {
		var err error
		if net.dkg.dealing, err = cfg.Deal(me, nil); err != nil {
			return fmt.Errorf("deal for epoch %d: %w", e, err)
		}
		if net.cheat != nil {
			net.cheat(cfg, net.dkg.dealing)
		}
		net.dkg.deal.payload = staking.DealPayload(e, net.dkg.dealing)
	}
	made, err := n.dkgSend(&net.dkg.deal, h)
	if err != nil {
		return fmt.Errorf("send the epoch %d dealing: %w", e, err)
	}
	if made {
		n.log.Info("beacon DKG: dealt", "epoch", e, "member", me, "members", members)
	}
	return nil
}

// dkgSend sends a DKG registry call that has not taken effect yet, and
// reports whether it made a new transaction. The first transaction may go
// out before any peer is connected (a DKG opens at genesis) or on a
// connection that is then replaced, and gossip does not repeat it; a new
// transaction would take the next nonce and wait behind the lost one in
// every other mempool. So while the transaction is still in this node's
// mempool it is sent again, as it is, to every connected peer each block;
// one that landed is left to the registry's verdict (the same call would
// be refused the same way); only one that left the mempool without
// landing (or was not admitted) is replaced after dkgResend blocks.
func (n *Node) dkgSend(s *dkgTx, h uint64) (bool, error) {
	net := n.net
	if tx := s.tx; tx != nil {
		if _, pending := n.pool.Get(tx.Hash()); pending {
			enc := tx.Encode()
			for _, p := range net.host.Peers() {
				if err := net.host.Send(p.ID, p2p.TopicTx, enc); err != nil {
					n.log.Debug("beacon DKG: push a registry call", "peer", p.ID, "err", err)
				}
			}
			return false, nil
		}
		if _, _, err := n.Receipt(tx.Hash()); err == nil {
			return false, nil
		}
	}
	if s.sent && h < s.sentAt+dkgResend {
		return false, nil
	}
	s.sent, s.sentAt, s.tx = true, h, nil
	if net.dropDKG != nil && net.dropDKG(s.payload) {
		return true, nil
	}
	tx, err := n.sendRegistryTx(s.payload)
	if err != nil {
		return false, err
	}
	s.tx = tx
	return true, nil
}

// sendRegistryTx sends a call of the validator registry from the node's
// account (its fees are the validator's) and returns the transaction.
func (n *Node) sendRegistryTx(payload []byte) (*types.Tx, error) {
	from, to := n.proposer, staking.Address
	est, err := n.EstimateFees(&from, &to, nil, payload)
	if err != nil {
		return nil, err
	}
	nonce, err := n.PendingNonce(from)
	if err != nil {
		return nil, err
	}
	tx := &types.Tx{ChainID: n.cfg.ChainID, Nonce: nonce, To: &to, CyclesLimit: est.CyclesLimit, CellsLimit: est.CellsLimit,
		MaxFeePerCycle: est.MaxFeePerCycle, MaxFeePerCell: est.MaxFeePerCell,
		TipPerCycle: est.TipPerCycle, TipPerCell: est.TipPerCell, Payload: payload}
	tx.Sign(n.cfg.Network.Keys.Node)
	if err := n.SendTransaction(tx); err != nil {
		return nil, err
	}
	return tx, nil
}

// dkgShares rebuilds member me's share keys of a DKG key from the
// transcript on chain (in share order): the sum of what each qualified
// dealer sent it, each sum checked against the public share the
// registry's epoch record holds (dkg.OpenStored).
func dkgShares(r *staking.DKGRound, rec *staking.EpochBeacon, me int, sk *bls.SecretKey) ([][]byte, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, err
	}
	dealings := make([]*dkg.Dealing, 0, len(rec.Qualified))
	for _, d := range rec.Qualified {
		if d >= uint64(len(r.Dealings)) || r.Dealings[d] == nil {
			return nil, fmt.Errorf("qualified dealer %d has no dealing on chain", d)
		}
		dealings = append(dealings, r.Dealings[d])
	}
	public := make([]*bls.PublicKey, len(rec.PublicShares))
	for x, raw := range rec.PublicShares {
		// The registry computed them from dealings it had checked.
		if public[x], err = bls.PublicKeyFromCheckedBytes(raw); err != nil {
			return nil, fmt.Errorf("public share %d: %w", x+1, err)
		}
	}
	sks, err := cfg.OpenStored(me, sk, dealings, public)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, 0, len(sks))
	for _, x := range cfg.Alloc.Shares[me] {
		out = append(out, sks[x].Bytes())
	}
	return out, nil
}

// errNoDKGKey says an epoch's record names a DKG whose transcript is gone.
var errNoDKGKey = errors.New("the DKG transcript of the key is not in the state")
