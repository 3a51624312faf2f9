package node

import (
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestSyncRecoversAhead: recoverAhead decodes a finalized block's payload
// from the wire once and leaves it cached, so applying the block executes
// the very transaction objects whose senders it recovered (nothing is
// decoded or recovered again), and the block commits as it would without.
func TestSyncRecoversAhead(t *testing.T) {
	tn := newTestNet(t, 4)
	v := tn.open(0)
	defer v.Close()

	blockTime := uint64(tn.gen.Time) + 7
	var txs []*types.Tx
	for i := 0; i < 3; i++ {
		txs = append(txs, fromWire(t, pipelineTransfer(tn.gen.ChainID, devKey(t, i), 0, types.Address{0xee, byte(i)}, 5)))
	}
	b := proposal(t, v, &payload{Time: blockTime, Txs: txs}, v.proposer)
	<-v.recoverAhead(b)
	p, err := v.payloadOf(b.Payload, b.Height)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := v.payloadOf(b.Payload, b.Height); again != p {
		t.Fatal("the payload was decoded again")
	}
	if err := v.applyFinal(finalize(b), nil); err != nil {
		t.Fatal(err)
	}
	if v.Head().Height != 1 {
		t.Fatalf("head %d, want 1", v.Head().Height)
	}
	for _, tx := range p.Txs {
		got, loc, err := v.TransactionByHash(tx.Hash())
		if err != nil || loc == nil {
			t.Fatalf("tx %s not committed: %v", tx.Hash(), err)
		}
		if got != tx {
			t.Fatalf("tx %s: block holds another object than the one recovered ahead", tx.Hash())
		}
	}
}
