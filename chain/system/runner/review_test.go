package runner

import (
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestUsageReview: "Runner-reported usage is trusted by default, subject
// to … anomaly detection (>2× expected usage triggers automatic review)".
// A paid member that reports more than twice the expected usage is paid
// on the expected usage, loses reputation_usage, keeps its stake, and is
// listed in the job's reviews; exactly twice is not reviewed.
func TestUsageReview(t *testing.T) {
	yes := func(usage uint64) answer { return answer{StatusOK, "yes", usage} }
	for _, tc := range []struct {
		name     string
		trust    string
		extra    map[string]any
		answers  []answer
		reviewed []int // committee positions
		expected uint64
		payment  *big.Int
	}{
		// 3 × 1 CBY per job + usage × 0.001 CBY.
		{"all alike", TrustMajority, nil, []answer{yes(100), yes(100), yes(100)}, nil, 0, milli(3_300)},
		{"exactly twice the median", TrustMajority, nil, []answer{yes(100), yes(100), yes(200)}, nil, 0, milli(3_400)},
		{"three times the median", TrustMajority, nil, []answer{yes(100), yes(300), yes(100)}, []int{1}, 100, milli(3_300)},
		{"the median is the lower middle", TrustMajority, nil, []answer{yes(100), yes(150), yes(401)}, []int{2}, 150, milli(3_400)},
		{"impossible: pro rata on the expected progress", TrustMajority, nil,
			[]answer{{StatusImpossible, "max_tokens reached", 50}, {StatusImpossible, "max_tokens reached", 500}, {StatusImpossible, "max_tokens reached", 50}},
			[]int{1}, 50, milli(3_150)},
		{"actor fault pays the per-job fee only: no review", TrustMajority, nil,
			[]answer{{StatusActorFault, "malformed", 0}, {StatusActorFault, "malformed", 900}, {StatusActorFault, "malformed", 0}}, nil, 0, cby(3)},
		// One runner: the expected usage is the input's bytes plus max_tokens.
		{"one runner within its bounds", TrustNone, map[string]any{"max_tokens": uint64(100)}, []answer{yes(200)}, nil, 0, milli(1_200)},
		{"one runner far beyond its bounds", TrustNone, map[string]any{"max_tokens": uint64(100)}, []answer{yes(5_000)}, []int{0}, 0, nil},
		{"one runner without max_tokens: nothing to compare", TrustNone, nil, []answer{yes(5_000)}, nil, 0, milli(6_000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := threeRunners(t)
			committee := uint64(len(tc.answers))
			j := e.post(user(1), spec(tc.trust, committee, cby(100), tc.extra))
			want := tc.expected
			if tc.trust == TrustNone && len(tc.reviewed) > 0 {
				want = uint64(len(j.Spec.Input)) + 100
				tc.payment = new(big.Int).Add(cby(1), new(big.Int).Mul(milli(1), new(big.Int).SetUint64(want)))
			}
			answers := map[types.Address]answer{}
			for i, a := range tc.answers {
				answers[j.Members[i]] = a
			}
			stake := e.st.Balance(RegistryAddress).String()
			rep := map[types.Address]uint64{}
			for _, m := range j.Members {
				rep[m] = e.rec(m).Reputation
			}
			entries := e.commitAll(j, answers)
			e.must(VerifierAddress, j.Aggregator, nil, "reveal", j.ID, entries)
			j = e.job(j.ID)
			if j.Payment.Cmp(tc.payment) != 0 {
				t.Fatalf("payment %s, want %s (%s)", j.Payment, tc.payment, j.Outcome)
			}
			if len(j.Reviews) != len(tc.reviewed) {
				t.Fatalf("reviews %+v, want members %v", j.Reviews, tc.reviewed)
			}
			for k, i := range tc.reviewed {
				r := j.Reviews[k]
				if r.Member != j.Members[i] || r.Reported != tc.answers[i].usage || r.Expected != want {
					t.Fatalf("review %+v, want member %d reported %d expected %d", r, i, tc.answers[i].usage, want)
				}
			}
			if e.st.Balance(RegistryAddress).String() != stake {
				t.Fatal("a usage review moved stake: an outlier is not proof")
			}
			for i, m := range j.Members {
				got, before := e.rec(m).Reputation, rep[m]
				gain := uint64(0)
				if j.Outcome == OutcomeSuccess {
					gain = dp.RepSuccess
				}
				wantRep := before + gain
				for _, r := range tc.reviewed {
					if r == i {
						wantRep -= dp.RepUsage
					}
				}
				if got != wantRep {
					t.Fatalf("member %d reputation %d, want %d", i, got, wantRep)
				}
			}
		})
	}
}

// TestUsageReviewThreshold: usage_review_bps sets the factor.
func TestUsageReviewThreshold(t *testing.T) {
	p := DefaultParams()
	p.UsageReviewBps = 15_000 // 1.5×
	for _, c := range []struct {
		usage, paid uint64
		reviewed    bool
	}{{150, 150, false}, {151, 100, true}} {
		j := &Job{Spec: JobSpec{Kind: KindLLM}, Members: make([]types.Address, 3),
			Reveals: []*Reveal{{Usage: 100}, {Usage: c.usage}, {Usage: 100}}}
		got := reviewUsage(p, j, judge{outcome: OutcomeSuccess, winners: []int{0, 1, 2}})
		if got[1] != c.paid || (len(j.Reviews) == 1) != c.reviewed {
			t.Fatalf("usage %d: paid on %v, reviews %+v", c.usage, got, j.Reviews)
		}
	}
}

// TestTipsBuyDeliveryPriority: continuations due in one block run the
// highest tip first (§17.7 "tips incentivize priority"), equal tips in
// settlement order.
func TestTipsBuyDeliveryPriority(t *testing.T) {
	e := threeRunners(t)
	tips := []*big.Int{zero(), cby(2), milli(1), cby(2)}
	var ids []uint64
	for _, tip := range tips {
		j := e.post(user(1), spec(TrustNone, 1, cby(10), map[string]any{"tip": tip}))
		r := j.Members[0]
		e.must(VerifierAddress, r, nil, "reveal", j.ID, e.commitAll(j, map[types.Address]answer{r: {StatusOK, "yes", 1}}))
		ids = append(ids, j.ID)
	}
	ds, err := Deliveries(e.st, e.height+1)
	if err != nil {
		t.Fatal(err)
	}
	var got []uint64
	for _, d := range ds {
		got = append(got, d.Job.ID)
	}
	want := []uint64{ids[1], ids[3], ids[2], ids[0]}
	if len(got) != 4 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Fatalf("delivery order %v, want %v", got, want)
	}
}

// TestHeldPaymentCarriesTheTip: an economic_bond result's held payment
// includes the tip; an upheld challenge returns both to the requester.
func TestHeldPaymentCarriesTheTip(t *testing.T) {
	e := threeRunners(t)
	j := e.post(user(1), spec(TrustBond, 1, cby(10), map[string]any{"tip": cby(1)}))
	r := j.Members[0]
	e.must(VerifierAddress, r, nil, "reveal", j.ID, e.commitAll(j, map[types.Address]answer{r: {StatusOK, "yes", 100}}))
	j = e.job(j.ID)
	if want := milli(2_100); j.Held.Cmp(want) != 0 || j.Payment.Cmp(want) != 0 {
		t.Fatalf("held %s payment %s, want 1.1 CBY + the 1 CBY tip", j.Held, j.Payment)
	}
}
