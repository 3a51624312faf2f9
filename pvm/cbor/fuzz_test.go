package cbor_test

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/cbor"
)

// FuzzDecode: no input makes the decoders panic; Decode and DecodeGo accept
// exactly the same inputs; whatever decodes re-encodes to the same bytes
// (canonical means one encoding per value, so the decoder may accept
// nothing else).
func FuzzDecode(f *testing.F) {
	for _, vec := range loadVectors(f) {
		f.Add(unhex(f, vec.Hex))
	}
	for _, r := range rejects {
		f.Add(unhex(f, r.hex))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		gv, gerr := cbor.DecodeGo(b)
		c := newCtx()
		pv, perr := cbor.Decode(c, b)
		if (gerr == nil) != (perr == nil) {
			t.Fatalf("%x: DecodeGo error %v, Decode error %v", b, gerr, perr)
		}
		_, _ = cbor.ToJSON(b)
		if gerr != nil {
			return
		}
		if again, err := cbor.EncodeGo(gv); err != nil || !bytes.Equal(again, b) {
			t.Fatalf("%x: DecodeGo then EncodeGo = %s, %v", b, hex.EncodeToString(again), err)
		}
		if again, err := cbor.Encode(c, pv); err != nil || !bytes.Equal(again, b) {
			t.Fatalf("%x: Decode then Encode = %s, %v", b, hex.EncodeToString(again), err)
		}
	})
}
