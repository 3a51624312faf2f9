package meter

import (
	"errors"
	"fmt"
)

// Kind says which limit a LimitError hit.
type Kind int

// Limit kinds.
const (
	// OutOfCycles: the call's cycles_limit is exhausted (CIP-3 §2.2.1).
	OutOfCycles Kind = iota + 1
	// OutOfCells: the call's cells_limit is exhausted (CIP-3 §2.2.2).
	OutOfCells
	// OutOfMemory: the per-call memory limit (§3.2) would be exceeded.
	OutOfMemory
	// TooDeep: the call depth cap (§3.3) would be exceeded.
	TooDeep
)

func (k Kind) String() string {
	switch k {
	case OutOfCycles:
		return "out of cycles"
	case OutOfCells:
		return "out of cells"
	case OutOfMemory:
		return "out of memory"
	case TooDeep:
		return "call depth exceeded"
	}
	return fmt.Sprintf("meter.Kind(%d)", int(k))
}

// LimitError is returned when a charge would exceed a limit. OutOfCycles and
// OutOfCells halt the call and cannot be caught by Python code; the VM turns
// OutOfMemory into MemoryError and TooDeep into RecursionError.
type LimitError struct {
	Kind  Kind
	Limit uint64 // the configured limit, in the unit of Kind
	Want  uint64 // the amount the failing charge asked for
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s (limit %d, charge %d)", e.Kind, e.Limit, e.Want)
}

// Is makes errors.Is(err, ErrOutOfCycles) and friends work.
func (e *LimitError) Is(target error) bool {
	t, ok := target.(*LimitError)
	return ok && t.Limit == 0 && t.Want == 0 && t.Kind == e.Kind
}

// Sentinels for errors.Is.
var (
	// ErrOutOfCycles matches any OutOfCycles LimitError.
	ErrOutOfCycles error = &LimitError{Kind: OutOfCycles}
	// ErrOutOfCells matches any OutOfCells LimitError.
	ErrOutOfCells error = &LimitError{Kind: OutOfCells}
	// ErrOutOfMemory matches any OutOfMemory LimitError.
	ErrOutOfMemory error = &LimitError{Kind: OutOfMemory}
	// ErrTooDeep matches any TooDeep LimitError.
	ErrTooDeep error = &LimitError{Kind: TooDeep}
)

// IsHalt reports whether err must end the call without Python seeing it
// (OutOfCycles or OutOfCells).
func IsHalt(err error) bool {
	var le *LimitError
	return errors.As(err, &le) && (le.Kind == OutOfCycles || le.Kind == OutOfCells)
}

// Meter carries the limits and usage of one call. The zero value is not
// usable; use New. A Meter is not safe for concurrent use: one call, one
// goroutine.
type Meter struct {
	// Left is the remaining cycles. The interpreter loop may decrement it
	// directly (one subtraction per instruction) and must call Charge when the
	// cost could exceed it; it is exported for that reason only.
	Left uint64

	cyclesLimit uint64
	cellsLimit  uint64
	cellsUsed   uint64
	memLimit    uint64
	memUsed     uint64
	// measure, when set, returns the bytes reachable from the VM's roots
	// (charging the walk's cycles itself); see Alloc.
	measure      func() (uint64, error)
	measuring    bool
	measurements uint64
	measureCost  uint64
	depth        int
	maxDepth     int
	// body is the exemption of a whitelisted module's body (imports.go).
	body importBody
}

// Limits configures a Meter. A zero MemoryLimit means DefaultMemoryLimit, a
// zero MaxDepth means MaxCallDepth.
type Limits struct {
	Cycles      uint64 // cycles_limit of the call
	Cells       uint64 // cells_limit of the call, in bytes
	MemoryLimit uint64 // bytes of live Python objects the call may hold
	MaxDepth    int    // Python frames
}

// New returns a Meter for one call.
func New(l Limits) *Meter {
	if l.MemoryLimit == 0 {
		l.MemoryLimit = DefaultMemoryLimit
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = MaxCallDepth
	}
	return &Meter{Left: l.Cycles, cyclesLimit: l.Cycles, cellsLimit: l.Cells, memLimit: l.MemoryLimit, maxDepth: l.MaxDepth}
}

// Charge deducts cost cycles, or returns an OutOfCycles LimitError and leaves
// the meter at zero (execution halts at once, so nothing more is charged).
func (m *Meter) Charge(cost uint64) error {
	if cost > m.Left {
		m.Left = 0
		return &LimitError{Kind: OutOfCycles, Limit: m.cyclesLimit, Want: cost}
	}
	m.Left -= cost
	return nil
}

// ChargeCells deducts n cells (bytes crossing the call boundary).
func (m *Meter) ChargeCells(n uint64) error {
	if n > m.cellsLimit-m.cellsUsed {
		m.cellsUsed = m.cellsLimit
		return &LimitError{Kind: OutOfCells, Limit: m.cellsLimit, Want: n}
	}
	m.cellsUsed += n
	return nil
}

// Alloc records n bytes of new Python objects, or returns an OutOfMemory
// LimitError without recording them; callers check before they allocate so
// that a memory bomb fails before Go's heap grows.
//
// The limit is on live memory (technical spec v2 §3.2, §12.1: "10 MiB heap
// memory"). The counter is an upper bound of the live heap: the bytes found
// live at the last measurement plus everything allocated since. When n
// would take it past the limit, Alloc measures the live heap through the
// function given to SetMeasurer (a walk from the VM's roots that charges
// its own cycles), restarts the counter from the measured size, and fails
// only if n does not fit on top of what is really live. Every input of that
// decision is deterministic: the counter, the limit, and the measured size
// (a function of the object graph). docs/decisions.md, "PVM: the live-heap
// limit", says why the walk cannot be abused.
func (m *Meter) Alloc(n uint64) error {
	if m.memUsed <= m.memLimit && n <= m.memLimit-m.memUsed {
		m.memUsed += n
		return nil
	}
	// An allocation larger than the whole limit fails without a walk. After
	// a walk that found more than the limit live (the walk counts objects
	// the counter never saw, such as big ints), memUsed stays above the
	// limit, so every allocation measures again until enough is freed.
	if n <= m.memLimit && m.measure != nil && !m.measuring {
		m.measuring = true
		before := m.Left
		live, err := m.measure()
		m.measureCost += before - m.Left
		m.measuring = false
		if err != nil {
			return err
		}
		m.measurements++
		m.memUsed = live
		if live <= m.memLimit && n <= m.memLimit-live {
			m.memUsed += n
			return nil
		}
	}
	return &LimitError{Kind: OutOfMemory, Limit: m.memLimit, Want: n}
}

// SetMeasurer installs the live-heap measurement Alloc runs when its
// counter would pass the limit. measure returns the model size in bytes of
// the objects reachable from the roots, having charged the walk's cycles to
// this meter (an OutOfCycles error from that charge is returned by Alloc).
// Without a measurer the counter is never lowered: the limit bounds the
// bytes allocated over the call.
func (m *Meter) SetMeasurer(measure func() (uint64, error)) { m.measure = measure }

// Measurements is how many live-heap measurements Alloc has run.
func (m *Meter) Measurements() uint64 { return m.measurements }

// MeasurementCycles is the cycles the live-heap measurements charged.
func (m *Meter) MeasurementCycles() uint64 { return m.measureCost }

// Enter records one more Python frame or returns a TooDeep LimitError.
func (m *Meter) Enter() error {
	if m.depth >= m.maxDepth {
		return &LimitError{Kind: TooDeep, Limit: uint64(m.maxDepth), Want: uint64(m.depth + 1)}
	}
	m.depth++
	return nil
}

// Leave records the end of a frame entered with Enter.
func (m *Meter) Leave() { m.depth-- }

// Depth is the current number of Python frames.
func (m *Meter) Depth() int { return m.depth }

// MemoryLimit is the live-heap limit in bytes; MaxDepth the frame limit.
// Module snapshots (pvm/vm) read them to tell whether running an import
// again could reach a limit.
func (m *Meter) MemoryLimit() uint64 { return m.memLimit }

// MaxDepth is the most Python frames the call may hold (see MemoryLimit).
func (m *Meter) MaxDepth() int { return m.maxDepth }

// CyclesUsed is the cycles charged so far.
func (m *Meter) CyclesUsed() uint64 { return m.cyclesLimit - m.Left }

// CellsUsed is the cells charged so far.
func (m *Meter) CellsUsed() uint64 { return m.cellsUsed }

// MemoryUsed is the allocation counter: the live bytes found by the last
// measurement plus the bytes recorded by Alloc since (all bytes recorded
// when nothing was measured yet).
func (m *Meter) MemoryUsed() uint64 { return m.memUsed }

// BigIntCost is the cycles of one big-integer operation whose larger operand
// has bitLen bits: base + bitlen/64 (issue 4).
func BigIntCost(bitLen int) uint64 {
	return CostBigIntBase + uint64(bitLen/64)*CostBigIntPerLimb
}
