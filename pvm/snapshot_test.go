package pvm

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/cbor"
	"github.com/cowboy-chain/cowboy/pvm/modules"
	cowboysdk "github.com/cowboy-chain/cowboy/sdk/python"
)

// snapActor is a small SDK actor: the kind of call a block runs thousands
// of, where importing cowboy_sdk was most of the work.
const snapActor = `
from cowboy_sdk import actor, storage, context, emit_event

@actor
class Counter:
    def __init__(self):
        self.storage["n"] = 0

    def bump(self, by):
        n = self.storage.get("n", 0) + by
        self.storage["n"] = n
        emit_event("bumped", {"n": n, "sender": self.ctx.sender})
        return n
`

// freshSDK makes the actors of the test import a cowboy_sdk without
// snapshots, so the first call runs it and the next ones copy it.
func freshSDK(t testing.TB) {
	old := sdkModule
	sdkModule = modules.PythonModule("cowboy_sdk", cowboysdk.Source)
	actorRegistry.Store(nil)
	t.Cleanup(func() { sdkModule = old; actorRegistry.Store(nil) })
}

// TestSDKSnapshotChargesLikeRunning: the first call imports cowboy_sdk by
// running it, the later ones from its snapshot; every call must return,
// write and be charged exactly the same.
func TestSDKSnapshotChargesLikeRunning(t *testing.T) {
	freshSDK(t)
	p, err := CheckActor([]byte(snapActor))
	if err != nil {
		t.Fatal(err)
	}
	args, err := cbor.EncodeGo([]any{5})
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for i := 0; i < 3; i++ {
		h := newMemHost()
		ret, res, err := p.Run(Config{CyclesLimit: 10_000_000, CellsLimit: 1_000_000, Host: h}, Call{Method: "bump", Args: args})
		got := fmt.Sprintf("ret=%x res=%+v err=%v store=%q events=%v", ret, res, err, h.store, h.events)
		if i == 0 {
			first = got
			continue
		}
		if got != first {
			t.Fatalf("call %d from the snapshot:\n%s\nfirst call (module run):\n%s", i, got, first)
		}
	}
	if n := sdkModule.SnapshotReplays(); n != 2 {
		t.Fatalf("cowboy_sdk came from its snapshot %d times, want 2", n)
	}
}

// BenchmarkActorCall runs one SDK actor method per iteration (import of
// cowboy_sdk included, as in a block).
func BenchmarkActorCall(b *testing.B) {
	p, err := CheckActor([]byte(snapActor))
	if err != nil {
		b.Fatal(err)
	}
	args, err := cbor.EncodeGo([]any{5})
	if err != nil {
		b.Fatal(err)
	}
	h := newMemHost()
	var out bytes.Buffer
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := p.Run(Config{CyclesLimit: 10_000_000, CellsLimit: 1_000_000, Host: h, Stdout: &out}, Call{Method: "bump", Args: args}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// TestSDKSnapshotConcurrent runs actor calls on several goroutines while
// the first ones record cowboy_sdk's snapshot and the rest copy it (run
// with -race): every call must see the same result and charge.
func TestSDKSnapshotConcurrent(t *testing.T) {
	freshSDK(t)
	p, err := CheckActor([]byte(snapActor))
	if err != nil {
		t.Fatal(err)
	}
	args, err := cbor.EncodeGo([]any{5})
	if err != nil {
		t.Fatal(err)
	}
	const workers, calls = 4, 10
	results := make(chan string, workers*calls)
	for w := 0; w < workers; w++ {
		go func() {
			for i := 0; i < calls; i++ {
				h := newMemHost()
				ret, res, err := p.Run(Config{CyclesLimit: 10_000_000, CellsLimit: 1_000_000, Host: h}, Call{Method: "bump", Args: args})
				results <- fmt.Sprintf("ret=%x res=%+v err=%v store=%q events=%v", ret, res, err, h.store, h.events)
			}
		}()
	}
	first := <-results
	for i := 1; i < workers*calls; i++ {
		if got := <-results; got != first {
			t.Fatalf("calls differ:\n%s\n%s", got, first)
		}
	}
}
