package meter

import (
	"errors"
	"fmt"
	"testing"
)

func TestChargeStopsAtLimit(t *testing.T) {
	m := New(Limits{Cycles: 10})
	if err := m.Charge(7); err != nil {
		t.Fatal(err)
	}
	err := m.Charge(4)
	if !errors.Is(err, ErrOutOfCycles) || !IsHalt(err) {
		t.Fatalf("got %v, want out of cycles", err)
	}
	if m.CyclesUsed() != 10 {
		t.Fatalf("used %d, want 10 (exhausted)", m.CyclesUsed())
	}
}

func TestCellsMemoryDepth(t *testing.T) {
	m := New(Limits{Cycles: 1, Cells: 5, MemoryLimit: 100, MaxDepth: 2})
	if err := m.ChargeCells(5); err != nil {
		t.Fatal(err)
	}
	if err := m.ChargeCells(1); !errors.Is(err, ErrOutOfCells) {
		t.Fatalf("cells: %v", err)
	}
	if err := m.Alloc(60); err != nil {
		t.Fatal(err)
	}
	if err := m.Alloc(41); !errors.Is(err, ErrOutOfMemory) || IsHalt(err) {
		t.Fatalf("memory: %v", err)
	}
	if m.MemoryUsed() != 60 {
		t.Fatalf("failed alloc was recorded: %d", m.MemoryUsed())
	}
	if m.Enter() != nil || m.Enter() != nil {
		t.Fatal("depth 2 refused")
	}
	if err := m.Enter(); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("depth: %v", err)
	}
	m.Leave()
	if m.Depth() != 1 {
		t.Fatalf("depth %d", m.Depth())
	}
}

func TestDefaults(t *testing.T) {
	m := New(Limits{Cycles: 1})
	if m.memLimit != 10<<20 || m.maxDepth != 32 {
		t.Fatalf("defaults %d %d", m.memLimit, m.maxDepth)
	}
	if BigIntCost(4096) != 1+64 {
		t.Fatalf("bigint cost %d", BigIntCost(4096))
	}
}

// TestAllocMeasures pins the live-heap rule of Alloc with a stand-in
// measurement: no walk below the limit, a walk when the counter would pass
// it, the counter restarting from the live size, MemoryError only when the
// allocation does not fit on what is live, no walk for an allocation
// larger than the limit, and a walk's OutOfCycles passed through.
func TestAllocMeasures(t *testing.T) {
	m := New(Limits{Cycles: 1000, MemoryLimit: 100})
	live := uint64(0)
	walkCost := uint64(10)
	m.SetMeasurer(func() (uint64, error) {
		if err := m.Charge(walkCost); err != nil {
			return 0, err
		}
		return live, nil
	})
	steps := []struct {
		n, live     uint64
		wantErr     error
		wantUsed    uint64
		wantWalks   uint64
		description string
	}{
		{60, 0, nil, 60, 0, "fits: counted, no walk"},
		{40, 0, nil, 100, 0, "exactly the limit: no walk"},
		{30, 20, nil, 50, 1, "passes the limit: walk finds 20 live, 20+30 fits"},
		{60, 90, ErrOutOfMemory, 90, 2, "walk finds 90 live: 60 does not fit"},
		{10, 90, nil, 100, 2, "counter restarted at 90: 10 fits without a walk"},
		{200, 0, ErrOutOfMemory, 100, 2, "larger than the limit: no walk"},
		{5, 120, ErrOutOfMemory, 120, 3, "walk finds more than the limit live"},
		{1, 120, ErrOutOfMemory, 120, 4, "still over: every allocation walks again"},
		{1, 0, nil, 1, 5, "freed: the walk lets it through"},
	}
	for _, s := range steps {
		live = s.live
		err := m.Alloc(s.n)
		if !errors.Is(err, s.wantErr) || (s.wantErr == nil && err != nil) {
			t.Fatalf("%s: err %v, want %v", s.description, err, s.wantErr)
		}
		if m.MemoryUsed() != s.wantUsed || m.Measurements() != s.wantWalks {
			t.Fatalf("%s: used %d walks %d, want %d and %d", s.description, m.MemoryUsed(), m.Measurements(), s.wantUsed, s.wantWalks)
		}
	}
	if got := m.MeasurementCycles(); got != 5*walkCost {
		t.Fatalf("walks charged %d cycles, want %d", got, 5*walkCost)
	}
	walkCost = 10000
	live = 50
	m.memUsed = 100
	if err := m.Alloc(1); !errors.Is(err, ErrOutOfCycles) {
		t.Fatalf("unpayable walk: %v, want out of cycles", err)
	}
}

// Each limit is inclusive: a charge of exactly what is left succeeds, one
// unit more fails, and the error says what was asked.
func TestLimitsAreInclusive(t *testing.T) {
	m := New(Limits{Cycles: 10, Cells: 5, MemoryLimit: 100, MaxDepth: 3})
	if err := m.Charge(7); err != nil {
		t.Fatal(err)
	}
	if got := m.CyclesUsed(); got != 7 {
		t.Fatalf("cycles used %d after charging 7 of 10", got)
	}
	if err := m.Charge(3); err != nil {
		t.Fatalf("charging exactly the 3 cycles left: %v", err)
	}
	if m.Left != 0 || m.CyclesUsed() != 10 {
		t.Fatalf("left %d used %d, want 0 and 10", m.Left, m.CyclesUsed())
	}
	if err := m.Alloc(100); err != nil {
		t.Fatalf("allocating exactly the memory limit: %v", err)
	}
	if err := m.Alloc(1); !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("one byte over the memory limit: %v", err)
	}
	for i := 0; i < 3; i++ {
		if err := m.Enter(); err != nil {
			t.Fatalf("frame %d of 3: %v", i+1, err)
		}
	}
	err := m.Enter()
	var le *LimitError
	if !errors.As(err, &le) || le.Kind != TooDeep || le.Limit != 3 || le.Want != 4 {
		t.Fatalf("fourth frame: %#v, want TooDeep limit 3 want 4", err)
	}
}

func TestImportBody(t *testing.T) {
	none := func(func(string) bool) {}
	jsonBefore := func(yield func(string) bool) { yield("json") }
	tests := []struct {
		name     string
		before   func(func(string) bool)
		body     uint64 // cycles the body charges
		cached   string // a module the body imports from the cache halfway
		wantLeft uint64
		wantErr  string
	}{
		{"body free", none, 5000, "", 1000, ""},
		{"cache hit of a body module stays free", none, 5000, "json", 1000, ""},
		{"caller module ends the exemption", jsonBefore, 400, "json", 800, ""},
		{"over budget", none, ImportBodyBudget + 1, "", 1000, "import m: the module body exceeded its 2000000-cycle budget"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(Limits{Cycles: 1000})
			outer := m.BeginImportBody(tt.before)
			if !outer || m.BeginImportBody(none) {
				t.Fatal("nesting not detected")
			}
			err := m.Charge(tt.body / 2)
			if err == nil && tt.cached != "" {
				err = m.ImportingCached(tt.cached)
			}
			if err == nil {
				err = m.Charge(tt.body - tt.body/2)
			}
			err = m.EndImportBody(outer, "m", err)
			if fmt.Sprint(err) != tt.wantErr && !(err == nil && tt.wantErr == "") {
				t.Fatalf("err %v, want %q", err, tt.wantErr)
			}
			if m.Left != tt.wantLeft || m.InImportBody() {
				t.Fatalf("left %d (in body %v), want %d", m.Left, m.InImportBody(), tt.wantLeft)
			}
		})
	}
}

// TestAllocEdges pins Alloc's boundaries one sequence at a time, each step
// with the size the stand-in walk finds live: a zero-byte allocation on a
// counter exactly at the limit needs no walk; an allocation of exactly the
// limit still walks; a walk that finds exactly the limit live lets a
// zero-byte allocation through; an allocation that exactly fills what the
// walk left fits.
func TestAllocEdges(t *testing.T) {
	type step struct {
		n, live   uint64
		ok        bool
		wantUsed  uint64
		wantWalks uint64
	}
	tests := []struct {
		name     string
		measurer bool
		steps    []step
	}{
		{"counter at the limit, no measurer: 0 bytes fit", false, []step{
			{100, 0, true, 100, 0}, {0, 0, true, 100, 0}, {1, 0, false, 100, 0}}},
		{"counter at the limit: 0 bytes fit without a walk", true, []step{
			{100, 0, true, 100, 0}, {0, 0, true, 100, 0}}},
		{"an allocation of exactly the limit walks", true, []step{
			{1, 0, true, 1, 0}, {100, 0, true, 100, 1}}},
		{"walk finds exactly the limit live: 0 bytes fit", true, []step{
			{100, 0, true, 100, 0}, {1, 101, false, 101, 1}, {0, 100, true, 100, 2}}},
		{"exactly what the walk left fits", true, []step{
			{100, 0, true, 100, 0}, {90, 10, true, 100, 1}}},
		{"one byte more than the walk left fails", true, []step{
			{100, 0, true, 100, 0}, {91, 10, false, 10, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(Limits{Cycles: 1000, MemoryLimit: 100})
			live := uint64(0)
			if tt.measurer {
				m.SetMeasurer(func() (uint64, error) { return live, nil })
			}
			for i, s := range tt.steps {
				live = s.live
				err := m.Alloc(s.n)
				if (err == nil) != s.ok || (err != nil && !errors.Is(err, ErrOutOfMemory)) {
					t.Fatalf("step %d: Alloc(%d) = %v, want ok %v", i, s.n, err, s.ok)
				}
				if m.MemoryUsed() != s.wantUsed || m.Measurements() != s.wantWalks {
					t.Fatalf("step %d: used %d walks %d, want %d and %d", i, m.MemoryUsed(), m.Measurements(), s.wantUsed, s.wantWalks)
				}
			}
		})
	}
}

// TestImportBodyWalks pins what EndImportBody charges the caller: the
// live-heap walks run during the body (not those before it began), an
// error when the caller cannot pay them, and the body's own error passed
// on when it can.
func TestImportBodyWalks(t *testing.T) {
	none := func(func(string) bool) {}
	boom := errors.New("boom")
	tests := []struct {
		name      string
		cycles    uint64 // the caller's cycles_limit
		bodyWalks int    // walks (10 cycles each) during the body
		bodyErr   error
		wantLeft  uint64
		wantErr   error
	}{
		{"no walk in the body", 1000, 0, nil, 990, nil},
		{"one walk in the body is the caller's", 1000, 1, nil, 980, nil},
		{"two walks in the body", 1000, 2, nil, 970, nil},
		{"the body's error passes on", 1000, 1, boom, 980, boom},
		{"the caller cannot pay the walk", 15, 1, nil, 0, ErrOutOfCycles},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(Limits{Cycles: tt.cycles, MemoryLimit: 100})
			m.SetMeasurer(func() (uint64, error) {
				if err := m.Charge(10); err != nil {
					return 0, err
				}
				return 0, nil
			})
			// One walk before the body: the caller pays it then, not again.
			if err := m.Alloc(100); err != nil {
				t.Fatal(err)
			}
			if err := m.Alloc(100); err != nil || m.Measurements() != 1 {
				t.Fatalf("walk before the body: %v, %d walks", err, m.Measurements())
			}
			outer := m.BeginImportBody(none)
			for i := 0; i < tt.bodyWalks; i++ {
				if err := m.Alloc(100); err != nil {
					t.Fatal(err)
				}
			}
			err := m.EndImportBody(outer, "m", tt.bodyErr)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("err %v, want %v", err, tt.wantErr)
			}
			if m.Left != tt.wantLeft {
				t.Fatalf("left %d, want %d", m.Left, tt.wantLeft)
			}
		})
	}
}
