package compile

import "testing"

// checkMarks compiles src as module code and checks one of Code's
// per-instruction bits, read by mark: it may be set only where allowed
// finds the instruction fit (allowed returns "" there, else what is wrong
// with it), never past the end, and on want instructions in all.
func checkMarks(t *testing.T, src string, want int, mark func(*Code, int) bool, allowed func(*Code, int) string) {
	t.Helper()
	code, err := File("t.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	for i := range code.Instrs {
		if !mark(code, i) {
			continue
		}
		got++
		if why := allowed(code, i); why != "" {
			t.Errorf("bit set on %d (%s)", i, why)
		}
	}
	if got != want {
		t.Errorf("%d instructions marked, want %d", got, want)
	}
	if mark(code, len(code.Instrs)+64) {
		t.Error("bit set past the end")
	}
}
