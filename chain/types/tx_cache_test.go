package types

import (
	"sync"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto"
)

// A decoded transaction's hash and sender are computed by whichever
// goroutine asks first and cached inside it: goroutines asking at once
// all get the same answers as a lone caller (run with -race: the cache's
// buffers are written once, before their address is published), and the
// hash is that of the bytes (what Encode gives again).
func TestTxCachesConcurrent(t *testing.T) {
	key, _ := crypto.GenerateKey()
	src := appendixTx()
	src.Sign(key)
	raw := src.Encode()
	want := Hash(crypto.Keccak256(raw))
	for round := 0; round < 20; round++ {
		tx, err := DecodeTx(raw)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		hashes := make([]Hash, 8)
		senders := make([]Address, 8)
		for g := range hashes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				hashes[g] = tx.Hash()
				senders[g], _ = tx.Sender()
			}()
		}
		wg.Wait()
		for g := range hashes {
			if hashes[g] != want || senders[g] != Address(key.Address()) {
				t.Fatalf("round %d goroutine %d: hash %s sender %s", round, g, hashes[g], senders[g])
			}
		}
		if tx.Hash() != Hash(crypto.Keccak256(tx.Encode())) {
			t.Fatal("cached hash differs from the hash of the encoding")
		}
	}
}
