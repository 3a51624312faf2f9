package mempool

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// Select fills its heap in the senders' map order, which Go varies from
// one range to the next: the result must not depend on it. Fees repeat
// (ties broken by hash), system calls overflow their lane's budget (ranks
// change while selecting), one sender waits on a nonce gap and one below
// the basefee; each selection is repeated and made again on a pool filled
// in the opposite order.
func TestSelectIgnoresMapOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var txs []*types.Tx
	st := view{}
	for s := byte(10); s < 70; s++ {
		k := key(s)
		for n := uint64(0); n < uint64(1+rng.IntN(4)); n++ {
			txs = append(txs, mk(k, n, uint64(5+rng.IntN(3)), uint64(rng.IntN(3))))
		}
	}
	for s := byte(1); s <= 4; s++ { // 4 × 200,000 cycles: two fit the system budget
		txs = append(txs, mkSystem(key(s), 0, 200_000, uint64(s%2)))
	}
	txs = append(txs, mk(key(5), 1, 9, 1)) // nonce 0 missing: waits
	txs = append(txs, mk(key(6), 0, 4, 1)) // admitted at basefee 1, below Select's 5: waits
	fill := func(order []*types.Tx) *Pool {
		p := New(Config{ChainID: 7})
		for _, tx := range order {
			if err := p.Add(tx, st, execution.Basefees{Cycle: 1, Cell: 1}); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	reversed := slices.Clone(txs)
	slices.Reverse(reversed)
	pools := []*Pool{fill(txs), fill(reversed)}
	hashes := func(sel []*types.Tx) []types.Hash {
		out := make([]types.Hash, len(sel))
		for i, tx := range sel {
			out[i] = tx.Hash()
		}
		return out
	}
	for _, max := range []int{1, 3, 17, 60, len(txs)} {
		want := hashes(pools[0].Select(st, bf, max))
		if max == len(txs) && len(want) != len(txs)-2 {
			t.Fatalf("selected %d of %d, want all but the two waiting", len(want), len(txs))
		}
		for i := 0; i < 20; i++ {
			if got := hashes(pools[i%2].Select(st, bf, max)); !slices.Equal(got, want) {
				t.Fatalf("max %d, round %d: selection differs", max, i)
			}
		}
	}
}
