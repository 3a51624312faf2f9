package meter

import (
	"errors"
	"fmt"
	"iter"
	"slices"
)

// Import charges (CIP-3 §2.2 "Module Import System", as the project's spec
// decisions read it: "import 100 / cached 5 / refused 50").
//
// A first import of a whitelisted module costs CostImportFirst and nothing
// more: the module's body (chain code, the same for every caller) runs on a
// separate budget of ImportBodyBudget cycles, not on the caller's. Two
// things end that exemption, so that no work a caller controls is ever free:
//
//   - the body imports a module the call had already imported before the
//     outermost exempt import began (the caller could have changed that
//     module's attributes, so from there on the body may run caller code):
//     the rest of the body is charged to the caller as ordinary code;
//   - a live-heap walk during the body: its cycles are charged to the
//     caller when the exemption ends (the walk's size depends on the
//     caller's heap).
//
// docs/decisions.md, "PVM: flat import charges", gives the reasons.

// ImportBodyBudget is the most cycles a whitelisted module's body may run at
// its first import, nested imports included. The largest body today (enum)
// runs about 10,000 cycles; a body over the budget fails the import with an
// error that halts the call (a defect of the chain's modules, never of the
// caller).
const ImportBodyBudget uint64 = 2_000_000

// importBody is the state of an exempt import.
type importBody struct {
	active bool
	// callerLeft is the caller's Left when the exemption began.
	callerLeft uint64
	// walkCost is measureCost when the exemption began.
	walkCost uint64
	// before holds the modules imported before the exemption began.
	before []string
}

// BeginImportBody starts running a module body free of the caller's cycles.
// before lists the modules the call has imported so far; it is read only by
// the outermost import. It returns false when an import body is already
// running (a nested import): the outer exemption covers it and
// EndImportBody must be passed that false.
func (m *Meter) BeginImportBody(before iter.Seq[string]) bool {
	if m.body.active {
		return false
	}
	set := m.body.before[:0]
	for n := range before {
		set = append(set, n)
	}
	m.body = importBody{active: true, callerLeft: m.Left, walkCost: m.measureCost, before: set}
	m.Left = ImportBodyBudget
	return true
}

// ImportingCached is called for an import served from the call's module
// cache. During an exempt body, a module imported before the exemption
// began ends it: the caller pays from here on.
func (m *Meter) ImportingCached(name string) error {
	if m.body.active && slices.Contains(m.body.before, name) {
		return m.endBody()
	}
	return nil
}

// InImportBody reports whether a module body is running exempt.
func (m *Meter) InImportBody() bool { return m.body.active }

// EndImportBody ends what BeginImportBody started (outer is its result) and
// passes on err, the import's outcome. The caller's cycles come back,
// less the cycles of any live-heap walk the body caused. A body that ran
// out of its budget becomes a plain error naming the module.
func (m *Meter) EndImportBody(outer bool, module string, err error) error {
	if !outer || !m.body.active {
		return err
	}
	if errors.Is(err, ErrOutOfCycles) {
		m.Left = m.body.callerLeft
		m.body.active = false
		return fmt.Errorf("import %s: the module body exceeded its %d-cycle budget", module, ImportBodyBudget)
	}
	if e := m.endBody(); e != nil {
		return e
	}
	return err
}

// endBody gives the caller back its cycles and charges it the live-heap
// walks run since the exemption began.
func (m *Meter) endBody() error {
	walks := m.measureCost - m.body.walkCost
	m.Left = m.body.callerLeft
	m.body.active = false
	return m.Charge(walks)
}
