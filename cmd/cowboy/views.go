package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// The --json shapes. The node's JSON-RPC writes quantities in hex (as
// Ethereum does); the CLI's --json is for shell scripts and jq, so amounts
// of base units are decimal strings (exact at any size) and counts
// (heights, nonces, Cycles, Cells) are JSON numbers.

// txView is a transaction in --json output.
type txView struct {
	Hash           string  `json:"hash"`
	Status         string  `json:"status"` // "pending" or "included"
	BlockNumber    *uint64 `json:"blockNumber"`
	BlockHash      *string `json:"blockHash"`
	TxIndex        *uint64 `json:"transactionIndex"`
	From           string  `json:"from"`
	To             *string `json:"to"` // null: actor creation
	Value          string  `json:"value"`
	Nonce          uint64  `json:"nonce"`
	ChainID        uint64  `json:"chainId"`
	CyclesLimit    uint64  `json:"cyclesLimit"`
	CellsLimit     uint64  `json:"cellsLimit"`
	MaxFeePerCycle string  `json:"maxFeePerCycle"`
	MaxFeePerCell  string  `json:"maxFeePerCell"`
	TipPerCycle    string  `json:"tipPerCycle"`
	TipPerCell     string  `json:"tipPerCell"`
	Payload        string  `json:"payload"`
}

// receiptView is a receipt in --json output. Fee = Burned + Tip.
type receiptView struct {
	Hash        string  `json:"hash"`
	BlockNumber uint64  `json:"blockNumber"`
	BlockHash   string  `json:"blockHash"`
	TxIndex     uint64  `json:"transactionIndex"`
	Status      string  `json:"status"` // "success" or "failed"
	From        string  `json:"from"`
	To          *string `json:"to"`
	CyclesUsed  uint64  `json:"cyclesUsed"`
	CellsUsed   uint64  `json:"cellsUsed"`
	Fee         string  `json:"fee"`
	Burned      string  `json:"burned"`
	Tip         string  `json:"tip"`
	Error       string  `json:"error,omitempty"`
	ReturnData  string  `json:"returnData"`
	// ReturnValue is the actor's return value as JSON (actor calls).
	ReturnValue     json.RawMessage `json:"returnValue,omitempty"`
	Events          []eventView     `json:"events"`
	ContractAddress *string         `json:"contractAddress,omitempty"`
	Messages        []messageView   `json:"messages,omitempty"`
}

// eventView is an actor event in --json output.
type eventView struct {
	Address string          `json:"address"`
	Name    string          `json:"name"`
	Data    string          `json:"data"`            // canonical CBOR, hex
	Value   json.RawMessage `json:"value,omitempty"` // the data as JSON
}

// messageView is one delivered actor message in --json output.
type messageView struct {
	ID         string `json:"id"`
	From       string `json:"from"`
	To         string `json:"to"`
	Method     string `json:"method"`
	Depth      uint64 `json:"depth"`
	Status     string `json:"status"`
	CyclesUsed uint64 `json:"cyclesUsed"`
	CellsUsed  uint64 `json:"cellsUsed"`
	Error      string `json:"error,omitempty"`
}

// blockView is a block in --json output; Transactions holds hashes, or
// txViews with --full.
type blockView struct {
	Hash         string `json:"hash"`
	ParentHash   string `json:"parentHash"`
	Height       uint64 `json:"height"`
	Time         uint64 `json:"time"`
	Proposer     string `json:"proposer"`
	StateRoot    string `json:"stateRoot"`
	TxRoot       string `json:"txRoot"`
	ReceiptsRoot string `json:"receiptsRoot"`
	BasefeeCycle string `json:"basefeeCycle"`
	BasefeeCell  string `json:"basefeeCell"`
	CyclesUsed   uint64 `json:"cyclesUsed"`
	CellsUsed    uint64 `json:"cellsUsed"`
	Status       string `json:"status"` // "finalized": only final blocks are served as chain blocks
	// Transactions is []string (hashes), or []txView with --full.
	Transactions any `json:"transactions"`
}

func dec(v *big.Int) string {
	if v == nil {
		return "0"
	}
	return v.String()
}

func decU(v uint64) string { return strconv.FormatUint(v, 10) }

func newTxView(t *rpc.TxJSON) txView {
	v := txView{
		Hash: t.Hash.String(), Status: "pending", From: t.From.String(), Value: dec(t.Value.Int()),
		Nonce: uint64(t.Nonce), ChainID: uint64(t.ChainID),
		CyclesLimit: uint64(t.CyclesLimit), CellsLimit: uint64(t.CellsLimit),
		MaxFeePerCycle: decU(uint64(t.MaxFeePerCycle)), MaxFeePerCell: decU(uint64(t.MaxFeePerCell)),
		TipPerCycle: decU(uint64(t.TipPerCycle)), TipPerCell: decU(uint64(t.TipPerCell)),
		Payload: t.Payload.String(),
	}
	if t.To != nil {
		s := t.To.String()
		v.To = &s
	}
	if t.BlockHash != nil && t.BlockNumber != nil {
		v.Status = "included"
		bh, bn := t.BlockHash.String(), uint64(*t.BlockNumber)
		v.BlockHash, v.BlockNumber = &bh, &bn
		if t.TxIndex != nil {
			ix := uint64(*t.TxIndex)
			v.TxIndex = &ix
		}
	}
	return v
}

func statusWord(r *rpc.ReceiptJSON) string {
	if r.Succeeded() {
		return "success"
	}
	return "failed"
}

func newReceiptView(r *rpc.ReceiptJSON) receiptView {
	v := receiptView{
		Hash: r.TransactionHash.String(), BlockNumber: uint64(r.BlockNumber), BlockHash: r.BlockHash.String(),
		TxIndex: uint64(r.TxIndex), Status: statusWord(r), From: r.From.String(),
		CyclesUsed: uint64(r.CyclesUsed), CellsUsed: uint64(r.CellsUsed),
		Fee: dec(r.Fee.Int()), Burned: dec(r.Burned.Int()), Tip: dec(r.Tip.Int()),
		Error: r.Error, ReturnData: r.ReturnData.String(), Events: make([]eventView, len(r.Events)),
	}
	if r.To != nil {
		s := r.To.String()
		v.To = &s
	}
	for i, e := range r.Events {
		v.Events[i] = newEventView(e)
	}
	v.ReturnValue = r.ReturnValue
	if r.ContractAddress != nil {
		s := r.ContractAddress.String()
		v.ContractAddress = &s
	}
	for _, m := range r.Messages {
		st := "success"
		if uint64(m.Status) != types.ReceiptSuccess {
			st = "failed"
		}
		v.Messages = append(v.Messages, messageView{ID: m.ID.String(), From: m.From.String(), To: m.To.String(), Method: m.Method,
			Depth: uint64(m.Depth), Status: st, CyclesUsed: uint64(m.CyclesUsed), CellsUsed: uint64(m.CellsUsed), Error: m.Error})
	}
	return v
}

func newBlockView(b *rpc.BlockJSON, full bool) blockView {
	v := blockView{
		Hash: b.Hash.String(), ParentHash: b.ParentHash.String(), Height: uint64(b.Height), Time: uint64(b.Time),
		Proposer: b.Proposer.String(), StateRoot: b.StateRoot.String(), TxRoot: b.TxRoot.String(),
		ReceiptsRoot: b.ReceiptsRoot.String(),
		BasefeeCycle: decU(uint64(b.BasefeeCycle)), BasefeeCell: decU(uint64(b.BasefeeCell)),
		CyclesUsed: uint64(b.CyclesUsed), CellsUsed: uint64(b.CellsUsed), Status: b.Status,
	}
	if full {
		txs := make([]txView, len(b.Transactions.Full))
		for i, t := range b.Transactions.Full {
			txs[i] = newTxView(t)
		}
		v.Transactions = txs
		return v
	}
	hashes := make([]string, len(b.Transactions.Hashes))
	for i, h := range b.Transactions.Hashes {
		hashes[i] = h.String()
	}
	v.Transactions = hashes
	return v
}

// amount is how the CLI shows base units to a person: CBY and the exact
// integer, e.g. "1.5 CBY (1500000000000000000 base units)".
func amount(v *big.Int) string {
	return fmt.Sprintf("%s (%s base units)", types.FormatCBY(v), dec(v))
}

// table prints aligned "label  value" rows.
type table struct{ tw *tabwriter.Writer }

func newTable(w io.Writer) *table { return &table{tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)} }

func (t *table) row(label string, format string, args ...any) {
	fmt.Fprintf(t.tw, "%s\t%s\n", label, fmt.Sprintf(format, args...))
}

func (t *table) flush() error { return t.tw.Flush() }

func printTx(t *table, v txView) {
	t.row("Transaction", "%s", v.Hash)
	if v.BlockNumber != nil {
		ix := uint64(0)
		if v.TxIndex != nil {
			ix = *v.TxIndex
		}
		t.row("Status", "included in block %d (index %d)", *v.BlockNumber, ix)
	} else {
		t.row("Status", "pending (in the mempool)")
	}
	t.row("From", "%s", v.From)
	if v.To != nil {
		t.row("To", "%s", *v.To)
	} else {
		t.row("To", "(actor creation)")
	}
	val, _ := new(big.Int).SetString(v.Value, 10)
	t.row("Value", "%s", amount(val))
	t.row("Nonce", "%d", v.Nonce)
	t.row("Chain id", "%d", v.ChainID)
	t.row("Limits", "%s cycles, %s cells", types.GroupDigits(decU(v.CyclesLimit)), types.GroupDigits(decU(v.CellsLimit)))
	t.row("Max fee", "%s per cycle, %s per cell (base units)", v.MaxFeePerCycle, v.MaxFeePerCell)
	t.row("Tip", "%s per cycle, %s per cell (base units)", v.TipPerCycle, v.TipPerCell)
	t.row("Payload", "%s (%d bytes)", v.Payload, (len(v.Payload)-2)/2)
}

func printReceipt(t *table, r *rpc.ReceiptJSON) {
	t.row("Transaction", "%s", r.TransactionHash)
	t.row("Block", "%d (%s)", uint64(r.BlockNumber), r.BlockHash)
	if r.Succeeded() {
		t.row("Status", "success")
	} else {
		t.row("Status", "failed: %s", r.Error)
	}
	t.row("Cycles used", "%s", types.GroupDigits(decU(uint64(r.CyclesUsed))))
	t.row("Cells used", "%s", types.GroupDigits(decU(uint64(r.CellsUsed))))
	t.row("Fee paid", "%s", amount(r.Fee.Int()))
	t.row("Burned", "%s", amount(r.Burned.Int()))
	t.row("Tip", "%s", amount(r.Tip.Int()))
	if r.ContractAddress != nil {
		t.row("Actor", "%s", *r.ContractAddress)
	}
	if r.ReturnValue != nil {
		t.row("Returned", "%s", r.ReturnValue)
	}
	for _, e := range r.Events {
		data := e.Data.String()
		if e.Value != nil {
			data = string(e.Value)
		}
		t.row("Event", "%s from %s: %s", e.Name, e.Address, data)
	}
	if len(r.Messages) > 1 {
		for _, m := range r.Messages {
			st := "ok"
			if uint64(m.Status) != types.ReceiptSuccess {
				st = "failed: " + m.Error
			}
			t.row("Message", "%s%s -> %s.%s  %s cycles  %s", strings.Repeat("  ", int(m.Depth)-1), m.From, m.To, m.Method,
				types.GroupDigits(decU(uint64(m.CyclesUsed))), st)
		}
	}
}

// pendingBlockView is a block the consensus holds but has not finalized:
// it has only its consensus identity (cowboy_getBlockStatus).
type pendingBlockView struct {
	Hash   string `json:"hash"`
	Height uint64 `json:"height"`
	Round  uint64 `json:"round"` // within Epoch
	Epoch  uint64 `json:"epoch"`
	Status string `json:"status"` // "proposed" or "committed"
}

func printPendingBlock(w io.Writer, v pendingBlockView) error {
	t := newTable(w)
	t.row("Block", "%d", v.Height)
	t.row("Status", "%s (not final: not executed yet, no chain header)", v.Status)
	t.row("Consensus hash", "%s", v.Hash)
	t.row("Round", "%d (epoch %d)", v.Round, v.Epoch)
	return t.flush()
}

func printBlock(w io.Writer, v blockView) error {
	t := newTable(w)
	t.row("Block", "%d", v.Height)
	if v.Status != "" {
		t.row("Status", "%s", v.Status)
	}
	t.row("Hash", "%s", v.Hash)
	t.row("Parent", "%s", v.ParentHash)
	t.row("Time", "%s (%d)", time.Unix(int64(v.Time), 0).UTC().Format(time.RFC3339), v.Time)
	t.row("Proposer", "%s", v.Proposer)
	t.row("State root", "%s", v.StateRoot)
	t.row("Tx root", "%s", v.TxRoot)
	t.row("Receipts root", "%s", v.ReceiptsRoot)
	t.row("Basefees", "%s per cycle, %s per cell (base units)", v.BasefeeCycle, v.BasefeeCell)
	t.row("Used", "%s cycles, %s cells", types.GroupDigits(decU(v.CyclesUsed)), types.GroupDigits(decU(v.CellsUsed)))
	switch txs := v.Transactions.(type) {
	case []txView:
		t.row("Transactions", "%d", len(txs))
		if err := t.flush(); err != nil {
			return err
		}
		for _, tx := range txs {
			to := "(actor creation)"
			if tx.To != nil {
				to = *tx.To
			}
			val, _ := new(big.Int).SetString(tx.Value, 10)
			fmt.Fprintf(w, "  %s  %s -> %s  %s  nonce %d\n", tx.Hash, tx.From, to, types.FormatCBY(val), tx.Nonce)
		}
	case []string:
		t.row("Transactions", "%d", len(txs))
		if err := t.flush(); err != nil {
			return err
		}
		for _, h := range txs {
			fmt.Fprintf(w, "  %s\n", h)
		}
	}
	return nil
}
