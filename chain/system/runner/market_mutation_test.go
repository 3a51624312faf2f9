package runner

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// Tests written against the mutants gremlins left alive in apply.go,
// dispatcher.go, modes.go and registry.go (docs/testing.md, "Mutation
// testing"): the job-spec checks at each bound, the cycle accounting of
// Apply, EndBlock's wakeups, the verification modes' edges.

// llmInput is the canonical CBOR of an llm job's input map whose
// encoding is exactly n bytes (n ≥ 20).
func llmInput(t *testing.T, n int) []byte {
	t.Helper()
	for p := max(1, n-20); p <= n; p++ {
		b, err := types.Marshal(map[string]any{"prompt": strings.Repeat("q", p)})
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == n {
			return b
		}
	}
	t.Fatalf("no llm input of %d bytes", n)
	return nil
}

// schemaOf is a valid result_schema of exactly n bytes (n ≥ 20).
func schemaOf(n int) string {
	const head, tail = `{"description":"`, `"}`
	return head + strings.Repeat("d", n-len(head)-len(tail)) + tail
}

// TestSpecCheck runs JobSpec.check at each bound it enforces: the value
// at the bound is accepted, one past it refused with its message.
func TestSpecCheck(t *testing.T) {
	input := llmInput(t, 40)
	httpIn := func(u string) []byte {
		b, err := types.Marshal(map[string]any{"url": u})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	base := func() JobSpec {
		return JobSpec{Kind: KindLLM, Model: "m1", Input: input, Trust: TrustMajority, MaxPrice: cby(1)}
	}
	for _, tc := range []struct {
		name string
		edit func(s *JobSpec)
		want string // "" accepted
		then func(t *testing.T, s JobSpec)
	}{
		{"defaults", func(s *JobSpec) { s.Trust = "" }, "", func(t *testing.T, s JobSpec) {
			if s.Trust != TrustMajority || s.Tip == nil || s.Tip.Sign() != 0 || s.SimilarityBps != 0 {
				t.Fatalf("trust %q tip %v similarity %d", s.Trust, s.Tip, s.SimilarityBps)
			}
		}},
		{"unknown trust", func(s *JobSpec) { s.Trust = "vibes" }, "trust \"vibes\"", nil},
		{"none with a committee of 1", func(s *JobSpec) { s.Trust, s.Committee = TrustNone, 1 }, "", nil},
		{"none with a committee of 2", func(s *JobSpec) { s.Trust, s.Committee = TrustNone, 2 }, "committee must be 1", nil},
		{"economic_bond with a committee of 2", func(s *JobSpec) { s.Trust, s.Committee = TrustBond, 2 }, "committee must be 1", nil},
		{"committee at the bound", func(s *JobSpec) { s.Committee, s.Threshold = MaxCommitteeBound, 8 }, "", nil},
		{"committee past the bound", func(s *JobSpec) { s.Committee, s.Threshold = MaxCommitteeBound+1, 9 }, "exceeds 15", nil},
		{"threshold 3 of 4", func(s *JobSpec) { s.Committee, s.Threshold = 4, 3 }, "", nil},
		{"threshold 4 of 4", func(s *JobSpec) { s.Committee, s.Threshold = 4, 4 }, "", nil},
		{"threshold 2 of 4", func(s *JobSpec) { s.Committee, s.Threshold = 4, 2 }, "must be a majority", nil},
		{"threshold 5 of 4", func(s *JobSpec) { s.Committee, s.Threshold = 4, 5 }, "must be a majority", nil},
		{"threshold without a committee", func(s *JobSpec) { s.Threshold = 20 }, "", nil},
		{"no max_price", func(s *JobSpec) { s.MaxPrice = nil }, "max_price must be a positive", nil},
		{"zero max_price", func(s *JobSpec) { s.MaxPrice = zero() }, "max_price must be a positive", nil},
		{"max_price of one base unit", func(s *JobSpec) { s.MaxPrice = big.NewInt(1) }, "", nil},
		{"timeout at the bound", func(s *JobSpec) { s.TimeoutBlocks = MaxTimeoutBound }, "", nil},
		{"timeout past the bound", func(s *JobSpec) { s.TimeoutBlocks = MaxTimeoutBound + 1 }, "timeout_blocks 100001 exceeds", nil},
		{"tip kept", func(s *JobSpec) { s.Tip = cby(2) }, "", func(t *testing.T, s JobSpec) {
			if s.Tip.Cmp(cby(2)) != 0 {
				t.Fatalf("tip %v", s.Tip)
			}
		}},
		{"max_wall_ms at the bound", func(s *JobSpec) { s.MaxWallMS = MaxWallMS }, "", nil},
		{"max_wall_ms past the bound", func(s *JobSpec) { s.MaxWallMS = MaxWallMS + 1 }, "max_wall_ms 600001 exceeds", nil},
		{"no input", func(s *JobSpec) { s.Input = nil }, "input is missing", nil},
		{"input at the bound", func(s *JobSpec) { s.Input = llmInput(t, MaxInputBytes) }, "", nil},
		{"input past the bound", func(s *JobSpec) { s.Input = llmInput(t, MaxInputBytes+1) }, "input is 32769 bytes", nil},
		{"toolchain digest of 32 bytes", func(s *JobSpec) { s.ToolchainDigest = make([]byte, 32) }, "", nil},
		{"toolchain digest of 31 bytes", func(s *JobSpec) { s.ToolchainDigest = make([]byte, 31) }, "toolchain_digest must be 32 bytes, got 31", nil},
		{"toolchain digest of 33 bytes", func(s *JobSpec) { s.ToolchainDigest = make([]byte, 33) }, "got 33", nil},
		{"schema at the bound", func(s *JobSpec) { s.ResultSchema = schemaOf(MaxSchemaBytes) }, "", nil},
		{"schema past the bound", func(s *JobSpec) { s.ResultSchema = schemaOf(MaxSchemaBytes + 1) }, "result_schema is 8193 bytes", nil},
		{"schema not supported", func(s *JobSpec) { s.ResultSchema = `{"pattern":"x"}` }, "result_schema: ", nil},
		{"structured_match without a schema", func(s *JobSpec) { s.Trust = TrustStructured }, "needs a result_schema", nil},
		{"structured_match with a schema", func(s *JobSpec) { s.Trust, s.ResultSchema = TrustStructured, `{"type":"object"}` }, "", nil},
		{"similarity at the bound", func(s *JobSpec) { s.Trust, s.SimilarityBps = TrustSemantic, 10_000 }, "", func(t *testing.T, s JobSpec) {
			if s.SimilarityBps != 10_000 {
				t.Fatalf("similarity %d", s.SimilarityBps)
			}
		}},
		{"similarity past the bound", func(s *JobSpec) { s.SimilarityBps = 10_001 }, "similarity_bps 10001 exceeds", nil},
		{"semantic default similarity", func(s *JobSpec) { s.Trust = TrustSemantic }, "", func(t *testing.T, s JobSpec) {
			if s.SimilarityBps != DefaultSimilarity {
				t.Fatalf("similarity %d, want %d", s.SimilarityBps, DefaultSimilarity)
			}
		}},
		{"callback of 64 bytes", func(s *JobSpec) { s.Callback = strings.Repeat("c", 64) }, "", nil},
		{"callback of 65 bytes", func(s *JobSpec) { s.Callback = strings.Repeat("c", 65) }, "callback must be", nil},
		{"llm without a model", func(s *JobSpec) { s.Model = "" }, "needs a model", nil},
		{"llm input not a map", func(s *JobSpec) { s.Input = []byte{0x01} }, "must be a map with a prompt", nil},
		{"llm input without a prompt", func(s *JobSpec) { s.Input = httpIn("http://a/") }, `needs "prompt"`, nil},
		{"http job", func(s *JobSpec) { s.Kind, s.Input = KindHTTP, httpIn("https://API.Example.com:8443/x") }, "", func(t *testing.T, s JobSpec) {
			if s.Domain != "api.example.com" {
				t.Fatalf("domain %q", s.Domain)
			}
		}},
		{"http input not a map", func(s *JobSpec) { s.Kind, s.Input = KindHTTP, []byte{0x01} }, "must be a map with a url", nil},
		{"http without a url", func(s *JobSpec) { s.Kind = KindHTTP }, `needs "url"`, nil},
		{"http ftp url", func(s *JobSpec) { s.Kind, s.Input = KindHTTP, httpIn("ftp://example.com/") }, `needs "url"`, nil},
		{"http url without a host", func(s *JobSpec) { s.Kind, s.Input = KindHTTP, httpIn("http:///x") }, `needs "url"`, nil},
		{"http url that does not parse", func(s *JobSpec) { s.Kind, s.Input = KindHTTP, httpIn("http://a b/%zz") }, `needs "url"`, nil},
		{"unknown kind", func(s *JobSpec) { s.Kind = "gpu" }, `kind "gpu"`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := base()
			tc.edit(&s)
			err := s.check()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if tc.then != nil {
					tc.then(t, s)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestSpecWithParams: the defaults the parameters give and the bounds
// they set.
func TestSpecWithParams(t *testing.T) {
	p := DefaultParams() // committee 5, threshold 3, max 9, timeouts 6 … 7,200, default 50
	for _, tc := range []struct {
		name                   string
		trust                  string
		committee, threshold   uint64
		timeout                uint64
		want                   string
		wantM, wantN, wantTime uint64
	}{
		{"all defaults", TrustMajority, 0, 0, 0, "", 5, 3, 50},
		{"single runner", TrustNone, 0, 0, 0, "", 1, 1, 50},
		{"economic_bond", TrustBond, 0, 0, 0, "", 1, 1, 50},
		{"threshold given, committee default", TrustMajority, 0, 4, 0, "", 5, 4, 50},
		{"committee given, threshold a majority of it", TrustMajority, 4, 0, 0, "", 4, 3, 50},
		{"committee 7", TrustMajority, 7, 0, 0, "", 7, 4, 50},
		{"committee at max_committee", TrustMajority, 9, 5, 0, "", 9, 5, 50},
		{"committee past max_committee", TrustMajority, 10, 6, 0, "exceeds max_committee 9", 0, 0, 0},
		{"threshold above the default committee", TrustMajority, 0, 6, 0, "must be a majority", 0, 0, 0},
		{"threshold 2 of the default 5", TrustMajority, 0, 2, 0, "must be a majority", 0, 0, 0},
		{"timeout at the minimum", TrustMajority, 0, 0, 6, "", 5, 3, 6},
		{"timeout below the minimum", TrustMajority, 0, 0, 5, "timeout_blocks 5 must be 6 … 7200", 0, 0, 0},
		{"timeout at the maximum", TrustMajority, 0, 0, 7_200, "", 5, 3, 7_200},
		{"timeout past the maximum", TrustMajority, 0, 0, 7_201, "must be 6 … 7200", 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := JobSpec{Trust: tc.trust, Committee: tc.committee, Threshold: tc.threshold, TimeoutBlocks: tc.timeout}
			err := s.withParams(p)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Committee != tc.wantM || s.Threshold != tc.wantN || s.TimeoutBlocks != tc.wantTime {
				t.Fatalf("committee %d threshold %d timeout %d, want %d %d %d", s.Committee, s.Threshold, s.TimeoutBlocks, tc.wantM, tc.wantN, tc.wantTime)
			}
		})
	}
}

// TestApplyCycles: a call with exactly the cycles it uses succeeds and
// reports them; one that needs more than it has (sampling a committee
// reads every runner) is refused, charged what it had, and moves nothing.
func TestApplyCycles(t *testing.T) {
	e := newEnv(t, 3)
	res, err := Apply(e.st, Call{To: RegistryAddress, From: e.runner(0), Value: cby(10_000), Height: 1, Cycles: CallCycles,
		Payload: Payload("register", "http://x/", []string{"m1"}, []string{}, defaultRates, cby(1_000), uint64(0))})
	if err != nil || res.CyclesUsed != CallCycles || len(res.Events) != 1 || res.Events[0].Name != "register" {
		t.Fatalf("register with exactly %d cycles: %v, used %d", CallCycles, err, res.CyclesUsed)
	}
	e.register(1, 10_000, 0)
	e.register(2, 10_000, 0)
	need := uint64(CallCycles + 3*SampleCycles) // three runners read
	for _, tc := range []struct {
		cycles uint64
		ok     bool
	}{{need - 1, false}, {need, true}} {
		before := e.money()
		count := JobCount(e.st)
		res, err := Apply(e.st, Call{To: DispatcherAddress, From: user(1), Value: cby(10), Height: 1, Cycles: tc.cycles,
			Payload: Payload("post", spec(TrustMajority, 3, cby(10), nil))})
		if res.CyclesUsed != tc.cycles {
			t.Fatalf("%d cycles: used %d", tc.cycles, res.CyclesUsed)
		}
		if !tc.ok {
			if err == nil || !strings.Contains(err.Error(), "out of cycles") {
				t.Fatalf("%d cycles: %v, want out of cycles", tc.cycles, err)
			}
			if !equalMoney(before, e.money()) || JobCount(e.st) != count {
				t.Fatal("a post out of cycles moved money or made a job")
			}
			continue
		}
		if err != nil || JobCount(e.st) != count+1 {
			t.Fatalf("%d cycles: %v", tc.cycles, err)
		}
	}
}

// TestEndBlockParams: a block without wakeups does not read the
// parameters (a broken record cannot halt it), and a job settled by
// EndBlock is judged with the parameters in force.
func TestEndBlockParams(t *testing.T) {
	e := newEnv(t, 0)
	e.st.Set(paramsKey, []byte{0xff})
	if err := EndBlock(e.st, 5); err != nil {
		t.Fatalf("a block without deadlines: %v", err)
	}
	e.st.Set(wakeupKey(6), mustMarshal([]uint64{1}))
	if err := EndBlock(e.st, 6); err == nil || !strings.Contains(err.Error(), "runner parameters") {
		t.Fatalf("a block with a deadline and broken parameters: %v", err)
	}

	// Nobody reveals: at the deadline every member loses RepTimeout.
	e = threeRunners(t)
	p := DefaultParams()
	p.RepTimeout = 777
	e.st.Set(paramsKey, mustMarshal(p))
	j := e.post(user(1), spec(TrustMajority, 3, cby(10), nil))
	e.commitAll(j, map[types.Address]answer{j.Members[0]: {StatusOK, "yes", 1}})
	e.endBlocks(j.Deadline)
	j = e.job(j.ID)
	if j.Phase != PhaseFailed || j.Outcome != OutcomeRunner {
		t.Fatalf("phase %s outcome %q", PhaseName(j.Phase), j.Outcome)
	}
	for _, m := range j.Members {
		if got := e.rec(m).Reputation; got != p.InitialReputation-777 {
			t.Fatalf("%s reputation %d, want %d", m, got, p.InitialReputation-777)
		}
	}
}

// TestRevealPhaseOpens: a job whose commit deadline passes with commits
// opens its reveal phase in the next block, and members other than the
// aggregator reveal aggregator_timeout_blocks later (the job's own, or
// the default for a record from before the parameter was kept).
func TestRevealPhaseOpens(t *testing.T) {
	e := threeRunners(t)
	j := e.post(user(1), spec(TrustMajority, 3, cby(10), nil))
	e.commitAll(j, map[types.Address]answer{j.Members[0]: {StatusOK, "yes", 1}})
	e.endBlocks(j.CommitDeadline)
	j = e.job(j.ID)
	if j.Phase != PhaseRevealing || j.RevealOpen != j.CommitDeadline+1 {
		t.Fatalf("phase %s, reveal opens at %d, want %d", PhaseName(j.Phase), j.RevealOpen, j.CommitDeadline+1)
	}
	if got := j.IndividualReveals(); got != j.RevealOpen+dp.AggregatorTimeoutBlocks {
		t.Fatalf("individual reveals from %d", got)
	}
	for _, tc := range []struct{ kept, want uint64 }{{0, 100 + dp.AggregatorTimeoutBlocks}, {7, 107}} {
		if got := (&Job{RevealOpen: 100, AggregatorTimeout: tc.kept}).IndividualReveals(); got != tc.want {
			t.Fatalf("aggregator timeout %d: individual reveals from %d, want %d", tc.kept, got, tc.want)
		}
	}
}

// TestResultArgs pins the continuation's argument: a settled job hands
// its output (json when it had a result_schema), a failed one its error.
func TestResultArgs(t *testing.T) {
	for _, tc := range []struct {
		name string
		j    Job
		want map[string]any
	}{
		{"settled with a schema", Job{ID: 4, Phase: PhaseSettled, Outcome: OutcomeSuccess, Output: []byte(`{"a":1}`), Error: "x", Spec: JobSpec{ResultSchema: `{}`}},
			map[string]any{"job_id": uint64(4), "ok": true, "outcome": OutcomeSuccess, "json": true, "output": `{"a":1}`, "error": nil}},
		{"settled text with invalid UTF-8", Job{ID: 5, Phase: PhaseSettled, Outcome: OutcomeSuccess, Output: []byte("a\xffb")},
			map[string]any{"job_id": uint64(5), "ok": true, "outcome": OutcomeSuccess, "json": false, "output": "a\uFFFDb", "error": nil}},
		{"failed", Job{ID: 6, Phase: PhaseFailed, Outcome: OutcomeRunner, Output: []byte("partial"), Error: "runner fault: no quorum", Spec: JobSpec{ResultSchema: `{}`}},
			map[string]any{"job_id": uint64(6), "ok": false, "outcome": OutcomeRunner, "json": true, "output": nil, "error": "runner fault: no quorum"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []map[string]any
			if err := types.Unmarshal(ResultArgs(&tc.j), &got); err != nil || len(got) != 1 {
				t.Fatalf("decode: %v (%d)", err, len(got))
			}
			if len(got[0]) != len(tc.want) {
				t.Fatalf("result %v, want %v", got[0], tc.want)
			}
			for k, w := range tc.want {
				if g := got[0][k]; g != w {
					t.Fatalf("%s = %#v, want %#v", k, g, w)
				}
			}
		})
	}
}

// TestModesEdges runs verify at the edges of each mode: fault quorums of
// exactly N, the similarity threshold met exactly, ties, keys that cannot
// be computed, and the error a failed verification gives.
func TestModesEdges(t *testing.T) {
	ok := func(s string) *Reveal { return &Reveal{Status: StatusOK, Output: []byte(s)} }
	fault := func(s uint8, out string) *Reveal { return &Reveal{Status: s, Output: []byte(out)} }
	long := strings.Repeat("x", 200)
	for _, tc := range []struct {
		name    string
		spec    JobSpec
		reveals []*Reveal
		outcome string
		output  string
		winners []int
		liars   []int
		invalid []int
		err     string // the judge's error, exactly, when set
	}{
		{"impossible by a quorum of 2", JobSpec{Trust: TrustMajority, Threshold: 2}, []*Reveal{fault(StatusImpossible, "no such page"), fault(StatusImpossible, "gone"), ok("yes")},
			OutcomeImpossible, "", []int{0, 1}, nil, []int{2}, OutcomeImpossible + ": no such page"},
		{"actor fault by a quorum of 3", JobSpec{Trust: TrustMajority, Threshold: 3}, []*Reveal{fault(StatusActorFault, "bad input"), fault(StatusActorFault, ""), fault(StatusActorFault, "")},
			OutcomeActor, "", []int{0, 1, 2}, nil, nil, OutcomeActor + ": bad input"},
		{"a fault message clipped at 200 bytes", JobSpec{Trust: TrustNone, Threshold: 1}, []*Reveal{fault(StatusExternal, long+"TAIL")},
			OutcomeExternal, "", []int{0}, nil, nil, OutcomeExternal + ": " + long},
		{"a fault message of 200 bytes kept", JobSpec{Trust: TrustNone, Threshold: 1}, []*Reveal{fault(StatusExternal, long[:199]+"\xff")},
			OutcomeExternal, "", []int{0}, nil, nil, OutcomeExternal + ": " + long[:199] + "?"},
		{"two different faults, no quorum", JobSpec{Trust: TrustMajority, Threshold: 2}, []*Reveal{fault(StatusImpossible, ""), fault(StatusExternal, ""), ok("yes")},
			OutcomeRunner, "", nil, nil, []int{0, 1}, "runner fault: no quorum: 1 distinct answer(s), the largest agreed by 1, 2 needed"},
		{"none: whitespace is empty", JobSpec{Trust: TrustNone, Threshold: 1}, []*Reveal{ok(" \n\t")},
			OutcomeRunner, "", nil, nil, []int{0}, "runner fault: the result failed the objective checks (empty, or not matching result_schema)"},
		{"none: not JSON under a schema", JobSpec{Trust: TrustNone, Threshold: 1, ResultSchema: `{"type":"string"}`}, []*Reveal{ok(`plain`)},
			OutcomeRunner, "", nil, nil, []int{0}, ""},
		{"none: JSON matching a schema", JobSpec{Trust: TrustNone, Threshold: 1, ResultSchema: `{"type":"string"}`}, []*Reveal{ok(`"plain"`)},
			OutcomeSuccess, `"plain"`, []int{0}, nil, nil, ""},
		{"no quorum counts groups", JobSpec{Trust: TrustExact, Threshold: 3}, []*Reveal{ok("a"), ok("b"), ok("a"), ok("c"), ok("")},
			OutcomeRunner, "", nil, nil, []int{4}, "runner fault: no quorum: 3 distinct answer(s), the largest agreed by 2, 3 needed"},
		{"majority: vote field on a non-object", JobSpec{Trust: TrustMajority, Threshold: 2, VoteField: "v"}, []*Reveal{ok(`[1]`), ok(`{"v":1}`), ok(`{"v":1.0}`)},
			OutcomeRunner, "", nil, nil, []int{0}, "runner fault: no quorum: 2 distinct answer(s), the largest agreed by 1, 2 needed"},
		{"majority: vote field values compared as JSON", JobSpec{Trust: TrustMajority, Threshold: 2, VoteField: "v"}, []*Reveal{ok(`{"v":{"b":1,"a":2}}`), ok(`{"v":{"a":2,"b":1},"w":3}`), ok(`{"w":1}`)},
			OutcomeSuccess, `{"v":{"b":1,"a":2}}`, []int{0, 1}, nil, []int{2}, ""},
		{"structured: no match fields compares the document", JobSpec{Trust: TrustStructured, Threshold: 2, ResultSchema: `{}`}, []*Reveal{ok(`{"a":1,"b":2}`), ok(`{"b":2,"a":1}`), ok(`{"a":1}`)},
			OutcomeSuccess, `{"a":1,"b":2}`, []int{0, 1}, []int{2}, nil, ""},
		{"structured: not JSON", JobSpec{Trust: TrustStructured, Threshold: 2, ResultSchema: `{}`, MatchFields: []string{"a"}}, []*Reveal{ok(`{"a":1}`), ok(`a=1`), ok(`{"a":1,"b":0}`)},
			OutcomeSuccess, `{"a":1}`, []int{0, 2}, nil, []int{1}, ""},
		{"structured: match fields on a non-object", JobSpec{Trust: TrustStructured, Threshold: 2, ResultSchema: `{}`, MatchFields: []string{"a"}}, []*Reveal{ok(`[1]`), ok(`{"a":1}`), ok(`{"a":1}`)},
			OutcomeSuccess, `{"a":1}`, []int{1, 2}, nil, []int{0}, ""},
		{"structured: a missing field is null", JobSpec{Trust: TrustStructured, Threshold: 2, ResultSchema: `{}`, MatchFields: []string{"a", "b"}}, []*Reveal{ok(`{"a":1}`), ok(`{"a":1,"b":null}`), ok(`{"a":1,"b":2}`)},
			OutcomeSuccess, `{"a":1}`, []int{0, 1}, []int{2}, nil, ""},
		// {a b} against {a b c}: 2/3 = 6,666 bps.
		{"similarity met exactly", JobSpec{Trust: TrustSemantic, Threshold: 2, SimilarityBps: 6_666}, []*Reveal{ok("a b"), ok("A, B, c!"), ok("x")},
			OutcomeSuccess, "a b", []int{0, 1}, nil, []int{2}, ""},
		{"similarity missed by one", JobSpec{Trust: TrustSemantic, Threshold: 2, SimilarityBps: 6_667}, []*Reveal{ok("a b"), ok("A, B, c!"), ok("x")},
			OutcomeRunner, "", nil, nil, nil, "runner fault: no quorum: at most 1 result(s) within 6667 bps similarity, 2 needed"},
		{"similarity: the most central result wins", JobSpec{Trust: TrustSemantic, Threshold: 2, SimilarityBps: 5_000}, []*Reveal{ok("a b"), ok("a b c d"), ok("c d"), ok("q")},
			OutcomeSuccess, "a b c d", []int{0, 1, 2}, nil, []int{3}, ""},
		{"similarity: a quorum of exactly N", JobSpec{Trust: TrustSemantic, Threshold: 3, SimilarityBps: 5_000}, []*Reveal{ok("a b"), ok("a b c d"), ok("c d"), ok("q")},
			OutcomeSuccess, "a b c d", []int{0, 1, 2}, nil, []int{3}, ""},
		{"similarity: a quorum of N−1", JobSpec{Trust: TrustSemantic, Threshold: 4, SimilarityBps: 5_000}, []*Reveal{ok("a b"), ok("a b c d"), ok("c d"), ok("q")},
			OutcomeRunner, "", nil, nil, nil, "runner fault: no quorum: at most 3 result(s) within 5000 bps similarity, 4 needed"},
		{"similarity: punctuation only is two empty sets", JobSpec{Trust: TrustSemantic, Threshold: 2, SimilarityBps: 10_000}, []*Reveal{ok("!!"), ok("?"), ok("a")},
			OutcomeSuccess, "!!", []int{0, 1}, nil, []int{2}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := &Job{Spec: tc.spec, Reveals: tc.reveals}
			var entries []int
			for i := range tc.reveals {
				entries = append(entries, i)
			}
			v := verify(j, entries)
			if v.outcome != tc.outcome || string(v.output) != tc.output {
				t.Fatalf("outcome %q output %q (%s), want %q %q", v.outcome, v.output, v.err, tc.outcome, tc.output)
			}
			if !slices.Equal(v.winners, tc.winners) || !slices.Equal(v.liars, tc.liars) || !slices.Equal(v.invalid, tc.invalid) {
				t.Fatalf("winners %v liars %v invalid %v, want %v %v %v", v.winners, v.liars, v.invalid, tc.winners, tc.liars, tc.invalid)
			}
			if tc.err != "" && v.err != tc.err {
				t.Fatalf("error %q, want %q", v.err, tc.err)
			}
		})
	}
}

// TestWordSet pins the similarity stand-in's tokenizer at the edges of
// its character classes, its ASCII case folding and its input bound.
func TestWordSet(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"AZ az 09", []string{"09", "az"}},
		{"a`b z{y 0/1 9:8 x\x7fw", []string{"0", "1", "8", "9", "a", "b", "w", "x", "y", "z"}},
		{"@A[Z]", []string{"a", "z"}},
		{"Été ÉTÉ", []string{"ÉtÉ", "Été"}},
		{"b a b A", []string{"a", "b"}},
		{"", nil},
	} {
		got := wordSet([]byte(tc.in))
		if len(got) == 0 && len(tc.want) == 0 {
			continue
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("wordSet(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// Only the first MaxSimilarityInput bytes count.
	in := strings.Repeat("a ", MaxSimilarityInput/2-1) + "bc" + " zz"
	if got := wordSet([]byte(in)); !slices.Equal(got, []string{"a", "bc"}) {
		t.Fatalf("bounded input: %q", got)
	}
	for _, tc := range []struct {
		a, b []string
		want uint64
	}{
		{nil, nil, 10_000},
		{[]string{"a"}, nil, 0},
		{[]string{"a", "b"}, []string{"a", "b", "c"}, 6_666},
		{[]string{"a", "c", "e"}, []string{"b", "c", "d", "e"}, 4_000},
		{[]string{"b", "c", "d", "e"}, []string{"a", "c", "e"}, 4_000},
		{[]string{"x"}, []string{"x"}, 10_000},
	} {
		if got := jaccardBps(tc.a, tc.b); got != tc.want {
			t.Errorf("jaccard(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestSchemaEdges: every keyword of the result_schema subset, its
// refusals at posting, and its checks at each bound.
func TestSchemaEdges(t *testing.T) {
	nested := `{"type":"string"}`
	for i := 0; i < 8; i++ {
		nested = `{"items":` + nested + `}`
	}
	for _, tc := range []struct{ schema, doc, want string }{
		// Refused at posting.
		{`[]`, ``, "a schema must be an object"},
		{`{`, ``, "not a JSON document"},
		{`{"type":["string",1]}`, ``, "a list of type names"},
		{`{"type":1}`, ``, "a type name or a list"},
		{`{"properties":[]}`, ``, "properties: an object"},
		{`{"properties":{"a":{"type":"bad"}}}`, ``, `$.a.type: unknown type "bad"`},
		{`{"required":"a"}`, ``, "required: a list of names"},
		{`{"required":[1]}`, ``, "required: a list of names"},
		{`{"additionalProperties":{}}`, ``, "only true or false"},
		{`{"items":1}`, ``, "$[]: a schema must be an object"},
		{`{"enum":1}`, ``, "enum: a list"},
		{`{"minLength":-1}`, ``, "minLength: a non-negative integer"},
		{`{"maxLength":1.5}`, ``, "maxLength: a non-negative integer"},
		{`{"maxLength":"1"}`, ``, "maxLength: a non-negative integer"},
		{`{"minimum":"1"}`, ``, "minimum: a number"},
		{`{"maximum":1e401}`, ``, "maximum: a number"},
		{`{"items":` + nested + `}`, ``, "nested deeper than 8"},
		// Accepted, then checked.
		{nested, `[[[[[[[["s"]]]]]]]]`, ""},
		{nested, `[[[[[[[[1]]]]]]]]`, "$[0][0][0][0][0][0][0][0]: integer, want string"},
		{`{"$schema":"x","title":"t","description":"d","type":"number"}`, `3`, ""},
		{`{"type":"number"}`, `3.5`, ""},
		{`{"type":"integer"}`, `123456789012345678901234567890`, ""},
		{`{"type":"integer"}`, `1e2`, "number, want integer"},
		{`{"type":"integer"}`, `1.0`, "number, want integer"},
		{`{"type":["string","boolean"]}`, `true`, ""},
		{`{"type":["string","boolean"]}`, `{}`, "object, want string or boolean"},
		{`{"type":"array"}`, `{}`, "object, want array"},
		{`{"enum":["a",{"x":1}]}`, `{"x":1}`, ""},
		{`{"enum":["a",{"x":1}]}`, `"b"`, `"b" is not in the enum`},
		{`{"required":["a","b"]}`, `{"a":1}`, `missing required "b"`},
		{`{"required":["a"]}`, `[]`, ""},
		{`{"properties":{"a":{"type":"string"},"b":{"type":"integer"}}}`, `{"a":"x","b":"y"}`, "$.b: string, want integer"},
		{`{"properties":{"a":{"type":"string"}}}`, `{"b":1}`, ""},
		{`{"additionalProperties":true,"properties":{"a":{}}}`, `{"b":1}`, ""},
		{`{"additionalProperties":false,"properties":{"a":{}}}`, `{"a":1}`, ""},
		{`{"items":{"type":"integer"}}`, `[1,2,"x"]`, "$[2]: string, want integer"},
		{`{"minLength":2,"maxLength":3}`, `"éé"`, ""},
		{`{"minLength":2,"maxLength":3}`, `"ééé"`, ""},
		{`{"minLength":2,"maxLength":3}`, `"é"`, "string length 1 out of bounds"},
		{`{"minLength":2,"maxLength":3}`, `"éééé"`, "string length 4 out of bounds"},
		{`{"minimum":1.5,"maximum":2.5}`, `1.5`, ""},
		{`{"minimum":1.5,"maximum":2.5}`, `25e-1`, ""},
		{`{"minimum":1.5,"maximum":2.5}`, `1.4999`, "1.4999 out of bounds"},
		{`{"minimum":1.5,"maximum":2.5}`, `2.5001`, "2.5001 out of bounds"},
		{`{"minimum":0}`, `1e400`, ""},
		{`{"minimum":0}`, `-1E-400`, "out of bounds"},
		{`{"minimum":0}`, `1e401`, "number 1e401 out of range"},
		{`{"minimum":0}`, `1e+0401`, "out of range"},
	} {
		s, err := parseSchema(tc.schema)
		if err == nil && tc.doc != "" {
			_, v, isJSON := canonicalJSON([]byte(tc.doc))
			if !isJSON {
				t.Fatalf("%s: not JSON", tc.doc)
			}
			err = s.validate(v, "$")
		}
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s on %s: %v", tc.schema, tc.doc, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s on %s: %v, want %q", tc.schema, tc.doc, err, tc.want)
		}
	}
}
