package runner

import (
	"math/big"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

func TestRegisterStakeRules(t *testing.T) {
	for _, tc := range []struct {
		name     string
		stake    *big.Int
		maxValue *big.Int
		want     string
	}{
		{"floor met", cby(10_000), cby(1_000), ""},
		{"below the floor", cby(9_999), cby(1_000), "below max(10,000 CBY"},
		{"1.5x max job value", cby(15_000), cby(10_000), ""},
		{"below 1.5x max job value", cby(14_999), cby(10_000), "below max(10,000 CBY"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 1)
			before := e.money()
			_, err := e.call(RegistryAddress, e.runner(0), tc.stake, "register", "http://r0/", []string{"m1"}, []string{}, defaultRates, tc.maxValue, uint64(500))
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := e.st.Balance(RegistryAddress); got.Cmp(tc.stake) != 0 {
					t.Fatalf("registry holds %s, want %s", got, tc.stake)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if after := e.money(); !equalMoney(before, after) {
				t.Fatal("a refused registration moved money")
			}
		})
	}
}

func equalMoney(a, b map[types.Address]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestDelegationKeepsSelfBondAtTenPercent(t *testing.T) {
	e := newEnv(t, 1)
	e.register(0, 10_000, 1_000)
	r := e.runner(0)
	// 9 × 10,000 may be delegated in all; 1 base unit more breaks 10%.
	e.must(RegistryAddress, user(1), cby(60_000), "delegate", r[:])
	before := e.money()
	if _, err := e.call(RegistryAddress, user(2), new(big.Int).Add(cby(30_000), big.NewInt(1)), "delegate", r[:]); err == nil || !strings.Contains(err.Error(), "MIN_SELF_BOND_BPS") {
		t.Fatalf("delegation past 10%% self-bond: %v", err)
	}
	if !equalMoney(before, e.money()) {
		t.Fatal("refused delegation moved money")
	}
	e.must(RegistryAddress, user(2), cby(30_000), "delegate", r[:])
	if got := e.rec(r).Effective(); got.Cmp(cby(100_000)) != 0 {
		t.Fatalf("effective = %s", got)
	}
}

func TestUndelegateUnbondsThenWithdraws(t *testing.T) {
	e := newEnv(t, 1)
	e.register(0, 10_000, 1_000)
	r := e.runner(0)
	e.must(RegistryAddress, user(1), cby(5_000), "delegate", r[:])
	bal := new(big.Int).Set(e.st.Balance(user(1)))
	e.must(RegistryAddress, user(1), nil, "undelegate", r[:], cby(2_000))
	if got := e.rec(r).Delegated; got.Cmp(cby(3_000)) != 0 {
		t.Fatalf("delegated after undelegate = %s", got)
	}
	e.height += dp.UnbondingBlocks - 1
	if _, err := e.call(RegistryAddress, user(1), nil, "withdraw", r[:]); err == nil || !strings.Contains(err.Error(), "nothing to withdraw") {
		t.Fatalf("early withdraw: %v", err)
	}
	e.height++
	e.must(RegistryAddress, user(1), nil, "withdraw", r[:])
	if got := new(big.Int).Sub(e.st.Balance(user(1)), bal); got.Cmp(cby(2_000)) != 0 {
		t.Fatalf("withdrew %s, want 2,000 CBY", got)
	}
}

func TestExitUnbondsEverything(t *testing.T) {
	e := newEnv(t, 1)
	e.register(0, 10_000, 1_000)
	r := e.runner(0)
	e.must(RegistryAddress, user(1), cby(5_000), "delegate", r[:])
	e.must(RegistryAddress, r, nil, "exit")
	if _, err := e.call(RegistryAddress, user(2), cby(1), "delegate", r[:]); err == nil || !strings.Contains(err.Error(), "exiting") {
		t.Fatalf("delegate to an exiting runner: %v", err)
	}
	if _, err := e.call(RegistryAddress, r, nil, "withdraw", r[:]); err == nil || !strings.Contains(err.Error(), "unbonds until") {
		t.Fatalf("early self withdraw: %v", err)
	}
	e.height += dp.UnbondingBlocks
	e.must(RegistryAddress, r, nil, "withdraw", r[:])
	e.must(RegistryAddress, user(1), nil, "withdraw", r[:])
	if got, _ := ReadRunner(e.st, r); got != nil {
		t.Fatal("an exited runner with nothing bonded is still registered")
	}
	if l, _ := Runners(e.st); len(l) != 0 {
		t.Fatalf("index = %v", l)
	}
	if e.st.Balance(RegistryAddress).Sign() != 0 {
		t.Fatalf("registry keeps %s", e.st.Balance(RegistryAddress))
	}
}

func TestModelRegistryDeposit(t *testing.T) {
	e := newEnv(t, 0)
	id := make([]byte, 32)
	id[0] = 7
	if _, err := e.call(RegistryAddress, user(1), cby(999), "publish_model", id, "llama"); err == nil {
		t.Fatal("publish with a short deposit")
	}
	e.must(RegistryAddress, user(1), dp.ModelDeposit, "publish_model", id, "llama")
	if _, err := e.call(RegistryAddress, user(2), nil, "retract_model", id); err == nil || !strings.Contains(err.Error(), "only the publisher") {
		t.Fatalf("retract by a stranger: %v", err)
	}
	e.must(RegistryAddress, user(1), nil, "retract_model", id)
	if e.st.Balance(user(1)).Cmp(cby(1_000_000)) != 0 {
		t.Fatal("deposit not refunded")
	}
}
