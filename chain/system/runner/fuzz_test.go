package runner

import (
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// FuzzApply sends arbitrary payloads to the three actors on a market with
// an open job: no input panics, and a refused call moves no money.
func FuzzApply(f *testing.F) {
	f.Add(uint8(0), uint8(0), Payload("register", "http://x/", []string{"m1"}, []string{}, defaultRates, cby(1), uint64(0)), uint64(10_000))
	f.Add(uint8(1), uint8(2), Payload("post", spec(TrustMajority, 3, cby(10), nil)), uint64(10))
	f.Add(uint8(2), uint8(1), Payload("commit", uint64(1), make([]byte, 32)), uint64(0))
	f.Add(uint8(2), uint8(1), Payload("reveal", uint64(1), []any{[]any{make([]byte, 20), uint8(0), []byte("x"), uint64(1), make([]byte, 65)}}), uint64(0))
	f.Add(uint8(2), uint8(3), Payload("challenge", uint64(1)), uint64(110))
	f.Add(uint8(0), uint8(4), Payload("delegate", make([]byte, 20)), uint64(5))
	f.Fuzz(func(t *testing.T, actor, from uint8, payload []byte, value uint64) {
		e := newEnv(t, 4)
		for i := 0; i < 3; i++ {
			e.register(i, 10_000, 1_000)
		}
		e.post(user(1), spec(TrustMajority, 3, cby(10), nil))
		to := []types.Address{RegistryAddress, DispatcherAddress, VerifierAddress, TreasuryAddress}[actor%4]
		sender := user(from%9 + 1)
		if from%2 == 1 {
			sender = e.runner(int(from/2) % 4)
		}
		before := e.money()
		v := new(big.Int).Mul(new(big.Int).SetUint64(value%1_000_000), CBY)
		_, err := Apply(e.st, Call{To: to, From: sender, Value: v, Payload: payload, Height: 2, Cycles: 10_000_000})
		if err != nil && !equalMoney(before, e.money()) {
			t.Fatalf("refused (%v) but moved money", err)
		}
	})
}
