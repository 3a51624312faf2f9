package types

import (
	"bytes"
	"fmt"
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/crypto/blake16"
	"github.com/fxamacker/cbor/v2"
)

func TestBlockRoundTrip(t *testing.T) {
	key, _ := crypto.GenerateKey()
	tx := appendixTx()
	tx.Sign(key)
	h := &Header{Height: 3, Time: 1700000000, BasefeeCycle: 1, BasefeeCell: 1, CyclesUsed: 10000}
	b := &Block{Header: h, Txs: []*Tx{tx}}
	enc, err := b.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeBlock(enc)
	if err != nil {
		t.Fatal(err)
	}
	if back.Header.Hash() != h.Hash() || back.Txs[0].Hash() != tx.Hash() {
		t.Fatal("round trip changed the block")
	}
	if _, err := DecodeBlock(append(enc, 0)); err == nil {
		t.Fatal("trailing byte accepted")
	}
}

func TestReceiptRoundTrip(t *testing.T) {
	big1e24, _ := new(big.Int).SetString("1000000000000000000000000", 10)
	r := &Receipt{Status: ReceiptSuccess, CyclesUsed: 10000, Fee: big1e24, Burned: big.NewInt(10000), Tip: big.NewInt(0),
		Events: []Event{{Name: "x", Data: []byte{1}}}}
	enc, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeReceipt(enc)
	if err != nil {
		t.Fatal(err)
	}
	if back.Fee.Cmp(big1e24) != 0 || back.Events[0].Name != "x" {
		t.Fatalf("round trip: %+v", back)
	}
}

func TestMerkleRoot(t *testing.T) {
	a, b, c := Hash{1}, Hash{2}, Hash{3}
	tests := []struct {
		name   string
		x, y   []Hash
		equals bool
	}{
		{"deterministic", []Hash{a, b, c}, []Hash{a, b, c}, true},
		{"order matters", []Hash{a, b}, []Hash{b, a}, false},
		{"length matters", []Hash{a}, []Hash{a, a}, false},
		{"empty differs from zero leaf", nil, []Hash{{}}, false},
	}
	for _, tt := range tests {
		if (MerkleRoot(tt.x) == MerkleRoot(tt.y)) != tt.equals {
			t.Errorf("%s", tt.name)
		}
	}
}

func TestCheckCanonical(t *testing.T) {
	tests := []struct {
		name string
		hex  []byte
		ok   bool
	}{
		{"uint", []byte{0x01}, true},
		{"array of text", []byte{0x82, 0x61, 'a', 0x01}, true},
		{"sorted map", []byte{0xa2, 0x61, 'a', 0x01, 0x61, 'b', 0x02}, true},
		{"unsorted map", []byte{0xa2, 0x61, 'b', 0x01, 0x61, 'a', 0x02}, false},
		{"non-shortest int", []byte{0x18, 0x01}, false},
		{"float16", []byte{0xf9, 0x3c, 0x00}, false},
		{"float64", []byte{0xfb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0}, true},
		{"indefinite array", []byte{0x9f, 0x01, 0xff}, false},
		{"two items", []byte{0x01, 0x02}, false},
		{"truncated", []byte{0x82, 0x01}, false},
		{"empty", nil, false},
	}
	for _, tt := range tests {
		if err := CheckCanonical(tt.hex); (err == nil) != tt.ok {
			t.Errorf("%s: err = %v", tt.name, err)
		}
	}
}

func TestReceiptCodecMatchesReflection(t *testing.T) {
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	for _, r := range []*Receipt{
		{Status: ReceiptSuccess, CyclesUsed: 10_000, Fee: big.NewInt(20_000), Burned: big.NewInt(10_000), Tip: big.NewInt(10_000)},
		{TxHash: Hash{1}, Status: ReceiptFailed, CyclesUsed: 1 << 33, CellsUsed: 300, Fee: huge, Burned: huge, Tip: big.NewInt(0),
			ReturnData: []byte{}, Events: []Event{}, Error: "boom ☃"},
		{Fee: big.NewInt(1), Burned: big.NewInt(1), Tip: big.NewInt(0), ReturnData: []byte{1, 2},
			Events: []Event{{Address: Address{7}, Name: "Transfer", Data: []byte{9}}, {Name: "", Data: nil}}},
		{Fee: big.NewInt(1), Burned: big.NewInt(1), Tip: big.NewInt(0), ContractAddress: &Address{0xaa},
			Messages: []MessageResult{{ID: Hash{3}, From: Address{1}, To: Address{2}, Method: "ping", Depth: 1, Status: ReceiptSuccess, CyclesUsed: 700, CellsUsed: 12},
				{Method: "", Depth: 32, Error: "ValueError: no (main.py, line 3)"}}},
		{Fee: big.NewInt(1), Burned: big.NewInt(1), Tip: big.NewInt(0), Messages: []MessageResult{}},
	} {
		mine, err := r.Encode()
		if err != nil {
			t.Fatal(err)
		}
		ref, err := Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if string(mine) != string(ref) {
			t.Fatalf("receipt %+v:\n mine %x\n ref  %x", r, mine, ref)
		}
		if _, err := DecodeReceipt(mine); err != nil {
			t.Fatal(err)
		}
	}
}

// A vote signs exactly block_hash || height || round, big-endian (§6.1).
func TestVoteMessage(t *testing.T) {
	m := VoteMessage(Hash{0xaa, 31: 0xbb}, 0x0102, 0x0304)
	want := append(append([]byte{0xaa}, make([]byte, 30)...), 0xbb, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 3, 4)
	if !bytes.Equal(m, want) || len(m) != VoteMessageSize {
		t.Fatalf("vote message %x, want %x", m, want)
	}
}

// Block.Encode appends the transactions by hand; its bytes are what the
// reflection codec writes for the wire struct.
func TestBlockEncodeMatchesReflection(t *testing.T) {
	key, _ := crypto.GenerateKey()
	signed := func(tx *Tx) *Tx { tx.Sign(key); return tx }
	to := Address{5}
	h := &Header{Height: 3, Time: 1700000000, BasefeeCycle: 1, BasefeeCell: 1, CyclesUsed: 10000}
	tests := []struct {
		name string
		b    *Block
	}{
		{"no transactions", &Block{Header: h}},
		{"empty transaction list", &Block{Header: h, Txs: []*Tx{}}},
		{"appendix transaction", &Block{Header: h, Txs: []*Tx{signed(appendixTx())}}},
		{"several", &Block{Header: &Header{Height: 1 << 40, ParentHash: Hash{1}, StateRoot: Hash{2}}, Txs: []*Tx{
			signed(appendixTx()),
			signed(&Tx{ChainID: 9, Nonce: 1 << 33, To: &to, Value: new(big.Int).Lsh(big.NewInt(1), 200), CyclesLimit: 10_000, MaxFeePerCycle: 3, Payload: []byte{0x80}}),
			signed(&Tx{ChainID: 9, Value: big.NewInt(0), CyclesLimit: 1, Payload: make([]byte, 300),
				AccessList: []AccessTuple{{Address: Address{3}, StorageKeys: []Hash{{4}}}}}),
		}}},
	}
	for _, tt := range tests {
		mine, err := tt.b.Encode()
		if err != nil {
			t.Fatal(err)
		}
		w := blockWire{Header: tt.b.Header, Txs: make([]cbor.RawMessage, len(tt.b.Txs))}
		for i, tx := range tt.b.Txs {
			w.Txs[i] = tx.Encode()
		}
		ref, err := Marshal(&w)
		if err != nil {
			t.Fatal(err)
		}
		if string(mine) != string(ref) {
			t.Fatalf("%s:\n mine %x\n ref  %x", tt.name, mine, ref)
		}
		back, err := DecodeBlock(mine)
		if err != nil || len(back.Txs) != len(tt.b.Txs) {
			t.Fatalf("%s: decode: %v", tt.name, err)
		}
	}
}

// merkleRootRef is MerkleRoot as first written, a new slice per level: the
// in-place version must give the same root for every size (odd levels
// carry their last node up unchanged).
func merkleRootRef(leaves []Hash) Hash {
	if len(leaves) == 0 {
		return Hash(crypto.Blake3(nil))
	}
	level := make([]Hash, len(leaves))
	for i, l := range leaves {
		level[i] = Hash(crypto.Blake3([]byte{0}, l[:]))
	}
	for len(level) > 1 {
		var next []Hash
		for i := 0; i < len(level); i += 2 {
			if i+1 == len(level) {
				next = append(next, level[i])
				continue
			}
			next = append(next, Hash(crypto.Blake3([]byte{1}, level[i][:], level[i+1][:])))
		}
		level = next
	}
	return level[0]
}

// TestMerkleRootMatchesReference runs MerkleRoot both ways, scalar and
// sixteen hashes at a time (crypto/blake16, where the processor has
// AVX-512), on every size up to 70 and around the levels of a full
// block of transfers.
func TestMerkleRootMatchesReference(t *testing.T) {
	ways := []bool{false}
	if blake16.Available {
		ways = append(ways, true)
	} else {
		t.Log("no AVX-512 here: only the scalar way runs")
	}
	defer func(was bool) { merkle16 = was }(merkle16)
	var leaves []Hash
	sizes := map[int]bool{511: true, 512: true, 513: true, 1999: true, 2000: true, 2001: true}
	for n := 0; n <= 2001; n++ {
		if n <= 70 || sizes[n] {
			want := merkleRootRef(leaves)
			for _, way := range ways {
				merkle16 = way
				if got := MerkleRoot(leaves); got != want {
					t.Fatalf("%d leaves, 16 at a time %v: %x, reference %x", n, way, got, want)
				}
			}
		}
		leaves = append(leaves, Hash{byte(n), byte(n * 7), 0x5a, byte(n >> 8)})
	}
	// The leaves given are not changed.
	before := append([]Hash(nil), leaves...)
	for _, way := range ways {
		merkle16 = way
		MerkleRoot(leaves)
		for i := range leaves {
			if leaves[i] != before[i] {
				t.Fatalf("MerkleRoot (16 at a time %v) changed its input", way)
			}
		}
	}
}

// BenchmarkMerkleRoot: the root of a full block of transfers' hashes
// (2,000 leaves), scalar and 16 at a time (crypto/blake16).
func BenchmarkMerkleRoot(b *testing.B) {
	leaves := make([]Hash, 2000)
	for i := range leaves {
		leaves[i] = Hash{byte(i), byte(i >> 8), 0x5a}
	}
	defer func(was bool) { merkle16 = was }(merkle16)
	for _, way := range []bool{false, true} {
		if way && !blake16.Available {
			continue
		}
		b.Run(fmt.Sprintf("16-at-a-time=%v", way), func(b *testing.B) {
			merkle16 = way
			for i := 0; i < b.N; i++ {
				MerkleRoot(leaves)
			}
		})
	}
}
