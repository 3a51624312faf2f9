package explorer

import (
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strconv"
	"strings"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// Bounds of what one page reads.
const (
	homeBlocks   = 15  // latest blocks on the home page
	homeTxs      = 15  // latest transactions on the home page
	chartBlocks  = 100 // blocks in the basefee charts
	actorEvents  = 50  // latest events on an actor's page
	actorStorage = 50  // storage entries on one page of an actor's
	storageCell  = 200 // characters of a storage key or value shown
	maxTxsInPage = 500 // transactions listed on a block page
)

type homePage struct {
	Title   string
	Head    uint64
	Blocks  []*rpc.BlockJSON
	Txs     []*rpc.TxJSON
	Cycle   chart
	Cell    chart
	Supply  string
	Chain   uint64
	Pending bool // the mempool is reported
	Mempool int
}

func (e *Explorer) home(w http.ResponseWriter, r *http.Request) {
	head := e.b.LatestHeight()
	p := homePage{Title: "Cowboy explorer", Head: head, Chain: e.b.ChainID()}
	var cycle, cell []point
	low := uint64(0)
	if head+1 > chartBlocks {
		low = head + 1 - chartBlocks
	}
	for h := head + 1; h > low; h-- {
		b, err := e.b.BlockByNumber(h - 1)
		if err != nil {
			e.failErr(w, fmt.Sprintf("Block %d", h-1), err)
			return
		}
		cycle = append(cycle, point{b.Header.Height, b.Header.BasefeeCycle})
		cell = append(cell, point{b.Header.Height, b.Header.BasefeeCell})
		if len(p.Blocks) < homeBlocks {
			bj, err := rpc.NewBlockJSON(b, true)
			if err != nil {
				e.failErr(w, "Block", err)
				return
			}
			p.Blocks = append(p.Blocks, bj)
			for i := len(bj.Transactions.Full) - 1; i >= 0 && len(p.Txs) < homeTxs; i-- {
				p.Txs = append(p.Txs, bj.Transactions.Full[i])
			}
		}
	}
	p.Cycle, p.Cell = newChart("Basefee per cycle", cycle), newChart("Basefee per cell", cell)
	if s, err := e.b.TotalSupply(); err == nil {
		p.Supply = types.FormatCBY(s)
	}
	if m, ok := e.b.(rpc.MempoolReporter); ok {
		p.Pending = true
		p.Mempool, _ = m.Mempool(0)
	}
	e.render(w, http.StatusOK, "home", p)
}

type blockPage struct {
	Title string
	Block *rpc.BlockJSON
	Prev  uint64
	Next  uint64
	First bool // no previous block
	Last  bool // no next block
	More  int  // transactions not listed
}

func (e *Explorer) block(w http.ResponseWriter, r *http.Request) {
	ref := r.PathValue("ref")
	var b *types.Block
	var err error
	if isDigits(ref) {
		h, perr := strconv.ParseUint(ref, 10, 64)
		if perr != nil {
			e.fail(w, http.StatusBadRequest, "Block height "+quote(ref)+" is out of range.")
			return
		}
		if h > e.b.LatestHeight() {
			e.fail(w, http.StatusNotFound, fmt.Sprintf("Block %d is not made yet: the latest is %d.", h, e.b.LatestHeight()))
			return
		}
		b, err = e.b.BlockByNumber(h)
	} else {
		hash, perr := types.ParseHash(ref)
		if perr != nil {
			e.fail(w, http.StatusBadRequest, "A block is named by its height or its hash (0x and 64 hex digits), not "+quote(ref)+".")
			return
		}
		b, err = e.b.BlockByHash(hash)
	}
	if err != nil {
		e.failErr(w, "Block "+ref, err)
		return
	}
	bj, err := rpc.NewBlockJSON(b, true)
	if err != nil {
		e.failErr(w, "Block", err)
		return
	}
	p := blockPage{Title: fmt.Sprintf("Block %d", b.Header.Height), Block: bj}
	if n := len(bj.Transactions.Full); n > maxTxsInPage {
		p.More = n - maxTxsInPage
		bj.Transactions.Full = bj.Transactions.Full[:maxTxsInPage]
	}
	h := b.Header.Height
	p.First, p.Last = h == 0, h >= e.b.LatestHeight()
	if !p.First {
		p.Prev = h - 1
	}
	p.Next = h + 1
	e.render(w, http.StatusOK, "block", p)
}

type txPage struct {
	Title   string
	Tx      *rpc.TxJSON
	Receipt *rpc.ReceiptJSON
	Trace   *rpc.TraceJSON
	TraceOK bool   // the node can trace
	TraceEr string // why the trace failed
}

func (e *Explorer) tx(w http.ResponseWriter, r *http.Request) {
	h, err := types.ParseHash(r.PathValue("hash"))
	if err != nil {
		e.fail(w, http.StatusBadRequest, "A transaction is named by its hash (0x and 64 hex digits), not "+quote(r.PathValue("hash"))+".")
		return
	}
	tx, loc, err := e.b.TransactionByHash(h)
	if err != nil {
		e.failErr(w, "Transaction "+h.Hex(), err)
		return
	}
	tj, err := rpc.NewTxJSON(tx, loc)
	if err != nil {
		e.failErr(w, "Transaction", err)
		return
	}
	p := txPage{Title: "Transaction " + short(rpc.Hash(h)), Tx: tj}
	if loc != nil {
		rc, rloc, err := e.b.Receipt(h)
		if err != nil {
			e.failErr(w, "Receipt of "+h.Hex(), err)
			return
		}
		if p.Receipt, err = rpc.NewReceiptJSON(rc, tx, *rloc); err != nil {
			e.failErr(w, "Receipt", err)
			return
		}
		if t, ok := e.b.(rpc.TxTracer); ok {
			p.TraceOK = true
			if r.URL.Query().Get("trace") == "1" {
				if p.Trace, err = t.TraceTransaction(h); err != nil {
					p.TraceEr = err.Error()
				}
			}
		}
	}
	e.render(w, http.StatusOK, "tx", p)
}

type addressPage struct {
	Title   string
	Address types.Address
	Balance *big.Int
	Nonce   uint64
	Actor   bool
	Code    string
	Hash    types.Hash
	Events  []rpc.LogJSON
	Timers  []*rpc.TimerJSON
	// Storage is one page of the actor's storage (cowboy_listActorStorage);
	// StorageNext the cursor of the next page, StorageMore whether this is
	// not the first.
	Storage     []storageRow
	StorageNext string
	StorageMore bool
	NoStorage   bool // the node does not list storage
}

// storageRow is one storage entry as the actor page shows it: key and
// value as JSON where they decode, else hex, cut to storageCell.
type storageRow struct {
	Namespace uint64
	Key       string
	Value     string
}

func newStorageRow(e *rpc.StorageEntryJSON) storageRow {
	show := func(j []byte, b rpc.Bytes) string {
		v := b.String()
		if j != nil {
			v = string(j)
		}
		if len(v) > storageCell {
			v = fmt.Sprintf("%s… (%d more characters)", v[:storageCell], len(v)-storageCell)
		}
		return v
	}
	return storageRow{Namespace: uint64(e.Namespace), Key: show(e.KeyJSON, e.Key), Value: show(e.JSON, e.Value)}
}

// storagePage reads the page of a's storage that cursor (hex, "" for the
// first) names. bad says what is wrong with a malformed cursor.
func (e *Explorer) storagePage(p *addressPage, a types.Address, cursor string) (bad string, err error) {
	l, ok := e.b.(rpc.StorageLister)
	if !ok {
		p.NoStorage = true
		return "", nil
	}
	var after *rpc.StorageCursor
	if cursor != "" {
		var raw rpc.Bytes
		err := raw.UnmarshalText([]byte(cursor))
		var c rpc.StorageCursor
		if err == nil {
			c, err = rpc.ParseStorageCursor(raw)
		}
		if err != nil {
			return "A storage page starts at a cursor of 0x and 66 hex digits (the link under the storage table), not " + quote(cursor) + ".", nil
		}
		after, p.StorageMore = &c, true
	}
	es, more, err := l.ListActorStorage(a, after, actorStorage)
	if err != nil {
		return "", err
	}
	for i := range es {
		j := rpc.NewStorageEntryJSON(&es[i])
		p.Storage = append(p.Storage, newStorageRow(&j))
	}
	if more && len(es) > 0 {
		p.StorageNext = es[len(es)-1].Cursor().Bytes().String()
	}
	return "", nil
}

func (e *Explorer) address(w http.ResponseWriter, r *http.Request) {
	a, err := types.ParseAddress(r.PathValue("addr"))
	if err != nil {
		e.fail(w, http.StatusBadRequest, "An address is 0x and 40 hex digits (mixed case must be a valid EIP-55 checksum), not "+quote(r.PathValue("addr"))+".")
		return
	}
	nonce, bal, err := e.b.Account(a)
	if err != nil {
		e.failErr(w, "Account "+a.Hex(), err)
		return
	}
	p := addressPage{Title: "Address " + short(rpc.Address(a)), Address: a, Balance: bal, Nonce: nonce}
	if ac, ok := e.b.(rpc.Actors); ok {
		hash, src, err := ac.ActorCode(a)
		switch {
		case err == nil:
			p.Actor, p.Code, p.Hash = true, string(src), hash
		case !errors.Is(err, rpc.ErrNotFound):
			e.failErr(w, "Code of "+a.Hex(), err)
			return
		}
		if p.Actor {
			head := e.b.LatestHeight()
			from := uint64(0)
			if head+1 > rpc.MaxLogRange {
				from = head + 1 - rpc.MaxLogRange
			}
			logs, err := ac.Logs(rpc.LogFilter{Address: &a, FromBlock: from, ToBlock: head})
			if err != nil {
				e.failErr(w, "Events of "+a.Hex(), err)
				return
			}
			if len(logs) > actorEvents {
				logs = logs[len(logs)-actorEvents:]
			}
			for i := len(logs) - 1; i >= 0; i-- { // newest first
				p.Events = append(p.Events, rpc.NewLogJSON(logs[i]))
			}
		}
	}
	if p.Actor {
		bad, err := e.storagePage(&p, a, r.URL.Query().Get("storage"))
		if bad != "" {
			e.fail(w, http.StatusBadRequest, bad)
			return
		}
		if err != nil {
			e.failErr(w, "Storage of "+a.Hex(), err)
			return
		}
	}
	if tm, ok := e.b.(rpc.Timers); ok && p.Actor {
		ts, err := tm.TimersOf(a)
		if err != nil {
			e.failErr(w, "Timers of "+a.Hex(), err)
			return
		}
		for _, t := range ts {
			p.Timers = append(p.Timers, rpc.NewTimerJSON(t))
		}
	}
	e.render(w, http.StatusOK, "address", p)
}

type validatorsPage struct {
	Title string
	Set   *rpc.ValidatorsJSON
	None  bool // the node reports no validators
}

func (e *Explorer) validators(w http.ResponseWriter, r *http.Request) {
	p := validatorsPage{Title: "Validators"}
	v, ok := e.b.(rpc.ValidatorReporter)
	if !ok {
		p.None = true
		e.render(w, http.StatusOK, "validators", p)
		return
	}
	set, err := v.Validators(nil)
	if err != nil {
		e.failErr(w, "The validator set", err)
		return
	}
	p.Set = rpc.NewValidatorsJSON(set)
	e.render(w, http.StatusOK, "validators", p)
}

// point is one block's basefee.
type point struct {
	height, value uint64
}

// chart is an SVG line chart, drawn on the server (no script).
type chart struct {
	Title         string
	Points        string // SVG polyline points
	Min, Max      uint64
	First, Last   uint64 // heights
	Width, Height int
	Empty         bool
}

// newChart scales points (newest first) into a 600×120 box, oldest left.
func newChart(title string, pts []point) chart {
	c := chart{Title: title, Width: 600, Height: 120}
	if len(pts) == 0 {
		c.Empty = true
		return c
	}
	c.Min, c.Max = pts[0].value, pts[0].value
	for _, p := range pts {
		c.Min, c.Max = min(c.Min, p.value), max(c.Max, p.value)
	}
	c.First, c.Last = pts[len(pts)-1].height, pts[0].height
	span := c.Max - c.Min
	var sb strings.Builder
	for i := len(pts) - 1; i >= 0; i-- {
		x := 0.0
		if len(pts) > 1 {
			x = float64(len(pts)-1-i) * float64(c.Width) / float64(len(pts)-1)
		}
		y := float64(c.Height) / 2
		if span > 0 {
			y = float64(c.Height) - float64(pts[i].value-c.Min)*float64(c.Height-10)/float64(span) - 5
		}
		fmt.Fprintf(&sb, "%.1f,%.1f ", x, y)
	}
	c.Points = strings.TrimSpace(sb.String())
	return c
}
