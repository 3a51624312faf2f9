package node

import (
	"errors"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// TestDevnetBlockStatus: on a devnet (no consensus) every block it serves
// is finalized, with no round and no consensus hash; unknown ones are not
// found, and the consensus status lists nothing pending.
func TestDevnetBlockStatus(t *testing.T) {
	n := openTest(t, t.TempDir())
	defer n.Close()
	b, err := n.ProduceBlock()
	if err != nil {
		t.Fatal(err)
	}
	h := b.Header.Hash()
	cases := []struct {
		name string
		get  func() (*rpc.BlockStatus, error)
		hash types.Hash
		ht   uint64
	}{
		{"height 1", func() (*rpc.BlockStatus, error) { return n.BlockStatusByHeight(1) }, h, 1},
		{"hash of 1", func() (*rpc.BlockStatus, error) { return n.BlockStatusByHash(h) }, h, 1},
		{"genesis", func() (*rpc.BlockStatus, error) { return n.BlockStatusByHeight(0) }, b.Header.ParentHash, 0},
	}
	for _, c := range cases {
		st, err := c.get()
		if err != nil || st.Status != rpc.StatusFinalized || st.Hash != c.hash || st.Height != c.ht || st.Round != nil || st.ConsensusHash != nil {
			t.Fatalf("%s: %+v, %v", c.name, st, err)
		}
	}
	if _, err := n.BlockStatusByHeight(2); !errors.Is(err, rpc.ErrNotFound) {
		t.Fatalf("height 2: %v", err)
	}
	if _, err := n.BlockStatusByHash(types.Hash{1}); !errors.Is(err, rpc.ErrNotFound) {
		t.Fatalf("unknown hash: %v", err)
	}
	if st := rpc.NewConsensusStatusJSON(n.ConsensusStatus()); st.Mode != "devnet" || st.Proposed == nil || len(st.Proposed) != 0 || len(st.Committed) != 0 {
		t.Fatalf("devnet consensus status %+v", st)
	}
	bj, err := rpc.NewBlockJSON(b, false)
	if err != nil || bj.Status != rpc.StatusFinalized {
		t.Fatalf("block JSON status %q, %v", bj.Status, err)
	}
}
