package runner

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"net/url"
	"slices"
	"strings"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// Job kinds.
const (
	KindLLM  = "llm"  // chat completion by a model (§17.2 LlmRequest)
	KindHTTP = "http" // an HTTP fetch with extraction
)

// Trust models (the verification modes of "LLM Result Verification").
const (
	TrustNone       = "none"
	TrustBond       = "economic_bond"
	TrustMajority   = "majority_vote"
	TrustStructured = "structured_match"
	TrustExact      = "deterministic"
	TrustSemantic   = "semantic_similarity"
)

var trustModes = []string{TrustNone, TrustBond, TrustMajority, TrustStructured, TrustExact, TrustSemantic}

// Job phases.
const (
	PhaseCommitting uint8 = 1
	PhaseRevealing  uint8 = 2
	PhaseSettled    uint8 = 3 // accepted and paid
	PhaseFailed     uint8 = 4 // ended with an error result
)

// PhaseName names a phase for clients.
func PhaseName(p uint8) string {
	switch p {
	case PhaseCommitting:
		return "committing"
	case PhaseRevealing:
		return "revealing"
	case PhaseSettled:
		return "settled"
	case PhaseFailed:
		return "failed"
	}
	return "unknown"
}

// Reveal is one member's revealed result.
type Reveal struct {
	Status     uint8  `cbor:"1,keyasint"`
	Output     []byte `cbor:"2,keyasint"`
	Usage      uint64 `cbor:"3,keyasint"`
	Sig        []byte `cbor:"4,keyasint"`
	Height     uint64 `cbor:"5,keyasint"`
	Aggregated bool   `cbor:"6,keyasint"` // arrived in the aggregator's reveal
}

// Job is the dispatcher's record of one job, from posting to delivery.
type Job struct {
	ID        uint64        `cbor:"1,keyasint"`
	Requester types.Address `cbor:"2,keyasint"`
	Spec      JobSpec       `cbor:"3,keyasint"`
	Escrow    *big.Int      `cbor:"4,keyasint"`
	Posted    uint64        `cbor:"5,keyasint"`
	// CommitDeadline is the last height a commit is accepted at; Deadline
	// (posted + timeout_blocks) the last height of a reveal, after which
	// the job settles with what was revealed.
	CommitDeadline uint64          `cbor:"6,keyasint"`
	Deadline       uint64          `cbor:"7,keyasint"`
	RevealOpen     uint64          `cbor:"8,keyasint"`
	Members        []types.Address `cbor:"9,keyasint"`
	Aggregator     types.Address   `cbor:"10,keyasint"`
	Commits        [][]byte        `cbor:"11,keyasint"` // per member; empty: none
	Reveals        []*Reveal       `cbor:"12,keyasint"` // per member; nil: none
	Phase          uint8           `cbor:"13,keyasint"`
	Outcome        string          `cbor:"14,keyasint"`
	Output         []byte          `cbor:"15,keyasint"`
	Error          string          `cbor:"16,keyasint"`
	Payment        *big.Int        `cbor:"17,keyasint"` // min(usage × rates, max_price) paid out
	Refund         *big.Int        `cbor:"18,keyasint"`
	Burned         *big.Int        `cbor:"19,keyasint"`
	Treasury       *big.Int        `cbor:"20,keyasint"`
	Winners        []types.Address `cbor:"21,keyasint"`
	Slashed        []types.Address `cbor:"22,keyasint"`
	Settled        uint64          `cbor:"23,keyasint"`
	DeliverAt      uint64          `cbor:"24,keyasint"` // 0: no continuation
	Delivered      uint64          `cbor:"25,keyasint"` // height the continuation ran
	CallbackError  string          `cbor:"26,keyasint"`
	Penalized      []types.Address `cbor:"27,keyasint"` // reputation only
	// The continuation's receipt: whether it ran to completion, and the
	// cycles, cells and fee the actor paid for it.
	CallbackOK     bool     `cbor:"28,keyasint"`
	CallbackCycles uint64   `cbor:"29,keyasint"`
	CallbackCells  uint64   `cbor:"30,keyasint"`
	CallbackFee    *big.Int `cbor:"31,keyasint"`
	// The challenge window of an economic_bond job (challenge.go): the
	// payment Held in escrow until ChallengeEnd, and a challenge's
	// re-execution job, challenger, bond and outcome. Parent links a
	// re-execution job to the job it checks.
	Held             *big.Int      `cbor:"32,keyasint"`
	ChallengeEnd     uint64        `cbor:"33,keyasint"`
	Challenger       types.Address `cbor:"34,keyasint"`
	ChallengeJob     uint64        `cbor:"35,keyasint"`
	Bond             *big.Int      `cbor:"36,keyasint"`
	ChallengeOutcome string        `cbor:"37,keyasint"`
	Parent           uint64        `cbor:"38,keyasint"`
	// AggregatorTimeout is aggregator_timeout_blocks when the job was
	// posted (Params): a job keeps the deadlines it was posted with.
	AggregatorTimeout uint64 `cbor:"39,keyasint"`
	// Tip is the part of the escrow that only a success pays (§17.7
	// "tips incentivize priority"; the payment table's Success row).
	Tip *big.Int `cbor:"40,keyasint"`
	// Reviews lists the members whose reported usage went to review
	// (">2× expected usage triggers automatic review").
	Reviews []UsageReview `cbor:"41,keyasint"`
}

// IndividualReveals is the first height at which a member that is not the
// aggregator may reveal its own result (§5.3 aggregator_timeout_blocks).
func (j *Job) IndividualReveals() uint64 {
	t := j.AggregatorTimeout
	if t == 0 { // a record from before the parameter was kept
		t = DefaultParams().AggregatorTimeoutBlocks
	}
	return j.RevealOpen + t
}

// JobSpec is what a requester asks for (§5.3 Post, §5.4, §17.2
// LlmRequest). On the wire it is a CBOR map with these text keys.
type JobSpec struct {
	Kind            string   `cbor:"kind"`
	Model           string   `cbor:"model,omitempty"`
	Input           []byte   `cbor:"input"` // canonical CBOR of the input value
	ResultSchema    string   `cbor:"result_schema,omitempty"`
	Trust           string   `cbor:"trust"`
	Committee       uint64   `cbor:"committee"`
	Threshold       uint64   `cbor:"threshold"`
	MaxPrice        *big.Int `cbor:"max_price"`
	Tip             *big.Int `cbor:"tip,omitempty"` // paid on success only, on top of max_price
	MaxTokens       uint64   `cbor:"max_tokens,omitempty"`
	MaxWallMS       uint64   `cbor:"max_wall_ms,omitempty"` // wall-time bound of one execution (§5.4 bounds); runners report it exceeded as impossible
	TimeoutBlocks   uint64   `cbor:"timeout_blocks"`
	Seed            uint64   `cbor:"seed"`
	ToolchainDigest []byte   `cbor:"toolchain_digest,omitempty"`
	Callback        string   `cbor:"callback,omitempty"`
	VoteField       string   `cbor:"vote_field,omitempty"`
	MatchFields     []string `cbor:"match_fields,omitempty"`
	SimilarityBps   uint64   `cbor:"similarity_bps,omitempty"`
	Domain          string   `cbor:"domain,omitempty"` // derived: the HTTP job's host
}

// specKeys are the keys a posted spec may have.
var specKeys = []string{"kind", "model", "input", "result_schema", "trust", "committee", "threshold", "max_price", "tip",
	"max_tokens", "max_wall_ms", "timeout_blocks", "seed", "toolchain_digest", "callback", "vote_field", "match_fields", "similarity_bps"}

// DecodeSpec reads and checks a posted spec (canonical CBOR map); the
// error says what is wrong. Defaults: trust majority_vote; the committee,
// threshold and timeout come from the parameters when the job is posted
// (Params.Committee, Threshold, DefaultTimeoutBlocks; committee 1 for
// none and economic_bond; a given committee's threshold defaults to a
// majority of it).
func DecodeSpec(b []byte) (JobSpec, error) {
	var s JobSpec
	var m map[string]cbor.RawMessage
	if err := types.Unmarshal(b, &m); err != nil {
		return s, fmt.Errorf("job spec must be a canonical CBOR map with text keys: %w", err)
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		raw := m[k]
		var err error
		switch k {
		case "kind":
			s.Kind, err = arg[string](raw, k)
		case "model":
			s.Model, err = arg[string](raw, k)
		case "input":
			s.Input = slices.Clone([]byte(raw))
		case "result_schema":
			s.ResultSchema, err = arg[string](raw, k)
		case "trust":
			s.Trust, err = arg[string](raw, k)
		case "committee":
			s.Committee, err = arg[uint64](raw, k)
		case "threshold":
			s.Threshold, err = arg[uint64](raw, k)
		case "max_price":
			s.MaxPrice, err = amountArg(raw, k)
		case "tip":
			s.Tip, err = amountArg(raw, k)
		case "max_tokens":
			s.MaxTokens, err = arg[uint64](raw, k)
		case "max_wall_ms":
			s.MaxWallMS, err = arg[uint64](raw, k)
		case "timeout_blocks":
			s.TimeoutBlocks, err = arg[uint64](raw, k)
		case "seed":
			s.Seed, err = arg[uint64](raw, k)
		case "toolchain_digest":
			s.ToolchainDigest, err = arg[[]byte](raw, k)
		case "callback":
			s.Callback, err = arg[string](raw, k)
		case "vote_field":
			s.VoteField, err = arg[string](raw, k)
		case "match_fields":
			s.MatchFields, err = arg[[]string](raw, k)
		case "similarity_bps":
			s.SimilarityBps, err = arg[uint64](raw, k)
		default:
			err = fmt.Errorf("unknown key %q: a job spec has %s", k, strings.Join(specKeys, ", "))
		}
		if err != nil {
			return s, fmt.Errorf("job spec: %w", err)
		}
	}
	if err := s.check(); err != nil {
		return s, fmt.Errorf("job spec: %w", err)
	}
	return s, nil
}

func (s *JobSpec) check() error {
	if s.Trust == "" {
		s.Trust = TrustMajority
	}
	if !slices.Contains(trustModes, s.Trust) {
		return fmt.Errorf("trust %q: want one of %s", s.Trust, strings.Join(trustModes, ", "))
	}
	single := s.Trust == TrustNone || s.Trust == TrustBond
	switch {
	case single && s.Committee > 1:
		return fmt.Errorf("trust %s runs on one runner: committee must be 1, got %d", s.Trust, s.Committee)
	case s.Committee > MaxCommitteeBound:
		return fmt.Errorf("committee %d exceeds %d", s.Committee, MaxCommitteeBound)
	case s.Committee != 0 && s.Threshold != 0 && (s.Threshold > s.Committee || s.Threshold*2 <= s.Committee):
		return fmt.Errorf("threshold %d must be a majority of the committee of %d (N-of-M with N > M/2)", s.Threshold, s.Committee)
	case s.MaxPrice == nil || s.MaxPrice.Sign() <= 0:
		return errors.New("max_price must be a positive amount (the escrow)")
	case s.TimeoutBlocks > MaxTimeoutBound:
		return fmt.Errorf("timeout_blocks %d exceeds %d", s.TimeoutBlocks, MaxTimeoutBound)
	}
	if s.Tip == nil {
		s.Tip = zero()
	}
	if s.MaxWallMS > MaxWallMS {
		return fmt.Errorf("max_wall_ms %d exceeds %d", s.MaxWallMS, MaxWallMS)
	}
	if len(s.Input) == 0 {
		return errors.New("input is missing")
	}
	if len(s.Input) > MaxInputBytes {
		return fmt.Errorf("input is %d bytes, at most %d", len(s.Input), MaxInputBytes)
	}
	if len(s.ToolchainDigest) != 0 && len(s.ToolchainDigest) != 32 {
		return fmt.Errorf("toolchain_digest must be 32 bytes, got %d", len(s.ToolchainDigest))
	}
	if len(s.ResultSchema) > MaxSchemaBytes {
		return fmt.Errorf("result_schema is %d bytes, at most %d", len(s.ResultSchema), MaxSchemaBytes)
	}
	if s.ResultSchema != "" {
		if _, err := parseSchema(s.ResultSchema); err != nil {
			return fmt.Errorf("result_schema: %w", err)
		}
	}
	if s.Trust == TrustStructured && s.ResultSchema == "" {
		return errors.New("structured_match needs a result_schema")
	}
	if s.SimilarityBps > 10_000 {
		return fmt.Errorf("similarity_bps %d exceeds 10000", s.SimilarityBps)
	}
	if s.Trust == TrustSemantic && s.SimilarityBps == 0 {
		s.SimilarityBps = DefaultSimilarity
	}
	if len(s.Callback) > 64 {
		return errors.New("callback must be a method name of at most 64 bytes")
	}
	switch s.Kind {
	case KindLLM:
		if s.Model == "" {
			return errors.New("an llm job needs a model")
		}
		var in map[string]any
		if err := types.Unmarshal(s.Input, &in); err != nil {
			return fmt.Errorf("an llm job's input must be a map with a prompt: %w", err)
		}
		if p, ok := in["prompt"].(string); !ok || p == "" {
			return errors.New(`an llm job's input needs "prompt", a non-empty str`)
		}
	case KindHTTP:
		var in map[string]any
		if err := types.Unmarshal(s.Input, &in); err != nil {
			return fmt.Errorf("an http job's input must be a map with a url: %w", err)
		}
		u, _ := in["url"].(string)
		pu, err := url.Parse(u)
		if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Hostname() == "" {
			return fmt.Errorf(`an http job's input needs "url", an http(s) URL, got %q`, u)
		}
		s.Domain = strings.ToLower(pu.Hostname())
	default:
		return fmt.Errorf("kind %q: want llm or http", s.Kind)
	}
	return nil
}

// withParams fills the defaults the parameters give and checks the bounds
// they set (§13 committee M and threshold N; timeouts).
func (s *JobSpec) withParams(p Params) error {
	single := s.Trust == TrustNone || s.Trust == TrustBond
	if s.Committee == 0 {
		s.Committee = p.Committee
		if single {
			s.Committee = 1
		} else if s.Threshold == 0 {
			s.Threshold = p.Threshold
		}
	}
	if s.Threshold == 0 {
		s.Threshold = s.Committee/2 + 1
	}
	if s.TimeoutBlocks == 0 {
		s.TimeoutBlocks = p.DefaultTimeoutBlocks
	}
	switch {
	case s.Committee > p.MaxCommittee:
		return fmt.Errorf("committee %d exceeds max_committee %d", s.Committee, p.MaxCommittee)
	case s.Threshold > s.Committee || s.Threshold*2 <= s.Committee:
		return fmt.Errorf("threshold %d must be a majority of the committee of %d (N-of-M with N > M/2)", s.Threshold, s.Committee)
	case s.TimeoutBlocks < p.MinTimeoutBlocks || s.TimeoutBlocks > p.MaxTimeoutBlocks:
		return fmt.Errorf("timeout_blocks %d must be %d … %d", s.TimeoutBlocks, p.MinTimeoutBlocks, p.MaxTimeoutBlocks)
	}
	return nil
}

// Escrow is what posting the job takes from its requester: max_price and
// the tip.
func (s *JobSpec) Escrow() *big.Int {
	e := new(big.Int).Set(s.MaxPrice)
	if s.Tip != nil {
		e.Add(e, s.Tip)
	}
	return e
}

// ReadJob returns a job's record, or nil.
func ReadJob(st *state.StateDB, id uint64) (*Job, error) {
	j, err := read[Job](st, jobKey(id), "job record")
	if err != nil || j == nil {
		return j, err
	}
	for _, p := range []**big.Int{&j.Escrow, &j.Payment, &j.Refund, &j.Burned, &j.Treasury, &j.CallbackFee, &j.Held, &j.Bond, &j.Tip, &j.Spec.Tip} {
		if *p == nil {
			*p = zero()
		}
	}
	return j, nil
}

func writeJob(st *state.StateDB, j *Job) { st.Set(jobKey(j.ID), mustMarshal(j)) }

// JobCount is how many jobs were ever posted (ids are 1 … JobCount).
func JobCount(st *state.StateDB) uint64 {
	b := st.Get(nextJobKey)
	if len(b) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

// Post is one job posting: by a transaction to 0x02 or an actor's
// runner.submit.
type Post struct {
	Requester types.Address
	Escrow    *big.Int // moved from the requester to 0x02; must equal max_price + tip
	Spec      []byte
	Height    uint64
	Beacon    [32]byte
}

// PostJob validates and records a job, takes its escrow and samples its
// committee (§5.3 Post and Assign). A job no committee can serve is
// recorded as failed at once, its escrow refunded, and (with a callback)
// its error result delivered in the next block. It returns the job id and
// the cycles the sampling used; on error nothing changed.
func PostJob(st *state.StateDB, p Post) (uint64, uint64, error) {
	spec, err := DecodeSpec(p.Spec)
	if err != nil {
		return 0, 0, err
	}
	params, err := LoadParams(st)
	if err != nil {
		return 0, 0, err
	}
	if err := spec.withParams(params); err != nil {
		return 0, 0, fmt.Errorf("job spec: %w", err)
	}
	return postSpec(st, params, spec, p, nil, 0)
}

// postSpec is PostJob of a decoded spec; exclude lists runners that may
// not sit on the committee, parent the job a re-execution checks.
func postSpec(st *state.StateDB, params Params, spec JobSpec, p Post, exclude []types.Address, parent uint64) (uint64, uint64, error) {
	if p.Escrow == nil || p.Escrow.Cmp(spec.Escrow()) != 0 {
		return 0, 0, fmt.Errorf("the escrow must equal max_price %s plus tip %s, got %v", spec.MaxPrice, spec.Tip, p.Escrow)
	}
	if IsSystem(p.Requester) {
		return 0, 0, fmt.Errorf("%s is a system actor and cannot post jobs", p.Requester)
	}
	snap := st.Snapshot()
	if err := st.SubBalance(p.Requester, p.Escrow); err != nil {
		return 0, 0, fmt.Errorf("escrow of %s base units: %w", p.Escrow, err)
	}
	st.AddBalance(DispatcherAddress, p.Escrow)
	id := JobCount(st) + 1
	var nb [8]byte
	binary.BigEndian.PutUint64(nb[:], id)
	st.Set(nextJobKey, nb[:])
	commitDL := p.Height + max(2, spec.TimeoutBlocks/2)
	j := &Job{ID: id, Requester: p.Requester, Spec: spec, Escrow: new(big.Int).Set(p.Escrow), Posted: p.Height,
		CommitDeadline: commitDL, Deadline: p.Height + spec.TimeoutBlocks, Phase: PhaseCommitting,
		Payment: zero(), Refund: zero(), Burned: zero(), Treasury: zero(), Held: zero(), Bond: zero(), Parent: parent,
		AggregatorTimeout: params.AggregatorTimeoutBlocks, Tip: new(big.Int).Set(spec.Tip)}
	members, cycles, why, err := sample(st, params, j, p.Beacon, exclude)
	if err != nil {
		st.RevertToSnapshot(snap)
		return 0, 0, err
	}
	if members == nil {
		j.Outcome = OutcomeNoRunners
		j.Error = why
		if err := finish(st, params, j, p.Height, nil, zero()); err != nil {
			st.RevertToSnapshot(snap)
			return 0, 0, err
		}
		return id, cycles, st.Err()
	}
	j.Members = members
	j.Commits = make([][]byte, len(members))
	j.Reveals = make([]*Reveal, len(members))
	best := uint64(0)
	for i, a := range members {
		r, err := ReadRunner(st, a)
		if err != nil {
			st.RevertToSnapshot(snap)
			return 0, 0, err
		}
		r.norm()
		if i == 0 || r.Reputation > best {
			best, j.Aggregator = r.Reputation, a
		}
		r.Jobs++
		writeRunner(st, a, r)
	}
	writeJob(st, j)
	for _, h := range []uint64{j.CommitDeadline, j.Deadline} {
		if err := addWakeup(st, h, id); err != nil {
			st.RevertToSnapshot(snap)
			return 0, 0, err
		}
	}
	return id, cycles, st.Err()
}

// addWakeup schedules job id's deadline work at height h. The list of one
// height is bounded (MaxWakeupsPerHeight), so no block's Resolve Jobs step
// and no posting rewrites an unbounded record.
func addWakeup(st *state.StateDB, h, id uint64) error {
	l, err := readList[uint64](st, wakeupKey(h), "wakeups")
	if err != nil {
		return err
	}
	if len(l) >= MaxWakeupsPerHeight {
		return fmt.Errorf("%d jobs already have a deadline at height %d: choose another timeout_blocks", len(l), h)
	}
	writeList(st, wakeupKey(h), append(l, id))
	return nil
}

// sample draws the committee of j (§5.3 Assign): Spec.Committee distinct
// runners, each draw weighted by effective stake among the eligible runners
// not yet drawn, from keccak256("cowboy/committee/v1" ‖ beacon ‖ job id ‖
// draw). Eligible: registered, healthy (Runner.Eligible), serving the
// model or domain, declaring a max job value ≥ max_price, and not the
// requester. It returns nil members and the reason when too few are
// eligible.
func sample(st *state.StateDB, p Params, j *Job, beacon [32]byte, exclude []types.Address) ([]types.Address, uint64, string, error) {
	all, err := Runners(st)
	if err != nil {
		return nil, 0, "", err
	}
	cycles := uint64(len(all)) * SampleCycles
	type cand struct {
		a types.Address
		w *big.Int
	}
	var cands []cand
	for _, a := range all {
		r, err := ReadRunner(st, a)
		if err != nil {
			return nil, 0, "", err
		}
		if r == nil || a == j.Requester || slices.Contains(exclude, a) {
			continue
		}
		r.norm()
		if r.Eligible(p) != "" || r.MaxJobValue.Cmp(j.Spec.MaxPrice) < 0 {
			continue
		}
		if j.Spec.Kind == KindLLM && !slices.Contains(r.Models, j.Spec.Model) {
			continue
		}
		if j.Spec.Kind == KindHTTP && !slices.Contains(r.Domains, j.Spec.Domain) {
			continue
		}
		cands = append(cands, cand{a, r.Effective()})
	}
	m := int(j.Spec.Committee)
	if len(cands) < m {
		what := "model " + j.Spec.Model
		if j.Spec.Kind == KindHTTP {
			what = "domain " + j.Spec.Domain
		}
		return nil, cycles, fmt.Sprintf("no committee: %d eligible runner(s) for %s at max_price %s, the job needs %d", len(cands), what, j.Spec.MaxPrice, m), nil
	}
	var id [8]byte
	binary.BigEndian.PutUint64(id[:], j.ID)
	members := make([]types.Address, 0, m)
	for draw := 0; draw < m; draw++ {
		total := zero()
		for _, c := range cands {
			total.Add(total, c.w)
		}
		h := crypto.Keccak256([]byte("cowboy/committee/v1"), beacon[:], id[:], []byte{byte(draw)})
		x := new(big.Int).SetBytes(h[:])
		x.Mod(x, total)
		for i, c := range cands {
			if x.Cmp(c.w) < 0 {
				members = append(members, c.a)
				cands = slices.Delete(cands, i, i+1)
				break
			}
			x.Sub(x, c.w)
		}
	}
	return members, cycles, "", nil
}

// post is the dispatcher's transaction method.
func post(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("takes 1 argument, got %d: want [spec]", len(args))
	}
	id, cycles, err := PostJob(st, Post{Requester: c.From, Escrow: c.Value, Spec: args[0], Height: c.Height, Beacon: c.Beacon})
	c.extra(cycles)
	if err != nil {
		return nil, err
	}
	j, err := ReadJob(st, id)
	if err != nil {
		return nil, err
	}
	return map[string]any{"job_id": id, "members": addrList(j.Members), "phase": PhaseName(j.Phase)}, nil
}

func addrList(l []types.Address) [][]byte {
	out := make([][]byte, len(l))
	for i := range l {
		out[i] = l[i][:]
	}
	return out
}

// canonicalJSON re-encodes a JSON document with sorted keys and exact
// numbers (json.Number): the form results are compared in.
func canonicalJSON(b []byte) ([]byte, any, bool) {
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil || d.More() {
		return nil, nil, false
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, nil, false
	}
	return out, v, true
}
