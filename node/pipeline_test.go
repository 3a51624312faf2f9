package node

import (
	"encoding/hex"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/crypto"
)

// pipelineTransfer signs a transfer with fixed fees (the genesis basefees
// are 1 per unit) and an explicit nonce.
func pipelineTransfer(chainID uint64, key *crypto.PrivateKey, nonce uint64, to types.Address, value int64) *types.Tx {
	tx := &types.Tx{ChainID: chainID, Nonce: nonce, To: &to, Value: big.NewInt(value),
		CyclesLimit: 10_000, CellsLimit: 0, MaxFeePerCycle: 10, MaxFeePerCell: 10, TipPerCycle: 1, TipPerCell: 1,
		Payload: []byte{}}
	tx.Sign(key)
	return tx
}

// fromWire decodes a copy of tx from its bytes, as a peer receives it: no
// sender cached.
func fromWire(t *testing.T, tx *types.Tx) *types.Tx {
	t.Helper()
	c, err := types.DecodeTx(tx.Encode())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// proposal is a simplex block at height 1 on the genesis carrying p, by
// the validator whose address is proposer.
func proposal(t *testing.T, n *Node, p *payload, proposer types.Address) *simplex.Block {
	t.Helper()
	p.Anchor = n.net.ep.anchor
	enc, err := p.encode()
	if err != nil {
		t.Fatal(err)
	}
	idx := -1
	for i, m := range n.net.ep.members {
		if m == proposer {
			idx = i
		}
	}
	if idx < 0 {
		t.Fatalf("%s is not a validator", proposer)
	}
	return &simplex.Block{Parent: n.net.genesis.Hash(), Height: 1, Round: 1, Proposer: idx, Payload: enc}
}

func finalize(b *simplex.Block) simplex.Certified {
	return simplex.Certified{Block: b, QC: &simplex.QC{BlockHash: b.Hash(), Height: b.Height, Round: b.Round}}
}

// The devnet producer and a validator executing a finalized proposal take
// the same pipeline: for the same transactions, time and proposer they
// commit the same block, header hash (state, tx and receipt roots) included.
func TestDevnetAndValidatorCommitTheSameBlock(t *testing.T) {
	tn := newTestNet(t, 4)
	v := tn.open(0)
	defer v.Close()

	// A devnet on the same genesis whose block key is validator 0's node key.
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "validator.key"), []byte(hex.EncodeToString(tn.keys[0].Node.Bytes())+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	blockTime := time.Unix(int64(tn.gen.Time)+7, 0)
	d, err := Open(Config{Home: home, Genesis: tn.gen, Logger: quietLog(), Now: func() time.Time { return blockTime }})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Proposer() != v.proposer {
		t.Fatalf("devnet proposer %s, validator %s", d.Proposer(), v.proposer)
	}

	var txs []*types.Tx
	for i := 0; i < 4; i++ {
		for nonce := uint64(0); nonce < 3; nonce++ {
			txs = append(txs, pipelineTransfer(tn.gen.ChainID, devKey(t, i), nonce, types.Address{0xee, byte(i)}, int64(1000*(i+1))))
		}
	}
	wire := make([]*types.Tx, len(txs))
	for i, tx := range txs {
		wire[i] = fromWire(t, tx)
	}
	for i, err := range d.SubmitBatch(wire) {
		if err != nil {
			t.Fatalf("devnet refused tx %d: %v", i, err)
		}
	}
	// The validator receives the same transactions from the wire, listed
	// in the reverse order, in a finalized proposal it never saw in its
	// pool. The block's order is the VRF order from the proposal's beacon
	// (docs/decisions.md "Lanes"), whatever order the payload lists: the
	// devnet side executes its own candidates with that beacon through the
	// same executeBlock (ProduceBlock differs only in drawing the devnet
	// beacon).
	reversed := make([]*types.Tx, len(txs))
	for i, tx := range txs {
		reversed[len(txs)-1-i] = fromWire(t, tx)
	}
	b := proposal(t, v, &payload{Time: uint64(blockTime.Unix()), Txs: reversed}, v.proposer)
	d.prodMu.Lock()
	parent := d.Head()
	st := d.newState()
	produced, err := d.executeBlock(parent, st, blockInput{Height: 1, Time: uint64(blockTime.Unix()), Proposer: d.proposer,
		Beacon: b.Beacon(), Txs: d.pool.Select(st, fees.NextBasefees(parent), d.cfg.MaxBlockTxs)}, nil)
	d.prodMu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if len(produced.Txs) != len(txs) {
		t.Fatalf("devnet block has %d transactions, want %d", len(produced.Txs), len(txs))
	}
	if err := v.judge(b); err != nil {
		t.Fatalf("judge: %v", err)
	}
	if err := v.applyFinal(finalize(b), nil); err != nil {
		t.Fatal(err)
	}
	got, want := v.Head(), produced.Header
	if got.Height != 1 || got.StateRoot != want.StateRoot || got.TxRoot != want.TxRoot || got.ReceiptsRoot != want.ReceiptsRoot {
		t.Fatalf("validator head %d state %s tx %s receipts %s; devnet state %s tx %s receipts %s",
			got.Height, got.StateRoot, got.TxRoot, got.ReceiptsRoot, want.StateRoot, want.TxRoot, want.ReceiptsRoot)
	}
	if got.Hash() != want.Hash() {
		t.Fatalf("validator committed header %s, devnet %s", got.Hash(), want.Hash())
	}
	for _, tx := range txs {
		rv, _, err := v.Receipt(tx.Hash())
		if err != nil {
			t.Fatal(err)
		}
		rd, _, err := d.Receipt(tx.Hash())
		if err != nil {
			t.Fatal(err)
		}
		if rv.Status != rd.Status || rv.Fee.Cmp(rd.Fee) != 0 {
			t.Fatalf("tx %s: validator receipt %+v, devnet %+v", tx.Hash(), rv, rd)
		}
	}
}

// judge refuses a proposal carrying a transaction whose signature does not
// recover a sender, even when the node's mempool holds the genuine
// transaction with the same fields (its cached sender must not vouch for a
// forgery); a finalized block with such a transaction is executed without
// it. A genuine transaction in a proposal is the pool's own object: its
// sender is not recovered again.
func TestJudgeRejectsForgedSignatures(t *testing.T) {
	tn := newTestNet(t, 4)
	v := tn.open(0)
	defer v.Close()
	key := devKey(t, 0)
	genuine := pipelineTransfer(tn.gen.ChainID, key, 0, types.Address{0xab}, 5)
	if err := v.SendTransaction(fromWire(t, genuine)); err != nil {
		t.Fatal(err)
	}
	pooled, ok := v.pool.Get(genuine.Hash())
	if !ok {
		t.Fatal("pool lost the transaction")
	}
	n, _ := new(big.Int).SetString("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16) // the group order
	for _, tc := range []struct {
		name  string
		forge func(s *types.Signature)
	}{
		{"s zero", func(s *types.Signature) { s.S = [32]byte{} }},
		{"r zero", func(s *types.Signature) { s.R = [32]byte{} }},
		{"s = n", func(s *types.Signature) { n.FillBytes(s.S[:]) }},
		{"r = n", func(s *types.Signature) { n.FillBytes(s.R[:]) }},
		{"high s (the malleable twin)", func(s *types.Signature) {
			hi := new(big.Int).Sub(n, new(big.Int).SetBytes(s.S[:]))
			hi.FillBytes(s.S[:])
			s.YParity ^= 1
		}},
		{"s all ones", func(s *types.Signature) {
			for i := range s.S {
				s.S[i] = 0xff
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forged := fromWire(t, genuine)
			sig := *forged.Sig
			tc.forge(&sig)
			forged = &types.Tx{ChainID: forged.ChainID, Nonce: forged.Nonce, To: forged.To, Value: forged.Value,
				CyclesLimit: forged.CyclesLimit, CellsLimit: forged.CellsLimit, MaxFeePerCycle: forged.MaxFeePerCycle,
				MaxFeePerCell: forged.MaxFeePerCell, TipPerCycle: forged.TipPerCycle, TipPerCell: forged.TipPerCell,
				Payload: forged.Payload, Sig: &sig}
			forged = fromWire(t, forged)
			b := proposal(t, v, &payload{Time: tn.gen.Time, Txs: []*types.Tx{forged}}, v.proposer)
			if err := v.judge(b); err == nil {
				t.Fatal("judge accepted a proposal with a forged signature")
			}
		})
	}

	// The genuine transaction, from the wire: accepted, and the decoded
	// payload holds the pool's object.
	b := proposal(t, v, &payload{Time: tn.gen.Time, Txs: []*types.Tx{fromWire(t, genuine)}}, v.proposer)
	if err := v.judge(b); err != nil {
		t.Fatalf("judge refused a genuine proposal: %v", err)
	}
	p, err := v.payloadOf(b.Payload, b.Height)
	if err != nil {
		t.Fatal(err)
	}
	if p.Txs[0] != pooled {
		t.Fatal("the judged payload does not reuse the pooled transaction")
	}

	// Finalized anyway (a Byzantine quorum): the forged transaction is
	// skipped by execution, the genuine one is included.
	forged := fromWire(t, genuine)
	forged.Sig = &types.Signature{YParity: genuine.Sig.YParity, R: genuine.Sig.R}
	forged = fromWire(t, forged)
	other := pipelineTransfer(tn.gen.ChainID, devKey(t, 1), 0, types.Address{0xcd}, 7)
	fb := proposal(t, v, &payload{Time: tn.gen.Time, Txs: []*types.Tx{forged, fromWire(t, other)}}, v.proposer)
	if err := v.applyFinal(finalize(fb), nil); err != nil {
		t.Fatal(err)
	}
	blk, err := v.BlockByNumber(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(blk.Txs) != 1 || blk.Txs[0].Hash() != other.Hash() {
		t.Fatalf("block 1 holds %d transactions; want only %s", len(blk.Txs), other.Hash())
	}
}
