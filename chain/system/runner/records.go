package runner

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/statekey"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// Record namespaces under (statekey.KindSystem, actor address);
// docs/state-layout.md lists them.
const (
	nsSingleton  byte = 0 // per actor: index, counters
	nsRunner     byte = 1 // 0x01: runner address -> Runner
	nsDelegation byte = 2 // 0x01: keccak(runner ‖ delegator) -> Delegation
	nsModel      byte = 3 // 0x01: model id -> Model
	nsJob        byte = 1 // 0x02: job id -> Job
	nsWakeup     byte = 2 // 0x02: height -> job ids with a deadline at it
	nsDelivery   byte = 1 // 0x03: height -> job ids whose result is delivered at it
)

func key(a types.Address, ns byte, slot [32]byte) state.Key {
	return statekey.Make(statekey.KindSystem, a, ns, slot)
}

func named(a types.Address, name string) state.Key {
	return key(a, nsSingleton, crypto.Keccak256([]byte(name)))
}

func addrSlot(a types.Address) (s [32]byte) {
	copy(s[12:], a[:])
	return s
}

func u64Slot(n uint64) (s [32]byte) {
	binary.BigEndian.PutUint64(s[24:], n)
	return s
}

var (
	indexKey   = named(RegistryAddress, "runners")
	nextJobKey = named(DispatcherAddress, "next_job")
)

func runnerKey(a types.Address) state.Key { return key(RegistryAddress, nsRunner, addrSlot(a)) }
func delegationKey(r, d types.Address) state.Key {
	return key(RegistryAddress, nsDelegation, crypto.Keccak256(r[:], d[:]))
}
func modelKey(id [32]byte) state.Key { return key(RegistryAddress, nsModel, id) }
func jobKey(id uint64) state.Key     { return key(DispatcherAddress, nsJob, u64Slot(id)) }
func wakeupKey(h uint64) state.Key   { return key(DispatcherAddress, nsWakeup, u64Slot(h)) }
func deliveryKey(h uint64) state.Key { return key(VerifierAddress, nsDelivery, u64Slot(h)) }

// Rates is a runner's rate card (§17.7 "runners post quotes"): a job's
// cost at one runner is PerJob + usage × PerToken (LLM jobs, usage in
// tokens) or PerJob + usage × PerKB (HTTP jobs, usage in KiB fetched).
type Rates struct {
	PerJob   *big.Int `cbor:"per_job" json:"per_job"`
	PerToken *big.Int `cbor:"per_token" json:"per_token"`
	PerKB    *big.Int `cbor:"per_kb" json:"per_kb"`
}

// Cost is usage × rates for a job of kind.
func (r Rates) Cost(kind string, usage uint64) *big.Int {
	per := r.PerToken
	if kind == KindHTTP {
		per = r.PerKB
	}
	c := new(big.Int).Mul(per, new(big.Int).SetUint64(usage))
	return c.Add(c, r.PerJob)
}

// Runner is the registry's record of one runner.
type Runner struct {
	Endpoint      string          `cbor:"1,keyasint"` // where committee peers push results (§5.3 Collect)
	Models        []string        `cbor:"2,keyasint"` // model ids it serves (§5.1)
	Domains       []string        `cbor:"3,keyasint"` // HTTP domains it fetches from
	Rates         Rates           `cbor:"4,keyasint"`
	MaxJobValue   *big.Int        `cbor:"5,keyasint"` // declared_max_job_value (§5.2)
	CommissionBps uint64          `cbor:"6,keyasint"` // its cut of delegator-attributed revenue (CIP-13)
	SelfBond      *big.Int        `cbor:"7,keyasint"`
	Delegated     *big.Int        `cbor:"8,keyasint"` // bonded delegations, summed
	Delegators    []types.Address `cbor:"9,keyasint"` // with a delegation record, sorted
	Reputation    uint64          `cbor:"10,keyasint"`
	Exiting       bool            `cbor:"11,keyasint"`
	ExitAt        uint64          `cbor:"12,keyasint"`
	Joined        uint64          `cbor:"13,keyasint"`
	Jobs          uint64          `cbor:"14,keyasint"` // committee seats taken
	Successes     uint64          `cbor:"15,keyasint"`
	Timeouts      uint64          `cbor:"16,keyasint"`
	Slashes       uint64          `cbor:"17,keyasint"`
	Earned        *big.Int        `cbor:"18,keyasint"` // paid to it (its own part) so far
	Slashed       *big.Int        `cbor:"19,keyasint"` // burned from its self-bond so far
	// SelfUnbonding is its self-bond after exit, released at ExitAt +
	// Params.UnbondingBlocks (and slashable until then).
	SelfUnbonding *big.Int `cbor:"20,keyasint"`
}

// Effective is self-bond + delegated stake (§5.2).
func (r *Runner) Effective() *big.Int { return new(big.Int).Add(r.SelfBond, r.Delegated) }

// selfBondOK reports whether self ≥ MinSelfBondBps of self+delegated.
func selfBondOK(p Params, self, delegated *big.Int) bool {
	eff := new(big.Int).Add(self, delegated)
	lhs := new(big.Int).Mul(self, big.NewInt(10_000))
	rhs := new(big.Int).Mul(eff, new(big.Int).SetUint64(p.MinSelfBondBps))
	return lhs.Cmp(rhs) >= 0
}

// Eligible says why r may not be sampled for a job, or "" if it may:
// active, healthy (reputation), staked to its requirement with enough
// self-bond (§5.2, §5.3 "eligible (staked, healthy) runners").
func (r *Runner) Eligible(p Params) string {
	switch {
	case r.Exiting:
		return "exiting"
	case r.Reputation < p.MinReputation:
		return fmt.Sprintf("reputation %d below %d", r.Reputation, p.MinReputation)
	case r.Effective().Cmp(p.RequiredStake(r.MaxJobValue)) < 0:
		return fmt.Sprintf("effective stake below max(%s, 1.5 × max job value)", types.FormatCBY(p.StakeFloor))
	case !selfBondOK(p, r.SelfBond, r.Delegated):
		return fmt.Sprintf("self-bond below %d basis points of effective stake", p.MinSelfBondBps)
	}
	return ""
}

// Tranche is unbonding stake released at Release.
type Tranche struct {
	_       struct{} `cbor:",toarray"`
	Amount  *big.Int
	Release uint64
}

// Delegation is one delegator's stake at one runner (CIP-13).
type Delegation struct {
	Amount    *big.Int  `cbor:"1,keyasint"` // bonded
	Unbonding []Tranche `cbor:"2,keyasint"`
	Earned    *big.Int  `cbor:"3,keyasint"`
}

// Model is a published model revision (§5.1).
type Model struct {
	Publisher types.Address `cbor:"1,keyasint"`
	Name      string        `cbor:"2,keyasint"`
	Deposit   *big.Int      `cbor:"3,keyasint"`
	Height    uint64        `cbor:"4,keyasint"`
}

func mustMarshal(v any) []byte {
	b, err := types.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("runner: encode: %v", err)) // fixed record types cannot fail
	}
	return b
}

func read[T any](st *state.StateDB, k state.Key, what string) (*T, error) {
	b := st.Get(k)
	if err := st.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	if len(b) == 0 {
		return nil, nil
	}
	var v T
	if err := types.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("decode %s: %w", what, err)
	}
	return &v, nil
}

// ReadRunner returns a runner's record, or nil if a is not registered.
func ReadRunner(st *state.StateDB, a types.Address) (*Runner, error) {
	return read[Runner](st, runnerKey(a), "runner record")
}

func writeRunner(st *state.StateDB, a types.Address, r *Runner) { st.Set(runnerKey(a), mustMarshal(r)) }

// ReadDelegation returns d's delegation at runner r, or nil.
func ReadDelegation(st *state.StateDB, r, d types.Address) (*Delegation, error) {
	return read[Delegation](st, delegationKey(r, d), "delegation")
}

func writeDelegation(st *state.StateDB, r, d types.Address, v *Delegation) {
	if v.Amount.Sign() == 0 && len(v.Unbonding) == 0 {
		st.Set(delegationKey(r, d), nil)
		return
	}
	st.Set(delegationKey(r, d), mustMarshal(v))
}

// ReadModel returns a published model, or nil.
func ReadModel(st *state.StateDB, id [32]byte) (*Model, error) {
	return read[Model](st, modelKey(id), "model record")
}

// Runners lists the registered runners in address order.
func Runners(st *state.StateDB) ([]types.Address, error) {
	return readList[types.Address](st, indexKey, "runner index")
}

func readList[T any](st *state.StateDB, k state.Key, what string) ([]T, error) {
	p, err := read[[]T](st, k, what)
	if err != nil || p == nil {
		return nil, err
	}
	return *p, nil
}

func writeList[T any](st *state.StateDB, k state.Key, l []T) {
	if len(l) == 0 {
		st.Set(k, nil)
		return
	}
	st.Set(k, mustMarshal(l))
}

func addToIndex(st *state.StateDB, a types.Address) error {
	l, err := Runners(st)
	if err != nil {
		return err
	}
	i, found := slices.BinarySearchFunc(l, a, cmpAddr)
	if found {
		return nil
	}
	if len(l) >= MaxRunners {
		return fmt.Errorf("the registry holds its maximum of %d runners", MaxRunners)
	}
	writeList(st, indexKey, slices.Insert(l, i, a))
	return nil
}

func removeFromIndex(st *state.StateDB, a types.Address) error {
	l, err := Runners(st)
	if err != nil {
		return err
	}
	if i, found := slices.BinarySearchFunc(l, a, cmpAddr); found {
		writeList(st, indexKey, slices.Delete(l, i, i+1))
	}
	return nil
}

func cmpAddr(a, b types.Address) int {
	for i := range a {
		if a[i] != b[i] {
			return int(a[i]) - int(b[i])
		}
	}
	return 0
}

// rawArgs splits a payload into its method and raw arguments.
func decodeCall(payload []byte) (string, []cbor.RawMessage, error) {
	var items []cbor.RawMessage
	if err := types.Unmarshal(payload, &items); err != nil {
		return "", nil, fmt.Errorf("payload must be the canonical CBOR array [method, args…]: %w", err)
	}
	if len(items) == 0 {
		return "", nil, errors.New("payload is an empty array: want [method, args…]")
	}
	var method string
	if err := types.Unmarshal(items[0], &method); err != nil {
		return "", nil, fmt.Errorf("payload method must be a text string: %w", err)
	}
	return method, items[1:], nil
}

func arg[T any](raw cbor.RawMessage, what string) (T, error) {
	var v T
	if err := types.Unmarshal(raw, &v); err != nil {
		return v, fmt.Errorf("%s: %w", what, err)
	}
	return v, nil
}

func addrArg(raw cbor.RawMessage, what string) (types.Address, error) {
	b, err := arg[[]byte](raw, what)
	if err != nil {
		return types.Address{}, err
	}
	if len(b) != 20 {
		return types.Address{}, fmt.Errorf("%s must be a 20-byte address, got %d bytes", what, len(b))
	}
	return types.Address(b), nil
}

func amountArg(raw cbor.RawMessage, what string) (*big.Int, error) {
	var v big.Int
	if err := types.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("%s must be a non-negative integer: %w", what, err)
	}
	if v.Sign() < 0 {
		return nil, fmt.Errorf("%s must be non-negative, got %s", what, &v)
	}
	return &v, nil
}

// Payload builds a call payload [method, args…] (for clients and tests).
func Payload(method string, args ...any) []byte {
	return mustMarshal(append([]any{method}, args...))
}

func zero() *big.Int { return new(big.Int) }

func bps(v *big.Int, b uint64) *big.Int {
	x := new(big.Int).Mul(v, new(big.Int).SetUint64(b))
	return x.Quo(x, big.NewInt(10_000))
}
