package runner

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// settleCost runs one majority_vote job with a committee of m through
// post, m commits and an aggregated reveal, and returns the cycles each
// step was charged: what the chain meters (§17.2 intrinsic cost of each
// transaction plus the call's own cycles), not wall time.
func settleCost(tb testing.TB, e *env, m int) (post, commits, reveal uint64) {
	s := spec(TrustMajority, uint64(m), cby(10), nil)
	tx := func(to types.Address, method string, args ...any) uint64 {
		pl := Payload(method, args...)
		c, _ := fees.TxIntrinsic(&types.Tx{To: &to, Payload: pl})
		return c
	}
	requester := user(1)
	res, err := Apply(e.st, Call{To: DispatcherAddress, From: requester, Value: cby(10), Payload: Payload("post", s), Height: e.height, Cycles: 10_000_000})
	if err != nil {
		tb.Fatal(err)
	}
	post = res.CyclesUsed + tx(DispatcherAddress, "post", s)
	j, _ := ReadJob(e.st, JobCount(e.st))
	var entries []any
	for _, mem := range j.Members {
		sig, cm := SignResult(e.key(mem), j.ID, StatusOK, 100, []byte("yes"))
		res, err := Apply(e.st, Call{To: VerifierAddress, From: mem, Payload: Payload("commit", j.ID, cm[:]), Height: e.height, Cycles: 10_000_000})
		if err != nil {
			tb.Fatal(err)
		}
		commits += res.CyclesUsed + tx(VerifierAddress, "commit", j.ID, cm[:])
		entries = append(entries, []any{mem[:], StatusOK, []byte("yes"), uint64(100), sig})
	}
	res, err = Apply(e.st, Call{To: VerifierAddress, From: j.Aggregator, Payload: Payload("reveal", j.ID, entries), Height: e.height, Cycles: 10_000_000})
	if err != nil {
		tb.Fatal(err)
	}
	if j, _ = ReadJob(e.st, j.ID); j.Phase != PhaseSettled {
		tb.Fatalf("job %d did not settle: %s", j.ID, j.Error)
	}
	reveal = res.CyclesUsed + tx(VerifierAddress, "reveal", j.ID, entries)
	return post, commits, reveal
}

// BenchmarkSettle measures one job's whole on-chain life at committee
// sizes 3 and 5 (docs/benchmarks.md "Runner market"): the cycles the
// chain charges for it, how many such jobs fit the runner lane's
// 2,500,000 cycles per block (§17.9), and the Go time of the calls.
func BenchmarkSettle(b *testing.B) {
	for _, m := range []int{3, 5} {
		b.Run(fmt.Sprintf("committee=%d", m), func(b *testing.B) {
			e := newEnv(b, m)
			for i := 0; i < m; i++ {
				e.register(i, 10_000, 1_000)
			}
			e.st.Mint(user(1), new(big.Int).Mul(cby(10), big.NewInt(int64(b.N)+1)))
			var post, commits, reveal uint64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				post, commits, reveal = settleCost(b, e, m)
			}
			total := post + commits + reveal
			b.ReportMetric(float64(reveal), "cycles/settle")
			b.ReportMetric(float64(total), "cycles/job")
			b.ReportMetric(float64(fees.LaneCycleBudget[fees.LaneRunner]/total), "jobs/block")
		})
	}
}
