package rpc

import (
	"context"
	"errors"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// method is one entry of the method table: how many positional params it
// takes and what it does. A handler returns a value to encode as the
// result (nil encodes as null) or a JSON-RPC error.
//
// Adding a method is one entry in methods. A method that needs more than
// Backend offers (cowboy_getProof, cowboy_call) asserts an optional
// interface on the backend and answers -32601 when the node lacks it, the
// way starlark-go asserts optional capabilities on a Value.
type method struct {
	minParams, maxParams int
	call                 func(ctx context.Context, b Backend, p *params) (any, *Error)
}

// methods is the whole JSON-RPC surface; docs/rpc.md documents each entry.
var methods = map[string]method{
	"cowboy_chainId":               {0, 0, chainID},
	"cowboy_blockNumber":           {0, 0, blockNumber},
	"cowboy_getBlockByNumber":      {1, 2, getBlockByNumber},
	"cowboy_getBlockByHash":        {1, 2, getBlockByHash},
	"cowboy_getBalance":            {1, 2, getBalance},
	"cowboy_getNonce":              {1, 2, getNonce},
	"cowboy_sendRawTransaction":    {1, 1, sendRawTransaction},
	"cowboy_getTransactionByHash":  {1, 1, getTransactionByHash},
	"cowboy_getTransactionReceipt": {1, 1, getTransactionReceipt},
	"cowboy_basefees":              {0, 0, basefees},
	"cowboy_estimateFees":          {0, 1, estimateFees},
	"cowboy_totalSupply":           {0, 0, totalSupply},
	"cowboy_getProof":              {1, 3, getProof},
	"cowboy_getRelays":             {0, 0, getRelays},
	"cowboy_getCode":               {1, 2, getCode},
	"cowboy_getActorStorage":       {2, 3, getActorStorage},
	"cowboy_call":                  {1, 1, call},
	"cowboy_getLogs":               {1, 1, getLogs},
	"cowboy_consensusStatus":       {0, 0, consensusStatus},
	"cowboy_getValidators":         {0, 1, getValidators},
	"cowboy_getBlockStatus":        {1, 1, getBlockStatus},
	"cowboy_getRunner":             {1, 1, getRunner}, // runners.go: the runner market
	"cowboy_getRunners":            {0, 0, getRunners},
	"cowboy_getJob":                {1, 1, getJob},
	"cowboy_getJobs":               {0, 1, getJobs},
	"cowboy_getRunnerParams":       {0, 0, getRunnerParams},
	"cowboy_getRandomness":         {1, 1, getRandomness},
	"cowboy_getCertificate":        {1, 1, getCertificate}, // certificate.go: light-client proofs of R_n
	"cowboy_getEpochProof":         {1, 1, getEpochProof},
	"cowboy_getTimers":             {1, 1, getTimers},
	"cowboy_getTimer":              {1, 1, getTimer},
	"cowboy_getTimerReceipts":      {1, 1, getTimerReceipts},
	"cowboy_getTimerProof":         {1, 2, getTimerProof},
	"cowboy_mempool":               {0, 0, mempool},
	"cowboy_subscribe":             {1, 2, subscribe},
	"cowboy_unsubscribe":           {1, 1, unsubscribe},
}

// Methods lists the served method names, for docs and tests.
func Methods() []string {
	out := make([]string, 0, len(methods))
	for name := range methods {
		out = append(out, name)
	}
	return out
}

// internal turns a backend failure into -32603 with its text: a node
// operator reading the answer needs to know what broke.
func internal(err error) *Error {
	return newError(CodeInternal, "internal error: %v", err)
}

func chainID(_ context.Context, b Backend, _ *params) (any, *Error) {
	return Quantity(b.ChainID()), nil
}

func blockNumber(_ context.Context, b Backend, _ *params) (any, *Error) {
	return Quantity(b.LatestHeight()), nil
}

func getBlockByNumber(_ context.Context, b Backend, p *params) (any, *Error) {
	var ref BlockRef
	if err := p.decode(0, "block", &ref); err != nil {
		return nil, err
	}
	full, perr := p.optBool(1, "fullTx", false)
	if perr != nil {
		return nil, perr
	}
	var height uint64
	switch ref {
	case LatestBlock:
		height = b.LatestHeight()
	case EarliestBlock:
		height = 0
	default:
		height, _ = ref.Height()
		if height > b.LatestHeight() {
			return nil, nil
		}
	}
	return blockResult(b.BlockByNumber(height))(full)
}

func getBlockByHash(_ context.Context, b Backend, p *params) (any, *Error) {
	h, err := p.hash(0)
	if err != nil {
		return nil, err
	}
	full, err := p.optBool(1, "fullTx", false)
	if err != nil {
		return nil, err
	}
	return blockResult(b.BlockByHash(h))(full)
}

// blockResult converts a backend lookup: not found is a null result.
func blockResult(blk *types.Block, err error) func(full bool) (any, *Error) {
	return func(full bool) (any, *Error) {
		if errors.Is(err, ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, internal(err)
		}
		out, cerr := NewBlockJSON(blk, full)
		if cerr != nil {
			return nil, internal(cerr)
		}
		return out, nil
	}
}

func getBalance(_ context.Context, b Backend, p *params) (any, *Error) {
	addr, err := p.address(0)
	if err != nil {
		return nil, err
	}
	if _, err := p.tag(1, "latest", "latest"); err != nil {
		return nil, err
	}
	_, bal, berr := b.Account(addr)
	if berr != nil {
		return nil, internal(berr)
	}
	return NewBigQuantity(bal), nil
}

func getNonce(_ context.Context, b Backend, p *params) (any, *Error) {
	addr, err := p.address(0)
	if err != nil {
		return nil, err
	}
	tag, err := p.tag(1, "latest", "latest", "pending")
	if err != nil {
		return nil, err
	}
	if tag == "pending" {
		n, berr := b.PendingNonce(addr)
		if berr != nil {
			return nil, internal(berr)
		}
		return Quantity(n), nil
	}
	n, _, berr := b.Account(addr)
	if berr != nil {
		return nil, internal(berr)
	}
	return Quantity(n), nil
}

func sendRawTransaction(_ context.Context, b Backend, p *params) (any, *Error) {
	tx, err := rawTxParam(p)
	if err != nil {
		return nil, err
	}
	if serr := b.SendTransaction(tx); serr != nil {
		return nil, txError(serr)
	}
	return Hash(tx.Hash()), nil
}

// rawTxParam decodes cowboy_sendRawTransaction's one parameter, a signed
// transaction in canonical CBOR (strictly: types.DecodeTx).
func rawTxParam(p *params) (*types.Tx, *Error) {
	raw, err := p.bytes(0, "transaction")
	if err != nil {
		return nil, err
	}
	tx, derr := types.DecodeTx(raw)
	if derr != nil {
		return nil, rejected("decode", derr.Error())
	}
	return tx, nil
}

// txError is -32000 for a typed refusal and -32603 for anything else (a
// store failure is not the sender's fault).
func txError(err error) *Error {
	var r TxRejectedError
	if errors.As(err, &r) {
		return rejected(r.Reason(), err.Error())
	}
	return internal(err)
}

func getTransactionByHash(_ context.Context, b Backend, p *params) (any, *Error) {
	h, err := p.hash(0)
	if err != nil {
		return nil, err
	}
	tx, loc, berr := b.TransactionByHash(h)
	if errors.Is(berr, ErrNotFound) {
		return nil, nil
	}
	if berr != nil {
		return nil, internal(berr)
	}
	out, cerr := NewTxJSON(tx, loc)
	if cerr != nil {
		return nil, internal(cerr)
	}
	return out, nil
}

func getTransactionReceipt(_ context.Context, b Backend, p *params) (any, *Error) {
	h, err := p.hash(0)
	if err != nil {
		return nil, err
	}
	r, loc, berr := b.Receipt(h)
	if errors.Is(berr, ErrNotFound) {
		return nil, nil
	}
	if berr != nil {
		return nil, internal(berr)
	}
	if loc == nil {
		return nil, internal(fmt.Errorf("receipt %s has no block location", h))
	}
	// The receipt does not repeat from and to; the transaction has them.
	// A job continuation's receipt has no transaction: its first message
	// says who (NewReceiptJSON).
	tx, _, berr := b.TransactionByHash(h)
	if berr != nil && !(errors.Is(berr, ErrNotFound) && len(r.Messages) > 0) {
		return nil, internal(fmt.Errorf("receipt %s: its transaction: %w", h, berr))
	}
	out, cerr := NewReceiptJSON(r, tx, *loc)
	if cerr != nil {
		return nil, internal(cerr)
	}
	return out, nil
}

func basefees(_ context.Context, b Backend, _ *params) (any, *Error) {
	cycle, cell, next := b.Basefees()
	return &BasefeesJSON{Cycle: Quantity(cycle), Cell: Quantity(cell), Height: Quantity(next)}, nil
}

func estimateFees(_ context.Context, b Backend, p *params) (any, *Error) {
	var args EstimateFeesArgs
	if p.has(0) {
		if err := p.object(0, "call", &args); err != nil {
			return nil, err
		}
	}
	var to *types.Address
	if args.To != nil {
		a := types.Address(*args.To)
		to = &a
	}
	payload := []byte(args.Payload)
	if payload == nil {
		payload = []byte{}
	}
	var from *types.Address
	if args.From != nil {
		a := types.Address(*args.From)
		from = &a
	}
	e, err := b.EstimateFees(from, to, args.Value.Int(), payload)
	if err != nil {
		return nil, txError(err)
	}
	return NewFeeEstimateJSON(e), nil
}

func totalSupply(_ context.Context, b Backend, _ *params) (any, *Error) {
	s, err := b.TotalSupply()
	if err != nil {
		return nil, internal(err)
	}
	return NewBigQuantity(s), nil
}
