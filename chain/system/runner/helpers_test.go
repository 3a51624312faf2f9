package runner

import (
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

type memReader map[state.Key][]byte

func (m memReader) GetState(k state.Key) ([]byte, error) { return m[k], nil }

// env is a state with funded accounts and runner keys.
type env struct {
	t      testing.TB
	st     *state.StateDB
	keys   []*crypto.PrivateKey
	height uint64
}

func newEnv(t testing.TB, runners int) *env {
	e := &env{t: t, st: state.New(memReader{}), height: 1}
	for i := 0; i < runners; i++ {
		var b [32]byte
		b[31], b[0] = byte(i+1), 0x42
		k, err := crypto.PrivateKeyFromBytes(b[:])
		if err != nil {
			t.Fatal(err)
		}
		e.keys = append(e.keys, k)
		e.st.Mint(e.runner(i), cby(1_000_000))
	}
	for i := byte(1); i < 10; i++ {
		e.st.Mint(user(i), cby(1_000_000))
	}
	return e
}

func (e *env) runner(i int) types.Address { return types.Address(e.keys[i].Address()) }

func user(i byte) types.Address { return types.Address{0: 0xee, 19: i} }

func (e *env) call(to, from types.Address, value *big.Int, method string, args ...any) (Result, error) {
	return Apply(e.st, Call{To: to, From: from, Value: value, Payload: Payload(method, args...), Height: e.height, Cycles: 10_000_000})
}

func (e *env) must(to, from types.Address, value *big.Int, method string, args ...any) Result {
	e.t.Helper()
	r, err := e.call(to, from, value, method, args...)
	if err != nil {
		e.t.Fatalf("%s: %v", method, err)
	}
	return r
}

var defaultRates = map[string]*big.Int{"per_job": cby(1), "per_token": big.NewInt(1e15), "per_kb": big.NewInt(1e15)}

// register registers runner i with a self-bond of stake CBY serving
// model "m1" and domain "example.com", max job value 1,000 CBY.
func (e *env) register(i int, stake int64, commission uint64) {
	e.t.Helper()
	e.must(RegistryAddress, e.runner(i), cby(stake), "register", "http://127.0.0.1:1/", []string{"m1"}, []string{"example.com"},
		defaultRates, cby(1_000), commission)
}

// spec is a job spec map for Payload.
func spec(trust string, committee uint64, maxPrice *big.Int, extra map[string]any) map[string]any {
	input, _ := types.Marshal(map[string]any{"prompt": "Is the sky blue? Answer yes or no."})
	s := map[string]any{"kind": "llm", "model": "m1", "input": rawCBOR(input), "trust": trust,
		"committee": committee, "max_price": maxPrice, "timeout_blocks": uint64(10), "seed": uint64(7), "callback": "on_answer"}
	for k, v := range extra {
		s[k] = v
	}
	return s
}

type rawCBOR []byte

func (r rawCBOR) MarshalCBOR() ([]byte, error) { return r, nil }

// post posts a job from requester and returns it.
func (e *env) post(requester types.Address, s map[string]any) *Job {
	e.t.Helper()
	escrow := new(big.Int).Set(s["max_price"].(*big.Int))
	if tip, ok := s["tip"].(*big.Int); ok {
		escrow.Add(escrow, tip)
	}
	e.must(DispatcherAddress, requester, escrow, "post", s)
	j, err := ReadJob(e.st, JobCount(e.st))
	if err != nil || j == nil {
		e.t.Fatalf("read job: %v", err)
	}
	return j
}

func (e *env) key(a types.Address) *crypto.PrivateKey {
	for i, k := range e.keys {
		if e.runner(i) == a {
			return k
		}
	}
	e.t.Fatalf("no key for %s", a)
	return nil
}

// answer is one member's result.
type answer struct {
	status uint8
	output string
	usage  uint64
}

// commitAll commits each member's answer (members without one stay
// silent) and returns the reveal entries in committee order.
func (e *env) commitAll(j *Job, answers map[types.Address]answer) []any {
	e.t.Helper()
	var entries []any
	for _, m := range j.Members {
		a, ok := answers[m]
		if !ok {
			continue
		}
		sig, cm := SignResult(e.key(m), j.ID, a.status, a.usage, []byte(a.output))
		e.must(VerifierAddress, m, nil, "commit", j.ID, cm[:])
		entries = append(entries, []any{m[:], a.status, []byte(a.output), a.usage, sig})
	}
	return entries
}

func (e *env) job(id uint64) *Job {
	e.t.Helper()
	j, err := ReadJob(e.st, id)
	if err != nil || j == nil {
		e.t.Fatalf("job %d: %v", id, err)
	}
	return j
}

func (e *env) rec(a types.Address) *Runner {
	e.t.Helper()
	r, err := ReadRunner(e.st, a)
	if err != nil || r == nil {
		e.t.Fatalf("runner %s: %v", a, err)
	}
	return r.norm()
}

// endBlocks runs EndBlock for every height up to h.
func (e *env) endBlocks(to uint64) {
	e.t.Helper()
	for ; e.height <= to; e.height++ {
		if err := EndBlock(e.st, e.height); err != nil {
			e.t.Fatal(err)
		}
	}
}

// money is every balance a test looks at plus the supply.
func (e *env) money() map[types.Address]string {
	m := map[types.Address]string{{}: e.st.Supply().String()}
	for i := range e.keys {
		m[e.runner(i)] = e.st.Balance(e.runner(i)).String()
	}
	for i := byte(1); i < 10; i++ {
		m[user(i)] = e.st.Balance(user(i)).String()
	}
	for _, a := range []types.Address{RegistryAddress, DispatcherAddress, VerifierAddress, TreasuryAddress} {
		m[a] = e.st.Balance(a).String()
	}
	return m
}

// dp is the default parameters the tests' chains run on.
var dp = DefaultParams()
