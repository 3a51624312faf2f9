package bls

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"testing"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Known answers from the Ethereum consensus-spec BLS tests (sign_case_*,
// sk_to_pk), which use the same min-pk POP ciphersuite.
var signVectors = []struct{ sk, pk, msg, sig string }{
	{
		sk:  "263dbd792f5b1be47ed85f8938c0f29586af0d3ac7b977f21c278fe1462040e3",
		pk:  "a491d1b0ecd9bb917989f0e74f0dea0422eac4a873e5e2644f368dffb9a6e20fd6e10c1b77654d067c0618f6e5a7f79a",
		msg: "0000000000000000000000000000000000000000000000000000000000000000",
		sig: "b6ed936746e01f8ecf281f020953fbf1f01debd5657c4a383940b020b26507f6076334f91e2366c96e9ab279fb5158090352ea1c5b0c9274504f4f0e7053af24802e51e4568d164fe986834f41e55c8e850ce1f98458c0cfc9ab380b55285a55",
	},
	{
		sk:  "47b8192d77bf871b62e87859d653922725724a5c031afeabc60bcef5ff665138",
		pk:  "b301803f8b5ac4a1133581fc676dfedc60d891dd5fa99028805e5ea5b08d3491af75d0707adab3b70c6a6a580217bf81",
		msg: "0000000000000000000000000000000000000000000000000000000000000000",
		sig: "b23c46be3a001c63ca711f87a005c200cc550b9429d5f4eb38d74322144f1b63926da3388979e5321012fb1a0526bcd100b5ef5fe72628ce4cd5e904aeaa3279527843fae5ca9ca675f4f51ed8f83bbf7155da9ecc9663100a885d5dc6df96d9",
	},
	{
		sk:  "47b8192d77bf871b62e87859d653922725724a5c031afeabc60bcef5ff665138",
		pk:  "b301803f8b5ac4a1133581fc676dfedc60d891dd5fa99028805e5ea5b08d3491af75d0707adab3b70c6a6a580217bf81",
		msg: "5656565656565656565656565656565656565656565656565656565656565656",
		sig: "af1390c3c47acdb37131a51216da683c509fce0e954328a59f93aebda7e4ff974ba208d9a4a2a2389f892a9d418d618418dd7f7a6bc7aa0da999a9d3a5b815bc085e14fd001f6a1948768a3f4afefc8b8240dda329f984cb345c6363272ba4fe",
	},
	{
		sk:  "328388aff0d4a5b7dc9205abd374e7e98f3cd9f3418edb4eafda5fb16473d216",
		pk:  "b53d21a4cfd562c469cc81514d4ce5a6b577d8403d32a394dc265dd190b47fa9f829fdd7963afdf972e5e77854051f6f",
		msg: "5656565656565656565656565656565656565656565656565656565656565656",
		sig: "a4efa926610b8bd1c8330c918b7a5e9bf374e53435ef8b7ec186abf62e1b1f65aeaaeb365677ac1d1172a1f5b44b4e6d022c252c58486c0a759fbdc7de15a756acc4d343064035667a594b4c2a6f0b0b421975977f297dba63ee2f63ffe47bb6",
	},
}

func TestKnownAnswers(t *testing.T) {
	for i, v := range signVectors {
		sk, err := SecretKeyFromBytes(unhex(t, v.sk))
		if err != nil {
			t.Fatalf("vector %d: %v", i, err)
		}
		pk := sk.PublicKey()
		if got := hex.EncodeToString(pk.Bytes()); got != v.pk {
			t.Errorf("vector %d: public key %s, want %s", i, got, v.pk)
		}
		sig := sk.Sign(unhex(t, v.msg))
		if got := hex.EncodeToString(sig.Bytes()); got != v.sig {
			t.Errorf("vector %d: signature %s, want %s", i, got, v.sig)
		}
		dpk, err := PublicKeyFromBytes(unhex(t, v.pk))
		if err != nil {
			t.Fatal(err)
		}
		dsig, err := SignatureFromBytes(unhex(t, v.sig))
		if err != nil {
			t.Fatal(err)
		}
		if !Verify(dpk, unhex(t, v.msg), dsig) {
			t.Errorf("vector %d does not verify", i)
		}
	}
}

func key(t testing.TB, i int) *SecretKey {
	t.Helper()
	seed := bytes.Repeat([]byte{byte(i + 1)}, 32)
	sk, err := GenerateKey(seed)
	if err != nil {
		t.Fatal(err)
	}
	return sk
}

func TestGenerateKeyDeterministic(t *testing.T) {
	a, b := key(t, 7), key(t, 7)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("same seed gave different keys")
	}
	if bytes.Equal(a.Bytes(), key(t, 8).Bytes()) {
		t.Fatal("different seeds gave the same key")
	}
	if _, err := GenerateKey(make([]byte, 31)); err == nil {
		t.Fatal("31-byte seed accepted")
	}
	back, err := SecretKeyFromBytes(a.Bytes())
	if err != nil || !back.PublicKey().Equal(a.PublicKey()) {
		t.Fatalf("secret key round trip: %v", err)
	}
}

func TestDecodeRefusesBadEncodings(t *testing.T) {
	if _, err := SecretKeyFromBytes(make([]byte, 32)); err == nil {
		t.Error("zero secret key accepted")
	}
	order := unhex(t, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001")
	if _, err := SecretKeyFromBytes(order); err == nil {
		t.Error("secret key equal to the group order accepted")
	}
	inf := make([]byte, PublicKeySize)
	inf[0] = 0xc0 // compressed point at infinity
	if _, err := PublicKeyFromBytes(inf); err == nil {
		t.Error("public key at infinity accepted")
	}
	if _, err := PublicKeyFromBytes(make([]byte, PublicKeySize)); err == nil {
		t.Error("all-zero public key accepted")
	}
	if _, err := PublicKeyFromBytes(make([]byte, 47)); err == nil {
		t.Error("short public key accepted")
	}
	notOnCurve := bytes.Repeat([]byte{0xff}, SignatureSize)
	if _, err := SignatureFromBytes(notOnCurve); err == nil {
		t.Error("garbage signature accepted")
	}
}

func TestTamper(t *testing.T) {
	sk := key(t, 1)
	msg := []byte("block_hash || height || round")
	sig := sk.Sign(msg)
	if !Verify(sk.PublicKey(), msg, sig) {
		t.Fatal("valid signature refused")
	}
	bad := append([]byte(nil), msg...)
	bad[0] ^= 1
	if Verify(sk.PublicKey(), bad, sig) {
		t.Error("signature verified on a changed message")
	}
	if Verify(key(t, 2).PublicKey(), msg, sig) {
		t.Error("signature verified under another key")
	}
	if Verify(sk.PublicKey(), msg, key(t, 2).Sign(msg)) {
		t.Error("another key's signature verified")
	}
	// Flip bits of the encoding: either it no longer decodes or it no
	// longer verifies.
	enc := sig.Bytes()
	for _, bit := range []int{7, 100, 400, 767} {
		e := append([]byte(nil), enc...)
		e[bit/8] ^= 1 << (bit % 8)
		s, err := SignatureFromBytes(e)
		if err == nil && Verify(sk.PublicKey(), msg, s) {
			t.Errorf("bit %d flipped signature still verifies", bit)
		}
	}
}

func TestProofOfPossession(t *testing.T) {
	sk := key(t, 3)
	pk := sk.PublicKey()
	pop := sk.ProvePossession()
	if !VerifyPossession(pk, pop) {
		t.Fatal("own proof refused")
	}
	if VerifyPossession(key(t, 4).PublicKey(), pop) {
		t.Error("proof accepted for another key")
	}
	// A message signature over the key bytes is not a proof (different DST),
	// and a proof is not a message signature.
	if VerifyPossession(pk, sk.Sign(pk.Bytes())) {
		t.Error("message signature accepted as proof of possession")
	}
	if Verify(pk, pk.Bytes(), pop) {
		t.Error("proof of possession accepted as message signature")
	}
}

func TestAggregate(t *testing.T) {
	msg := []byte("vote")
	var pks []*PublicKey
	var sigs []*Signature
	for i := 0; i < 10; i++ {
		sk := key(t, i)
		pks = append(pks, sk.PublicKey())
		sigs = append(sigs, sk.Sign(msg))
	}
	agg, err := Aggregate(sigs)
	if err != nil {
		t.Fatal(err)
	}
	if !FastAggregateVerify(pks, msg, agg) {
		t.Fatal("aggregate refused")
	}
	if FastAggregateVerify(pks[:9], msg, agg) {
		t.Error("aggregate verified with a signer missing")
	}
	if FastAggregateVerify(pks, []byte("vote!"), agg) {
		t.Error("aggregate verified on another message")
	}
	agg9, _ := Aggregate(sigs[:9])
	if FastAggregateVerify(pks, msg, agg9) {
		t.Error("aggregate of nine verified against ten keys")
	}
	if FastAggregateVerify(nil, msg, agg) {
		t.Error("empty key list verified")
	}
	if _, err := Aggregate(nil); err == nil {
		t.Error("empty aggregate accepted")
	}
	// Aggregation is order independent.
	rev := make([]*Signature, len(sigs))
	for i := range sigs {
		rev[len(sigs)-1-i] = sigs[i]
	}
	agg2, _ := Aggregate(rev)
	if !agg.Equal(agg2) {
		t.Error("aggregate depends on order")
	}
}

// A rogue key pk' = pk_r − pk_victim makes the aggregate of (victim, rogue)
// verify with a signature of the attacker alone; the proof of possession is
// what refuses the rogue key.
func TestRogueKeyNeedsPossession(t *testing.T) {
	victim := key(t, 10).PublicKey()
	attacker := key(t, 11)
	rogue := subtract(attacker.PublicKey(), victim)
	msg := []byte("forged")
	forged := attacker.Sign(msg)
	if !FastAggregateVerify([]*PublicKey{victim, rogue}, msg, forged) {
		t.Fatal("rogue-key forgery did not work; the test no longer shows the attack")
	}
	// The attacker cannot prove possession of the rogue key: it does not
	// know its scalar, and its own proof does not transfer.
	if VerifyPossession(rogue, attacker.ProvePossession()) {
		t.Error("rogue key passed proof of possession")
	}
}

func TestVerifyBatch(t *testing.T) {
	var items []BatchItem
	for i := 0; i < 8; i++ {
		sk := key(t, i)
		m := []byte(fmt.Sprintf("message %d", i))
		items = append(items, BatchItem{PublicKey: sk.PublicKey(), Message: m, Signature: sk.Sign(m)})
	}
	if !VerifyBatch(items) {
		t.Fatal("valid batch refused")
	}
	// Swap two signatures: each is valid for some message, not for its own.
	swapped := append([]BatchItem(nil), items...)
	swapped[2].Signature, swapped[3].Signature = items[3].Signature, items[2].Signature
	if VerifyBatch(swapped) {
		t.Error("batch with swapped signatures verified")
	}
	wrong := append([]BatchItem(nil), items...)
	wrong[5].Message = []byte("other")
	if VerifyBatch(wrong) {
		t.Error("batch with a changed message verified")
	}
	if VerifyBatch(nil) {
		t.Error("empty batch verified")
	}
}

func benchVotes(b *testing.B, n int) {
	msg := make([]byte, 48)
	pks := make([]*PublicKey, n)
	sigs := make([]*Signature, n)
	for i := 0; i < n; i++ {
		sk := key(b, i)
		pks[i] = sk.PublicKey()
		sigs[i] = sk.Sign(msg)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		agg, err := Aggregate(sigs)
		if err != nil {
			b.Fatal(err)
		}
		if !FastAggregateVerify(pks, msg, agg) {
			b.Fatal("refused")
		}
	}
}

// BenchmarkAggregateVerify64 is one quorum certificate of 64 votes:
// aggregate the signatures, add the keys, one pairing check.
func BenchmarkAggregateVerify64(b *testing.B)  { benchVotes(b, 64) }
func BenchmarkAggregateVerify256(b *testing.B) { benchVotes(b, 256) }

func BenchmarkVerify(b *testing.B) {
	sk := key(b, 0)
	msg := make([]byte, 48)
	sig := sk.Sign(msg)
	pk := sk.PublicKey()
	for i := 0; i < b.N; i++ {
		if !Verify(pk, msg, sig) {
			b.Fatal("refused")
		}
	}
}

func BenchmarkSign(b *testing.B) {
	sk := key(b, 0)
	msg := make([]byte, 48)
	for i := 0; i < b.N; i++ {
		sk.Sign(msg)
	}
}

// BenchmarkVerifyBatch64 checks 64 signatures on 64 different messages.
func BenchmarkVerifyBatch64(b *testing.B) {
	items := make([]BatchItem, 64)
	for i := range items {
		sk := key(b, i)
		m := []byte(fmt.Sprintf("message %d", i))
		items[i] = BatchItem{PublicKey: sk.PublicKey(), Message: m, Signature: sk.Sign(m)}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !VerifyBatch(items) {
			b.Fatal("refused")
		}
	}
}

// FuzzDecode: decoding arbitrary bytes never panics, and whatever decodes
// re-encodes to the same bytes (one encoding per point).
func FuzzDecode(f *testing.F) {
	sk := key(f, 1)
	f.Add(sk.PublicKey().Bytes())
	f.Add(sk.Sign([]byte("m")).Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		if pk, err := PublicKeyFromBytes(b); err == nil && !bytes.Equal(pk.Bytes(), b) {
			t.Fatalf("public key %x re-encodes as %x", b, pk.Bytes())
		}
		if s, err := SignatureFromBytes(b); err == nil && !bytes.Equal(s.Bytes(), b) {
			t.Fatalf("signature %x re-encodes as %x", b, s.Bytes())
		}
		if k, err := SecretKeyFromBytes(b); err == nil && !bytes.Equal(k.Bytes(), b) {
			t.Fatalf("secret key %x re-encodes as %x", b, k.Bytes())
		}
	})
}
