package runner

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
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

	// A deadline naming no job is skipped, and the list is cleared.
	e = newEnv(t, 0)
	writeList(e.st, wakeupKey(7), []uint64{42})
	if err := EndBlock(e.st, 7); err != nil {
		t.Fatalf("a wakeup without a job: %v", err)
	}
	if e.st.Get(wakeupKey(7)) != nil {
		t.Fatal("the wakeup list was kept")
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
		{"a\u0080b \u007fc", []string{"a\u0080b", "c"}},
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
	deepProps := `{"type":"string"}`
	for i := 0; i < 9; i++ {
		deepProps = `{"properties":{"p":` + deepProps + `}}`
	}
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
		{deepProps, ``, "nested deeper than 8"},
		{`{"minLength":0}`, `""`, ""},
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

// TestProfileBounds registers with each profile field at its bound and
// one past it; a refusal moves nothing, an acceptance stores the profile
// as given (lists sorted and deduplicated, missing rates zero).
func TestProfileBounds(t *testing.T) {
	caps := func(n int) []string {
		l := make([]string, n)
		for i := range l {
			l[i] = fmt.Sprintf("m%02d", i)
		}
		return l
	}
	long := func(n int) string { return "https://" + strings.Repeat("h", n-len("https://")) }
	for _, tc := range []struct {
		name      string
		endpoint  string
		models    []string
		rates     map[string]*big.Int
		maxValue  *big.Int
		commision uint64
		want      string
	}{
		{"endpoint of 256 bytes", long(MaxEndpointBytes), nil, defaultRates, cby(1), 0, ""},
		{"endpoint of 257 bytes", long(MaxEndpointBytes + 1), nil, defaultRates, cby(1), 0, "endpoint must be"},
		{"https endpoint", "https://r/", nil, defaultRates, cby(1), 0, ""},
		{"32 models", "http://r/", caps(MaxCapabilities), defaultRates, cby(1), 0, ""},
		{"33 models", "http://r/", caps(MaxCapabilities + 1), defaultRates, cby(1), 0, "models: at most 32, got 33"},
		{"a model name of 128 bytes", "http://r/", []string{strings.Repeat("m", 128)}, defaultRates, cby(1), 0, ""},
		{"a model name of 129 bytes", "http://r/", []string{strings.Repeat("m", 129)}, defaultRates, cby(1), 0, "each must be 1 to 128 bytes"},
		{"an empty model name", "http://r/", []string{""}, defaultRates, cby(1), 0, "each must be 1 to 128 bytes"},
		{"duplicate models", "http://r/", []string{"b", "a", "b"}, defaultRates, cby(1), 0, ""},
		{"a negative rate", "http://r/", nil, map[string]*big.Int{"per_job": big.NewInt(-1)}, cby(1), 0, "rate card per_job must be a non-negative"},
		{"an unknown rate", "http://r/", nil, map[string]*big.Int{"per_gpu": big.NewInt(1)}, cby(1), 0, `unknown key "per_gpu"`},
		{"only per_token", "http://r/", nil, map[string]*big.Int{"per_token": big.NewInt(5)}, cby(1), 0, ""},
		{"zero rates", "http://r/", nil, map[string]*big.Int{"per_job": zero(), "per_kb": zero()}, cby(1), 0, ""},
		{"commission of 100%", "http://r/", nil, defaultRates, cby(1), 10_000, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 1)
			before := e.money()
			_, err := e.call(RegistryAddress, e.runner(0), cby(10_000), "register", tc.endpoint, tc.models, []string{"example.com"}, tc.rates, tc.maxValue, tc.commision)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				if !equalMoney(before, e.money()) {
					t.Fatal("a refused registration moved money")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r := e.rec(e.runner(0))
			wantModels := slices.Compact(slices.Sorted(slices.Values(tc.models)))
			if r.Endpoint != tc.endpoint || !slices.Equal(r.Models, wantModels) || r.CommissionBps != tc.commision || r.MaxJobValue.Cmp(tc.maxValue) != 0 {
				t.Fatalf("stored %q %q %d %s", r.Endpoint, r.Models, r.CommissionBps, r.MaxJobValue)
			}
			for k, got := range map[string]*big.Int{"per_job": r.Rates.PerJob, "per_token": r.Rates.PerToken, "per_kb": r.Rates.PerKB} {
				want := tc.rates[k]
				if want == nil {
					want = zero()
				}
				if got == nil || got.Cmp(want) != 0 {
					t.Fatalf("rate %s = %v, want %s", k, got, want)
				}
			}
		})
	}
}

// TestUpdateAddsSelfBond: update replaces the profile and adds the value
// to the self-bond, checked against the stake rules with the new profile.
func TestUpdateAddsSelfBond(t *testing.T) {
	e := newEnv(t, 1)
	e.register(0, 10_000, 0)
	r := e.runner(0)
	before := e.money()
	// A max job value of 10,000 CBY needs 15,000 effective.
	if _, err := e.call(RegistryAddress, r, cby(4_999), "update", "http://new/", []string{"m2"}, []string{}, defaultRates, cby(10_000), uint64(7)); err == nil || !strings.Contains(err.Error(), "below max(10,000 CBY") {
		t.Fatalf("update short of the stake: %v", err)
	}
	if !equalMoney(before, e.money()) {
		t.Fatal("a refused update moved money")
	}
	res := e.must(RegistryAddress, r, cby(5_000), "update", "http://new/", []string{"m2"}, []string{}, defaultRates, cby(10_000), uint64(7))
	got := e.rec(r)
	if got.SelfBond.Cmp(cby(15_000)) != 0 || got.Endpoint != "http://new/" || got.CommissionBps != 7 || !slices.Equal(got.Models, []string{"m2"}) {
		t.Fatalf("after update: self-bond %s endpoint %q commission %d models %q", got.SelfBond, got.Endpoint, got.CommissionBps, got.Models)
	}
	if e.st.Balance(RegistryAddress).Cmp(cby(15_000)) != 0 {
		t.Fatalf("registry holds %s", e.st.Balance(RegistryAddress))
	}
	var ev map[string]any
	if err := types.Unmarshal(res.Events[0].Data, &ev); err != nil {
		t.Fatal(err)
	}
	if b, ok := ev["self_bond"].(big.Int); !ok || b.Cmp(cby(15_000)) != 0 {
		t.Fatalf("event self_bond %v", ev["self_bond"])
	}
	if _, err := e.call(RegistryAddress, user(1), nil, "update", "http://new/", []string{}, []string{}, defaultRates, cby(1), uint64(0)); err == nil || !strings.Contains(err.Error(), "not a registered runner") {
		t.Fatalf("update by a stranger: %v", err)
	}
}

// TestDelegationEdges: the refusals of delegate, undelegate and withdraw
// at their bounds, and the bookkeeping when a delegation is emptied.
func TestDelegationEdges(t *testing.T) {
	u2, u3 := user(2), user(3)
	e := newEnv(t, 1)
	e.register(0, 10_000, 0)
	r := e.runner(0)
	refused := func(from types.Address, value *big.Int, method, want string, args ...any) {
		t.Helper()
		before := e.money()
		if _, err := e.call(RegistryAddress, from, value, method, args...); err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%s: %v, want %q", method, err, want)
		}
		if !equalMoney(before, e.money()) {
			t.Fatalf("a refused %s moved money", method)
		}
	}
	refused(user(1), zero(), "delegate", "needs a positive value", r[:])
	refused(r, cby(1), "delegate", "bonds its own stake with update", r[:])
	refused(user(1), cby(1), "delegate", "not a registered runner", u2[:])
	e.must(RegistryAddress, user(1), cby(100), "delegate", r[:])
	e.must(RegistryAddress, user(1), cby(50), "delegate", r[:])
	if d, _ := ReadDelegation(e.st, r, user(1)); d == nil || d.Amount.Cmp(cby(150)) != 0 || len(e.rec(r).Delegators) != 1 {
		t.Fatalf("two delegations: %+v, delegators %d", d, len(e.rec(r).Delegators))
	}
	refused(user(1), nil, "undelegate", "amount must be 1", r[:], zero())
	refused(user(1), nil, "undelegate", "amount must be 1", r[:], new(big.Int).Add(cby(150), big.NewInt(1)))
	refused(user(1), cby(1), "undelegate", "takes no value", r[:], cby(1))
	refused(user(2), nil, "undelegate", "has no delegation", r[:], cby(1))
	// Tranches: max_active_tranches_per_delegator (8) of them at once.
	for i := uint64(0); i < dp.MaxTranches-1; i++ {
		e.must(RegistryAddress, user(1), nil, "undelegate", r[:], cby(1))
	}
	e.must(RegistryAddress, user(1), nil, "undelegate", r[:], new(big.Int).Sub(cby(150), cby(int64(dp.MaxTranches-1)))) // the rest: 8 tranches
	if got := e.rec(r).Delegated; got.Sign() != 0 {
		t.Fatalf("delegated %s after undelegating everything", got)
	}
	e.must(RegistryAddress, user(1), cby(10), "delegate", r[:])
	refused(user(1), nil, "undelegate", "8 unbonding tranches", r[:], cby(1))
	refused(user(1), cby(1), "withdraw", "takes no value", r[:])
	refused(user(2), nil, "withdraw", "has no delegation", r[:])
	refused(user(1), nil, "withdraw", "not a registered runner", u3[:])
	// All eight tranches mature together; the delegation keeps its 10
	// bonded CBY, so the delegator stays listed.
	e.height += dp.UnbondingBlocks
	bal := new(big.Int).Set(e.st.Balance(user(1)))
	e.must(RegistryAddress, user(1), nil, "withdraw", r[:])
	if got := new(big.Int).Sub(e.st.Balance(user(1)), bal); got.Cmp(cby(150)) != 0 {
		t.Fatalf("withdrew %s, want 150 CBY", got)
	}
	if len(e.rec(r).Delegators) != 1 {
		t.Fatal("a delegator with a bonded amount was dropped")
	}
	refused(user(1), nil, "withdraw", "nothing to withdraw", r[:])
	// Emptied: undelegated and withdrawn, the delegator leaves the list.
	e.must(RegistryAddress, user(1), nil, "undelegate", r[:], cby(10))
	e.height += dp.UnbondingBlocks
	e.must(RegistryAddress, user(1), nil, "withdraw", r[:])
	if d := e.rec(r).Delegators; len(d) != 0 {
		t.Fatalf("delegators %v after the last withdrawal", d)
	}
	if e.st.Balance(RegistryAddress).Cmp(cby(10_000)) != 0 {
		t.Fatalf("registry holds %s, want the self-bond", e.st.Balance(RegistryAddress))
	}
}

// TestExitAndWithdrawEdges: exit takes no arguments or value, unbonds the
// self-bond and every delegation, and the self-bond comes back exactly
// unbonding_blocks after the exit, not a block before.
func TestExitAndWithdrawEdges(t *testing.T) {
	e := newEnv(t, 2)
	e.register(0, 10_000, 0)
	e.register(1, 10_000, 0)
	r := e.runner(0)
	e.must(RegistryAddress, user(1), cby(100), "delegate", r[:])
	e.must(RegistryAddress, user(2), cby(200), "delegate", r[:])
	e.must(RegistryAddress, user(2), nil, "undelegate", r[:], cby(200))
	if _, err := e.call(RegistryAddress, r, cby(1), "exit"); err == nil || !strings.Contains(err.Error(), "takes no value") {
		t.Fatalf("exit with value: %v", err)
	}
	if _, err := e.call(RegistryAddress, r, nil, "exit", uint64(1)); err == nil || !strings.Contains(err.Error(), "takes no arguments") {
		t.Fatalf("exit with an argument: %v", err)
	}
	r1 := e.runner(1)
	if _, err := e.call(RegistryAddress, r1, nil, "withdraw", r1[:]); err == nil || !strings.Contains(err.Error(), "only after exit") {
		t.Fatalf("self withdraw before exit: %v", err)
	}
	e.height = 100
	res := e.must(RegistryAddress, r, nil, "exit")
	var ev map[string]any
	if err := types.Unmarshal(res.Events[0].Data, &ev); err != nil || ev["release"] != 100+dp.UnbondingBlocks {
		t.Fatalf("exit event %v %v", ev, err)
	}
	rec := e.rec(r)
	if !rec.Exiting || rec.ExitAt != 100 || rec.SelfBond.Sign() != 0 || rec.SelfUnbonding.Cmp(cby(10_000)) != 0 || rec.Delegated.Sign() != 0 {
		t.Fatalf("after exit: %+v", rec)
	}
	d1, _ := ReadDelegation(e.st, r, user(1))
	if d1.Amount.Sign() != 0 || len(d1.Unbonding) != 1 || d1.Unbonding[0].Release != 100+dp.UnbondingBlocks || d1.Unbonding[0].Amount.Cmp(cby(100)) != 0 {
		t.Fatalf("delegation after exit: %+v", d1)
	}
	d2, _ := ReadDelegation(e.st, r, user(2))
	if len(d2.Unbonding) != 1 { // nothing bonded: no second tranche
		t.Fatalf("an emptied delegation got %d tranches", len(d2.Unbonding))
	}
	if _, err := e.call(RegistryAddress, r, nil, "exit"); err == nil || !strings.Contains(err.Error(), "is exiting") {
		t.Fatalf("exit twice: %v", err)
	}
	e.height = 100 + dp.UnbondingBlocks - 1
	// The message names the release height (error text reaches the
	// receipt, so it is consensus).
	wantErr := fmt.Sprintf("the self-bond unbonds until height %d (now %d)", 100+dp.UnbondingBlocks, e.height)
	if _, err := e.call(RegistryAddress, r, nil, "withdraw", r[:]); err == nil || !strings.Contains(err.Error(), wantErr) {
		t.Fatalf("self withdraw a block early: %v, want %q", err, wantErr)
	}
	e.height++
	bal := new(big.Int).Set(e.st.Balance(r))
	e.must(RegistryAddress, r, nil, "withdraw", r[:])
	if got := new(big.Int).Sub(e.st.Balance(r), bal); got.Cmp(cby(10_000)) != 0 {
		t.Fatalf("self-bond withdrawn %s", got)
	}
	// Delegators remain: the runner stays registered until they withdraw.
	if got, _ := ReadRunner(e.st, r); got == nil {
		t.Fatal("the runner left while delegators were unbonding")
	}
	e.must(RegistryAddress, user(1), nil, "withdraw", r[:])
	if got, _ := ReadRunner(e.st, r); got == nil {
		t.Fatal("the runner left while a delegator was unbonding")
	}
	res = e.must(RegistryAddress, user(2), nil, "withdraw", r[:])
	if got, _ := ReadRunner(e.st, r); got != nil {
		t.Fatal("the runner stayed with nothing bonded")
	}
	// The withdrawal that empties the runner still reports what it paid.
	ev = nil
	if len(res.Events) != 1 {
		t.Fatalf("last withdrawal: %d events", len(res.Events))
	}
	if err := types.Unmarshal(res.Events[0].Data, &ev); err != nil || ev["amount"] == nil {
		t.Fatalf("last withdrawal's event %v %v", ev, err)
	}
	if l, _ := Runners(e.st); !slices.Equal(l, []types.Address{e.runner(1)}) {
		t.Fatalf("index %v", l)
	}
}

// TestModelEdges: publish_model and retract_model's checks.
func TestModelEdges(t *testing.T) {
	e := newEnv(t, 0)
	id := make([]byte, 32)
	id[0] = 9
	for _, tc := range []struct {
		name  string
		value *big.Int
		args  []any
		want  string
	}{
		{"short id", dp.ModelDeposit, []any{id[:31], "m"}, "model_id must be 32 bytes"},
		{"empty name", dp.ModelDeposit, []any{id, ""}, "name must be 1 to 128 bytes"},
		{"name of 129 bytes", dp.ModelDeposit, []any{id, strings.Repeat("n", 129)}, "name must be 1 to 128 bytes"},
		{"deposit too large", new(big.Int).Add(dp.ModelDeposit, big.NewInt(1)), []any{id, "m"}, "deposit of exactly"},
		{"one argument", dp.ModelDeposit, []any{id}, "takes 2 arguments"},
	} {
		before := e.money()
		if _, err := e.call(RegistryAddress, user(1), tc.value, "publish_model", tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if !equalMoney(before, e.money()) {
			t.Fatalf("%s moved money", tc.name)
		}
	}
	e.must(RegistryAddress, user(1), dp.ModelDeposit, "publish_model", id, strings.Repeat("n", 128))
	m, err := ReadModel(e.st, [32]byte(id))
	if err != nil || m == nil || m.Publisher != user(1) || m.Deposit.Cmp(dp.ModelDeposit) != 0 || m.Height != e.height {
		t.Fatalf("model %+v %v", m, err)
	}
	if _, err := e.call(RegistryAddress, user(2), dp.ModelDeposit, "publish_model", id, "m"); err == nil || !strings.Contains(err.Error(), "already published") {
		t.Fatalf("publish twice: %v", err)
	}
	if _, err := e.call(RegistryAddress, user(1), cby(1), "retract_model", id); err == nil || !strings.Contains(err.Error(), "takes no value") {
		t.Fatalf("retract with value: %v", err)
	}
	if _, err := e.call(RegistryAddress, user(1), nil, "retract_model", id[:31]); err == nil || !strings.Contains(err.Error(), "model_id must be 32 bytes") {
		t.Fatalf("retract a short id: %v", err)
	}
	e.must(RegistryAddress, user(1), nil, "retract_model", id)
	if _, err := e.call(RegistryAddress, user(1), nil, "retract_model", id); err == nil || !strings.Contains(err.Error(), "not published") {
		t.Fatalf("retract twice: %v", err)
	}
	if e.st.Balance(RegistryAddress).Sign() != 0 {
		t.Fatal("the registry kept the deposit")
	}
}

// TestReadJobNormalizes: a record whose amounts are absent reads back
// with zero amounts, and a record that does not decode is an error.
func TestReadJobNormalizes(t *testing.T) {
	e := newEnv(t, 0)
	writeJob(e.st, &Job{ID: 9, Posted: 3})
	j, err := ReadJob(e.st, 9)
	if err != nil || j == nil || j.Posted != 3 {
		t.Fatalf("read: %+v %v", j, err)
	}
	for i, p := range []*big.Int{j.Escrow, j.Payment, j.Refund, j.Burned, j.Treasury, j.CallbackFee, j.Held, j.Bond, j.Tip, j.Spec.Tip} {
		if p == nil || p.Sign() != 0 {
			t.Fatalf("amount %d is %v, want 0", i, p)
		}
	}
	if j, err := ReadJob(e.st, 10); j != nil || err != nil {
		t.Fatalf("a missing job: %+v %v", j, err)
	}
	e.st.Set(jobKey(11), []byte{0xff})
	if _, err := ReadJob(e.st, 11); err == nil {
		t.Fatal("a corrupt job record read")
	}
}

// TestAggregatorChoice: the committee's aggregator is the member with
// the highest reputation; on a tie, the first member drawn.
func TestAggregatorChoice(t *testing.T) {
	for _, tc := range []struct {
		name string
		reps []uint64 // runners 0, 1, 2
	}{
		{"all equal", []uint64{5_000, 5_000, 5_000}},
		{"one higher", []uint64{5_000, 6_000, 5_000}},
		{"two higher, equal", []uint64{4_000, 6_000, 6_000}},
		{"falling", []uint64{9_000, 6_000, 3_000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 3)
			for i := 0; i < 3; i++ {
				e.register(i, 10_000, 0)
				r := e.rec(e.runner(i))
				r.Reputation = tc.reps[i]
				writeRunner(e.st, e.runner(i), r)
			}
			j := e.post(user(1), spec(TrustMajority, 3, cby(10), nil))
			want, best := j.Members[0], uint64(0)
			for _, m := range j.Members {
				if r := e.rec(m).Reputation; r > best {
					want, best = m, r
				}
			}
			if j.Aggregator != want {
				t.Fatalf("members %v, aggregator %s, want %s", j.Members, j.Aggregator, want)
			}
			for _, m := range j.Members {
				if e.rec(m).Jobs != 1 {
					t.Fatalf("member %s has %d jobs", m, e.rec(m).Jobs)
				}
			}
		})
	}
}

// TestParamsValidate checks every parameter bound at the bound and one
// past it, naming the genesis.json key.
func TestParamsValidate(t *testing.T) {
	if err := DefaultParams().Validate(); err != nil {
		t.Fatalf("the defaults: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(p *Params)
		want string // "" valid
	}{
		{"stake floor 1", func(p *Params) { p.StakeFloor = big.NewInt(1) }, ""},
		{"stake floor 0", func(p *Params) { p.StakeFloor = zero() }, "runner.stake_floor"},
		{"no stake floor", func(p *Params) { p.StakeFloor = nil }, "runner.stake_floor"},
		{"model deposit 0", func(p *Params) { p.ModelDeposit = zero() }, ""},
		{"model deposit −1", func(p *Params) { p.ModelDeposit = big.NewInt(-1) }, "runner.model_deposit"},
		{"no model deposit", func(p *Params) { p.ModelDeposit = nil }, "runner.model_deposit"},
		{"challenge bond 1", func(p *Params) { p.ChallengeBond = big.NewInt(1) }, ""},
		{"challenge bond 0", func(p *Params) { p.ChallengeBond = zero() }, "runner.challenge_bond"},
		{"no challenge bond", func(p *Params) { p.ChallengeBond = nil }, "runner.challenge_bond"},
		{"self-bond 1 bps", func(p *Params) { p.MinSelfBondBps = 1 }, ""},
		{"self-bond 0 bps", func(p *Params) { p.MinSelfBondBps = 0 }, "runner.min_self_bond_bps 0: want 1 … 10000"},
		{"self-bond 10,000 bps", func(p *Params) { p.MinSelfBondBps = 10_000 }, ""},
		{"self-bond 10,001 bps", func(p *Params) { p.MinSelfBondBps = 10_001 }, "runner.min_self_bond_bps 10001"},
		{"slash 0 bps", func(p *Params) { p.SlashBps = 0 }, ""},
		{"slash 10,001 bps", func(p *Params) { p.SlashBps = 10_001 }, "runner.slash_bps"},
		{"aggregator bonus 10,001 bps", func(p *Params) { p.AggregatorBonusBps = 10_001 }, "runner.aggregator_bonus_bps"},
		{"unbonding 1", func(p *Params) { p.UnbondingBlocks = 1 }, ""},
		{"unbonding 0", func(p *Params) { p.UnbondingBlocks = 0 }, "runner.unbonding_blocks 0: want 1 … 10000000"},
		{"unbonding at the bound", func(p *Params) { p.UnbondingBlocks = MaxUnbondingBlocks }, ""},
		{"unbonding past the bound", func(p *Params) { p.UnbondingBlocks = MaxUnbondingBlocks + 1 }, "runner.unbonding_blocks"},
		{"delegators past the bound", func(p *Params) { p.MaxDelegators = MaxDelegatorsBound + 1 }, "runner.max_delegators_per_runner"},
		{"tranches 0", func(p *Params) { p.MaxTranches = 0 }, "runner.max_tranches_per_delegator"},
		{"committee past max_committee", func(p *Params) { p.Committee, p.MaxCommittee = 10, 9 }, "runner.committee 10: want 1 … 9"},
		{"max committee past the bound", func(p *Params) { p.MaxCommittee = MaxCommitteeBound + 1 }, "runner.max_committee"},
		{"reexecution committee 0", func(p *Params) { p.ReexecutionCommittee = 0 }, "runner.reexecution_committee"},
		{"reexecution committee at max_committee", func(p *Params) { p.ReexecutionCommittee = 9 }, ""},
		{"reexecution committee past max_committee", func(p *Params) { p.ReexecutionCommittee = 10 }, "runner.reexecution_committee"},
		{"max timeout past the bound", func(p *Params) { p.MaxTimeoutBlocks = MaxTimeoutBound + 1 }, "runner.max_timeout_blocks"},
		{"aggregator timeout past the bound", func(p *Params) { p.AggregatorTimeoutBlocks = 1_001 }, "runner.aggregator_timeout_blocks"},
		{"challenge window 0", func(p *Params) { p.ChallengeWindowBlocks = 0 }, "runner.challenge_window_blocks"},
		{"min reputation at the top", func(p *Params) { p.MinReputation, p.InitialReputation = MaxReputation, MaxReputation }, ""},
		{"initial reputation below the minimum", func(p *Params) { p.InitialReputation = p.MinReputation - 1 }, "runner.initial_reputation 999: want 1000 … 10000"},
		{"initial reputation past the top", func(p *Params) { p.InitialReputation = MaxReputation + 1 }, "runner.initial_reputation"},
		{"success reward past the top", func(p *Params) { p.RepSuccess = MaxReputation + 1 }, "runner.reputation_success"},
		{"timeout penalty past the top", func(p *Params) { p.RepTimeout = MaxReputation + 1 }, "runner.reputation_timeout"},
		{"invalid penalty past the top", func(p *Params) { p.RepInvalid = MaxReputation + 1 }, "runner.reputation_invalid"},
		{"slashed penalty past the top", func(p *Params) { p.RepSlashed = MaxReputation + 1 }, "runner.reputation_slashed"},
		{"usage penalty past the top", func(p *Params) { p.RepUsage = MaxReputation + 1 }, "runner.reputation_usage"},
		{"usage review at 1×", func(p *Params) { p.UsageReviewBps = 10_000 }, ""},
		{"usage review below 1×", func(p *Params) { p.UsageReviewBps = 9_999 }, "runner.usage_review_bps"},
		{"usage review past the bound", func(p *Params) { p.UsageReviewBps = MaxUsageReviewBps + 1 }, "runner.usage_review_bps"},
		{"threshold 3 of 4", func(p *Params) { p.Committee, p.Threshold = 4, 3 }, ""},
		{"threshold 2 of 4", func(p *Params) { p.Committee, p.Threshold = 4, 2 }, "runner.threshold 2 must be a majority of runner.committee 4"},
		{"threshold 5 of 5", func(p *Params) { p.Threshold = 5 }, ""},
		{"threshold 6 of 5", func(p *Params) { p.Threshold = 6 }, "runner.threshold 6"},
		// max(2, 6/2) + 1 + 2 = 6.
		{"min timeout just fits", func(p *Params) { p.MinTimeoutBlocks = 6 }, ""},
		{"min timeout one short", func(p *Params) { p.MinTimeoutBlocks, p.AggregatorTimeoutBlocks = 6, 3 }, "runner.min_timeout_blocks 6 leaves no room for individual reveals after aggregator_timeout_blocks 3: want at least 7"},
		// max(2, 4/2) + 1 + 1 = 4: the floor of 2 decides.
		{"min timeout 4 with the commit floor", func(p *Params) { p.MinTimeoutBlocks, p.AggregatorTimeoutBlocks = 4, 1 }, ""},
		{"min timeout 3 with the commit floor", func(p *Params) { p.MinTimeoutBlocks, p.AggregatorTimeoutBlocks = 3, 1 }, "want at least 4"},
		{"min timeout 20", func(p *Params) { p.MinTimeoutBlocks, p.AggregatorTimeoutBlocks = 20, 9 }, ""},
		{"min timeout 20, aggregator 10", func(p *Params) { p.MinTimeoutBlocks, p.AggregatorTimeoutBlocks = 20, 10 }, "want at least 21"},
		{"default timeout at the minimum", func(p *Params) { p.DefaultTimeoutBlocks = p.MinTimeoutBlocks }, ""},
		{"default timeout below the minimum", func(p *Params) { p.DefaultTimeoutBlocks = p.MinTimeoutBlocks - 1 }, "runner.default_timeout_blocks 5 must be within"},
		{"default timeout at the maximum", func(p *Params) { p.DefaultTimeoutBlocks = p.MaxTimeoutBlocks }, ""},
		{"default timeout past the maximum", func(p *Params) { p.DefaultTimeoutBlocks = p.MaxTimeoutBlocks + 1 }, "runner.default_timeout_blocks 7201"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := DefaultParams()
			tc.edit(&p)
			err := p.Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestParamsGenesis: the defaults are not written (a chain keeping them
// has the state root it had before), others are and load back; invalid
// ones are refused; RequiredStake is max(floor, 1.5 × max job value).
func TestParamsGenesis(t *testing.T) {
	e := newEnv(t, 0)
	if err := InitGenesis(e.st, DefaultParams()); err != nil {
		t.Fatal(err)
	}
	if e.st.Get(paramsKey) != nil {
		t.Fatal("the default parameters were written")
	}
	p := DefaultParams()
	p.RepUsage = 3
	if err := InitGenesis(e.st, p); err != nil {
		t.Fatal(err)
	}
	got, err := LoadParams(e.st)
	if err != nil || !got.Equal(p) || got.Equal(DefaultParams()) {
		t.Fatalf("loaded %+v %v", got, err)
	}
	bad := DefaultParams()
	bad.SlashBps = 10_001
	if err := InitGenesis(newEnv(t, 0).st, bad); err == nil {
		t.Fatal("invalid parameters written at genesis")
	}
	for _, tc := range []struct{ maxValue, want *big.Int }{
		{cby(1_000), cby(10_000)},
		{new(big.Int).Div(cby(20_000), big.NewInt(3)), cby(10_000)}, // 1.5 × is just under the floor
		{cby(10_000), cby(15_000)},
		{big.NewInt(3), cby(10_000)},
		{cby(20_001), new(big.Int).Add(cby(30_001), milli(500))},
	} {
		if got := dp.RequiredStake(tc.maxValue); got.Cmp(tc.want) != 0 {
			t.Errorf("RequiredStake(%s) = %s, want %s", tc.maxValue, got, tc.want)
		}
	}
	q := DefaultParams()
	q.StakeFloor = big.NewInt(15)
	if got := q.RequiredStake(big.NewInt(11)); got.Cmp(big.NewInt(16)) != 0 { // 33 / 2, rounded down
		t.Fatalf("1.5 × 11 = %s, want 16", got)
	}
	if got := q.RequiredStake(big.NewInt(10)); got.Cmp(big.NewInt(15)) != 0 {
		t.Fatalf("1.5 × 10 = %s, want 15", got)
	}
}

// TestNamesAndAddresses: the system actors' names and which addresses
// take transactions.
func TestNamesAndAddresses(t *testing.T) {
	for a, want := range map[types.Address]string{RegistryAddress: "runner registry", DispatcherAddress: "job dispatcher", VerifierAddress: "result verifier", TreasuryAddress: "treasury", user(1): user(1).String()} {
		if got := Name(a); got != want {
			t.Errorf("Name(%s) = %q, want %q", a, got, want)
		}
	}
	for _, tc := range []struct {
		a               types.Address
		handles, system bool
	}{{RegistryAddress, true, true}, {DispatcherAddress, true, true}, {VerifierAddress, true, true}, {TreasuryAddress, false, true}, {user(1), false, false}} {
		if Handles(tc.a) != tc.handles || IsSystem(tc.a) != tc.system {
			t.Errorf("%s: handles %v system %v", tc.a, Handles(tc.a), IsSystem(tc.a))
		}
	}
	e := newEnv(t, 0)
	if _, err := e.call(TreasuryAddress, user(1), nil, "x"); err == nil || !strings.Contains(err.Error(), "treasury takes no transactions") {
		t.Fatalf("a call to the treasury: %v", err)
	}
	if _, err := e.call(RegistryAddress, user(1), nil, "steal"); err == nil || !strings.Contains(err.Error(), `unknown method "steal": it has delegate, exit, publish_model, register, retract_model, undelegate, update, withdraw`) {
		t.Fatalf("an unknown method: %v", err)
	}
	for p, want := range map[uint8]string{PhaseCommitting: "committing", PhaseRevealing: "revealing", PhaseSettled: "settled", PhaseFailed: "failed", 0: "unknown"} {
		if got := PhaseName(p); got != want {
			t.Errorf("PhaseName(%d) = %q", p, got)
		}
	}
}

// TestDeliveryLists: delivering or postponing a continuation removes it
// from its height's due list (wherever it sits there) and Postpone adds
// it to the next height's.
func TestDeliveryLists(t *testing.T) {
	e := newEnv(t, 0)
	for id := uint64(1); id <= 3; id++ {
		writeJob(e.st, &Job{ID: id, Tip: big.NewInt(int64(id % 2))})
	}
	writeList(e.st, deliveryKey(10), []uint64{1, 2, 3})
	due, err := Deliveries(e.st, 10)
	if err != nil || len(due) != 3 {
		t.Fatalf("due: %d %v", len(due), err)
	}
	// Tips first (jobs 1 and 3 tip 1), then settlement order.
	if due[0].Job.ID != 1 || due[1].Job.ID != 3 || due[2].Job.ID != 2 {
		t.Fatalf("order %d %d %d", due[0].Job.ID, due[1].Job.ID, due[2].Job.ID)
	}
	list := func(h uint64) []uint64 {
		l, err := readList[uint64](e.st, deliveryKey(h), "deliveries")
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	j1 := e.job(1)
	MarkDelivered(e.st, j1, 10, CallbackReceipt{OK: true, Cycles: 5, Cells: 6, Fee: big.NewInt(7)})
	if l := list(10); !slices.Equal(l, []uint64{2, 3}) {
		t.Fatalf("after delivering the first: %v", l)
	}
	if j := e.job(1); j.Delivered != 10 || !j.CallbackOK || j.CallbackCycles != 5 || j.CallbackCells != 6 || j.CallbackFee.Cmp(big.NewInt(7)) != 0 {
		t.Fatalf("receipt %+v", j)
	}
	// The next height already has a continuation due: the postponed one
	// joins it, after it.
	writeList(e.st, deliveryKey(11), []uint64{4})
	Postpone(e.st, e.job(3), 10)
	if l := list(10); !slices.Equal(l, []uint64{2}) {
		t.Fatalf("after postponing: %v", l)
	}
	if l := list(11); !slices.Equal(l, []uint64{4, 3}) || e.job(3).DeliverAt != 11 {
		t.Fatalf("next height: %v, deliver at %d", l, e.job(3).DeliverAt)
	}
	MarkDelivered(e.st, e.job(2), 10, CallbackReceipt{Error: "out of cycles"})
	if l := list(10); len(l) != 0 || e.job(2).CallbackError != "out of cycles" {
		t.Fatalf("after the last: %v", l)
	}
	if d, err := Deliveries(e.st, 10); err != nil || len(d) != 0 {
		t.Fatalf("due after all delivered: %d %v", len(d), err)
	}
	writeList(e.st, deliveryKey(12), []uint64{99, 3})
	if d, err := Deliveries(e.st, 12); err != nil || len(d) != 1 || d[0].Job.ID != 3 {
		t.Fatalf("a due id without a job is skipped: %v", err)
	}
}

// TestSampleEdges: a runner whose max job value equals max_price is
// eligible; with no runner for an HTTP job's domain the error names it;
// the weighted draw walks the candidates in index order (weights 1 and
// 1: an even hash picks the first, an odd one the second); the post
// event names the job, its members and its phase.
func TestSampleEdges(t *testing.T) {
	e := newEnv(t, 2)
	p := DefaultParams()
	p.StakeFloor = big.NewInt(1)
	e.st.Set(paramsKey, mustMarshal(p))
	for i := 0; i < 2; i++ {
		e.must(RegistryAddress, e.runner(i), big.NewInt(1), "register", "http://r/", []string{"m1"}, []string{"example.com"},
			map[string]*big.Int{}, big.NewInt(1), uint64(0))
	}
	idx, _ := Runners(e.st)
	picked := map[types.Address]bool{}
	for b := byte(0); b < 8; b++ {
		beacon := [32]byte{b}
		id := JobCount(e.st) + 1
		res, err := Apply(e.st, Call{To: DispatcherAddress, From: user(1), Value: big.NewInt(1), Height: e.height, Beacon: beacon, Cycles: 10_000_000,
			Payload: Payload("post", spec(TrustNone, 1, big.NewInt(1), nil))})
		if err != nil {
			t.Fatal(err)
		}
		var idb [8]byte
		binary.BigEndian.PutUint64(idb[:], id)
		h := crypto.Keccak256([]byte("cowboy/committee/v1"), beacon[:], idb[:], []byte{0})
		want := idx[h[31]&1]
		j := e.job(id)
		if len(j.Members) != 1 || j.Members[0] != want {
			t.Fatalf("beacon %d: members %v, want %s", b, j.Members, want)
		}
		picked[want] = true
		var ev map[string]any
		if err := types.Unmarshal(res.Events[0].Data, &ev); err != nil || ev["job_id"] != id || ev["phase"] != "committing" {
			t.Fatalf("post event %v %v", ev, err)
		}
		if m, ok := ev["members"].([]any); !ok || len(m) != 1 {
			t.Fatalf("post event members %v", ev["members"])
		}
	}
	if len(picked) != 2 {
		t.Fatalf("eight beacons drew only %v", picked)
	}
	// max_price above every runner's max job value: no committee.
	j := e.post(user(2), spec(TrustNone, 1, big.NewInt(2), nil))
	if j.Outcome != OutcomeNoRunners || !strings.Contains(j.Error, "0 eligible runner(s) for model m1") {
		t.Fatalf("outcome %q error %q", j.Outcome, j.Error)
	}
	in, _ := types.Marshal(map[string]any{"url": "https://example.org/x"})
	j = e.post(user(2), map[string]any{"kind": "http", "input": rawCBOR(in), "trust": TrustNone, "max_price": big.NewInt(1)})
	if j.Outcome != OutcomeNoRunners || !strings.Contains(j.Error, "for domain example.org") {
		t.Fatalf("http: outcome %q error %q", j.Outcome, j.Error)
	}
}
