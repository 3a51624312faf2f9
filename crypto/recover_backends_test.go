//go:build cgo

package crypto

import (
	"bytes"
	"math/big"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/internal/cputime"
	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"pgregory.net/rapid"
)

// Consensus rests on every node recovering the same sender from the same
// signature, whichever secp256k1 backend it was built with (libsecp256k1
// through cgo, or decred's pure Go). These tests hold the two backends
// against each other on the raw recovery (recovery id 0–3, any s) and on
// Recover with the project's rules in front.

var (
	curveN, _ = new(big.Int).SetString("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 16)
	curveP, _ = new(big.Int).SetString("fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", 16)
)

// agree checks both raw backends and both full Recover paths on one input.
func agree(t interface {
	Helper()
	Fatalf(string, ...any)
}, name string, digest [32]byte, recid byte, r, s [32]byte) (pub []byte, ok bool) {
	t.Helper()
	a, okA := recoverLibsecp(&digest, recid, &r, &s)
	b, okB := recoverDecred(&digest, recid, &r, &s)
	if okA != okB || !bytes.Equal(a, b) {
		t.Fatalf("%s: raw backends differ (recid %d r %x s %x digest %x): libsecp256k1 %v %x, decred %v %x",
			name, recid, r, s, digest, okA, a, okB, b)
	}
	// The full path: Recover's rules, then each backend.
	pubR, errR := Recover(digest, recid, r, s)
	pubD, errD := recoverWith(recoverDecred, digest, recid, r, s)
	pubL, errL := recoverWith(recoverLibsecp, digest, recid, r, s)
	if errR != errD || errD != errL || !bytes.Equal(pubR, pubD) || !bytes.Equal(pubD, pubL) {
		t.Fatalf("%s: Recover differs: build %v %x, decred %v %x, libsecp256k1 %v %x",
			name, errR, pubR, errD, pubD, errL, pubL)
	}
	return a, okA
}

// recoverWith is Recover with a chosen backend.
func recoverWith(backend func(*[32]byte, byte, *[32]byte, *[32]byte) ([]byte, bool), digest [32]byte, recid byte, r, s [32]byte) ([]byte, error) {
	if err := checkSignatureRules(recid, &r, &s); err != nil {
		return nil, err
	}
	pub, ok := backend(&digest, recid, &r, &s)
	if !ok {
		return nil, ErrRecover
	}
	return pub, nil
}

func to32(x *big.Int) (b [32]byte) {
	x.FillBytes(b[:])
	return b
}

func TestRecoverBackendsAgreeValid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		key := rapid.SliceOfN(rapid.Byte(), 32, 32).Draw(t, "key")
		k, err := PrivateKeyFromBytes(key)
		if err != nil {
			t.Skip("key out of range")
		}
		var digest [32]byte
		copy(digest[:], rapid.SliceOfN(rapid.Byte(), 32, 32).Draw(t, "digest"))
		v, r, s := k.Sign(digest)
		pub, ok := agree(t, "valid", digest, v, r, s)
		if !ok || PubkeyToAddress(pub) != k.Address() {
			t.Fatalf("valid signature did not recover its key")
		}
		// Its high-s twin recovers the same key with the other parity
		// in both raw backends, and Recover rejects it in both.
		hi := to32(new(big.Int).Sub(curveN, new(big.Int).SetBytes(s[:])))
		if pub2, ok := agree(t, "high s twin", digest, v^1, r, hi); !ok || !bytes.Equal(pub2, pub) {
			t.Fatalf("high-s twin did not recover the same key")
		}
		if _, err := Recover(digest, v^1, r, hi); err != ErrHighS {
			t.Fatalf("high s: got %v", err)
		}
	})
}

func TestRecoverBackendsAgreeArbitrary(t *testing.T) {
	// Arbitrary r, s, recovery id and digest: about half of all r are not
	// the x of a curve point, recid 2–3 use x = r + n (≥ p for most r),
	// and some r, s are ≥ n.
	rapid.Check(t, func(t *rapid.T) {
		var digest, r, s [32]byte
		copy(digest[:], rapid.SliceOfN(rapid.Byte(), 32, 32).Draw(t, "digest"))
		copy(r[:], rapid.SliceOfN(rapid.Byte(), 32, 32).Draw(t, "r"))
		copy(s[:], rapid.SliceOfN(rapid.Byte(), 32, 32).Draw(t, "s"))
		recid := rapid.ByteRange(0, 3).Draw(t, "recid")
		// Small r often, so recid 2–3 with x = r + n < p is reached.
		if rapid.Bool().Draw(t, "small r") {
			r = to32(new(big.Int).SetBytes(r[16:]))
		}
		agree(t, "arbitrary", digest, recid, r, s)
	})
}

func TestRecoverBackendsAgreeMalformed(t *testing.T) {
	k, _ := PrivateKeyFromBytes(bytes32(7))
	digest := Keccak256([]byte("malformed"))
	v, r, s := k.Sign(digest)
	one := big.NewInt(1)
	nMinus1 := to32(new(big.Int).Sub(curveN, one))
	n := to32(curveN)
	nPlus1 := to32(new(big.Int).Add(curveN, one))
	p := to32(curveP)
	var zero, ones [32]byte
	for i := range ones {
		ones[i] = 0xff
	}
	hiS := to32(new(big.Int).Sub(curveN, new(big.Int).SetBytes(s[:])))
	half := to32(new(big.Int).Rsh(curveN, 1))
	halfPlus1 := to32(new(big.Int).Add(new(big.Int).Rsh(curveN, 1), one))
	// x = r + n ≥ p for recid 2–3 once r ≥ p − n.
	pMinusN := new(big.Int).Sub(curveP, curveN)
	xAtP := to32(pMinusN)
	xBelowP := to32(new(big.Int).Sub(pMinusN, one))
	// An r that is not the x of any curve point: x³+7 a non-residue.
	notOnCurve := firstX(false)
	onCurve := firstX(true)

	cases := []struct {
		name  string
		recid byte
		r, s  [32]byte
	}{
		{"valid", v, r, s},
		{"valid other parity", v ^ 1, r, s},
		{"r zero", v, zero, s},
		{"s zero", v, r, zero},
		{"r and s zero", v, zero, zero},
		{"r = n", v, n, s},
		{"r = n+1", v, nPlus1, s},
		{"r = p", v, p, s},
		{"r all ones", v, ones, s},
		{"r = n-1", v, nMinus1, s},
		{"s = n", v, r, n},
		{"s = n+1", v, r, nPlus1},
		{"s all ones", v, r, ones},
		{"s = n-1 (high)", v, r, nMinus1},
		{"high s twin", v ^ 1, r, hiS},
		{"s = n/2 (highest low)", v, r, half},
		{"s = n/2+1 (lowest high)", v, r, halfPlus1},
		{"recid 2", 2, r, s},
		{"recid 3", 3, r, s},
		{"recid 2, x = r+n = p", 2, xAtP, s},
		{"recid 3, x = r+n = p", 3, xAtP, s},
		{"recid 2, x = r+n = p-1", 2, xBelowP, s},
		{"recid 3, x = r+n = p-1", 3, xBelowP, s},
		{"recid 4", 4, r, s},
		{"recid 255", 255, r, s},
		{"r not on curve", 0, notOnCurve, s},
		{"r not on curve, parity 1", 1, notOnCurve, s},
		{"r on curve", 0, onCurve, s},
		{"r on curve, parity 1", 1, onCurve, s},
	}
	digests := map[string][32]byte{"keccak": digest, "zero": {}, "all ones": ones, "n": n, "n+1": nPlus1}
	for _, dname := range []string{"keccak", "zero", "all ones", "n", "n+1"} {
		for _, c := range cases {
			if c.recid > 3 {
				// Raw backends take recid 0–3 only; Recover rejects more.
				if _, err := Recover(digests[dname], c.recid, c.r, c.s); err != ErrInvalidYParity {
					t.Fatalf("%s: got %v", c.name, err)
				}
				continue
			}
			agree(t, c.name+" / digest "+dname, digests[dname], c.recid, c.r, c.s)
		}
	}
}

// TestRecoverBackendsAgreeInfinity builds signatures whose recovered point
// is the point at infinity (s·R = e·G): both backends must fail.
func TestRecoverBackendsAgreeInfinity(t *testing.T) {
	for kv := uint32(1); kv <= 40; kv++ {
		var kk secp256k1.ModNScalar
		kk.SetInt(kv)
		var R secp256k1.JacobianPoint
		secp256k1.ScalarBaseMultNonConst(&kk, &R)
		R.ToAffine()
		var rs secp256k1.ModNScalar
		if overflow := rs.SetBytes(R.X.Bytes()); overflow != 0 {
			continue
		}
		recid := byte(0)
		if R.Y.IsOdd() {
			recid = 1
		}
		var ss secp256k1.ModNScalar
		ss.SetInt(kv*7919 + 3)
		var e secp256k1.ModNScalar
		e.Mul2(&ss, &kk)
		digest, r, s := e.Bytes(), rs.Bytes(), ss.Bytes()
		if _, ok := agree(t, "infinity", digest, recid, r, s); ok {
			t.Fatalf("k=%d: a signature recovering the point at infinity was accepted", kv)
		}
	}
}

// firstX returns the smallest x ≥ 2 whose x³+7 is (or is not) a square
// mod p, found with Euler's criterion.
func firstX(square bool) [32]byte {
	exp := new(big.Int).Rsh(new(big.Int).Sub(curveP, big.NewInt(1)), 1)
	for x := int64(2); ; x++ {
		bx := big.NewInt(x)
		y2 := new(big.Int).Exp(bx, big.NewInt(3), curveP)
		y2.Add(y2, big.NewInt(7)).Mod(y2, curveP)
		isSq := new(big.Int).Exp(y2, exp, curveP).Cmp(big.NewInt(1)) == 0
		if isSq == square {
			return to32(bx)
		}
	}
}

// BenchmarkRecoverBackends reports each backend on one goroutine and on
// all cores (parallel), with recoveries per second and CPU time per
// recovery (which other jobs on a shared machine disturb less than wall
// time).
func BenchmarkRecoverBackends(b *testing.B) {
	k, _ := PrivateKeyFromBytes(bytes32(9))
	digest := Keccak256([]byte("bench"))
	v, r, s := k.Sign(digest)
	for _, bb := range []struct {
		name string
		f    func(*[32]byte, byte, *[32]byte, *[32]byte) ([]byte, bool)
	}{{"libsecp256k1", recoverLibsecp}, {"decred", recoverDecred}} {
		b.Run(bb.name, func(b *testing.B) {
			start, cpu0 := time.Now(), cputime.Process()
			for i := 0; i < b.N; i++ {
				if _, ok := bb.f(&digest, v, &r, &s); !ok {
					b.Fatal("recover failed")
				}
			}
			reportRecover(b, start, cpu0)
		})
		b.Run(bb.name+"/parallel", func(b *testing.B) {
			start, cpu0 := time.Now(), cputime.Process()
			b.RunParallel(func(pb *testing.PB) {
				d, rr, ss := digest, r, s
				for pb.Next() {
					if _, ok := bb.f(&d, v, &rr, &ss); !ok {
						b.Error("recover failed")
						return
					}
				}
			})
			reportRecover(b, start, cpu0)
		})
	}
}

func reportRecover(b *testing.B, start time.Time, cpu0 time.Duration) {
	wall, cpu := time.Since(start), cputime.Process()-cpu0
	b.ReportMetric(float64(b.N)/wall.Seconds(), "recover/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
}
