package execution

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/pvm"
)

// Messaging limits of technical spec §3.3, §12.1 and §13, defined once in
// chain/types (limits_s12.go) and named here where execution enforces them.
const (
	MaxMessagesPerTx    = types.MaxMessagesPerTx
	MaxMessageDepth     = types.MaxMessageDepth
	MailboxCapacity     = types.MailboxCapacity
	PerActorBlockCycles = types.PerActorBlockCycles
)

// envelope is one message on its way to a handler.
type envelope struct {
	id       types.Hash
	from, to types.Address
	method   string
	args     []byte // canonical CBOR array
	value    *big.Int
	depth    int
	deploy   bool
	// deployCode is the canonical source and its hash, for a deployment.
	deployCode struct {
		source []byte
		hash   types.Hash
	}
	size int // mailbox bytes it occupies until delivered
}

// runtime delivers the messages of one transaction in FIFO order (§3.3:
// "delivered after the sending handler completes, in the same block").
type runtime struct {
	st         *state.StateDB
	bc         *BlockContext
	origin     types.Address
	queue      []*envelope
	enqueued   int // messages enqueued by this transaction, its own included
	mailbox    map[types.Address]int
	cyclesLeft uint64
	cellsLeft  uint64
	cyclesUsed uint64
	cellsUsed  uint64
	results    []types.MessageResult
	events     []types.Event
	ret        []byte // the first message's return value
}

func newRuntime(st *state.StateDB, bc *BlockContext, origin types.Address, cycles, cells uint64) *runtime {
	return &runtime{st: st, bc: bc, origin: origin, cyclesLeft: cycles, cellsLeft: cells, mailbox: map[types.Address]int{}}
}

// run delivers first and everything it causes; it reports whether the
// first message succeeded and, if not, why.
func (rt *runtime) run(first *envelope) (ok bool, errMsg string) {
	rt.queue = append(rt.queue, first)
	rt.enqueued = 1
	for i := 0; i < len(rt.queue); i++ {
		env := rt.queue[i]
		rt.queue[i] = nil
		rt.mailbox[env.to] -= env.size
		res := rt.deliver(env)
		if i == 0 {
			ok, errMsg = res.Status == types.ReceiptSuccess, res.Error
		}
		rt.results = append(rt.results, res)
	}
	return ok, errMsg
}

// deliver runs one handler atomically: its value transfer, storage writes,
// transfers, events and sends commit together or not at all.
func (rt *runtime) deliver(env *envelope) types.MessageResult {
	res := types.MessageResult{ID: env.id, From: env.from, To: env.to, Method: env.method, Depth: uint64(env.depth)}
	fail := func(msg string) types.MessageResult {
		res.Status, res.Error = types.ReceiptFailed, msg
		return res
	}
	if rt.st.Delivered(env.to, env.id) || rt.bc.deliveredInBlock(env.to, env.id) {
		return fail(fmt.Sprintf("duplicate message %s: already delivered to %s (§3.3 dedup set)", env.id, env.to))
	}
	rt.bc.recordDelivery(env.to, env.id)
	if env.to == staking.Address {
		return fail(fmt.Sprintf("%s is the validator registry: it takes transactions only, not actor messages", staking.Address))
	}
	if why := systemRefusal(env.to); why != "" {
		return fail(why)
	}
	snap := rt.st.Snapshot()
	if err := transfer(rt.st, env.from, env.to, env.value); err != nil {
		return fail(fmt.Sprintf("value transfer: %v", err))
	}
	var prog *pvm.Program
	if env.deploy {
		p, err := deployCode(rt.st, env)
		if err != nil {
			rt.st.RevertToSnapshot(snap)
			return fail(err.Error())
		}
		prog = p
	} else {
		p, err := programAt(rt.st, env.to)
		if err != nil {
			rt.st.RevertToSnapshot(snap)
			return fail(err.Error())
		}
		if p == nil {
			// A message to an account without code only moves value.
			res.Status = types.ReceiptSuccess
			return res
		}
		prog = p
	}

	limit, actorCapped := rt.cyclesLeft, false
	if left := PerActorBlockCycles - min(PerActorBlockCycles, rt.bc.actorCycles(env.to)); left < limit {
		limit, actorCapped = left, true
	}
	h := &handlerHost{rt: rt, env: env}
	ret, used, err := prog.Run(pvm.Config{CyclesLimit: limit, CellsLimit: rt.cellsLeft, Host: rt.traceHandler(env, h)},
		pvm.Call{Deploy: env.deploy, Method: env.method, Args: env.args})
	if rt.bc.Tracer != nil {
		rt.bc.Tracer.HandlerEnd(used, err)
	}
	rt.charge(env.to, used)
	res.CyclesUsed, res.CellsUsed = used.CyclesUsed, used.CellsUsed
	if err != nil {
		rt.st.RevertToSnapshot(snap)
		msg := pvm.ErrorSummary(err)
		if actorCapped && used.CyclesUsed >= limit {
			msg += fmt.Sprintf(" (actor %s reached the per-actor per-block limit of %d cycles, §12.1)", env.to, PerActorBlockCycles)
		}
		return fail(msg)
	}
	if rt.st.Err() != nil {
		return fail(rt.st.Err().Error())
	}
	for _, s := range h.sends {
		rt.mailbox[s.to] += s.size
		rt.queue = append(rt.queue, s)
	}
	rt.enqueued += len(h.sends)
	rt.events = append(rt.events, h.events...)
	if len(rt.results) == 0 {
		rt.ret = ret
	}
	res.Status = types.ReceiptSuccess
	return res
}

func (rt *runtime) charge(actor types.Address, used pvm.Result) {
	rt.cyclesLeft -= min(rt.cyclesLeft, used.CyclesUsed)
	rt.cellsLeft -= min(rt.cellsLeft, used.CellsUsed)
	rt.cyclesUsed += used.CyclesUsed
	rt.cellsUsed += used.CellsUsed
	rt.bc.addActorCycles(actor, used.CyclesUsed)
}

// deployCode checks the deployment and installs the code (§1.2, §17.2);
// the caller runs __init__ and reverts everything if it fails.
func deployCode(st *state.StateDB, env *envelope) (*pvm.Program, error) {
	canon, codeHash := env.deployCode.source, env.deployCode.hash
	if st.IsActor(env.to) {
		return nil, fmt.Errorf("an actor already exists at %s: this creator deployed the same code with the same salt before; deploy with a different salt", env.to)
	}
	prog, err := compileProgram(codeHash, canon)
	if err != nil {
		return nil, err
	}
	if err := st.SetCode(env.to, &state.ActorCode{CodeHash: codeHash, Source: canon}); err != nil {
		return nil, err
	}
	return prog, nil
}

// programAt returns the compiled code of the actor at a, or nil if a has
// no code.
func programAt(st *state.StateDB, a types.Address) (*pvm.Program, error) {
	c, err := st.Code(a)
	if err != nil || c == nil {
		return nil, err
	}
	return compileProgram(c.CodeHash, c.Source)
}

// programs caches compiled actors by code hash. Compilation is
// deterministic, so the cache changes only speed, never results.
var programs = struct {
	sync.Mutex
	m map[types.Hash]*pvm.Program
}{m: map[types.Hash]*pvm.Program{}}

const maxCachedPrograms = 1024

func compileProgram(h types.Hash, src []byte) (*pvm.Program, error) {
	programs.Lock()
	p := programs.m[h]
	programs.Unlock()
	if p != nil {
		return p, nil
	}
	p, err := pvm.CheckActor(src)
	if err != nil {
		return nil, fmt.Errorf("actor code rejected: %s", pvm.ErrorSummary(err))
	}
	programs.Lock()
	if len(programs.m) >= maxCachedPrograms {
		clear(programs.m)
	}
	programs.m[h] = p
	programs.Unlock()
	return p, nil
}

// messageID is §3.3's keccak256(sender || nonce || msg_hash), the nonce as
// 8 bytes big-endian.
func messageID(sender types.Address, nonce uint64, msgHash types.Hash) types.Hash {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], nonce)
	return types.Hash(crypto.Keccak256(sender[:], n[:], msgHash[:]))
}

// handlerHost is pvm.Host for one handler: reads and writes go to the
// journaled state at once (the runtime reverts them if the handler fails);
// sends and events are held until the handler succeeds.
type handlerHost struct {
	rt     *runtime
	env    *envelope
	sends  []*envelope
	events []types.Event
}

func (h *handlerHost) StorageGet(ns byte, key []byte) ([]byte, bool, error) {
	v := h.rt.st.GetStorage(h.env.to, ns, key)
	return v, v != nil, h.rt.st.Err()
}

func (h *handlerHost) StorageSet(ns byte, key, value []byte) error {
	if value == nil {
		value = []byte{}
	}
	err := h.rt.st.SetStorage(h.env.to, ns, key, value)
	var q *state.ErrQuota
	if errors.As(err, &q) {
		return &pvm.HostError{Type: "MemoryError", Msg: q.Error()}
	}
	return err
}

func (h *handlerHost) StorageDelete(ns byte, key []byte) error {
	return h.rt.st.SetStorage(h.env.to, ns, key, nil)
}

func (h *handlerHost) Send(m pvm.Message) ([32]byte, error) {
	rt := h.rt
	if rt.enqueued+len(h.sends) >= MaxMessagesPerTx {
		return [32]byte{}, &pvm.HostError{Type: "RuntimeError", Msg: fmt.Sprintf("message fanout limit: a transaction may enqueue at most %d messages including nested sends (technical spec §3.3)", MaxMessagesPerTx)}
	}
	if h.env.depth+1 > MaxMessageDepth {
		return [32]byte{}, &pvm.HostError{Type: "RecursionError", Msg: fmt.Sprintf("message depth limit: this handler runs at depth %d and sends may nest at most %d deep (technical spec §3.3, §12.1)", h.env.depth, MaxMessageDepth)}
	}
	to := types.Address(m.To)
	size := len(m.Payload) + len(m.Method)
	pending := rt.mailbox[to]
	for _, s := range h.sends {
		if s.to == to {
			pending += s.size
		}
	}
	if pending+size > MailboxCapacity {
		return [32]byte{}, &pvm.HostError{Type: "RuntimeError", Msg: fmt.Sprintf("mailbox of %s is full: %d bytes waiting, capacity %d (technical spec §3.3)", to, pending, MailboxCapacity)}
	}
	self := h.env.to
	nonce := rt.st.Nonce(self)
	rt.st.SetNonce(self, nonce+1)
	// msg_hash = keccak256 of the canonical CBOR [to, method, args, value].
	mh := types.AppendArrayHeader(nil, 4)
	mh = types.AppendBytes(mh, to[:])
	mh = types.AppendText(mh, m.Method)
	mh = append(mh, m.Payload...)
	mh = types.AppendBigUint(mh, m.Value)
	id := messageID(self, nonce, types.Hash(crypto.Keccak256(mh)))
	h.sends = append(h.sends, &envelope{id: id, from: self, to: to, method: m.Method, args: m.Payload,
		value: m.Value, depth: h.env.depth + 1, size: size})
	return id, nil
}

func (h *handlerHost) Emit(ev pvm.Event) error {
	h.events = append(h.events, types.Event{Address: h.env.to, Name: ev.Name, Data: ev.Data})
	return nil
}

func (h *handlerHost) Transfer(to pvm.Address, value *big.Int) error {
	if types.Address(to) == staking.Address {
		// Its balance is exactly the bonded stake; stake arrives only by
		// register transactions.
		return &pvm.HostError{Type: "ValueError", Msg: fmt.Sprintf("%s is the validator registry: it takes stake only through register transactions", staking.Address)}
	}
	if why := systemRefusal(types.Address(to)); why != "" {
		return &pvm.HostError{Type: "ValueError", Msg: why}
	}
	if err := transfer(h.rt.st, h.env.to, types.Address(to), value); err != nil {
		return &pvm.HostError{Type: "ValueError", Msg: err.Error()}
	}
	return nil
}

func (h *handlerHost) Balance(a pvm.Address) (*big.Int, error) {
	return h.rt.st.Balance(types.Address(a)), h.rt.st.Err()
}

func (h *handlerHost) Context() pvm.MessageContext {
	return pvm.MessageContext{Self: pvm.Address(h.env.to), Sender: pvm.Address(h.env.from), Origin: pvm.Address(h.rt.origin),
		Value: h.env.value, ID: h.env.id, Depth: h.env.depth}
}

func (h *handlerHost) Block() pvm.BlockInfo {
	bc := h.rt.bc
	return pvm.BlockInfo{Height: bc.Height, Timestamp: bc.Time, ChainID: bc.ChainID, Proposer: pvm.Address(bc.Proposer), Beacon: bc.Beacon}
}

// runActorTx executes a deployment or an actor call and fills the receipt;
// it returns the cycles and cells the handlers used (the intrinsic cost is
// the caller's).
func runActorTx(st *state.StateDB, bc *BlockContext, tx *types.Tx, from types.Address, rc *types.Receipt, cycles, cells uint64) (uint64, uint64) {
	env := &envelope{id: messageID(from, tx.Nonce, tx.Hash()), from: from, value: tx.ValueOrZero(), depth: 1}
	failed := func(msg string) (uint64, uint64) {
		rc.Status, rc.Error = types.ReceiptFailed, msg
		return 0, 0
	}
	if tx.To == nil {
		p, err := types.DecodeDeployPayload(tx.Payload)
		if err != nil {
			return failed(err.Error()) // CheckStateless makes this unreachable
		}
		canon, err := types.CanonicalSource([]byte(p.Code))
		if err != nil {
			return failed(err.Error())
		}
		h := types.Hash(crypto.Keccak256(canon))
		env.deploy, env.method, env.args = true, "__init__", p.Args
		env.deployCode.source, env.deployCode.hash = canon, h
		env.to = types.ActorAddress(from, p.Salt, h)
	} else {
		p, err := types.DecodeCallPayload(tx.Payload)
		if err != nil {
			return failed(fmt.Sprintf("payload is not an actor call: %v", err))
		}
		env.to, env.method, env.args = *tx.To, p.Method, p.Args
	}
	rt := newRuntime(st, bc, from, cycles, cells)
	ok, msg := rt.run(env)
	rc.Messages, rc.Events = rt.results, rt.events
	if !ok {
		rc.Status, rc.Error = types.ReceiptFailed, msg
	} else {
		rc.ReturnData = rt.ret
		if env.deploy {
			a := env.to
			rc.ContractAddress = &a
		}
	}
	return rt.cyclesUsed, rt.cellsUsed
}

// Simulate runs a transaction as from would send it, against st, with no
// signature, nonce or fee checks and no fee charged, under the given cycle
// and cell caps. It dispatches through the same table as ApplyTx (Classify),
// so a deployment, an actor call, a registry call or a transfer runs
// exactly as it would in a block. It is cowboy_call and fee
// estimation: the caller must discard st. The receipt's CyclesUsed and
// CellsUsed include the intrinsic cost the transaction would pay.
func Simulate(st *state.StateDB, bc *BlockContext, from types.Address, to *types.Address, value *big.Int, payload []byte, cycles, cells uint64) *types.Receipt {
	if value == nil {
		value = new(big.Int)
	}
	tx := &types.Tx{ChainID: bc.ChainID, Nonce: st.Nonce(from), To: to, Value: value, Payload: payload,
		CyclesLimit: cycles, CellsLimit: cells}
	ic, ib := fees.TxIntrinsic(tx)
	rc := &types.Receipt{Status: types.ReceiptSuccess, Fee: new(big.Int), Burned: new(big.Int), Tip: new(big.Int)}
	if to == nil {
		if _, err := types.DecodeDeployPayload(payload); err != nil {
			rc.Status, rc.Error = types.ReceiptFailed, err.Error()
			return rc
		}
	}
	if ic > cycles || ib > cells {
		rc.Status, rc.Error = types.ReceiptFailed, fmt.Sprintf("the caps (%d cycles, %d cells) are below the intrinsic cost (%d cycles, %d cells)", cycles, cells, ic, ib)
		return rc
	}
	rc.TxHash = tx.Hash()
	st.SetNonce(from, tx.Nonce+1)
	m := message{tx: tx, from: from, value: value, cycles: cycles - ic, cells: cells - ib}
	used, usedCells := dispatch[Classify(st, to, payload)](st, bc, m, rc)
	rc.CyclesUsed, rc.CellsUsed = ic+used, ib+usedCells
	return rc
}
