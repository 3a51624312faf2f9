package execution

import (
	"bytes"
	"cmp"
	"math/big"
	"slices"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"pgregory.net/rapid"
)

// vrfOrderReference is VRFOrder as §6.4 words it, written the plain way
// (a list and a dealing count per sender, in maps): the order the faster
// VRFOrder must reproduce exactly.
func vrfOrderReference(beacon [32]byte, txs []*types.Tx) []*types.Tx {
	type slot struct {
		key  [32]byte
		hash types.Hash
		tx   *types.Tx
	}
	slots := make([]slot, len(txs))
	for i, tx := range txs {
		h := tx.Hash()
		slots[i] = slot{key: crypto.Keccak256(orderDomain, beacon[:], h[:]), hash: h, tx: tx}
	}
	slices.SortFunc(slots, func(a, b slot) int {
		if c := bytes.Compare(a.key[:], b.key[:]); c != 0 {
			return c
		}
		return bytes.Compare(a.hash[:], b.hash[:])
	})
	bySender := map[types.Address][]*types.Tx{}
	for _, s := range slots {
		if from, err := s.tx.Sender(); err == nil {
			bySender[from] = append(bySender[from], s.tx)
		}
	}
	for _, list := range bySender {
		slices.SortStableFunc(list, func(a, b *types.Tx) int {
			if c := cmp.Compare(a.Nonce, b.Nonce); c != 0 {
				return c
			}
			ha, hb := a.Hash(), b.Hash()
			return bytes.Compare(ha[:], hb[:])
		})
	}
	out := make([]*types.Tx, len(slots))
	dealt := map[types.Address]int{}
	for i, s := range slots {
		from, err := s.tx.Sender()
		if err != nil {
			out[i] = s.tx
			continue
		}
		out[i] = bySender[from][dealt[from]]
		dealt[from]++
	}
	return out
}

// VRFOrder gives the reference order on sets with several transactions
// per sender (nonce gaps and two transactions of one nonce included),
// senders with one, and transactions whose sender does not recover (each
// keeps its own slot; with several, their nonce order is not their slot
// order, so grouping them as one sender would show).
func TestVRFOrderMatchesReference(t *testing.T) {
	var keys []*crypto.PrivateKey
	for k := byte(1); k <= 5; k++ {
		key, _ := crypto.PrivateKeyFromBytes(append(make([]byte, 31), k))
		keys = append(keys, key)
	}
	rapid.Check(t, func(t *rapid.T) {
		var txs []*types.Tx
		for i, n := 0, rapid.IntRange(0, 40).Draw(t, "n"); i < n; i++ {
			nonce := rapid.Uint64Range(0, 6).Draw(t, "nonce")
			tip := rapid.Uint64Range(0, 2).Draw(t, "tip") // same nonce, other hash
			tx := &types.Tx{ChainID: chainID, Nonce: nonce, To: &bob, Value: big.NewInt(int64(i)),
				CyclesLimit: 10_000, MaxFeePerCycle: 10, MaxFeePerCell: 10, TipPerCycle: tip, Payload: []byte{}}
			if k := rapid.IntRange(-2, len(keys)-1).Draw(t, "key"); k >= 0 {
				tx.Sign(keys[k])
			} else {
				tx.Sig = &types.Signature{S: [32]byte{1}} // r = 0: no sender recovers
			}
			txs = append(txs, tx)
		}
		var beacon [32]byte
		beacon[0] = rapid.Byte().Draw(t, "beacon")
		got, want := VRFOrder(beacon, txs), vrfOrderReference(beacon, txs)
		if len(got) != len(want) {
			t.Fatalf("%d transactions out of %d", len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("position %d: %s, reference %s", i, got[i].Hash(), want[i].Hash())
			}
		}
	})
}

// slotOrder sorts by the whole key, then by hash, then by index, the same
// as a stable sort of the slots by key and hash: keys drawn from a few
// values at byte 0, byte 7 (the prefix), byte 8 and byte 31 (the rest), and
// hashes from a few values at bytes 0 and 31, so that prefixes, whole keys
// and hashes all tie, which keccak keys never show.
func TestSlotOrderTies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 40).Draw(t, "n")
		slots := make([]orderSlot, n)
		for i := range slots {
			for _, b := range []int{0, 7, 8, 31} {
				slots[i].key[b] = rapid.ByteRange(0, 2).Draw(t, "key")
			}
			for _, b := range []int{0, 31} {
				slots[i].hash[b] = rapid.ByteRange(0, 2).Draw(t, "hash")
			}
		}
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(a, b int32) int {
			if c := bytes.Compare(slots[a].key[:], slots[b].key[:]); c != 0 {
				return c
			}
			return bytes.Compare(slots[a].hash[:], slots[b].hash[:])
		})
		ord := slotOrder(slots)
		if len(ord) != n {
			t.Fatalf("%d indices for %d slots", len(ord), n)
		}
		for j, o := range ord {
			if o.i != want[j] {
				t.Fatalf("position %d: slot %d, want slot %d", j, o.i, want[j])
			}
		}
	})
}
