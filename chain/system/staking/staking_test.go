package staking

import (
	"bytes"
	"errors"
	"github.com/cowboy-chain/cowboy/crypto/vrf"
	"math/big"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto/bls"
)

type memReader map[state.Key][]byte

func (m memReader) GetState(k state.Key) ([]byte, error) { return m[k], nil }

func cby(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), BaseUnitsPerCBY) }

// testParams are small enough to walk through epochs in a test.
func testParams() Params {
	return Params{EpochLength: 10, UnbondingPeriod: 25, JailPeriod: 7, DowntimeWindow: 4, MinStake: cby(1000), SlashBps: 100}
}

func blsKey(t testing.TB, i byte) *bls.SecretKey {
	t.Helper()
	k, err := bls.GenerateKey(bytes.Repeat([]byte{i + 1}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func addr(i byte) types.Address { return types.Address{0: 0xa0, 19: i} }

// env is a registry over an in-memory state: genesis validators
// addr(1)…addr(n) with keys blsKey(1)…, 2,000 CBY each, and accounts
// addr(10)…addr(19) holding 1,000,000 CBY.
type env struct {
	t  testing.TB
	st *state.StateDB
	p  Params
}

func newEnv(t *testing.T, genesisVals int) *env {
	t.Helper()
	st := state.New(memReader{})
	for i := byte(10); i < 20; i++ {
		st.Mint(addr(i), cby(1_000_000))
	}
	var vals []GenesisValidator
	for i := 1; i <= genesisVals; i++ {
		vals = append(vals, GenesisValidator{Address: addr(byte(i)), BLSPublicKey: blsKey(t, byte(i)).PublicKey().Bytes(), StakeCBY: 2000})
	}
	if err := InitGenesis(st, testParams(), vals, [32]byte{7}); err != nil {
		t.Fatal(err)
	}
	return &env{t: t, st: st, p: testParams()}
}

func (e *env) call(from types.Address, value *big.Int, payload []byte, height uint64) error {
	_, err := Apply(e.st, Call{From: from, Value: value, Payload: payload, Height: height, Cycles: 1_000_000})
	return err
}

func (e *env) mustCall(from types.Address, value *big.Int, payload []byte, height uint64) {
	e.t.Helper()
	if err := e.call(from, value, payload, height); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) register(i byte, stake *big.Int, height uint64) {
	e.t.Helper()
	k := blsKey(e.t, i)
	e.mustCall(addr(i), stake, RegisterPayload(k.PublicKey().Bytes(), k.ProvePossession().Bytes()), height)
}

func (e *env) validator(a types.Address) *Validator {
	e.t.Helper()
	v, err := ReadValidator(e.st, a)
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

// run executes EndBlock for heights from … to with the given signers.
func (e *env) run(from, to uint64, signers []types.Address) {
	e.t.Helper()
	for h := from; h <= to; h++ {
		if err := EndBlock(e.st, BlockInfo{Height: h, Beacon: [32]byte{byte(h)}, Signers: signers}); err != nil {
			e.t.Fatal(err)
		}
	}
}

func (e *env) set(k uint64) *EpochSet {
	e.t.Helper()
	s, err := ReadEpochSet(e.st, k)
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

func members(s *EpochSet) []types.Address {
	var out []types.Address
	for _, m := range s.Members {
		out = append(out, m.Address)
	}
	return out
}

func TestGenesis(t *testing.T) {
	e := newEnv(t, 2)
	s := e.set(0)
	if s.Seed != [32]byte{7} || len(s.Members) != 2 || s.Members[0].Address != addr(1) || s.Members[1].Weight != 2000 {
		t.Fatalf("epoch 0 set %+v", s)
	}
	if got := e.st.Balance(Address); got.Cmp(cby(4000)) != 0 {
		t.Fatalf("registry balance %s, want the minted stake 4000 CBY", got)
	}
	want := new(big.Int).Add(cby(10_000_000), cby(4000))
	if e.st.Supply().Cmp(want) != 0 {
		t.Fatalf("supply %s, want %s (allocations + stake)", e.st.Supply(), want)
	}
	gs, err := ReadGenesisSupply(e.st)
	if err != nil || gs.Cmp(want) != 0 {
		t.Fatalf("genesis supply %v %v", gs, err)
	}
	if v := e.validator(addr(1)); !v.Active || v.Status() != "active" {
		t.Fatalf("genesis validator %+v", v)
	}
	if _, err := ReadEpochSet(e.st, 1); err == nil {
		t.Fatal("epoch 1 set exists before its boundary")
	}
	p, err := ReadParams(e.st)
	if err != nil || p.EpochLength != 10 || p.MinStake.Cmp(cby(1000)) != 0 {
		t.Fatalf("params %+v %v", p, err)
	}
}

func TestGenesisErrors(t *testing.T) {
	pk := blsKey(t, 1).PublicKey().Bytes()
	for _, tc := range []struct {
		name string
		p    Params
		vals []GenesisValidator
		want string
	}{
		{"zero epoch", Params{DowntimeWindow: 1, MinStake: cby(1)}, nil, "epoch_length"},
		{"zero window", Params{EpochLength: 1, MinStake: cby(1)}, nil, "downtime_window"},
		{"no min stake", Params{EpochLength: 1, DowntimeWindow: 1}, nil, "min_validator_stake"},
		{"slash over 100%", Params{EpochLength: 1, DowntimeWindow: 1, MinStake: cby(1), SlashBps: 10_001}, nil, "exceeds 100%"},
		{"short key", testParams(), []GenesisValidator{{Address: addr(1), BLSPublicKey: pk[:47], StakeCBY: 2000}}, "47 bytes"},
		{"below min", testParams(), []GenesisValidator{{Address: addr(1), BLSPublicKey: pk, StakeCBY: 999}}, "below min_validator_stake"},
		{"key reused", testParams(), []GenesisValidator{{Address: addr(1), BLSPublicKey: pk, StakeCBY: 2000}, {Address: addr(2), BLSPublicKey: pk, StakeCBY: 2000}}, "reuses the BLS key"},
		{"registry address", testParams(), []GenesisValidator{{Address: Address, BLSPublicKey: pk, StakeCBY: 2000}}, "registry's own address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := InitGenesis(state.New(memReader{}), tc.p, tc.vals, [32]byte{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

func TestNotInitialized(t *testing.T) {
	st := state.New(memReader{})
	if err := EndBlock(st, BlockInfo{Height: 9}); err != nil {
		t.Fatalf("EndBlock without a registry: %v", err)
	}
	if _, err := Apply(st, Call{From: addr(10), Payload: MethodPayload(MethodExit), Cycles: 1_000_000}); !errors.Is(err, ErrNotInitialized) {
		t.Fatalf("Apply without a registry: %v", err)
	}
}

// unchanged checks that a failed call left no change in the journal and
// returns nothing but its error.
func failsCleanly(t *testing.T, e *env, from types.Address, value *big.Int, payload []byte, height uint64, want string) {
	t.Helper()
	before := e.st.Snapshot()
	bal, reg, sup := e.st.Balance(from), e.st.Balance(Address), e.st.Supply()
	err := e.call(from, value, payload, height)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err %v, want %q", err, want)
	}
	if e.st.Snapshot() != before {
		t.Fatalf("failed call left %d journal entries", e.st.Snapshot()-before)
	}
	if e.st.Balance(from).Cmp(bal) != 0 || e.st.Balance(Address).Cmp(reg) != 0 || e.st.Supply().Cmp(sup) != 0 {
		t.Fatal("failed call moved funds")
	}
}

func TestRegister(t *testing.T) {
	k := blsKey(t, 10)
	pk, pop := k.PublicKey().Bytes(), k.ProvePossession().Bytes()
	other := blsKey(t, 11)
	e := newEnv(t, 1)
	e.register(12, cby(1500), 3) // addr(12) holds blsKey(12)
	poor := addr(30)
	e.st.Mint(poor, cby(1000))
	for _, tc := range []struct {
		name    string
		from    types.Address
		value   *big.Int
		payload []byte
		want    string
	}{
		{"below min", addr(10), cby(999), RegisterPayload(pk, pop), "below min_validator_stake"},
		{"pop of another key", addr(10), cby(1000), RegisterPayload(pk, other.ProvePossession().Bytes()), "does not verify"},
		{"signature not pop", addr(10), cby(1000), RegisterPayload(pk, k.Sign([]byte("x")).Bytes()), "does not verify"},
		{"short key", addr(10), cby(1000), RegisterPayload(pk[:47], pop), "bls_pubkey is 47 bytes"},
		{"short pop", addr(10), cby(1000), RegisterPayload(pk, pop[:95]), "proof_of_possession is 95 bytes"},
		{"key not a point", addr(10), cby(1000), RegisterPayload(make([]byte, 48), pop), "bls_pubkey"},
		{"already registered", addr(12), cby(1000), RegisterPayload(pk, pop), "already registered"},
		{"genesis validator again", addr(1), cby(1000), RegisterPayload(pk, pop), "already registered"},
		{"key taken", addr(10), cby(1000), RegisterPayload(blsKey(t, 12).PublicKey().Bytes(), blsKey(t, 12).ProvePossession().Bytes()), "already registered by"},
		{"missing pop", addr(10), cby(1000), mustMarshal([]any{"register", pk}), "takes 2 argument(s), got 1"},
		{"key as text", addr(10), cby(1000), mustMarshal([]any{"register", "k", pop}), "must be a byte string"},
		{"balance short", poor, cby(1001), RegisterPayload(pk, pop), "insufficient balance"},
		{"plain transfer", addr(10), cby(1000), []byte{}, "canonical CBOR array"},
		{"not cbor", addr(10), cby(1000), []byte{0xff}, "canonical CBOR array"},
		{"not an array", addr(10), cby(1000), mustMarshal("register"), "canonical CBOR array"},
		{"empty array", addr(10), cby(1000), mustMarshal([]any{}), "empty array"},
		{"method not text", addr(10), cby(1000), mustMarshal([]any{1}), "must be a text string"},
		{"unknown method", addr(10), cby(1000), MethodPayload("delegate"), `unknown method "delegate"`},
	} {
		t.Run(tc.name, func(t *testing.T) { failsCleanly(t, e, tc.from, tc.value, tc.payload, 4, tc.want) })
	}

	// Success: the stake moves into the registry, the record is pending,
	// and the receipt gets a Registered event.
	bal := e.st.Balance(addr(10))
	res, err := Apply(e.st, Call{From: addr(10), Value: cby(1000), Payload: RegisterPayload(pk, pop), Height: 4, Cycles: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	wantEv := mustMarshal(map[string]any{"validator": addr(10).Hex(), "stake": cby(1000), "bls_pubkey": pk})
	if len(res.Events) != 1 || res.Events[0].Name != "Registered" || res.Events[0].Address != Address || !bytes.Equal(res.Events[0].Data, wantEv) {
		t.Fatalf("events %+v", res.Events)
	}
	if got := new(big.Int).Sub(bal, e.st.Balance(addr(10))); got.Cmp(cby(1000)) != 0 {
		t.Fatalf("sender paid %s", got)
	}
	if got := e.st.Balance(Address); got.Cmp(cby(2000+1500+1000)) != 0 {
		t.Fatalf("registry balance %s", got)
	}
	v := e.validator(addr(10))
	if v.Status() != "pending" || v.Stake.Cmp(cby(1000)) != 0 || v.Registered != 4 || !bytes.Equal(v.BLSPublicKey, pk) {
		t.Fatalf("record %+v", v)
	}
	vals, err := Validators(e.st)
	if err != nil || len(vals) != 3 || vals[0].Address != addr(1) || vals[1].Address != addr(10) || vals[2].Address != addr(12) {
		t.Fatalf("validators %v %v", vals, err)
	}
}

func TestCycles(t *testing.T) {
	e := newEnv(t, 1)
	k := blsKey(t, 10)
	reg := RegisterPayload(k.PublicKey().Bytes(), k.ProvePossession().Bytes())
	for _, tc := range []struct {
		name    string
		payload []byte
		left    uint64
		want    uint64
		err     string
	}{
		{"bad payload: base only", []byte{0xff}, 1_000_000, CallCycles, "canonical"},
		{"exit: base", MethodPayload(MethodExit), 1_000_000, CallCycles, "not a registered validator"},
		{"register: base + one BLS verify", reg, 1_000_000, CallCycles + BLSVerifyCycles, ""},
		{"evidence: base + two verifies", mustMarshal([]any{"evidence"}), 1_000_000, CallCycles + 2*BLSVerifyCycles, "takes 2 argument"},
		{"out of cycles", MethodPayload(MethodExit), 999, 999, "out of cycles"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.st.Snapshot()
			value := new(big.Int)
			if tc.err == "" {
				value = cby(1000)
			}
			res, err := Apply(e.st, Call{From: addr(10), Value: value, Payload: tc.payload, Height: 1, Cycles: tc.left})
			if used := res.CyclesUsed; used != tc.want {
				t.Fatalf("used %d cycles, want %d", used, tc.want)
			}
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				e.st.RevertToSnapshot(before)
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err %v, want %q", err, tc.err)
			}
		})
	}
}

func TestExitWithdrawUnjail(t *testing.T) {
	e := newEnv(t, 2)
	e.register(10, cby(1000), 1)
	exit, withdraw, unjail := MethodPayload(MethodExit), MethodPayload(MethodWithdraw), MethodPayload(MethodUnjail)
	for _, tc := range []struct {
		name    string
		from    types.Address
		value   *big.Int
		payload []byte
		want    string
	}{
		{"exit unregistered", addr(11), nil, exit, "not a registered validator"},
		{"exit with value", addr(10), big.NewInt(1), exit, "takes no value"},
		{"exit with args", addr(10), nil, mustMarshal([]any{"exit", 1}), "takes 0 argument"},
		{"withdraw before exit", addr(10), nil, withdraw, "has not exited"},
		{"unjail not jailed", addr(10), nil, unjail, "is not jailed"},
		{"withdraw unregistered", addr(11), nil, withdraw, "not a registered validator"},
		{"unjail with value", addr(10), big.NewInt(5), unjail, "takes no value"},
	} {
		t.Run(tc.name, func(t *testing.T) { failsCleanly(t, e, tc.from, tc.value, tc.payload, 2, tc.want) })
	}

	e.mustCall(addr(10), nil, exit, 2)
	if s := e.validator(addr(10)).Status(); s != "exiting" {
		t.Fatalf("status after exit %s", s)
	}
	failsCleanly(t, e, addr(10), nil, exit, 3, "already exiting")
	failsCleanly(t, e, addr(10), nil, withdraw, 3, "leaving the set at the next epoch boundary")
	e.run(1, 9, nil) // boundary: epoch 0 ends at 9, unbonding until 10+25
	if v := e.validator(addr(10)); v.UnbondUntil != 35 || v.Active {
		t.Fatalf("after the boundary %+v", v)
	}
	if got := members(e.set(1)); len(got) != 2 {
		t.Fatalf("exiting validator in epoch 1: %v", got)
	}
	failsCleanly(t, e, addr(10), nil, withdraw, 34, "unbonding until block 35")
	bal, reg := e.st.Balance(addr(10)), e.st.Balance(Address)
	e.mustCall(addr(10), nil, withdraw, 35)
	if got := new(big.Int).Sub(e.st.Balance(addr(10)), bal); got.Cmp(cby(1000)) != 0 {
		t.Fatalf("withdraw paid %s", got)
	}
	if got := new(big.Int).Sub(reg, e.st.Balance(Address)); got.Cmp(cby(1000)) != 0 {
		t.Fatalf("registry paid %s", got)
	}
	if e.validator(addr(10)) != nil {
		t.Fatal("record left after withdraw")
	}
	// Withdrawn: the key and the address may register again.
	e.register(10, cby(1200), 36)
	if v := e.validator(addr(10)); v.Stake.Cmp(cby(1200)) != 0 || v.Exiting || v.UnbondUntil != 0 {
		t.Fatalf("re-registered %+v", v)
	}
}

// signedVote is validator i's vote, signed with blsKey(i).
func signedVote(t *testing.T, i byte, h types.Hash, height, round uint64) *Vote {
	return &Vote{Height: height, Round: round, BlockHash: h, Validator: addr(i), Signature: blsKey(t, i).Sign(types.VoteMessage(h, height, round)).Bytes()}
}

func TestEvidence(t *testing.T) {
	e := newEnv(t, 2)
	ha, hb := types.Hash{1}, types.Hash{2}
	good := EvidencePayload(signedVote(t, 1, ha, 5, 0), signedVote(t, 1, hb, 5, 0))
	forged := signedVote(t, 1, hb, 5, 0)
	forged.Signature = blsKey(t, 2).Sign(types.VoteMessage(hb, 5, 0)).Bytes()
	for _, tc := range []struct {
		name    string
		value   *big.Int
		payload []byte
		want    string
	}{
		{"same block", nil, EvidencePayload(signedVote(t, 1, ha, 5, 0), signedVote(t, 1, ha, 5, 0)), "not a double sign"},
		{"different rounds", nil, EvidencePayload(signedVote(t, 1, ha, 5, 0), signedVote(t, 1, hb, 5, 1)), "different rounds"},
		{"different validators", nil, EvidencePayload(signedVote(t, 1, ha, 5, 0), signedVote(t, 2, hb, 5, 0)), "different validators"},
		{"bad signature", nil, EvidencePayload(signedVote(t, 1, ha, 5, 0), forged), "not signed by"},
		{"unknown validator", nil, EvidencePayload(signedVote(t, 9, ha, 5, 0), signedVote(t, 9, hb, 5, 0)), "not a registered validator"},
		{"with value", big.NewInt(1), good, "takes no value"},
		{"one vote", nil, mustMarshal([]any{"evidence", signedVote(t, 1, ha, 5, 0)}), "takes 2 argument"},
		{"vote too short", nil, mustMarshal([]any{"evidence", []any{5, 0}, signedVote(t, 1, hb, 5, 0)}), "has 2 items, want 5"},
		{"vote not array", nil, mustMarshal([]any{"evidence", 1, 2}), "must be the array"},
		{"height as text", nil, mustMarshal([]any{"evidence", []any{"5", 0, ha, addr(1), []byte{}}, signedVote(t, 1, hb, 5, 0)}), "height must be an unsigned integer"},
	} {
		t.Run(tc.name, func(t *testing.T) { failsCleanly(t, e, addr(15), tc.value, tc.payload, 8, tc.want) })
	}

	sup, reg := e.st.Supply(), e.st.Balance(Address)
	res, err := Apply(e.st, Call{From: addr(15), Payload: good, Height: 8, Cycles: 1_000_000}) // anyone may submit
	if err != nil {
		t.Fatal(err)
	}
	slash := new(big.Int).Div(cby(2000), big.NewInt(100))
	wantEv := mustMarshal(map[string]any{"validator": addr(1).Hex(), "slashed": slash, "stake": new(big.Int).Sub(cby(2000), slash),
		"jail_until": uint64(15), "height": uint64(5), "round": uint64(0), "reporter": addr(15).Hex()})
	if len(res.Events) != 1 || res.Events[0].Name != "Slashed" || !bytes.Equal(res.Events[0].Data, wantEv) {
		t.Fatalf("events %+v", res.Events)
	}
	if got := new(big.Int).Sub(sup, e.st.Supply()); got.Cmp(slash) != 0 {
		t.Fatalf("supply fell by %s, want exactly the slash %s", got, slash)
	}
	if got := new(big.Int).Sub(reg, e.st.Balance(Address)); got.Cmp(slash) != 0 {
		t.Fatalf("registry balance fell by %s, want %s", got, slash)
	}
	v := e.validator(addr(1))
	if !v.Jailed || v.JailUntil != 8+7 || v.Stake.Cmp(new(big.Int).Sub(cby(2000), slash)) != 0 || v.Status() != "jailed" {
		t.Fatalf("after slash %+v", v)
	}
	// The same (validator, round) is punished once, whatever the pair of
	// votes; another round is a new offence.
	failsCleanly(t, e, addr(15), nil, good, 9, "already punished")
	failsCleanly(t, e, addr(15), nil, EvidencePayload(signedVote(t, 1, types.Hash{3}, 5, 0), signedVote(t, 1, hb, 5, 0)), 9, "already punished")
	// Two votes of one round at different heights: the same offence as at
	// one height, so already punished in round 0 and punished in round 1.
	failsCleanly(t, e, addr(15), nil, EvidencePayload(signedVote(t, 1, ha, 5, 0), signedVote(t, 1, hb, 6, 0)), 9, "already punished")
	e.mustCall(addr(16), nil, EvidencePayload(signedVote(t, 1, ha, 5, 1), signedVote(t, 1, ha, 6, 1)), 9)
	if v := e.validator(addr(1)); v.JailUntil != 9+7 {
		t.Fatalf("second jail until %d", v.JailUntil)
	}
	failsCleanly(t, e, addr(15), nil, EvidencePayload(signedVote(t, 1, ha, 5, 1), signedVote(t, 1, hb, 5, 1)), 9, "already punished")

	// Jailed: out at the boundary; unjail after jail_until; back at the next.
	e.run(1, 9, nil)
	if got := members(e.set(1)); len(got) != 1 || got[0] != addr(2) {
		t.Fatalf("epoch 1 members %v", got)
	}
	failsCleanly(t, e, addr(1), nil, MethodPayload(MethodUnjail), 15, "jailed until block 16")
	e.mustCall(addr(1), nil, MethodPayload(MethodUnjail), 16)
	if s := e.validator(addr(1)).Status(); s != "pending" {
		t.Fatalf("status after unjail %s", s)
	}
	e.run(10, 19, nil)
	if got := members(e.set(2)); len(got) != 2 || got[0] != addr(1) {
		t.Fatalf("epoch 2 members %v", got)
	}
}

func TestEpochTransition(t *testing.T) {
	e := newEnv(t, 0) // devnet: no genesis validators
	if len(e.set(0).Members) != 0 {
		t.Fatal("devnet epoch 0 has members")
	}
	// Registered in different orders; the set is ordered by address.
	e.register(14, cby(3000), 2)
	e.register(11, cby(1000), 3)
	e.register(12, cby(1000), 4)
	e.mustCall(addr(12), nil, MethodPayload(MethodExit), 5) // exits before it was ever active
	e.run(1, 8, nil)
	if _, err := ReadEpochSet(e.st, 1); err == nil {
		t.Fatal("epoch 1 set written before block 9")
	}
	e.run(9, 9, nil)
	s := e.set(1)
	if got := members(s); len(got) != 2 || got[0] != addr(11) || got[1] != addr(14) {
		t.Fatalf("epoch 1 members %v", got)
	}
	if s.Seed != vrf.NextEpochSeed([32]byte{7}, [32]byte{9}) || s.Epoch != 1 || s.Members[1].Weight != 3000 {
		t.Fatalf("epoch 1 set %+v", s)
	}
	if !e.validator(addr(11)).Active || e.validator(addr(12)).UnbondUntil != 10+25 {
		t.Fatal("records not updated at the boundary")
	}

	// Rail: everyone exits; the set would be empty, so epoch 2 keeps
	// epoch 1's members under a new seed.
	e.mustCall(addr(11), nil, MethodPayload(MethodExit), 12)
	e.mustCall(addr(14), nil, MethodPayload(MethodExit), 12)
	e.run(10, 19, nil)
	s2 := e.set(2)
	if got := members(s2); len(got) != 2 || got[0] != addr(11) || got[1] != addr(14) || s2.Seed != vrf.NextEpochSeed(s.Seed, [32]byte{19}) {
		t.Fatalf("rail: epoch 2 %+v", s2)
	}
}

func TestDowntime(t *testing.T) {
	a1, a2, a3 := addr(1), addr(2), addr(3)
	for _, tc := range []struct {
		name    string
		signers [][]types.Address // per block 1…4; W = 4
		jailed  []bool            // a1, a2, a3 after block 4
	}{
		{"all sign", [][]types.Address{{a1, a2, a3}, {a1, a2, a3}, {a1, a2, a3}, {a1, a2, a3}}, []bool{false, false, false}},
		{"half missed is not more than half", [][]types.Address{{a1, a2}, {a1, a2}, {a1, a2, a3}, {a1, a2, a3}}, []bool{false, false, false}},
		{"three of four missed", [][]types.Address{{a1, a2}, {a1, a2}, {a1, a2}, {a1, a2, a3}}, []bool{false, false, true}},
		{"empty signers count for nobody", [][]types.Address{{}, {}, {}, {a1}}, []bool{false, false, false}},
		{"two missing", [][]types.Address{{a1}, {a1}, {a1}, {a1}}, []bool{false, true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 3)
			for i, s := range tc.signers {
				if err := EndBlock(e.st, BlockInfo{Height: uint64(i + 1), Signers: s}); err != nil {
					t.Fatal(err)
				}
			}
			for i, a := range []types.Address{a1, a2, a3} {
				v := e.validator(a)
				if v.Jailed != tc.jailed[i] {
					t.Fatalf("validator %d jailed %v, want %v", i+1, v.Jailed, tc.jailed[i])
				}
				if v.Jailed && v.JailUntil != 4+7 {
					t.Fatalf("jail until %d", v.JailUntil)
				}
				if v.Stake.Cmp(cby(2000)) != 0 {
					t.Fatal("downtime slashed stake")
				}
			}
			if m, err := ReadMisses(e.st); err != nil || len(m) != 0 {
				t.Fatalf("counts not reset at the window end: %v %v", m, err)
			}
		})
	}
	// Counts carry within a window and show per member.
	e := newEnv(t, 3)
	e.run(5, 6, []types.Address{a1})
	m, err := ReadMisses(e.st)
	if err != nil || len(m) != 2 || m[0].Address != a2 || m[0].Count != 2 || m[1].Count != 2 {
		t.Fatalf("misses %+v %v", m, err)
	}
}

func TestRewards(t *testing.T) {
	gs := cby(1_000_000_000)
	p := testParams()
	// 10^9 CBY × 800 bps / 10,000 / 31,536,000 blocks.
	want := new(big.Int).Quo(new(big.Int).Mul(gs, big.NewInt(800)), big.NewInt(10_000*BlocksPerYear))
	for _, tc := range []struct {
		h    uint64
		rate int64
	}{{0, 800}, {BlocksPerYear - 1, 800}, {BlocksPerYear, 600}, {2 * BlocksPerYear, 400}, {3 * BlocksPerYear, 300}, {4 * BlocksPerYear, 200}, {40 * BlocksPerYear, 200}} {
		w := new(big.Int).Quo(new(big.Int).Mul(gs, big.NewInt(tc.rate)), big.NewInt(10_000*BlocksPerYear))
		if got := RewardPerBlock(gs, tc.h); got.Cmp(w) != 0 {
			t.Fatalf("reward at %d: %s, want %s", tc.h, got, w)
		}
	}
	if got := EpochReward(gs, p, 0); got.Cmp(new(big.Int).Mul(want, big.NewInt(9))) != 0 {
		t.Fatalf("epoch 0 (9 blocks after genesis): %s", got)
	}
	if got := EpochReward(gs, p, 3); got.Cmp(new(big.Int).Mul(want, big.NewInt(10))) != 0 {
		t.Fatalf("epoch 3: %s", got)
	}
	// An epoch across the year boundary: with E = 7, epoch 4,505,142 is
	// blocks 31,535,994 … 31,536,000: six at 8%, one at 6%.
	p.EpochLength = 7
	mixed := new(big.Int).Add(new(big.Int).Mul(RewardPerBlock(gs, 0), big.NewInt(6)), RewardPerBlock(gs, BlocksPerYear))
	if got := EpochReward(gs, p, BlocksPerYear/7); got.Cmp(mixed) != 0 {
		t.Fatalf("mixed-year epoch: %s, want %s", got, mixed)
	}

	// Shares: floored, sum ≤ total, pro rata.
	ms := []Member{{Address: addr(1), Stake: big.NewInt(1)}, {Address: addr(2), Stake: big.NewInt(1)}, {Address: addr(3), Stake: big.NewInt(1)}}
	for _, tc := range []struct {
		total int64
		want  []int64
	}{{100, []int64{33, 33, 33}}, {2, []int64{0, 0, 0}}, {3, []int64{1, 1, 1}}} {
		sh := Shares(big.NewInt(tc.total), ms)
		sum := int64(0)
		for i, s := range sh {
			if s.Amount.Int64() != tc.want[i] {
				t.Fatalf("total %d share %d = %s", tc.total, i, s.Amount)
			}
			sum += s.Amount.Int64()
		}
		if sum > tc.total {
			t.Fatalf("shares %d exceed %d", sum, tc.total)
		}
	}

	// At the end of epoch 0 the genesis members are paid into their
	// liquid balances and the supply grows by exactly what was paid.
	e := newEnv(t, 2)
	sup := e.st.Supply()
	e.run(1, 8, nil)
	if e.st.Supply().Cmp(sup) != 0 || e.st.Balance(addr(1)).Sign() != 0 {
		t.Fatal("rewards paid before the epoch's last block")
	}
	e.run(9, 9, nil)
	gs2, _ := ReadGenesisSupply(e.st)
	each := new(big.Int).Quo(EpochReward(gs2, e.p, 0), big.NewInt(2))
	if e.st.Balance(addr(1)).Cmp(each) != 0 || e.st.Balance(addr(2)).Cmp(each) != 0 || each.Sign() == 0 {
		t.Fatalf("rewards %s %s, want %s each", e.st.Balance(addr(1)), e.st.Balance(addr(2)), each)
	}
	if got := new(big.Int).Sub(e.st.Supply(), sup); got.Cmp(new(big.Int).Mul(each, big.NewInt(2))) != 0 {
		t.Fatalf("supply grew by %s", got)
	}
	if e.st.Balance(Address).Cmp(cby(4000)) != 0 {
		t.Fatal("rewards touched the bonded stake")
	}
}

func TestStateRootDeterministic(t *testing.T) {
	// The same calls give the same writes, byte for byte.
	var outs [][]state.Write
	for range 2 {
		e := newEnv(t, 2)
		e.register(12, cby(1500), 1)
		e.register(11, cby(1000), 2)
		e.run(1, 9, []types.Address{addr(1)})
		ws, err := e.st.Writes()
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, ws)
	}
	if len(outs[0]) != len(outs[1]) {
		t.Fatal("different write sets")
	}
	for i := range outs[0] {
		if outs[0][i].Key != outs[1][i].Key || !bytes.Equal(outs[0][i].Value, outs[1][i].Value) {
			t.Fatalf("write %d differs", i)
		}
	}
}
