package runner

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// Call is one transaction to 0x01, 0x02 or 0x03.
type Call struct {
	To      types.Address
	From    types.Address
	Value   *big.Int
	Payload []byte
	Height  uint64
	Beacon  [32]byte // R_n of the block: committee sampling
	Cycles  uint64   // left after the intrinsic cost
	// P is the parameters in force; Apply reads them from the state.
	P    Params
	used *uint64
}

// extra charges cycles beyond CallCycles (sampling, signature checks).
func (c Call) extra(n uint64) {
	if c.used != nil {
		*c.used += n
	}
}

// Result is what a call used and the event it emitted.
type Result struct {
	CyclesUsed uint64
	Events     []types.Event
}

// ErrOutOfCycles is returned when a call costs more than is left.
var ErrOutOfCycles = errors.New("out of cycles")

type method func(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error)

// methods is each actor's method table, the one list its dispatch and
// its "unknown method" error are made from.
var methods = map[types.Address]map[string]method{
	RegistryAddress: {
		"register": register, "update": update, "delegate": delegate, "undelegate": undelegate,
		"exit": exit, "withdraw": withdraw, "publish_model": publishModel, "retract_model": retractModel,
	},
	DispatcherAddress: {"post": post},
	VerifierAddress:   {"commit": commit, "reveal": reveal, "challenge": challenge},
}

// Name is a system actor's name for messages.
func Name(a types.Address) string {
	switch a {
	case RegistryAddress:
		return "runner registry"
	case DispatcherAddress:
		return "job dispatcher"
	case VerifierAddress:
		return "result verifier"
	case TreasuryAddress:
		return "treasury"
	}
	return a.String()
}

// Apply runs one call. On error the state is as before (the caller still
// charges the fee): no money moves; the cycles are charged either way.
func Apply(st *state.StateDB, c Call) (Result, error) {
	if c.Value == nil {
		c.Value = new(big.Int)
	}
	if CallCycles > c.Cycles {
		return Result{CyclesUsed: c.Cycles}, fmt.Errorf("%w: a runner market call costs %d cycles, the transaction has %d left", ErrOutOfCycles, CallCycles, c.Cycles)
	}
	used := uint64(CallCycles)
	c.used = &used
	who := Name(c.To)
	table, ok := methods[c.To]
	if !ok {
		return Result{CyclesUsed: used}, fmt.Errorf("%s takes no transactions", who)
	}
	name, args, err := decodeCall(c.Payload)
	if err != nil {
		return Result{CyclesUsed: used}, fmt.Errorf("%s: %w", who, err)
	}
	m, ok := table[name]
	if !ok {
		names := make([]string, 0, len(table))
		for k := range table {
			names = append(names, k)
		}
		slices.Sort(names)
		return Result{CyclesUsed: used}, fmt.Errorf("%s: unknown method %q: it has %s", who, name, strings.Join(names, ", "))
	}
	if c.P, err = LoadParams(st); err != nil {
		return Result{CyclesUsed: used}, fmt.Errorf("%s: %w", who, err)
	}
	snap := st.Snapshot()
	data, err := m(st, c, args)
	if err == nil {
		err = st.Err()
	}
	if err == nil && used > c.Cycles {
		err = fmt.Errorf("%w: the call used %d cycles, the transaction has %d", ErrOutOfCycles, used, c.Cycles)
	}
	used = min(used, c.Cycles)
	if err != nil {
		st.RevertToSnapshot(snap)
		return Result{CyclesUsed: used}, fmt.Errorf("%s %s: %w", who, name, err)
	}
	return Result{CyclesUsed: used, Events: []types.Event{{Address: c.To, Name: name, Data: mustMarshal(data)}}}, nil
}

// EndBlock is the first half of the block's "Resolve Jobs" step: jobs
// whose commit deadline is height close their commit phase (a job nobody
// committed to fails as a runner fault), and jobs whose deadline is height
// settle with what was revealed. Their continuations are due at height+1
// (Deliveries).
func EndBlock(st *state.StateDB, height uint64) error {
	ids, err := readList[uint64](st, wakeupKey(height), "wakeups")
	if err != nil {
		return err
	}
	var p Params
	if len(ids) > 0 {
		if p, err = LoadParams(st); err != nil {
			return err
		}
	}
	for _, id := range ids {
		j, err := ReadJob(st, id)
		if err != nil {
			return err
		}
		if j == nil {
			continue
		}
		switch {
		case j.Phase == PhaseCommitting && height >= j.Deadline:
			fallthrough
		case j.Phase == PhaseCommitting && height >= j.CommitDeadline && j.commits() == 0:
			if err := settle(st, p, j, height); err != nil {
				return fmt.Errorf("job %d: %w", id, err)
			}
		case j.Phase == PhaseCommitting && height >= j.CommitDeadline:
			j.Phase, j.RevealOpen = PhaseRevealing, height+1
			writeJob(st, j)
		case j.Phase == PhaseRevealing && height >= j.Deadline:
			if err := settle(st, p, j, height); err != nil {
				return fmt.Errorf("job %d: %w", id, err)
			}
		case j.Held.Sign() > 0 && j.ChallengeJob == 0 && height >= j.ChallengeEnd:
			// The challenge window closed unchallenged: pay (§8.4 split).
			if err := release(st, p, j); err != nil {
				return fmt.Errorf("job %d: %w", id, err)
			}
			writeJob(st, j)
		}
	}
	writeList[uint64](st, wakeupKey(height), nil)
	return st.Err()
}

// Delivery is a continuation due: the result of job JobID for its
// requester's Callback method.
type Delivery struct {
	Job  *Job
	Args []byte // canonical CBOR array of the one argument, the result dict
}

// Deliveries returns the continuations due at height, the highest tip
// first, then in order of settlement.
func Deliveries(st *state.StateDB, height uint64) ([]Delivery, error) {
	ids, err := readList[uint64](st, deliveryKey(height), "deliveries")
	if err != nil {
		return nil, err
	}
	out := make([]Delivery, 0, len(ids))
	for _, id := range ids {
		j, err := ReadJob(st, id)
		if err != nil {
			return nil, err
		}
		if j == nil {
			continue
		}
		out = append(out, Delivery{Job: j, Args: ResultArgs(j)})
	}
	// Tips buy priority (§17.7 "tips incentivize priority during high
	// demand"): when the runner lane cannot take every continuation, the
	// higher tips run first; equal tips keep settlement order.
	slices.SortStableFunc(out, func(a, b Delivery) int { return b.Job.Tip.Cmp(a.Job.Tip) })
	return out, nil
}

// ResultArgs is the continuation's argument list [result], result a map
// {"job_id", "ok", "output", "error", "outcome", "json"}: json is true when
// the job had a result_schema, so the SDK hands the parsed document as
// result.value.
func ResultArgs(j *Job) []byte {
	res := map[string]any{
		"job_id":  j.ID,
		"ok":      j.Phase == PhaseSettled,
		"outcome": j.Outcome,
		"json":    j.Spec.ResultSchema != "",
		"output":  nil,
		"error":   nil,
	}
	if j.Phase == PhaseSettled {
		res["output"] = strings.ToValidUTF8(string(j.Output), "\uFFFD")
	} else {
		res["error"] = j.Error
	}
	return mustMarshal([]any{res})
}

// CallbackReceipt is how a continuation ran.
type CallbackReceipt struct {
	OK            bool
	Error         string // why it failed or did not run
	Cycles, Cells uint64
	Fee           *big.Int
}

// MarkDelivered records how a continuation ran (or why it did not) in the
// job and removes it from the due list of height; Postpone moves it to
// the next block instead (the runner lane was full).
func MarkDelivered(st *state.StateDB, j *Job, height uint64, r CallbackReceipt) {
	j.Delivered, j.CallbackError, j.CallbackOK = height, r.Error, r.OK
	j.CallbackCycles, j.CallbackCells, j.CallbackFee = r.Cycles, r.Cells, r.Fee
	writeJob(st, j)
	dropDelivery(st, height, j.ID)
}

// Postpone moves a due continuation to height+1.
func Postpone(st *state.StateDB, j *Job, height uint64) {
	dropDelivery(st, height, j.ID)
	l, _ := readList[uint64](st, deliveryKey(height+1), "deliveries")
	writeList(st, deliveryKey(height+1), append(l, j.ID))
	j.DeliverAt = height + 1
	writeJob(st, j)
}

func dropDelivery(st *state.StateDB, height, id uint64) {
	l, _ := readList[uint64](st, deliveryKey(height), "deliveries")
	if i := slices.Index(l, id); i >= 0 {
		writeList(st, deliveryKey(height), slices.Delete(l, i, i+1))
	}
}

// ContinuationID identifies job id's result message (§3.3 dedup set) and
// the receipt of its continuation in the block's receipt store:
// keccak256("job" ‖ id), id 8-byte big-endian.
func ContinuationID(id uint64) types.Hash {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], id)
	return types.Hash(crypto.Keccak256([]byte("job"), b[:]))
}
