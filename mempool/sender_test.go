package mempool

import (
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"pgregory.net/rapid"
)

// senderTxs holds what a map by nonce would: after any sequence of puts
// (below, inside and above the held run, replacing held nonces), deletes
// of held nonces and drops below a nonce, every nonce reads the map's
// entry, the slice is trimmed (first is the lowest nonce held, the last
// element is set), and dropBelow deletes from the hash index exactly the
// entries it drops.
func TestSenderTxsMatchesMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s senderTxs
		model := map[uint64]*entry{}
		byHash := map[types.Hash]*entry{}
		for i, n := 0, rapid.IntRange(0, 60).Draw(t, "ops"); i < n; i++ {
			nonce := rapid.Uint64Range(0, 20).Draw(t, "nonce")
			switch rapid.IntRange(0, 2).Draw(t, "op") {
			case 0:
				e := &entry{hash: types.Hash{byte(i), byte(nonce), 1}}
				if old := model[nonce]; old != nil {
					delete(byHash, old.hash)
				}
				s.put(nonce, e)
				model[nonce], byHash[e.hash] = e, e
			case 1:
				if model[nonce] != nil {
					delete(byHash, model[nonce].hash)
					delete(model, nonce)
					s.del(nonce)
				}
			case 2:
				s.dropBelow(nonce, byHash)
				for k := range model {
					if k < nonce {
						delete(model, k)
					}
				}
			}
			low, high := ^uint64(0), uint64(0)
			for k := range model {
				low, high = min(low, k), max(high, k+1)
			}
			if len(model) == 0 {
				if len(s.held) != 0 {
					t.Fatalf("empty, but %d elements held", len(s.held))
				}
			} else if s.first != low || s.first+uint64(len(s.held)) != high {
				t.Fatalf("held nonces [%d, %d), want [%d, %d)", s.first, s.first+uint64(len(s.held)), low, high)
			}
			for k := uint64(0); k <= 22; k++ {
				if got := s.get(k); got != model[k] {
					t.Fatalf("nonce %d: %v, want %v", k, got, model[k])
				}
			}
			if len(byHash) != len(model) {
				t.Fatalf("%d hashes indexed for %d entries", len(byHash), len(model))
			}
			for _, e := range model {
				if byHash[e.hash] != e {
					t.Fatalf("entry %x not indexed", e.hash[:3])
				}
			}
		}
	})
}
