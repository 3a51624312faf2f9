package pvm

import (
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/cbor"
	"github.com/cowboy-chain/cowboy/pvm/meter"
)

const timerActor = `
from cowboy_sdk import actor, set_timer, set_interval, cancel_timer

@actor
class T:
    def one(self):
        return set_timer(20, "fire", {"n": 1})
    def every(self):
        return set_interval(5, "beat", [1, 2], gba="0x00000000000000000000000000000000000000aa")
    def stop(self, tid):
        return cancel_timer(tid)
    def past(self):
        return set_timer(9, "fire", None)
    def bad(self):
        return set_timer(True, "fire")
    def none(self):
        return 1
`

func TestTimerHostCalls(t *testing.T) {
	h := newMemHost()
	got, _, err := callActor(t, h, timerActor, "one")
	if err != nil || got != int64(1) {
		t.Fatalf("set_timer: %v %v", got, err)
	}
	data, _ := cbor.EncodeGo(map[string]any{"n": int64(1)})
	if tr := h.timers[0]; tr.Height != 20 || tr.Every != 0 || tr.Handler != "fire" || string(tr.Data) != string(data) || tr.GBA != nil {
		t.Fatalf("request %+v", tr)
	}
	if got, _, err = callActor(t, h, timerActor, "every"); err != nil || got != int64(2) {
		t.Fatalf("set_interval: %v %v", got, err)
	}
	// set_interval(5) from block 9 first runs at 14.
	if tr := h.timers[1]; tr.Height != 14 || tr.Every != 5 || tr.GBA == nil || tr.GBA[19] != 0xaa {
		t.Fatalf("interval request %+v", tr)
	}
	if got, _, err = callActor(t, h, timerActor, "stop", int64(2)); err != nil || got != int64(20) || h.cancelled[0] != 2 {
		t.Fatalf("cancel_timer: %v %v", got, err)
	}
	if _, _, err = callActor(t, h, timerActor, "past"); err == nil || !strings.Contains(err.Error(), "ValueError") {
		t.Fatalf("a refusal must surface as ValueError: %v", err)
	}
	if _, _, err = callActor(t, h, timerActor, "bad"); err == nil || !strings.Contains(err.Error(), "ValueError") {
		t.Fatalf("bool height: %v", err)
	}
}

// TestTimerHostCosts pins §17.3: set_timer 1,000 cycles plus one cell per
// byte of handler and data; cancel_timer 500 cycles. Each call is measured
// against get_block_info (100 cycles) made the same way; the remainder is
// the VM's own work on the arguments (passing them, serializing the data:
// CIP-3), a few dozen cycles.
func TestTimerHostCosts(t *testing.T) {
	cost := func(body string) Result {
		src := "import pvm_host\nclass Actor:\n    def m(self):\n        " + body + "\n"
		_, res, err := callActor(t, newMemHost(), src, "m")
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	base := cost(`pvm_host.get_block_info()`)
	const slack = 40
	for _, c := range []struct {
		call  string
		host  uint64
		cells uint64
	}{
		{`pvm_host.set_timer(20, "fire", b"xyz")`, meter.HostSetTimer, uint64(len("fire") + 4)}, // b"xyz" is 4 bytes of CBOR
		{`pvm_host.set_interval(20, "fire", None)`, meter.HostSetTimer, uint64(len("fire") + 1)},
		{`pvm_host.cancel_timer(3)`, meter.HostCancelTimer, 0},
	} {
		r := cost(c.call)
		d := r.CyclesUsed - base.CyclesUsed
		if want := c.host - meter.HostBlockInfo; d < want || d > want+slack {
			t.Errorf("%s costs %d cycles more than get_block_info; want %d (+ at most %d of argument work)", c.call, d, want, slack)
		}
		if d := r.CellsUsed - base.CellsUsed; d != c.cells {
			t.Errorf("%s: %d cells, want %d", c.call, d, c.cells)
		}
	}
}
