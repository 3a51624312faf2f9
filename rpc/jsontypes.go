package rpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// BlockJSON is a block as cowboy_getBlockByNumber and cowboy_getBlockByHash
// return it: the header's fields, the block hash, and the transactions as
// hashes or as full objects.
type BlockJSON struct {
	Hash         Hash     `json:"hash"`
	ParentHash   Hash     `json:"parentHash"`
	Height       Quantity `json:"height"`
	Time         Quantity `json:"time"` // unix seconds
	Proposer     Address  `json:"proposer"`
	StateRoot    Hash     `json:"stateRoot"`
	TxRoot       Hash     `json:"txRoot"`
	ReceiptsRoot Hash     `json:"receiptsRoot"`
	BasefeeCycle Quantity `json:"basefeeCycle"` // base units per Cycle paid in this block
	BasefeeCell  Quantity `json:"basefeeCell"`  // base units per Cell
	CyclesUsed   Quantity `json:"cyclesUsed"`
	CellsUsed    Quantity `json:"cellsUsed"`
	// Status is always "finalized": only final blocks are executed and
	// served as chain blocks (cowboy_getBlockStatus reports the others).
	Status       string   `json:"status"`
	Transactions BlockTxs `json:"transactions"`
}

// BlockTxs is a block's transaction list: hashes only, or full objects when
// the request asked for them (fullTx = true). Hashes is always filled after
// decoding; Full only when the server sent objects.
type BlockTxs struct {
	Hashes []Hash
	Full   []*TxJSON
}

// MarshalJSON writes the full objects if there are any, else the hashes;
// an empty list is [] (never null).
func (t BlockTxs) MarshalJSON() ([]byte, error) {
	if t.Full != nil {
		return json.Marshal(t.Full)
	}
	if t.Hashes == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(t.Hashes)
}

// UnmarshalJSON tells hashes from objects by the first element.
func (t *BlockTxs) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("transactions: %w", err)
	}
	*t = BlockTxs{Hashes: make([]Hash, len(raw))}
	if len(raw) > 0 && bytes.HasPrefix(bytes.TrimSpace(raw[0]), []byte("{")) {
		t.Full = make([]*TxJSON, len(raw))
		for i, r := range raw {
			t.Full[i] = new(TxJSON)
			if err := json.Unmarshal(r, t.Full[i]); err != nil {
				return fmt.Errorf("transactions[%d]: %w", i, err)
			}
			t.Hashes[i] = t.Full[i].Hash
		}
		return nil
	}
	for i, r := range raw {
		if err := json.Unmarshal(r, &t.Hashes[i]); err != nil {
			return fmt.Errorf("transactions[%d]: %w", i, err)
		}
	}
	return nil
}

// TxJSON is a transaction as cowboy_getTransactionByHash returns it. The
// three block fields are null while the transaction is pending.
type TxJSON struct {
	Hash           Hash              `json:"hash"`
	From           Address           `json:"from"`
	ChainID        Quantity          `json:"chainId"`
	Nonce          Quantity          `json:"nonce"`
	To             *Address          `json:"to"` // null: actor creation
	Value          *BigQuantity      `json:"value"`
	CyclesLimit    Quantity          `json:"cyclesLimit"`
	CellsLimit     Quantity          `json:"cellsLimit"`
	MaxFeePerCycle Quantity          `json:"maxFeePerCycle"`
	MaxFeePerCell  Quantity          `json:"maxFeePerCell"`
	TipPerCycle    Quantity          `json:"tipPerCycle"`
	TipPerCell     Quantity          `json:"tipPerCell"`
	AccessList     []AccessTupleJSON `json:"accessList"` // null when the transaction has none
	Payload        Bytes             `json:"payload"`
	Signature      *SignatureJSON    `json:"signature"`
	BlockHash      *Hash             `json:"blockHash"`
	BlockNumber    *Quantity         `json:"blockNumber"`
	TxIndex        *Quantity         `json:"transactionIndex"`
}

// AccessTupleJSON is one access-list entry.
type AccessTupleJSON struct {
	Address     Address `json:"address"`
	StorageKeys []Hash  `json:"storageKeys"`
}

// SignatureJSON is [y_parity, r, s]; r and s are 32 bytes each.
type SignatureJSON struct {
	YParity Quantity `json:"yParity"`
	R       Bytes    `json:"r"`
	S       Bytes    `json:"s"`
}

// ReceiptJSON is what cowboy_getTransactionReceipt returns. Fee = Burned +
// Tip, all in base units.
type ReceiptJSON struct {
	TransactionHash Hash         `json:"transactionHash"`
	BlockHash       Hash         `json:"blockHash"`
	BlockNumber     Quantity     `json:"blockNumber"`
	TxIndex         Quantity     `json:"transactionIndex"`
	From            Address      `json:"from"`
	To              *Address     `json:"to"`
	Status          Quantity     `json:"status"` // 0x1 success, 0x0 failed
	CyclesUsed      Quantity     `json:"cyclesUsed"`
	CellsUsed       Quantity     `json:"cellsUsed"`
	Fee             *BigQuantity `json:"fee"`
	Burned          *BigQuantity `json:"burned"`
	Tip             *BigQuantity `json:"tip"`
	ReturnData      Bytes        `json:"returnData"`
	// ReturnValue is ReturnData (canonical CBOR) as JSON, when present.
	ReturnValue     json.RawMessage `json:"returnValue,omitempty"`
	Events          []EventJSON     `json:"events"`
	Error           string          `json:"error"`                     // why execution failed; "" on success
	ContractAddress *Address        `json:"contractAddress,omitempty"` // the new actor, for a deployment
	Messages        []MessageJSON   `json:"messages,omitempty"`        // one per delivered actor message
}

// Succeeded reports whether the transaction's execution succeeded.
func (r *ReceiptJSON) Succeeded() bool { return uint64(r.Status) == types.ReceiptSuccess }

// EventJSON is an event emitted by an actor.
type EventJSON struct {
	Address Address         `json:"address"`
	Name    string          `json:"name"`
	Data    Bytes           `json:"data"`            // canonical CBOR
	Value   json.RawMessage `json:"value,omitempty"` // Data as JSON
}

// BasefeesJSON is what cowboy_basefees returns: the basefees, in base units
// per Cycle and per Cell, that the block at Height (the next one) charges.
type BasefeesJSON struct {
	Cycle  Quantity `json:"cycle"`
	Cell   Quantity `json:"cell"`
	Height Quantity `json:"height"`
}

// FeeEstimateJSON is what cowboy_estimateFees returns.
type FeeEstimateJSON struct {
	CyclesLimit    Quantity     `json:"cyclesLimit"`
	CellsLimit     Quantity     `json:"cellsLimit"`
	MaxFeePerCycle Quantity     `json:"maxFeePerCycle"`
	MaxFeePerCell  Quantity     `json:"maxFeePerCell"`
	TipPerCycle    Quantity     `json:"tipPerCycle"`
	TipPerCell     Quantity     `json:"tipPerCell"`
	MaxCost        *BigQuantity `json:"maxCost"` // limits × max fees, value excluded
}

// EstimateFeesArgs is the one parameter of cowboy_estimateFees; every
// field may be left out.
type EstimateFeesArgs struct {
	// From is the sender: actor calls and deployments are simulated as it.
	From    *Address     `json:"from,omitempty"`
	To      *Address     `json:"to,omitempty"`
	Value   *BigQuantity `json:"value,omitempty"`
	Payload Bytes        `json:"payload,omitempty"`
}

// NewBlockJSON converts a block; fullTx puts transaction objects in the
// list instead of hashes.
func NewBlockJSON(b *types.Block, fullTx bool) (*BlockJSON, error) {
	if b == nil || b.Header == nil {
		return nil, fmt.Errorf("rpc: block without header")
	}
	h := b.Header
	hash := h.Hash()
	out := &BlockJSON{
		Hash: Hash(hash), ParentHash: Hash(h.ParentHash), Height: Quantity(h.Height),
		Time: Quantity(h.Time), Proposer: Address(h.Proposer), StateRoot: Hash(h.StateRoot),
		TxRoot: Hash(h.TxRoot), ReceiptsRoot: Hash(h.ReceiptsRoot),
		BasefeeCycle: Quantity(h.BasefeeCycle), BasefeeCell: Quantity(h.BasefeeCell),
		CyclesUsed: Quantity(h.CyclesUsed), CellsUsed: Quantity(h.CellsUsed),
		Status: StatusFinalized,
	}
	out.Transactions.Hashes = make([]Hash, len(b.Txs))
	for i, tx := range b.Txs {
		out.Transactions.Hashes[i] = Hash(tx.Hash())
	}
	if !fullTx {
		return out, nil
	}
	// A transaction read back from the store has no cached sender, and
	// recovering one costs ~160 µs: a full block of transfers is recovered
	// on all cores.
	out.Transactions.Full = make([]*TxJSON, len(b.Txs))
	errs := make([]error, len(b.Txs))
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(b.Txs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(b.Txs); i = int(next.Add(1) - 1) {
				out.Transactions.Full[i], errs[i] = convertTx(b.Txs[i], &TxLocation{BlockHash: hash, Height: h.Height, Index: i})
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("rpc: block %d tx %d: %w", h.Height, i, err)
		}
	}
	return out, nil
}

// convertTx is NewTxJSON for a worker goroutine, where the server's
// per-request recover cannot reach: a panic (a nil transaction in a
// corrupt block) becomes an error instead of killing the node.
func convertTx(tx *types.Tx, loc *TxLocation) (out *TxJSON, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("convert transaction: panic: %v", p)
		}
	}()
	return NewTxJSON(tx, loc)
}

// NewTxJSON converts a transaction; loc is nil while it is pending. The
// sender is recovered from the signature (cached on the Tx).
func NewTxJSON(tx *types.Tx, loc *TxLocation) (*TxJSON, error) {
	from, err := tx.Sender()
	if err != nil {
		return nil, fmt.Errorf("rpc: tx %s: sender: %w", tx.Hash(), err)
	}
	out := &TxJSON{
		Hash: Hash(tx.Hash()), From: Address(from), ChainID: Quantity(tx.ChainID),
		Nonce: Quantity(tx.Nonce), Value: NewBigQuantity(tx.Value),
		CyclesLimit: Quantity(tx.CyclesLimit), CellsLimit: Quantity(tx.CellsLimit),
		MaxFeePerCycle: Quantity(tx.MaxFeePerCycle), MaxFeePerCell: Quantity(tx.MaxFeePerCell),
		TipPerCycle: Quantity(tx.TipPerCycle), TipPerCell: Quantity(tx.TipPerCell),
		Payload: Bytes(tx.Payload),
	}
	if out.Payload == nil {
		out.Payload = Bytes{}
	}
	if tx.To != nil {
		to := Address(*tx.To)
		out.To = &to
	}
	if tx.AccessList != nil {
		out.AccessList = make([]AccessTupleJSON, len(tx.AccessList))
		for i, at := range tx.AccessList {
			keys := make([]Hash, len(at.StorageKeys))
			for j, k := range at.StorageKeys {
				keys[j] = Hash(k)
			}
			out.AccessList[i] = AccessTupleJSON{Address: Address(at.Address), StorageKeys: keys}
		}
	}
	if tx.Sig != nil {
		out.Signature = &SignatureJSON{
			YParity: Quantity(tx.Sig.YParity),
			R:       Bytes(append([]byte(nil), tx.Sig.R[:]...)),
			S:       Bytes(append([]byte(nil), tx.Sig.S[:]...)),
		}
	}
	if loc != nil {
		bh, bn, ix := Hash(loc.BlockHash), Quantity(loc.Height), Quantity(loc.Index)
		out.BlockHash, out.BlockNumber, out.TxIndex = &bh, &bn, &ix
	}
	return out, nil
}

// Tx rebuilds the chain transaction and checks that it hashes to t.Hash,
// so a client can verify what a node told it and re-send or re-sign it.
func (t *TxJSON) Tx() (*types.Tx, error) {
	tx := &types.Tx{
		ChainID: uint64(t.ChainID), Nonce: uint64(t.Nonce), Value: t.Value.Int(),
		CyclesLimit: uint64(t.CyclesLimit), CellsLimit: uint64(t.CellsLimit),
		MaxFeePerCycle: uint64(t.MaxFeePerCycle), MaxFeePerCell: uint64(t.MaxFeePerCell),
		TipPerCycle: uint64(t.TipPerCycle), TipPerCell: uint64(t.TipPerCell),
		Payload: []byte(t.Payload),
	}
	if tx.Payload == nil {
		tx.Payload = []byte{}
	}
	if t.To != nil {
		to := types.Address(*t.To)
		tx.To = &to
	}
	if t.AccessList != nil {
		tx.AccessList = make([]types.AccessTuple, len(t.AccessList))
		for i, at := range t.AccessList {
			keys := make([]types.Hash, len(at.StorageKeys))
			for j, k := range at.StorageKeys {
				keys[j] = types.Hash(k)
			}
			tx.AccessList[i] = types.AccessTuple{Address: types.Address(at.Address), StorageKeys: keys}
		}
	}
	if s := t.Signature; s != nil {
		if s.YParity > 1 || len(s.R) != 32 || len(s.S) != 32 {
			return nil, fmt.Errorf("rpc: tx %s: signature wants yParity 0 or 1 and 32-byte r and s", t.Hash)
		}
		tx.Sig = &types.Signature{YParity: byte(s.YParity)}
		copy(tx.Sig.R[:], s.R)
		copy(tx.Sig.S[:], s.S)
	}
	if got := tx.Hash(); got != types.Hash(t.Hash) {
		return nil, fmt.Errorf("rpc: tx fields hash to %s, not the stated %s", got, t.Hash)
	}
	return tx, nil
}

// NewReceiptJSON converts a receipt; tx supplies from and to, loc where it
// was included.
func NewReceiptJSON(r *types.Receipt, tx *types.Tx, loc TxLocation) (*ReceiptJSON, error) {
	var from types.Address
	var to *types.Address
	if tx == nil { // a job continuation's receipt: its delivery from the result verifier to the actor
		if len(r.Messages) == 0 {
			return nil, fmt.Errorf("rpc: receipt %s has neither a transaction nor a message", r.TxHash)
		}
		from, to = r.Messages[0].From, &r.Messages[0].To
	} else {
		s, err := tx.Sender()
		if err != nil {
			return nil, fmt.Errorf("rpc: receipt %s: sender: %w", r.TxHash, err)
		}
		from, to = types.Address(s), tx.To
	}
	out := &ReceiptJSON{
		TransactionHash: Hash(r.TxHash), BlockHash: Hash(loc.BlockHash),
		BlockNumber: Quantity(loc.Height), TxIndex: Quantity(loc.Index), From: Address(from),
		Status: Quantity(r.Status), CyclesUsed: Quantity(r.CyclesUsed), CellsUsed: Quantity(r.CellsUsed),
		Fee: NewBigQuantity(r.Fee), Burned: NewBigQuantity(r.Burned), Tip: NewBigQuantity(r.Tip),
		ReturnData: Bytes(r.ReturnData), ReturnValue: CBORToJSON(r.ReturnData), Events: eventsJSON(r.Events), Error: r.Error,
	}
	if r.ContractAddress != nil {
		c := Address(*r.ContractAddress)
		out.ContractAddress = &c
	}
	if r.Messages != nil {
		out.Messages = messagesJSON(r.Messages)
	}
	if out.ReturnData == nil {
		out.ReturnData = Bytes{}
	}
	if to != nil {
		t := Address(*to)
		out.To = &t
	}
	return out, nil
}

// NewFeeEstimateJSON converts an estimate.
func NewFeeEstimateJSON(e FeeEstimate) *FeeEstimateJSON {
	return &FeeEstimateJSON{
		CyclesLimit: Quantity(e.CyclesLimit), CellsLimit: Quantity(e.CellsLimit),
		MaxFeePerCycle: Quantity(e.MaxFeePerCycle), MaxFeePerCell: Quantity(e.MaxFeePerCell),
		TipPerCycle: Quantity(e.TipPerCycle), TipPerCell: Quantity(e.TipPerCell),
		MaxCost: NewBigQuantity(e.MaxCost),
	}
}
