package execution

import (
	"bytes"
	"math/big"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/pvm"
	"github.com/cowboy-chain/cowboy/pvm/cbor"
)

type emptyReader struct{}

func (emptyReader) GetState(state.Key) ([]byte, error) { return nil, nil }

// actorEnv runs deployments and calls with Simulate on an in-memory state:
// the same runtime ApplyTx uses, without signatures and fees.
type actorEnv struct {
	t    *testing.T
	st   *state.StateDB
	bc   *BlockContext
	from types.Address
	last *types.Address // the last actor mustDeploy made
}

func (e *actorEnv) lastActor() *types.Address { return e.last }

func newActorEnv(t *testing.T) *actorEnv {
	e := &actorEnv{t: t, st: state.New(emptyReader{}), from: types.Address{0xee}}
	e.st.Mint(e.from, new(big.Int).Mul(big.NewInt(1000), big.NewInt(1e18)))
	e.newBlock()
	return e
}

func (e *actorEnv) newBlock() {
	h := uint64(1)
	if e.bc != nil {
		h = e.bc.Height + 1
	}
	e.bc = &BlockContext{ChainID: 7777, Height: h, Time: 1_767_225_600 + h, Basefees: Basefees{Cycle: 1, Cell: 1}}
}

func args(t *testing.T, a ...any) []byte {
	if a == nil {
		a = []any{}
	}
	b, err := cbor.EncodeGo(a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (e *actorEnv) deploySalt(src string, salt byte, a ...any) *types.Receipt {
	s := make([]byte, 32)
	s[31] = salt
	pl, err := (&types.DeployPayload{Code: src, Salt: s, Args: args(e.t, a...)}).Encode()
	if err != nil {
		e.t.Fatal(err)
	}
	return Simulate(e.st, e.bc, e.from, nil, nil, pl, 5_000_000, 1_000_000)
}

func (e *actorEnv) mustDeploy(src string, a ...any) types.Address {
	e.t.Helper()
	rc := e.deploySalt(src, 0, a...)
	if rc.Status != types.ReceiptSuccess {
		e.t.Fatalf("deploy: %s", rc.Error)
	}
	e.last = rc.ContractAddress
	return *rc.ContractAddress
}

func (e *actorEnv) callWith(to types.Address, value *big.Int, cycles, cells uint64, method string, a ...any) *types.Receipt {
	pl, err := (&types.CallPayload{Method: method, Args: args(e.t, a...)}).Encode()
	if err != nil {
		e.t.Fatal(err)
	}
	return Simulate(e.st, e.bc, e.from, &to, value, pl, cycles, cells)
}

func (e *actorEnv) call(to types.Address, method string, a ...any) *types.Receipt {
	return e.callWith(to, nil, 5_000_000, 1_000_000, method, a...)
}

func ret(t *testing.T, rc *types.Receipt) any {
	t.Helper()
	if rc.Status != types.ReceiptSuccess {
		t.Fatalf("call failed: %s", rc.Error)
	}
	v, err := cbor.DecodeGo(rc.ReturnData)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func wantFail(t *testing.T, rc *types.Receipt, substr string) {
	t.Helper()
	if rc.Status != types.ReceiptFailed || !strings.Contains(rc.Error, substr) {
		t.Fatalf("status %d error %q, want a failure containing %q", rc.Status, rc.Error, substr)
	}
}

const storeActor = `
import pvm_host
class Actor:
    def __init__(self):
        self.n = 0
    def put(self, key, size):
        pvm_host.storage_set(key, b"x" * size)
        return size
    def get(self, key):
        v = pvm_host.storage_get(key)
        return None if v is None else len(v)
    def drop(self, key):
        pvm_host.storage_delete(key)
`

// §3.2: an actor holds at most 1 MiB of keys and values; a write past it
// raises and changes nothing; overwriting and deleting give room back.
func TestStorageQuota(t *testing.T) {
	e := newActorEnv(t)
	a := e.mustDeploy(storeActor)
	ret(t, e.call(a, "put", []byte("a"), int64(600_000)))
	e.newBlock()
	wantFail(t, e.call(a, "put", []byte("b"), int64(600_000)), "MemoryError: storage quota exceeded")
	if v := ret(t, e.call(a, "get", []byte("b"))); v != nil {
		t.Fatalf("refused write left %v", v)
	}
	if used := e.st.StorageUsed(a); used < 600_000 || used > 600_100 {
		t.Fatalf("storage used %d", used)
	}
	e.newBlock()
	ret(t, e.call(a, "put", []byte("a"), int64(600_000))) // same size: fits
	ret(t, e.call(a, "drop", []byte("a")))
	e.newBlock()
	ret(t, e.call(a, "put", []byte("b"), int64(600_000)))
}

const fanoutActor = `
from cowboy_sdk import actor, context, send_message
@actor
class Fan:
    def __init__(self):
        pass
    def fan(self, n, targets):
        for i in range(n):
            try:
                send_message(targets[i % len(targets)], "noop")
            except RuntimeError as e:
                self.storage["err"] = str(e)
                return i
        return n
    def noop(self):
        pass
    def err(self):
        return self.storage.get("err")
`

// §3.3: a transaction enqueues at most 1,024 messages, its own included.
func TestFanoutLimit(t *testing.T) {
	e := newActorEnv(t)
	a := e.mustDeploy(fanoutActor)
	// The per-actor cycle budget (§12.1) would stop 1,023 handlers of one
	// actor first, so the messages go to four copies.
	var targets []any
	for salt := byte(1); salt <= 4; salt++ {
		targets = append(targets, e.deploySalt(fanoutActor, salt).ContractAddress.Hex())
	}
	e.newBlock()
	rc := e.callWith(a, nil, 20_000_000, 1_000_000, "fan", int64(1100), targets)
	if got := ret(t, rc); got != int64(1023) {
		t.Fatalf("sent %v messages before the cap, want 1023", got)
	}
	if len(rc.Messages) != 1024 {
		t.Fatalf("%d messages delivered, want 1024", len(rc.Messages))
	}
	e.newBlock()
	if msg := ret(t, e.call(a, "err")); !strings.Contains(msg.(string), "at most 1024 messages") {
		t.Fatalf("error %q", msg)
	}
}

const depthActor = `
from cowboy_sdk import actor, context, send_message
@actor
class Deep:
    def __init__(self):
        self.storage["max"] = 0
    def down(self):
        self.storage["max"] = context.depth
        send_message(context.self_address, "down")
    def max(self):
        return self.storage["max"]
`

// §3.3/§12.1: messages nest at most 32 deep; the send from depth 32 raises
// RecursionError, which fails only that handler.
func TestMessageDepth(t *testing.T) {
	e := newActorEnv(t)
	a := e.mustDeploy(depthActor)
	rc := e.call(a, "down")
	if rc.Status != types.ReceiptSuccess || len(rc.Messages) != 32 {
		t.Fatalf("status %d, %d messages: %s", rc.Status, len(rc.Messages), rc.Error)
	}
	last := rc.Messages[31]
	if last.Depth != 32 || last.Status != types.ReceiptFailed || !strings.HasPrefix(last.Error, "RecursionError: message depth limit") {
		t.Fatalf("last message %+v", last)
	}
	if got := ret(t, e.call(a, "max")); got != int64(31) {
		t.Fatalf("deepest kept write at depth %v, want 31 (depth 32 reverted)", got)
	}
}

// §3.3: the mailbox holds 1,000,000 bytes; an enqueue beyond raises. (Under
// today's 1,000,000-cell transaction cap the payload cells run out first,
// so the test fills the mailbox directly.)
func TestMailboxCapacity(t *testing.T) {
	e := newActorEnv(t)
	a := e.mustDeploy(fanoutActor)
	rt := newRuntime(e.st, e.bc, e.from, 1_000_000, 100_000)
	rt.mailbox[a] = MailboxCapacity - 10
	h := &handlerHost{rt: rt, env: &envelope{to: a, depth: 1}}
	if _, err := h.Send(pvmMessage(a, "noop", make([]byte, 20))); err == nil || !strings.Contains(err.Error(), "mailbox") {
		t.Fatalf("send into a full mailbox: %v", err)
	}
	if _, err := h.Send(pvmMessage(a, "noop", []byte{0x80})); err != nil {
		t.Fatalf("small send: %v", err)
	}
}

const atomicActor = `
from cowboy_sdk import actor, context, emit_event, send_message, transfer
@actor
class A:
    def __init__(self):
        self.storage["n"] = 0
    def boom(self, to):
        self.storage["n"] = 99
        transfer(to, 5)
        emit_event("E", 1)
        send_message(context.self_address, "bump")
        raise ValueError("no")
    def bump(self):
        self.storage["n"] += 1
    def call_failing(self, other):
        self.storage["n"] = 7
        send_message(other, "explode")
    def explode(self):
        self.storage["n"] = -1
        raise RuntimeError("nested")
    def n(self):
        return self.storage["n"]
`

// A failing handler keeps nothing: storage, transfers, events and sends
// revert together; a failing nested message reverts only itself.
func TestHandlerAtomicity(t *testing.T) {
	e := newActorEnv(t)
	a := e.mustDeploy(atomicActor)
	e.st.AddBalance(a, big.NewInt(100))
	sink := types.Address{0x55}
	rc := e.call(a, "boom", sink.Hex())
	wantFail(t, rc, "ValueError: no (main.py, line 12)")
	if len(rc.Events) != 0 || len(rc.Messages) != 1 {
		t.Fatalf("events %v messages %v", rc.Events, rc.Messages)
	}
	if e.st.Balance(sink).Sign() != 0 || e.st.Balance(a).Int64() != 100 {
		t.Fatalf("transfer survived: sink %s actor %s", e.st.Balance(sink), e.st.Balance(a))
	}
	if n := ret(t, e.call(a, "n")); n != int64(0) {
		t.Fatalf("n = %v after a failed handler", n)
	}

	b := e.deploySalt(atomicActor, 1)
	rc = e.call(a, "call_failing", b.ContractAddress.Hex())
	if rc.Status != types.ReceiptSuccess || len(rc.Messages) != 2 || rc.Messages[1].Status != types.ReceiptFailed ||
		!strings.HasPrefix(rc.Messages[1].Error, "RuntimeError: nested") {
		t.Fatalf("nested failure: %+v", rc)
	}
	if n := ret(t, e.call(a, "n")); n != int64(7) {
		t.Fatalf("sender's write lost: n = %v", n)
	}
	if n := ret(t, e.call(*b.ContractAddress, "n")); n != int64(0) {
		t.Fatalf("failed nested write kept: n = %v", n)
	}
}

// Names starting with "_" cannot be called from outside; missing methods
// are reported as such.
func TestPrivateAndMissingMethods(t *testing.T) {
	e := newActorEnv(t)
	a := e.mustDeploy("class Actor:\n    def _secret(self):\n        return 1\n    def __len__(self):\n        return 2\n    x = 5\n")
	wantFail(t, e.call(a, "_secret"), "method '_secret' is private")
	wantFail(t, e.call(a, "__len__"), "private")
	wantFail(t, e.call(a, "nope"), "AttributeError: actor Actor has no method 'nope'")
	wantFail(t, e.call(a, "x"), "not a method")
}

// A handler that runs out of cycles fails, is charged everything it had,
// and changes nothing.
func TestOutOfCycles(t *testing.T) {
	e := newActorEnv(t)
	a := e.mustDeploy("class Actor:\n    def __init__(self):\n        self.n = 0\n    def spin(self):\n        self.n = 1\n        while True:\n            pass\n    def n_(self):\n        return self.n\n")
	rc := e.callWith(a, nil, 300_000, 10_000, "spin")
	wantFail(t, rc, "out of cycles")
	if rc.CyclesUsed != 300_000 {
		t.Fatalf("charged %d cycles, want all 300000", rc.CyclesUsed)
	}
	if n := ret(t, e.call(a, "n_")); n != int64(0) {
		t.Fatalf("n = %v", n)
	}
}

// §12.1: one actor's handlers use at most 1,000,000 cycles per block.
func TestPerActorBlockCycles(t *testing.T) {
	e := newActorEnv(t)
	a := e.mustDeploy("class Actor:\n    def burn(self, n):\n        i = 0\n        while i < n:\n            i += 1\n        return i\n")
	e.newBlock()
	ret(t, e.call(a, "burn", int64(100_000)))
	rc := e.call(a, "burn", int64(100_000))
	wantFail(t, rc, "per-actor per-block limit of 1000000 cycles")
	e.newBlock()
	ret(t, e.call(a, "burn", int64(100_000)))
}

// Hostile or broken code is refused at deployment with a clear error and
// leaves no actor behind.
func TestHostileDeploys(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"syntax error", "class Actor:\n    def f(self)\n        pass\n", "SyntaxError"},
		{"forbidden import", "import os\nclass Actor:\n    pass\n", "import of 'os' is not allowed"},
		{"forbidden import inside a method", "class Actor:\n    def f(self):\n        import socket\n", "import of 'socket' is not allowed"},
		{"no actor class", "x = 1\n", "no actor class"},
		{"two actor classes", "from cowboy_sdk import actor\n@actor\nclass A:\n    pass\n@actor\nclass B:\n    pass\n", "more than one class"},
		{"infinite loop in __init__", "class Actor:\n    def __init__(self):\n        while True:\n            pass\n", "out of cycles"},
		{"deep recursion", "def f(n):\n    return f(n + 1)\nclass Actor:\n    def __init__(self):\n        f(0)\n", "RecursionError"},
		{"huge integer", "class Actor:\n    def __init__(self):\n        self.x = 10 ** 100000\n", "OverflowError"},
		{"memory bomb", "class Actor:\n    def __init__(self):\n        self.x = 'x' * (10 ** 9)\n", "MemoryError"},
		{"unstorable attribute", "class Actor:\n    def __init__(self):\n        self.s = {1, 2}\n", "actor attributes cannot be stored"},
		{"not UTF-8", "class Actor:\n    s = '\xff'\n", "UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newActorEnv(t)
			rc := e.deploySalt(tc.src, 0)
			wantFail(t, rc, tc.want)
			if rc.ContractAddress != nil {
				t.Fatal("failed deployment reported an address")
			}
			ws, _ := e.st.Writes()
			for _, w := range ws {
				if w.Key[0] == 0x02 || w.Key[0] == 0x03 {
					t.Fatalf("failed deployment wrote %x", w.Key[:22])
				}
			}
		})
	}
}

// Hostile code in a call fails that call only; the actor keeps working.
func TestHostileCalls(t *testing.T) {
	e := newActorEnv(t)
	a := e.mustDeploy(`
class Actor:
    def __init__(self):
        self.n = 1
    def loop(self):
        while True:
            pass
    def recurse(self, k):
        return self.recurse(k + 1)
    def big(self):
        return 7 ** 10 ** 6
    def bomb(self):
        return [0] * (10 ** 9)
    def bad_return(self):
        return {1, 2}
    def n_(self):
        return self.n
`)
	for _, c := range []struct{ method, want string }{
		{"loop", "out of cycles"}, {"recurse", "RecursionError"}, {"big", "OverflowError"},
		{"bomb", "MemoryError"}, {"bad_return", "cannot encode 'set'"},
	} {
		e.newBlock()
		wantFail(t, e.callWith(a, nil, 500_000, 100_000, c.method, argsFor(c.method)...), c.want)
	}
	if n := ret(t, e.call(a, "n_")); n != int64(1) {
		t.Fatalf("actor broken after hostile calls: %v", n)
	}
}

func argsFor(method string) []any {
	if method == "recurse" {
		return []any{int64(0)}
	}
	return nil
}

// §3.3: a message id already in the actor's dedup set is not delivered
// again; the set is pruned DedupWindow blocks later.
func TestDedupSet(t *testing.T) {
	e := newActorEnv(t)
	a := e.mustDeploy(atomicActor)
	id := types.Hash{0x42}
	e.st.RecordDeliveries(e.bc.Height, append(append([]byte{}, a[:]...), id[:]...))
	rt := newRuntime(e.st, e.bc, e.from, 1_000_000, 100_000)
	ok, msg := rt.run(&envelope{id: id, from: e.from, to: a, method: "bump", args: []byte{0x80}, value: new(big.Int), depth: 1})
	if ok || !strings.Contains(msg, "duplicate message") {
		t.Fatalf("duplicate delivered: ok=%v %q", ok, msg)
	}
	e.st.PruneDedup(e.bc.Height + state.DedupWindow)
	if e.st.Delivered(a, id) {
		t.Fatal("dedup entry not pruned after the window")
	}
}

// Arguments and return values cross as canonical CBOR; the context says
// who called with how much.
func TestArgsReturnAndContext(t *testing.T) {
	e := newActorEnv(t)
	a := e.mustDeploy(`
from cowboy_sdk import context, get_block_info
class Actor:
    def echo(self, *args):
        return [list(args), context.sender, context.value, context.depth, get_block_info()["height"]]
`)
	rc := e.callWith(a, big.NewInt(9), 1_000_000, 10_000, "echo", int64(1), "two", []byte{3}, []any{true, nil}, 2.5)
	got := ret(t, rc).([]any)
	if len(got) != 5 || got[1] != e.from.Hex() || got[2] != int64(9) || got[3] != int64(1) || got[4] != int64(e.bc.Height) {
		t.Fatalf("echo %v", got)
	}
	if e.st.Balance(a).Int64() != 9 {
		t.Fatalf("value not credited: %s", e.st.Balance(a))
	}
}

func pvmMessage(to types.Address, method string, payload []byte) pvm.Message {
	return pvm.Message{To: pvm.Address(to), Method: method, Payload: payload, Value: new(big.Int)}
}

// An actor's randomness(label) is HKDF(R_n, label) over the block's beacon
// (§3.4): the same within a block, different in the next block and for
// another label.
func TestActorRandomness(t *testing.T) {
	e := newActorEnv(t)
	a := e.mustDeploy(`
from cowboy_sdk import actor, randomness
@actor
class Dice:
    def roll(self, label):
        return randomness(label)
`)
	e.bc.Beacon = [32]byte{4, 2}
	got := ret(t, e.call(a, "roll", "dice")).([]byte)
	want := crypto.Randomness(e.bc.Beacon, []byte("dice"))
	if !bytes.Equal(got, want[:]) {
		t.Fatalf("roll = %x, want %x", got, want)
	}
	if other := ret(t, e.call(a, "roll", "coin")).([]byte); bytes.Equal(other, got) {
		t.Fatal("two labels gave the same randomness")
	}
	e.newBlock()
	e.bc.Beacon = [32]byte{4, 3}
	if next := ret(t, e.call(a, "roll", "dice")).([]byte); bytes.Equal(next, got) {
		t.Fatal("the next block's beacon gave the same randomness")
	}
}
