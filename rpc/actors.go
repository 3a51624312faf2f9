package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/pvm/cbor"
)

// Actors is what a node offers for the actor methods (cowboy_getCode,
// cowboy_getActorStorage, cowboy_call, cowboy_getLogs). It is optional:
// a backend without it answers those methods with -32601.
type Actors interface {
	// ActorCode returns the actor's code hash and canonical source, or an
	// error wrapping ErrNotFound when addr has no code.
	ActorCode(addr types.Address) (types.Hash, []byte, error)
	// ActorStorage reads one key of the actor's storage in namespace ns
	// at the latest block; nil when absent.
	ActorStorage(addr types.Address, ns byte, key []byte) ([]byte, error)
	// Call runs a call or deployment against the latest state and commits
	// nothing (types.Receipt's fee fields are zero).
	Call(req CallRequest) (*types.Receipt, error)
	// Logs returns the events of committed blocks that match f, in
	// block, transaction and event order.
	Logs(f LogFilter) ([]Log, error)
}

// CallRequest is a read-only call: payload is a call or deploy payload
// (types.CallPayload, types.DeployPayload).
type CallRequest struct {
	From    types.Address
	To      *types.Address
	Value   *big.Int
	Payload []byte
	Cycles  uint64 // cap; 0 means the transaction maximum
	Cells   uint64
}

// LogFilter selects events: by emitting actor, by name, and by block range
// (inclusive).
type LogFilter struct {
	Address   *types.Address
	Name      string
	FromBlock uint64
	ToBlock   uint64
}

// MaxLogRange is the most blocks one cowboy_getLogs call scans.
const MaxLogRange = 10_000

// Log is one event with where it was emitted, as a node returns it;
// NewLogJSON renders it.
type Log struct {
	Event     types.Event
	Height    uint64
	BlockHash types.Hash
	TxHash    types.Hash
	TxIndex   uint64 // the transaction's index in its block
	LogIndex  uint64 // the event's index among all of its block's events
}

// NewLogJSON renders l.
func NewLogJSON(l Log) LogJSON {
	e := l.Event
	return LogJSON{Address: Address(e.Address), Name: e.Name, Data: Bytes(e.Data), Value: CBORToJSON(e.Data),
		BlockNumber: Quantity(l.Height), BlockHash: Hash(l.BlockHash), TransactionHash: Hash(l.TxHash),
		TxIndex: Quantity(l.TxIndex), LogIndex: Quantity(l.LogIndex)}
}

// LogJSON is one event with where it was emitted.
type LogJSON struct {
	Address         Address         `json:"address"`
	Name            string          `json:"name"`
	Data            Bytes           `json:"data"`
	Value           json.RawMessage `json:"value,omitempty"` // data as JSON, when it decodes
	BlockNumber     Quantity        `json:"blockNumber"`
	BlockHash       Hash            `json:"blockHash"`
	TransactionHash Hash            `json:"transactionHash"`
	TxIndex         Quantity        `json:"transactionIndex"`
	LogIndex        Quantity        `json:"logIndex"`
}

// MessageJSON is one delivered actor message in a receipt.
type MessageJSON struct {
	ID         Hash     `json:"id"`
	From       Address  `json:"from"`
	To         Address  `json:"to"`
	Method     string   `json:"method"`
	Depth      Quantity `json:"depth"`
	Status     Quantity `json:"status"`
	CyclesUsed Quantity `json:"cyclesUsed"`
	CellsUsed  Quantity `json:"cellsUsed"`
	Error      string   `json:"error"`
}

// CodeJSON is cowboy_getCode's result.
type CodeJSON struct {
	Address  Address `json:"address"`
	CodeHash Hash    `json:"codeHash"`
	Source   string  `json:"source"`
}

// StorageJSON is cowboy_getActorStorage's result.
type StorageJSON struct {
	Key   Bytes           `json:"key"`
	Value *Bytes          `json:"value"`          // null when absent
	JSON  json.RawMessage `json:"json,omitempty"` // value as JSON, when it is canonical CBOR
}

// CallJSON is cowboy_call's result.
type CallJSON struct {
	Status          Quantity        `json:"status"`
	ReturnData      Bytes           `json:"returnData"`
	ReturnValue     json.RawMessage `json:"returnValue,omitempty"`
	CyclesUsed      Quantity        `json:"cyclesUsed"`
	CellsUsed       Quantity        `json:"cellsUsed"`
	Error           string          `json:"error"`
	ContractAddress *Address        `json:"contractAddress,omitempty"`
	Events          []EventJSON     `json:"events"`
	Messages        []MessageJSON   `json:"messages"`
}

// CallArgs is cowboy_call's parameter object. Either Data (a raw call or
// deploy payload) or Method with Args (a JSON array, converted to canonical
// CBOR) is given; without To it is a deployment and Data is required.
type CallArgs struct {
	From        *Address          `json:"from,omitempty"`
	To          *Address          `json:"to,omitempty"`
	Method      string            `json:"method,omitempty"`
	Args        []json.RawMessage `json:"args,omitempty"`
	Value       *BigQuantity      `json:"value,omitempty"`
	Data        *Bytes            `json:"data,omitempty"`
	CyclesLimit *Quantity         `json:"cyclesLimit,omitempty"`
	CellsLimit  *Quantity         `json:"cellsLimit,omitempty"`
}

// LogFilterJSON is cowboy_getLogs's parameter object.
type LogFilterJSON struct {
	Address   *Address  `json:"address,omitempty"`
	Name      string    `json:"name,omitempty"`
	FromBlock *BlockRef `json:"fromBlock,omitempty"`
	ToBlock   *BlockRef `json:"toBlock,omitempty"`
}

// ArgsCBOR converts JSON arguments to the canonical CBOR array a call
// payload carries (pvm/cbor.FromJSON rules: integers stay integers of any
// size, "0x…" strings stay strings).
func ArgsCBOR(args []json.RawMessage) ([]byte, error) {
	if args == nil {
		args = []json.RawMessage{}
	}
	arr, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	return cbor.FromJSON(arr)
}

// CBORToJSON renders canonical CBOR as JSON, or nil if it does not decode.
func CBORToJSON(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	j, err := cbor.ToJSON(b)
	if err != nil {
		return nil
	}
	return j
}

func actorsOf(b Backend, name string) (Actors, *Error) {
	a, ok := b.(Actors)
	if !ok {
		return nil, newError(CodeMethodNotFound, "method %s is not served by this node", name)
	}
	return a, nil
}

func getCode(_ context.Context, b Backend, p *params) (any, *Error) {
	a, perr := actorsOf(b, "cowboy_getCode")
	if perr != nil {
		return nil, perr
	}
	addr, perr := p.address(0)
	if perr != nil {
		return nil, perr
	}
	if _, perr := p.tag(1, "latest", "latest"); perr != nil {
		return nil, perr
	}
	h, src, err := a.ActorCode(addr)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, internal(err)
	}
	return &CodeJSON{Address: Address(addr), CodeHash: Hash(h), Source: string(src)}, nil
}

func getActorStorage(_ context.Context, b Backend, p *params) (any, *Error) {
	a, perr := actorsOf(b, "cowboy_getActorStorage")
	if perr != nil {
		return nil, perr
	}
	addr, perr := p.address(0)
	if perr != nil {
		return nil, perr
	}
	key, perr := p.bytes(1, "key")
	if perr != nil {
		return nil, perr
	}
	var ns Quantity
	if p.has(2) {
		if perr := p.decode(2, "namespace", &ns); perr != nil {
			return nil, perr
		}
		if ns > 255 {
			return nil, invalidParams("namespace must be 0x0..0xff")
		}
	}
	v, err := a.ActorStorage(addr, byte(ns), key)
	if err != nil {
		return nil, internal(err)
	}
	out := &StorageJSON{Key: Bytes(key)}
	if v != nil {
		bv := Bytes(v)
		out.Value = &bv
		out.JSON = CBORToJSON(v)
	}
	return out, nil
}

func call(_ context.Context, b Backend, p *params) (any, *Error) {
	a, perr := actorsOf(b, "cowboy_call")
	if perr != nil {
		return nil, perr
	}
	var args CallArgs
	if perr := p.object(0, "call", &args); perr != nil {
		return nil, perr
	}
	req := CallRequest{}
	if args.From != nil {
		req.From = types.Address(*args.From)
	}
	if args.To != nil {
		to := types.Address(*args.To)
		req.To = &to
	}
	if args.Value != nil {
		req.Value = args.Value.Int()
	}
	if args.CyclesLimit != nil {
		req.Cycles = uint64(*args.CyclesLimit)
	}
	if args.CellsLimit != nil {
		req.Cells = uint64(*args.CellsLimit)
	}
	switch {
	case args.Data != nil:
		if args.Method != "" || args.Args != nil {
			return nil, invalidParams("give either data or method and args, not both")
		}
		req.Payload = []byte(*args.Data)
	case req.To == nil:
		return nil, invalidParams("a deployment (no \"to\") needs \"data\": the deploy payload [code, salt, args]")
	case args.Method == "":
		return nil, invalidParams("missing \"method\"")
	default:
		cb, err := ArgsCBOR(args.Args)
		if err != nil {
			return nil, invalidParams("args: %v", err)
		}
		pl, err := (&types.CallPayload{Method: args.Method, Args: cb}).Encode()
		if err != nil {
			return nil, invalidParams("args: %v", err)
		}
		req.Payload = pl
	}
	rc, err := a.Call(req)
	if errors.Is(err, ErrNoActor) {
		return nil, newError(CodeNotFound, "%v", err)
	}
	if err != nil {
		return nil, internal(err)
	}
	return NewCallJSON(rc), nil
}

// NewCallJSON renders a simulated receipt.
func NewCallJSON(rc *types.Receipt) *CallJSON {
	out := &CallJSON{Status: Quantity(rc.Status), ReturnData: Bytes(rc.ReturnData), ReturnValue: CBORToJSON(rc.ReturnData),
		CyclesUsed: Quantity(rc.CyclesUsed), CellsUsed: Quantity(rc.CellsUsed), Error: rc.Error,
		Events: eventsJSON(rc.Events), Messages: messagesJSON(rc.Messages)}
	if out.ReturnData == nil {
		out.ReturnData = Bytes{}
	}
	if rc.ContractAddress != nil {
		c := Address(*rc.ContractAddress)
		out.ContractAddress = &c
	}
	return out
}

func eventsJSON(evs []types.Event) []EventJSON {
	out := make([]EventJSON, len(evs))
	for i, e := range evs {
		out[i] = EventJSON{Address: Address(e.Address), Name: e.Name, Data: Bytes(e.Data), Value: CBORToJSON(e.Data)}
		if out[i].Data == nil {
			out[i].Data = Bytes{}
		}
	}
	return out
}

func messagesJSON(ms []types.MessageResult) []MessageJSON {
	out := make([]MessageJSON, len(ms))
	for i, m := range ms {
		out[i] = MessageJSON{ID: Hash(m.ID), From: Address(m.From), To: Address(m.To), Method: m.Method,
			Depth: Quantity(m.Depth), Status: Quantity(m.Status), CyclesUsed: Quantity(m.CyclesUsed),
			CellsUsed: Quantity(m.CellsUsed), Error: m.Error}
	}
	return out
}

func getLogs(_ context.Context, b Backend, p *params) (any, *Error) {
	a, perr := actorsOf(b, "cowboy_getLogs")
	if perr != nil {
		return nil, perr
	}
	var fj LogFilterJSON
	if perr := p.object(0, "filter", &fj); perr != nil {
		return nil, perr
	}
	latest := b.LatestHeight()
	height := func(r *BlockRef, def uint64) uint64 {
		if r == nil {
			return def
		}
		switch *r {
		case LatestBlock:
			return latest
		case EarliestBlock:
			return 0
		}
		h, _ := r.Height()
		return h
	}
	f := LogFilter{Name: fj.Name, ToBlock: min(height(fj.ToBlock, latest), latest)}
	if fj.Address != nil {
		addr := types.Address(*fj.Address)
		f.Address = &addr
	}
	def := uint64(0)
	if f.ToBlock >= MaxLogRange {
		def = f.ToBlock - MaxLogRange + 1
	}
	f.FromBlock = height(fj.FromBlock, def)
	if f.FromBlock > f.ToBlock {
		return []LogJSON{}, nil
	}
	if f.ToBlock-f.FromBlock >= MaxLogRange {
		return nil, invalidParams("block range %d..%d is more than %d blocks; narrow it", f.FromBlock, f.ToBlock, MaxLogRange)
	}
	logs, err := a.Logs(f)
	if err != nil {
		return nil, internal(fmt.Errorf("get logs: %w", err))
	}
	out := make([]LogJSON, len(logs))
	for i, l := range logs {
		out[i] = NewLogJSON(l)
	}
	return out, nil
}
