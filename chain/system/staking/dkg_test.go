package staking

import (
	"bytes"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/crypto/bls"
	"github.com/cowboy-chain/cowboy/crypto/dkg"
)

// newBeaconEnv is newEnv on a chain whose genesis has a beacon key: DKG(1)
// is open with the four genesis validators.
func newBeaconEnv(t *testing.T) *env {
	t.Helper()
	e := newEnv(t, 4)
	g := blsKey(t, 50).PublicKey().Bytes()
	if err := InitBeacon(e.st, g, [][]byte{g, g, g, g}); err != nil {
		t.Fatal(err)
	}
	return e
}

// newEnvN is a beacon chain with n genesis validators of 2,000 CBY.
func newEnvN(tb testing.TB, n int) *env {
	tb.Helper()
	st := state.New(memReader{})
	var vals []GenesisValidator
	for i := 1; i <= n; i++ {
		vals = append(vals, GenesisValidator{Address: addr(byte(i)), BLSPublicKey: blsKey(tb, byte(i)).PublicKey().Bytes(), StakeCBY: 2000})
	}
	if err := InitGenesis(st, testParams(), vals, [32]byte{7}); err != nil {
		tb.Fatal(err)
	}
	g := blsKey(tb, 200).PublicKey().Bytes()
	if err := InitBeacon(st, g, [][]byte{g}); err != nil {
		tb.Fatal(err)
	}
	return &env{t: tb, st: st, p: testParams()}
}

// round reads the open DKG(epoch) and its crypto/dkg config.
func (e *env) round(epoch uint64) (*DKGRound, *dkg.Config) {
	e.t.Helper()
	r, err := ReadDKG(e.st, epoch)
	if err != nil || r == nil {
		e.t.Fatalf("DKG(%d): %v %v", epoch, r, err)
	}
	cfg, err := r.Config()
	if err != nil {
		e.t.Fatal(err)
	}
	return r, cfg
}

// memberKey is the BLS key of DKG member i (the env's validators are
// addr(k) with blsKey(k)).
func memberKey(t testing.TB, r *DKGRound, i int) *bls.SecretKey {
	return blsKey(t, r.Members[i].Address[19])
}

// dealAll posts a dealing of every member in dealers at height h.
func (e *env) dealAll(epoch, h uint64, dealers ...int) []*dkg.Dealing {
	e.t.Helper()
	r, cfg := e.round(epoch)
	out := make([]*dkg.Dealing, len(r.Members))
	for _, i := range dealers {
		d, err := cfg.Deal(i, nil)
		if err != nil {
			e.t.Fatal(err)
		}
		e.mustCall(r.Members[i].Address, nil, DealPayload(epoch, d), h)
		out[i] = d
	}
	return out
}

// checkKey checks that the epoch's recorded group key is what a threshold
// of the members' rebuilt shares sign with.
func (e *env) checkKey(epoch uint64) *EpochBeacon {
	e.t.Helper()
	b, err := ReadEpochBeacon(e.st, epoch)
	if err != nil || b == nil {
		e.t.Fatalf("epoch %d beacon: %v %v", epoch, b, err)
	}
	r, cfg := e.round(b.KeyEpoch)
	q := make([]int, len(b.Qualified))
	for k, d := range b.Qualified {
		q[k] = int(d)
	}
	msg := []byte("block")
	var xs []uint64
	var sigs [][]byte
	for i := range r.Members {
		received := map[int]map[uint64]*big.Int{}
		for _, d := range q {
			s, cp, err := cfg.Receive(i, memberKey(e.t, r, i), r.Dealings[d])
			if err != nil || cp != nil {
				e.t.Fatalf("member %d from qualified dealer %d: %v %v", i, d, cp, err)
			}
			received[d] = s
		}
		sks, err := cfg.SecretShares(i, received, q)
		if err != nil {
			e.t.Fatal(err)
		}
		for _, x := range cfg.Alloc.Shares[i] {
			xs, sigs = append(xs, x), append(sigs, sks[x].Sign(msg).Bytes())
		}
	}
	sig, err := bls.CombinePartialBytes(xs[:cfg.Alloc.Threshold], sigs[:cfg.Alloc.Threshold])
	if err != nil {
		e.t.Fatal(err)
	}
	g, err := bls.PublicKeyFromBytes(b.Group)
	if err != nil || !bls.Verify(g, msg, sig) {
		e.t.Fatalf("epoch %d: the members' shares do not sign for the recorded group key (%v)", epoch, err)
	}
	return b
}

// TestDKGOnChain walks DKG(1) through epoch 0 in the registry: honest
// dealings make the key, a dealer whose share is bad is disqualified by
// the complaint of the member it cheated, and unfounded complaints and
// out-of-window, duplicate or foreign messages are refused and change
// nothing.
func TestDKGOnChain(t *testing.T) {
	e := newBeaconEnv(t)
	r, cfg := e.round(1)
	if len(r.Members) != 4 {
		t.Fatalf("DKG(1) has %d members", len(r.Members))
	}
	// Dealer 0 deals a share to member 1 that does not match its
	// commitments.
	bad, err := cfg.Deal(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	x := cfg.Alloc.Shares[1][0]
	bad.Ciphertexts[x-1] = append([]byte(nil), bad.Ciphertexts[x-1]...)
	bad.Ciphertexts[x-1][31] ^= 1
	e.mustCall(r.Members[0].Address, nil, DealPayload(1, bad), 1)
	malformed := *bad
	malformed.Commitments = malformed.Commitments[:1]
	failsCleanly(t, e, r.Members[1].Address, new(big.Int), DealPayload(1, &malformed), 1, "malformed dealing")
	e.dealAll(1, 2, 1, 2, 3)
	for _, tt := range []struct {
		name    string
		from    int
		payload []byte
		height  uint64
		want    string
	}{
		{"second dealing", 1, DealPayload(1, bad), 3, "already dealt"},
		{"dealing after the window", 1, DealPayload(1, bad), DealBlocks(e.p.EpochLength), "closed"},
		{"dealing for another epoch", 1, DealPayload(2, bad), 3, "takes DKG messages for epoch 1 only"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			failsCleanly(t, e, r.Members[tt.from].Address, new(big.Int), tt.payload, tt.height, tt.want)
		})
	}
	failsCleanly(t, e, addr(10), new(big.Int), DealPayload(1, bad), 3, "not a member")

	_, cp, err := cfg.Receive(1, memberKey(t, r, 1), bad)
	if err != nil || cp == nil {
		t.Fatalf("member 1 finds no fault in the bad dealing: %v", err)
	}
	// The same proof from another member, or about another dealer, is
	// unfounded.
	failsCleanly(t, e, r.Members[2].Address, new(big.Int), ComplainPayload(1, cp), 6, "does not verify")
	other := *cp
	other.Dealer = 3
	failsCleanly(t, e, r.Members[1].Address, new(big.Int), ComplainPayload(1, &other), 6, "does not verify")
	// A dealer index one past the members is refused, not looked up.
	past := *cp
	past.Dealer = len(r.Members)
	failsCleanly(t, e, r.Members[1].Address, new(big.Int), ComplainPayload(1, &past), 6, "member 4 has no dealing")
	e.mustCall(r.Members[1].Address, nil, ComplainPayload(1, cp), 6)
	failsCleanly(t, e, r.Members[1].Address, new(big.Int), ComplainPayload(1, cp), 7, "already disqualified")

	e.run(1, e.p.LastOfEpoch(0), nil)
	b := e.checkKey(1)
	if b.Source != BeaconDKG || b.KeyEpoch != 1 || len(b.Qualified) != 3 || b.Qualified[0] != 1 {
		t.Fatalf("epoch 1 beacon %+v, want DKG(1) without dealer 0", b)
	}
	if got := members(e.set(1)); len(got) != 4 {
		t.Fatalf("epoch 1 set %v", got)
	}
	if r2, _ := ReadDKG(e.st, 2); r2 == nil || len(r2.Members) != 4 {
		t.Fatalf("DKG(2) not open with the four validators: %+v", r2)
	}
	// DKG(2)'s dealing window, in epoch 1, closes at the block the error
	// names.
	last := e.p.EpochLength + DealBlocks(e.p.EpochLength) - 1
	failsCleanly(t, e, r.Members[1].Address, new(big.Int), DealPayload(2, bad), last+1, fmt.Sprintf("dealings for epoch 2 closed after block %d", last))
}

// TestDKGFallback: a DKG whose dealers hold no quorum fails, and the
// outcome is a function of the chain: the previous key carries over when
// the set is unchanged, and the epoch has no key when it changed.
// Membership is fixed when a DKG opens: a validator registering after
// DKG(k+1) opened joins in epoch k+2.
func TestDKGFallback(t *testing.T) {
	e := newBeaconEnv(t)
	e.dealAll(1, 1, 0, 1, 2, 3)
	e.run(1, 4, nil)
	e.st.Mint(addr(5), cby(5000))
	e.register(5, cby(2000), 5) // DKG(1) is open: joins in epoch 2
	e.run(5, e.p.LastOfEpoch(0), nil)
	e1 := e.checkKey(1)
	if got := members(e.set(1)); len(got) != 4 {
		t.Fatalf("epoch 1 set %v: a registration after DKG(1) opened joins in epoch 2", got)
	}

	// DKG(2) has five members; only two deal: it fails, and the set
	// changed (the newcomer), so epoch 2 has no key.
	e.dealAll(2, 10, 0, 1)
	e.run(10, e.p.LastOfEpoch(1), nil)
	if got := members(e.set(2)); len(got) != 5 {
		t.Fatalf("epoch 2 set %v", got)
	}
	b2, err := ReadEpochBeacon(e.st, 2)
	if err != nil || b2 == nil || b2.Source != BeaconNone || len(b2.Group) != 0 || !strings.Contains(b2.Note, "failed") {
		t.Fatalf("epoch 2 beacon %+v %v, want none", b2, err)
	}
	if r, _ := ReadDKG(e.st, 1); r != nil {
		t.Fatal("DKG(1)'s transcript is kept after its key went out of use")
	}
	for i := uint32(0); i < 4; i++ {
		if b := e.st.Get(dkgKey(1, dkgDealing, i)); len(b) != 0 {
			t.Fatalf("DKG(1)'s dealing %d is kept after its key went out of use", i)
		}
	}

	// DKG(3) has the same five members and succeeds; DKG(4) then fails
	// with the set unchanged: epoch 3's key carries over to epoch 4, and
	// DKG(3)'s transcript stays for the members' shares.
	e.dealAll(3, 20, 0, 1, 2, 3, 4)
	e.run(20, e.p.LastOfEpoch(2), nil)
	b3 := e.checkKey(3)
	if b3.Source != BeaconDKG || bytes.Equal(b3.Group, e1.Group) {
		t.Fatalf("epoch 3 beacon %+v", b3)
	}
	e.run(30, e.p.LastOfEpoch(3), nil)
	b4 := e.checkKey(4)
	if b4.Source != BeaconCarried || b4.KeyEpoch != 3 || !bytes.Equal(b4.Group, b3.Group) || !strings.Contains(b4.Note, "carries over") {
		t.Fatalf("epoch 4 beacon %+v, want epoch 3's key carried", b4)
	}
}

// BenchmarkDKGBoundary is the registry's work at an epoch's last block
// when every member dealt: qualifying the dealers and computing the group
// key and every public share (docs/benchmarks.md "DKG on chain").
func BenchmarkDKGBoundary(b *testing.B) {
	for _, n := range []int{4, 16, 64} {
		b.Run(fmt.Sprintf("members=%d", n), func(b *testing.B) {
			e := newEnvN(b, n)
			all := make([]int, n)
			for i := range all {
				all[i] = i
			}
			e.dealAll(1, 1, all...)
			snap := e.st.Snapshot()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := EndBlock(e.st, BlockInfo{Height: e.p.LastOfEpoch(0)}); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				e.st.RevertToSnapshot(snap)
				b.StartTimer()
			}
		})
	}
}

// BenchmarkDKGMemberShares is one member's work to rebuild its shares
// from the transcript on chain (node/dkg.go at every epoch start): open
// its shares from every dealer, add them up and check each sum against
// its public share (dkg.OpenStored).
func BenchmarkDKGMemberShares(b *testing.B) {
	for _, n := range []int{4, 16, 64} {
		b.Run(fmt.Sprintf("members=%d", n), func(b *testing.B) {
			e := newEnvN(b, n)
			all := make([]int, n)
			for i := range all {
				all[i] = i
			}
			e.dealAll(1, 1, all...)
			r, cfg := e.round(1)
			sk := memberKey(b, r, 0)
			res, err := cfg.QualifyStored(r.Dealings)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := cfg.OpenStored(0, sk, r.Dealings, res.PublicShares); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
