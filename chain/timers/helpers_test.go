package timers

import (
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// memStore is the committed state under a StateDB: a plain map, as the
// store is after a block's writes are committed.
type memStore map[state.Key][]byte

func (m memStore) GetState(k state.Key) ([]byte, error) { return m[k], nil }

// commit applies st's writes to m, as the node does at the end of a block;
// the returned view continues from the committed state, as after a restart.
func (m memStore) commit(t interface{ Fatal(...any) }, st *state.StateDB) *state.StateDB {
	ws, err := st.Writes()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if w.Value == nil {
			delete(m, w.Key)
		} else {
			m[w.Key] = w.Value
		}
	}
	return state.New(m)
}

func addr(b byte) types.Address { return types.Address{0: 0xaa, 19: b} }

func cby(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

func fund(st *state.StateDB, a types.Address, v *big.Int) { st.Mint(a, v) }
