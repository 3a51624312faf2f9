package runner

import (
	"bytes"
	"math/big"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestRefusals sends bad input to every method of 0x01, 0x02 and 0x03 —
// wrong caller, wrong phase, late, forged, oversize, malformed — and
// checks each is refused with a clear error and moves no money (every
// balance and the supply are unchanged).
func TestRefusals(t *testing.T) {
	type call struct {
		to     types.Address
		from   func(e *env, j *Job) types.Address
		value  *big.Int
		method string
		args   func(e *env, j *Job) []any
	}
	member := func(i int) func(*env, *Job) types.Address {
		return func(_ *env, j *Job) types.Address { return j.Members[i] }
	}
	agg := func(_ *env, j *Job) types.Address { return j.Aggregator }
	nonAgg := func(_ *env, j *Job) types.Address {
		for _, m := range j.Members {
			if m != j.Aggregator {
				return m
			}
		}
		return types.Address{}
	}
	stranger := func(*env, *Job) types.Address { return user(4) }
	r0 := func(e *env, _ *Job) types.Address { return e.runner(0) }
	// entry signs an answer by member i (or with signer's key).
	entry := func(e *env, j *Job, i int, out []byte, signer types.Address) []any {
		sig, _ := SignResult(e.key(signer), j.ID, StatusOK, 1, out)
		m := j.Members[i]
		return []any{m[:], StatusOK, out, uint64(1), sig}
	}
	commitOwn := func(e *env, j *Job, i int, out []byte) {
		_, cm := SignResult(e.key(j.Members[i]), j.ID, StatusOK, 1, out)
		e.must(VerifierAddress, j.Members[i], nil, "commit", j.ID, cm[:])
	}
	// states a job can be in when the bad call arrives.
	committing := func(e *env, j *Job) {}
	revealing := func(e *env, j *Job) {
		for i := range j.Members {
			commitOwn(e, j, i, []byte("yes"))
		}
	}
	settled := func(e *env, j *Job) {
		revealing(e, j)
		var es []any
		for i := range j.Members {
			es = append(es, entry(e, j, i, []byte("yes"), j.Members[i]))
		}
		e.must(VerifierAddress, j.Aggregator, nil, "reveal", j.ID, es)
	}
	big64 := bytes.Repeat([]byte("x"), MaxResultBytes+1)
	for _, tc := range []struct {
		name  string
		state func(e *env, j *Job)
		c     call
		want  string
	}{
		// 0x01
		{"register twice", committing, call{RegistryAddress, r0, cby(10_000), "register", func(*env, *Job) []any {
			return []any{"http://x/", []string{}, []string{}, defaultRates, cby(1), uint64(0)}
		}}, "already a runner"},
		{"register with a bad endpoint", committing, call{RegistryAddress, stranger, cby(10_000), "register", func(*env, *Job) []any {
			return []any{"ftp://x/", []string{}, []string{}, defaultRates, cby(1), uint64(0)}
		}}, "endpoint must be"},
		{"register with commission over 100%", committing, call{RegistryAddress, stranger, cby(10_000), "register", func(*env, *Job) []any {
			return []any{"http://x/", []string{}, []string{}, defaultRates, cby(1), uint64(10_001)}
		}}, "exceeds 10000"},
		{"register with a bad rate card", committing, call{RegistryAddress, stranger, cby(10_000), "register", func(*env, *Job) []any {
			return []any{"http://x/", []string{}, []string{}, map[string]any{"per_hour": 1}, cby(1), uint64(0)}
		}}, "unknown key"},
		{"register more than the balance", committing, call{RegistryAddress, stranger, cby(2_000_000), "register", func(*env, *Job) []any {
			return []any{"http://x/", []string{}, []string{}, defaultRates, cby(1), uint64(0)}
		}}, "self-bond"},
		{"update by a non-runner", committing, call{RegistryAddress, stranger, nil, "update", func(*env, *Job) []any {
			return []any{"http://x/", []string{}, []string{}, defaultRates, cby(1), uint64(0)}
		}}, "not a registered runner"},
		{"update raising max job value past the stake", committing, call{RegistryAddress, r0, nil, "update", func(*env, *Job) []any {
			return []any{"http://x/", []string{"m1"}, []string{}, defaultRates, cby(100_000), uint64(0)}
		}}, "1.5 × max_job_value"},
		{"delegate to a stranger", committing, call{RegistryAddress, stranger, cby(1), "delegate", func(*env, *Job) []any { u := user(5); return []any{u[:]} }}, "not a registered runner"},
		{"delegate nothing", committing, call{RegistryAddress, stranger, nil, "delegate", func(e *env, _ *Job) []any { r := e.runner(0); return []any{r[:]} }}, "positive value"},
		{"delegate to oneself", committing, call{RegistryAddress, r0, cby(1), "delegate", func(e *env, _ *Job) []any { r := e.runner(0); return []any{r[:]} }}, "bonds its own stake"},
		{"undelegate more than delegated", committing, call{RegistryAddress, func(*env, *Job) types.Address { return user(9) }, nil, "undelegate", func(e *env, _ *Job) []any {
			r := e.runner(0)
			return []any{r[:], cby(5_001)}
		}}, "amount must be"},
		{"undelegate without a delegation", committing, call{RegistryAddress, stranger, nil, "undelegate", func(e *env, _ *Job) []any { r := e.runner(0); return []any{r[:], cby(1)} }}, "no delegation"},
		{"withdraw the self-bond without exit", committing, call{RegistryAddress, r0, nil, "withdraw", func(e *env, _ *Job) []any { r := e.runner(0); return []any{r[:]} }}, "only after exit"},
		{"withdraw by a stranger", committing, call{RegistryAddress, stranger, nil, "withdraw", func(e *env, _ *Job) []any { r := e.runner(0); return []any{r[:]} }}, "no delegation"},
		{"exit by a non-runner", committing, call{RegistryAddress, stranger, nil, "exit", func(*env, *Job) []any { return nil }}, "not a registered runner"},
		{"exit with value", committing, call{RegistryAddress, r0, cby(1), "exit", func(*env, *Job) []any { return nil }}, "takes no value"},
		{"unknown registry method", committing, call{RegistryAddress, r0, nil, "steal", func(*env, *Job) []any { return nil }}, "unknown method \"steal\""},
		// 0x02
		{"post with escrow below max_price", committing, call{DispatcherAddress, stranger, cby(9), "post", func(*env, *Job) []any { return []any{spec(TrustMajority, 3, cby(10), nil)} }}, "escrow must equal"},
		{"post with a tip but escrow of max_price alone", committing, call{DispatcherAddress, stranger, cby(10), "post", func(*env, *Job) []any {
			return []any{spec(TrustMajority, 3, cby(10), map[string]any{"tip": cby(1)})}
		}}, "escrow must equal max_price 10000000000000000000 plus tip 1000000000000000000"},
		{"post with a negative tip", committing, call{DispatcherAddress, stranger, cby(10), "post", func(*env, *Job) []any {
			return []any{spec(TrustMajority, 3, cby(10), map[string]any{"tip": big.NewInt(-1)})}
		}}, "tip must be non-negative"},
		{"post a committee above max_committee", committing, call{DispatcherAddress, stranger, cby(10), "post", func(*env, *Job) []any {
			return []any{spec(TrustMajority, 11, cby(10), nil)}
		}}, "committee 11 exceeds max_committee 9"},
		{"post with an unknown key", committing, call{DispatcherAddress, stranger, cby(10), "post", func(*env, *Job) []any {
			return []any{spec(TrustMajority, 3, cby(10), map[string]any{"gpu": "h100"})}
		}}, "unknown key \"gpu\""},
		{"post with a minority threshold", committing, call{DispatcherAddress, stranger, cby(10), "post", func(*env, *Job) []any {
			return []any{spec(TrustMajority, 3, cby(10), map[string]any{"threshold": uint64(1)})}
		}}, "must be a majority"},
		{"post with an unknown trust mode", committing, call{DispatcherAddress, stranger, cby(10), "post", func(*env, *Job) []any { return []any{spec("vibes", 3, cby(10), nil)} }}, "trust \"vibes\""},
		{"post none with a committee", committing, call{DispatcherAddress, stranger, cby(10), "post", func(*env, *Job) []any { return []any{spec(TrustNone, 3, cby(10), nil)} }}, "committee must be 1"},
		{"post with too short a timeout", committing, call{DispatcherAddress, stranger, cby(10), "post", func(*env, *Job) []any {
			return []any{spec(TrustMajority, 3, cby(10), map[string]any{"timeout_blocks": uint64(2)})}
		}}, "timeout_blocks 2"},
		{"post with a bad schema", committing, call{DispatcherAddress, stranger, cby(10), "post", func(*env, *Job) []any {
			return []any{spec(TrustStructured, 3, cby(10), map[string]any{"result_schema": "{"})}
		}}, "result_schema"},
		{"post an oversize input", committing, call{DispatcherAddress, stranger, cby(10), "post", func(*env, *Job) []any {
			in, _ := types.Marshal(map[string]any{"prompt": strings.Repeat("p", MaxInputBytes)})
			return []any{spec(TrustMajority, 3, cby(10), map[string]any{"input": rawCBOR(in)})}
		}}, "at most"},
		{"post without balance", committing, call{DispatcherAddress, stranger, cby(2_000_000), "post", func(*env, *Job) []any { return []any{spec(TrustMajority, 3, cby(2_000_000), nil)} }}, "escrow of"},
		// 0x03
		{"commit by a non-member", committing, call{VerifierAddress, stranger, nil, "commit", func(_ *env, j *Job) []any { return []any{j.ID, make([]byte, 32)} }}, "not on job"},
		{"commit a short commitment", committing, call{VerifierAddress, member(0), nil, "commit", func(_ *env, j *Job) []any { return []any{j.ID, make([]byte, 31)} }}, "32 bytes"},
		{"commit to no job", committing, call{VerifierAddress, member(0), nil, "commit", func(_ *env, j *Job) []any { return []any{uint64(99), make([]byte, 32)} }}, "no job 99"},
		{"commit twice", func(e *env, j *Job) { commitOwn(e, j, 0, []byte("yes")) }, call{VerifierAddress, member(0), nil, "commit", func(_ *env, j *Job) []any { return []any{j.ID, make([]byte, 32)} }}, "already committed"},
		{"commit late", func(e *env, j *Job) { e.height = j.CommitDeadline + 1 }, call{VerifierAddress, member(0), nil, "commit", func(_ *env, j *Job) []any { return []any{j.ID, make([]byte, 32)} }}, "late commit"},
		{"commit in the reveal phase", revealing, call{VerifierAddress, member(0), nil, "commit", func(_ *env, j *Job) []any { return []any{j.ID, make([]byte, 32)} }}, "commits closed"},
		{"commit with value", committing, call{VerifierAddress, member(0), cby(1), "commit", func(_ *env, j *Job) []any { return []any{j.ID, make([]byte, 32)} }}, "takes no value"},
		{"reveal while committing", committing, call{VerifierAddress, agg, nil, "reveal", func(e *env, j *Job) []any {
			return []any{j.ID, []any{entry(e, j, 0, []byte("yes"), j.Members[0])}}
		}}, "is committing"},
		{"reveal by a non-member", revealing, call{VerifierAddress, stranger, nil, "reveal", func(e *env, j *Job) []any {
			return []any{j.ID, []any{entry(e, j, 0, []byte("yes"), j.Members[0])}}
		}}, "not on job"},
		{"individual reveal before the aggregator timeout", revealing, call{VerifierAddress, nonAgg, nil, "reveal", func(e *env, j *Job) []any {
			i := j.member(nonAgg(e, j))
			return []any{j.ID, []any{entry(e, j, i, []byte("yes"), j.Members[i])}}
		}}, "only the aggregator"},
		{"individual reveal of another's result", func(e *env, j *Job) { revealing(e, j); e.height += dp.AggregatorTimeoutBlocks }, call{VerifierAddress, nonAgg, nil, "reveal", func(e *env, j *Job) []any {
			return []any{j.ID, []any{entry(e, j, j.member(j.Aggregator), []byte("yes"), j.Aggregator)}}
		}}, "its own"},
		{"reveal with a forged signature", revealing, call{VerifierAddress, agg, nil, "reveal", func(e *env, j *Job) []any {
			return []any{j.ID, []any{entry(e, j, 0, []byte("yes"), e.runner(3))}}
		}}, "forged signature"},
		{"reveal a result that is not the commitment", revealing, call{VerifierAddress, agg, nil, "reveal", func(e *env, j *Job) []any {
			return []any{j.ID, []any{entry(e, j, 0, []byte("no"), j.Members[0])}}
		}}, "does not match"},
		{"reveal an oversize result", revealing, call{VerifierAddress, agg, nil, "reveal", func(e *env, j *Job) []any {
			return []any{j.ID, []any{entry(e, j, 0, big64, j.Members[0])}}
		}}, "64 KiB"},
		{"reveal a malformed signature", revealing, call{VerifierAddress, agg, nil, "reveal", func(e *env, j *Job) []any {
			m := j.Members[0]
			return []any{j.ID, []any{[]any{m[:], StatusOK, []byte("yes"), uint64(1), []byte{1, 2, 3}}}}
		}}, "65 bytes"},
		{"reveal a bad status", revealing, call{VerifierAddress, agg, nil, "reveal", func(e *env, j *Job) []any {
			m := j.Members[0]
			return []any{j.ID, []any{[]any{m[:], uint8(9), []byte("yes"), uint64(1), make([]byte, 65)}}}
		}}, "status must be"},
		{"reveal the same member twice", revealing, call{VerifierAddress, agg, nil, "reveal", func(e *env, j *Job) []any {
			en := entry(e, j, 0, []byte("yes"), j.Members[0])
			return []any{j.ID, []any{en, en}}
		}}, "already revealed"},
		{"reveal late", func(e *env, j *Job) { revealing(e, j); e.height = j.Deadline + 1 }, call{VerifierAddress, agg, nil, "reveal", func(e *env, j *Job) []any {
			return []any{j.ID, []any{entry(e, j, 0, []byte("yes"), j.Members[0])}}
		}}, "late reveal"},
		{"reveal after settlement", settled, call{VerifierAddress, agg, nil, "reveal", func(e *env, j *Job) []any {
			return []any{j.ID, []any{entry(e, j, 0, []byte("yes"), j.Members[0])}}
		}}, "is settled"},
		{"reveal nothing", revealing, call{VerifierAddress, agg, nil, "reveal", func(_ *env, j *Job) []any { return []any{j.ID, []any{}} }}, "at least one entry"},
		{"unknown verifier method", committing, call{VerifierAddress, agg, nil, "settle", func(_ *env, j *Job) []any { return []any{j.ID} }}, "unknown method"},
		{"a transaction to the treasury", committing, call{TreasuryAddress, stranger, nil, "withdraw", func(*env, *Job) []any { return nil }}, "takes no transactions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 4)
			for i := 0; i < 3; i++ {
				e.register(i, 10_000, 1_000)
				r := e.runner(i)
				e.must(RegistryAddress, user(9), cby(5_000), "delegate", r[:])
			}
			j := e.post(user(1), spec(TrustMajority, 3, cby(10), nil))
			tc.state(e, j)
			j = e.job(j.ID)
			before := e.money()
			jobBefore := mustMarshal(j)
			_, err := e.call(tc.c.to, tc.c.from(e, j), tc.c.value, tc.c.method, tc.c.args(e, j)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if !equalMoney(before, e.money()) {
				t.Fatal("a refused call moved money")
			}
			if !bytes.Equal(jobBefore, mustMarshal(e.job(j.ID))) {
				t.Fatal("a refused call changed the job")
			}
		})
	}
}

func TestOutOfCycles(t *testing.T) {
	e := newEnv(t, 1)
	before := e.money()
	res, err := Apply(e.st, Call{To: RegistryAddress, From: e.runner(0), Value: cby(10_000), Payload: Payload("register", "http://x/", []string{}, []string{}, defaultRates, cby(1), uint64(0)), Height: 1, Cycles: CallCycles - 1})
	if err == nil || !strings.Contains(err.Error(), "out of cycles") || res.CyclesUsed != CallCycles-1 {
		t.Fatalf("%v %d", err, res.CyclesUsed)
	}
	if !equalMoney(before, e.money()) {
		t.Fatal("moved money")
	}
}

func TestWakeupListIsBounded(t *testing.T) {
	e := newEnv(t, 3)
	for i := 0; i < 3; i++ {
		e.register(i, 10_000, 0)
	}
	full := make([]uint64, MaxWakeupsPerHeight)
	writeList(e.st, wakeupKey(e.height+10), full) // the deadline of a 10-block job posted now
	before := e.money()
	_, err := e.call(DispatcherAddress, user(1), cby(10), "post", spec(TrustMajority, 3, cby(10), nil))
	if err == nil || !strings.Contains(err.Error(), "choose another timeout_blocks") {
		t.Fatalf("post with a full wakeup list: %v", err)
	}
	if !equalMoney(before, e.money()) || JobCount(e.st) != 0 {
		t.Fatal("a refused post moved money or made a job")
	}
}
