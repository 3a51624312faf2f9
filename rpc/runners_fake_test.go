package rpc

import (
	"math/big"
	"sync"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

type marketReader map[state.Key][]byte

func (m marketReader) GetState(k state.Key) ([]byte, error) { return m[k], nil }

// fakeMarket is the runner market the docs/rpc.md examples show: one
// runner (key 0x…01) with a 5,000 CBY delegation from 0x…e1, and job 1,
// an LLM job from 0x…e2 it answered "yes" to, settled at block 4.
var fakeMarket = sync.OnceValue(func() *state.StateDB {
	st := state.New(marketReader{})
	var kb [32]byte
	kb[31] = 1
	k, _ := crypto.PrivateKeyFromBytes(kb[:])
	r := types.Address(k.Address())
	delegator, requester := types.Address{19: 0xe1}, types.Address{19: 0xe2}
	cby := func(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }
	for _, a := range []types.Address{r, delegator, requester} {
		st.Mint(a, cby(100_000))
	}
	do := func(to, from types.Address, value *big.Int, h uint64, method string, args ...any) {
		if _, err := runner.Apply(st, runner.Call{To: to, From: from, Value: value, Payload: runner.Payload(method, args...), Height: h, Cycles: 1_000_000}); err != nil {
			panic(err)
		}
	}
	do(runner.RegistryAddress, r, cby(10_000), 1, "register", "http://127.0.0.1:7070/", []string{"m1"}, []string{"example.com"},
		map[string]*big.Int{"per_job": cby(1), "per_token": big.NewInt(1e15), "per_kb": big.NewInt(0)}, cby(1_000), uint64(1_000))
	do(runner.RegistryAddress, delegator, cby(5_000), 1, "delegate", r[:])
	input, _ := types.Marshal(map[string]any{"prompt": "Is the sky blue? Answer yes or no."})
	spec, _ := types.Marshal(map[string]any{"kind": "llm", "model": "m1", "input": rawSpec(input), "trust": "none",
		"max_price": cby(5), "timeout_blocks": uint64(20), "seed": uint64(7)})
	do(runner.DispatcherAddress, requester, cby(5), 2, "post", rawSpec(spec))
	sig, cm := runner.SignResult(k, 1, runner.StatusOK, 12, []byte("yes"))
	do(runner.VerifierAddress, r, nil, 3, "commit", uint64(1), cm[:])
	do(runner.VerifierAddress, r, nil, 4, "reveal", uint64(1), []any{[]any{r[:], runner.StatusOK, []byte("yes"), uint64(12), sig}})
	return st
})

type rawSpec []byte

func (r rawSpec) MarshalCBOR() ([]byte, error) { return r, nil }

func (b *fakeBackend) RunnerRecord(a types.Address) (*runner.Runner, error) {
	return runner.ReadRunner(fakeMarket(), a)
}
func (b *fakeBackend) RunnerAddresses() ([]types.Address, error) { return runner.Runners(fakeMarket()) }
func (b *fakeBackend) RunnerDelegation(r, d types.Address) (*runner.Delegation, error) {
	return runner.ReadDelegation(fakeMarket(), r, d)
}
func (b *fakeBackend) Job(id uint64) (*runner.Job, error)   { return runner.ReadJob(fakeMarket(), id) }
func (b *fakeBackend) JobCount() (uint64, error)            { return runner.JobCount(fakeMarket()), nil }
func (b *fakeBackend) RunnerParams() (runner.Params, error) { return runner.LoadParams(fakeMarket()) }
