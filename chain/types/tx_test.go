package types

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/fxamacker/cbor/v2"
)

// appendixTx builds Vector 1 of technical-spec-v2 Appendix A.
func appendixTx() *Tx {
	to, _ := ParseAddress("0x1111111111111111111111111111111111111111")
	return &Tx{
		ChainID: 1, Nonce: 0, To: &to, Value: big.NewInt(1),
		CyclesLimit: 21000, CellsLimit: 0, MaxFeePerCycle: 10, MaxFeePerCell: 2,
		TipPerCycle: 1, TipPerCell: 0, AccessList: nil, Payload: []byte{},
	}
}

func appendixSigned() *Tx {
	tx := appendixTx()
	var r, s [32]byte
	for i := range r {
		r[i], s[i] = 0x01, 0x02
	}
	tx.Sig = &Signature{YParity: 0, R: r, S: s}
	return tx
}

// golden is testdata/appendix_a.json: the exact bytes of both vectors.
type golden struct {
	Vectors []struct {
		Name        string `json:"name"`
		CBOR        string `json:"cbor"`
		SigningHash string `json:"signing_hash"`
		TxHash      string `json:"tx_hash"`
	} `json:"vectors"`
}

func TestAppendixAVectors(t *testing.T) {
	raw, err := os.ReadFile("testdata/appendix_a.json")
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	txs := map[string]*Tx{"vector1_unsigned": appendixTx(), "vector2_signed": appendixSigned()}
	for _, v := range g.Vectors {
		tx := txs[v.Name]
		enc := tx.Encode()
		if got := hex.EncodeToString(enc); got != v.CBOR {
			t.Errorf("%s: cbor\n got %s\nwant %s", v.Name, got, v.CBOR)
		}
		if got := tx.SigningHash().Hex()[2:]; got != v.SigningHash {
			t.Errorf("%s: signing hash got %s want %s", v.Name, got, v.SigningHash)
		}
		if got := tx.Hash().Hex()[2:]; got != v.TxHash {
			t.Errorf("%s: tx hash got %s want %s", v.Name, got, v.TxHash)
		}
		// Round trip through our strict decoder.
		back, err := DecodeTx(enc)
		if err != nil {
			t.Fatalf("%s: decode: %v", v.Name, err)
		}
		if !bytes.Equal(back.Encode(), enc) {
			t.Errorf("%s: round trip changed bytes", v.Name)
		}
		checkIndependent(t, v.Name, enc)
	}
	// Both vectors share the signing hash: the signature is not signed.
	if g.Vectors[0].SigningHash != g.Vectors[1].SigningHash {
		t.Error("signed and unsigned vectors must have the same signing hash")
	}
}

// checkIndependent decodes with fxamacker/cbor, a decoder we did not write,
// and checks every field against Appendix A.
func checkIndependent(t *testing.T, name string, enc []byte) {
	t.Helper()
	dm, _ := cbor.DecOptions{}.DecMode()
	var items []any
	if err := dm.Unmarshal(enc, &items); err != nil {
		t.Fatalf("%s: independent decode: %v", name, err)
	}
	if len(items) != 13 {
		t.Fatalf("%s: %d items", name, len(items))
	}
	want := []any{uint64(1), uint64(0), bytes.Repeat([]byte{0x11}, 20), uint64(1), uint64(21000),
		uint64(0), uint64(10), uint64(2), uint64(1), uint64(0), nil, []byte{}}
	for i, w := range want {
		got := items[i]
		if wb, ok := w.([]byte); ok {
			gb, ok := got.([]byte)
			if !ok || !bytes.Equal(gb, wb) {
				t.Errorf("%s: field %d = %#v, want %x", name, i, got, wb)
			}
			continue
		}
		if got != w {
			t.Errorf("%s: field %d = %#v, want %#v", name, i, got, w)
		}
	}
	// The signature is re-checked by the Python decoder test below.
}

// TestAppendixAPython checks the vectors with Python's cbor2 and
// pycryptodome's keccak when Debian's packages are installed
// (.ci/run installs them).
func TestAppendixAPython(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import cbor2, Cryptodome").Run(); err != nil {
		t.Skip("python3-cbor2 / python3-pycryptodome not installed")
	}
	out, err := exec.Command(py, filepath.Join("testdata", "check_appendix_a.py"), filepath.Join("testdata", "appendix_a.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("python check failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "ok 2 vectors") {
		t.Fatalf("unexpected python output: %s", out)
	}
}

func TestSignAndRecover(t *testing.T) {
	key, _ := crypto.GenerateKey()
	tx := appendixTx()
	tx.ChainID = 7777
	tx.Sign(key)
	dec, err := DecodeTx(tx.Encode())
	if err != nil {
		t.Fatal(err)
	}
	from, err := dec.Sender()
	if err != nil {
		t.Fatal(err)
	}
	if from != Address(key.Address()) {
		t.Fatalf("sender %s want %s", from, Address(key.Address()))
	}
	// Chain-id separation: the same signature over another chain id
	// recovers someone else (or nothing).
	other, _ := DecodeTx(tx.Encode())
	other.ChainID = 1
	moved, _ := DecodeTx(other.Encode())
	if f, err := moved.Sender(); err == nil && f == from {
		t.Fatal("signature valid on another chain id")
	}
}

func TestBigValueEncoding(t *testing.T) {
	tx := appendixTx()
	tx.Value, _ = new(big.Int).SetString("1000000000000000000000000", 10) // 1M CBY
	enc := tx.Encode()
	back, err := DecodeTx(enc)
	if err != nil {
		t.Fatal(err)
	}
	if back.Value.Cmp(tx.Value) != 0 {
		t.Fatalf("value %s", back.Value)
	}
	if !bytes.Contains(enc, []byte{0xc2, 0x4a}) { // tag 2, 10-byte string
		t.Fatalf("big value not a tag-2 bignum: %x", enc)
	}
}

func TestDecodeRejects(t *testing.T) {
	good := appendixSigned().Encode()
	h := func(s string) []byte { b, _ := hex.DecodeString(s); return b }
	mutate := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "unexpected end"},
		{"not an array", h("01"), "want array"},
		{"12 items", append([]byte{0x8c}, good[1:]...), "13-item"},
		{"trailing byte", append(append([]byte(nil), good...), 0x00), "trailing"},
		{"non-shortest chain id", append([]byte{0x8d, 0x18, 0x01}, good[2:]...), "shortest"},
		{"indefinite array", append([]byte{0x9f}, good[1:]...), "indefinite"},
		{"short address", mutate(func(b []byte) []byte { return append(append(b[:3:3], 0x53), b[4+1:]...) }), "to"},
		{"y_parity 2", mutate(func(b []byte) []byte { b[len(b)-69] = 0x02; return b }), "y_parity"},
		{"truncated", good[:len(good)-5], "byte string"},
		{"too big", make([]byte, MaxTxSize+1), "max_tx_size"},
		{"bignum that fits u64", mutate(func(b []byte) []byte {
			i := bytes.Index(b, []byte{0x01, 0x19, 0x52, 0x08}) // value=1 precedes cycles_limit
			return append(append(b[:i:i], 0xc2, 0x41, 0x01), b[i+1:]...)
		}), "fits a plain integer"},
	}
	for _, tt := range tests {
		_, err := DecodeTx(tt.in)
		if err == nil {
			t.Errorf("%s: accepted", tt.name)
			continue
		}
		if !errors.Is(err, ErrDecodeTx) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %q, want it to mention %q", tt.name, err, tt.want)
		}
	}
}

func TestParseAddress(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", true},  // EIP-55
		{"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", true},  // lower
		{"0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266", true},  // upper
		{"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92267", false}, // bad checksum
		{"0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266", false}, // bad checksum
		{"f39fd6e51aad88f6f4ce6ab8827279cfffb92266", false},
		{"0x1234", false},
		{"0xzz9fd6e51aad88f6f4ce6ab8827279cfffb92266", false},
	}
	for _, tt := range tests {
		a, err := ParseAddress(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("%s: err %v", tt.in, err)
		}
		if err == nil && !strings.EqualFold(a.Hex(), tt.in) {
			t.Errorf("%s: round trip %s", tt.in, a.Hex())
		}
	}
	a, _ := ParseAddress("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266")
	if a.Hex() != "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" {
		t.Errorf("checksum form %s", a.Hex())
	}
}

func FuzzDecodeTx(f *testing.F) {
	f.Add(appendixTx().Encode())
	f.Add(appendixSigned().Encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		tx, err := DecodeTx(b)
		if err != nil {
			return
		}
		// Anything accepted is canonical: it re-encodes to the same bytes.
		if !bytes.Equal(tx.Encode(), b) {
			t.Fatalf("accepted non-canonical bytes %x", b)
		}
		tx.Sender() // must not panic
	})
}

func BenchmarkDecodeTx(b *testing.B) {
	enc := appendixSigned().Encode()
	for i := 0; i < b.N; i++ {
		if _, err := DecodeTx(enc); err != nil {
			b.Fatal(err)
		}
	}
}
