package state

import (
	"errors"
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// memReader is a committed state held in a map, the model the store must
// behave like.
type memReader map[Key][]byte

func (m memReader) GetState(k Key) ([]byte, error) { return m[k], nil }

func (m memReader) apply(ws []Write) {
	for _, w := range ws {
		if w.Value == nil {
			delete(m, w.Key)
		} else {
			m[w.Key] = w.Value
		}
	}
}

func TestTransferJournalCommit(t *testing.T) {
	r := memReader{}
	a, b := types.Address{1}, types.Address{2}
	s := New(r)
	s.Mint(a, big.NewInt(100))
	ws, err := s.Writes()
	if err != nil {
		t.Fatal(err)
	}
	r.apply(ws)

	s = New(r)
	if got := s.Balance(a); got.Int64() != 100 {
		t.Fatalf("balance after reload %s", got)
	}
	if s.Supply().Int64() != 100 {
		t.Fatalf("supply %s", s.Supply())
	}
	snap := s.Snapshot()
	if err := s.SubBalance(a, big.NewInt(30)); err != nil {
		t.Fatal(err)
	}
	s.AddBalance(b, big.NewInt(30))
	s.SetNonce(a, 1)
	s.RevertToSnapshot(snap)
	if s.Balance(a).Int64() != 100 || s.Balance(b).Sign() != 0 || s.Nonce(a) != 0 {
		t.Fatal("revert did not restore")
	}
	if ws, _ := s.Writes(); len(ws) != 0 {
		t.Fatalf("reverted changes still written: %d", len(ws))
	}

	if err := s.SubBalance(a, big.NewInt(101)); !errors.Is(err, ErrInsufficientBalance) {
		t.Fatalf("overdraft: %v", err)
	}
	s.SubBalance(a, big.NewInt(40))
	s.Burn(big.NewInt(40))
	ws, _ = s.Writes()
	r.apply(ws)
	s = New(r)
	if s.Balance(a).Int64() != 60 || s.Supply().Int64() != 60 {
		t.Fatalf("after burn: balance %s supply %s", s.Balance(a), s.Supply())
	}
}

func TestWritesSortedAndEmptyDeleted(t *testing.T) {
	r := memReader{}
	s := New(r)
	for i := 9; i >= 0; i-- {
		s.Mint(types.Address{byte(i)}, big.NewInt(1))
	}
	ws, _ := s.Writes()
	for i := 1; i < len(ws); i++ {
		if string(ws[i-1].Key[:]) >= string(ws[i].Key[:]) {
			t.Fatal("writes not sorted")
		}
	}
	r.apply(ws)
	s = New(r)
	s.SubBalance(types.Address{3}, big.NewInt(1))
	ws, _ = s.Writes()
	if len(ws) != 1 || ws[0].Value != nil {
		t.Fatalf("emptied account not deleted: %+v", ws)
	}
}

type failReader struct{}

func (failReader) GetState(Key) ([]byte, error) { return nil, errors.New("disk on fire") }

func TestReadErrorIsSticky(t *testing.T) {
	s := New(failReader{})
	s.Balance(types.Address{1})
	if s.Err() == nil {
		t.Fatal("read error lost")
	}
	if _, err := s.Writes(); err == nil {
		t.Fatal("writes allowed after a failed read")
	}
}

// The hand-written account codec writes exactly what the reflection codec
// writes, and reads only that.
func TestAccountCodecMatchesReflection(t *testing.T) {
	huge, _ := new(big.Int).SetString("1000000000000000000000000", 10)
	h := types.Hash{9}
	for _, a := range []*Account{
		{Nonce: 0, Balance: big.NewInt(0)},
		{Nonce: 23, Balance: big.NewInt(24)},
		{Nonce: 1 << 40, Balance: huge, CodeHash: &h},
	} {
		mine, _ := encodeAccount(a)
		ref, err := types.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if string(mine) != string(ref) {
			t.Fatalf("encode %+v: %x, reflection gives %x", a, mine, ref)
		}
		back, err := DecodeAccount(mine)
		if err != nil || back.Nonce != a.Nonce || back.Balance.Cmp(a.Balance) != 0 || (back.CodeHash == nil) != (a.CodeHash == nil) {
			t.Fatalf("decode: %+v %v", back, err)
		}
	}
	for _, bad := range [][]byte{
		{0x83, 0x18, 0x01, 0x00, 0xf6},       // non-shortest nonce
		{0x82, 0x00, 0x00},                   // two items
		{0x83, 0x00, 0x00, 0xf6, 0x00},       // trailing byte
		{0x83, 0x00, 0x00, 0x41, 0x01},       // short code hash
		{0x83, 0x00, 0xc2, 0x41, 0x01, 0xf6}, // bignum that fits a uint
	} {
		if _, err := DecodeAccount(bad); err == nil {
			t.Errorf("accepted %x", bad)
		}
	}
}
