package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// StorageLister is what a node offers for cowboy_listActorStorage.
// Optional: a backend without it answers -32601.
type StorageLister interface {
	// ListActorStorage lists the actor's storage entries at the latest
	// block in (namespace, slot) order, the first after `after` (nil:
	// from the start), at most limit; more is true when entries follow.
	// An address without code is an error wrapping ErrNoActor.
	ListActorStorage(addr types.Address, after *StorageCursor, limit int) (entries []StorageEntry, more bool, err error)
}

// StorageCursor names one storage entry: its namespace and slot
// (keccak256 of its key, docs/state-layout.md kind 0x03). On the wire it
// is 33 bytes of hex, namespace first.
type StorageCursor struct {
	Namespace byte
	Slot      types.Hash
}

// StorageEntry is one record of an actor's storage.
type StorageEntry struct {
	Namespace byte
	Slot      types.Hash
	Key       []byte
	Value     []byte
}

// Cursor is where the entry sits, for the next page.
func (e *StorageEntry) Cursor() StorageCursor { return StorageCursor{e.Namespace, e.Slot} }

// Bytes is the cursor's wire form.
func (c StorageCursor) Bytes() Bytes { return append(Bytes{c.Namespace}, c.Slot[:]...) }

// DefaultStorageLimit and MaxStorageLimit bound one cowboy_listActorStorage
// page: entries are up to 1 MiB in all per actor (§3.2 quota), so a page of
// 1,000 is at most about that.
const (
	DefaultStorageLimit = 100
	MaxStorageLimit     = 1000
)

// StorageEntryJSON is one entry of cowboy_listActorStorage's result.
type StorageEntryJSON struct {
	Namespace Quantity        `json:"namespace"`
	Slot      Hash            `json:"slot"`
	Key       Bytes           `json:"key"`
	KeyJSON   json.RawMessage `json:"keyJson,omitempty"` // the key decoded, namespace 0 only
	Value     Bytes           `json:"value"`
	JSON      json.RawMessage `json:"json,omitempty"` // the value decoded, namespaces 0 and 1
}

// StorageListJSON is cowboy_listActorStorage's result: a page of entries
// and the cursor of the next page (null on the last).
type StorageListJSON struct {
	Entries []StorageEntryJSON `json:"entries"`
	Next    *Bytes             `json:"next"`
}

// NewStorageEntryJSON renders an entry: keys of namespace 0 and values of
// namespaces 0 and 1 are canonical CBOR, shown as JSON too; namespace 2
// holds inline blobs under their multihash, shown as bytes only.
func NewStorageEntryJSON(e *StorageEntry) StorageEntryJSON {
	out := StorageEntryJSON{Namespace: Quantity(e.Namespace), Slot: Hash(e.Slot), Key: Bytes(e.Key), Value: Bytes(e.Value)}
	if out.Key == nil {
		out.Key = Bytes{}
	}
	if out.Value == nil {
		out.Value = Bytes{}
	}
	if e.Namespace == 0 {
		out.KeyJSON = CBORToJSON(e.Key)
	}
	if e.Namespace <= 1 {
		out.JSON = CBORToJSON(e.Value)
	}
	return out
}

func init() {
	methods["cowboy_listActorStorage"] = method{1, 3, listActorStorage}
}

// ParseStorageCursor reads a cursor's wire form.
func ParseStorageCursor(b []byte) (StorageCursor, error) {
	var c StorageCursor
	if len(b) != 1+len(c.Slot) {
		return c, fmt.Errorf("a cursor is 33 bytes (namespace and slot, from \"next\"), not %d", len(b))
	}
	c.Namespace = b[0]
	copy(c.Slot[:], b[1:])
	return c, nil
}

func listActorStorage(_ context.Context, b Backend, p *params) (any, *Error) {
	l, ok := b.(StorageLister)
	if !ok {
		return nil, newError(CodeMethodNotFound, "method cowboy_listActorStorage is not served by this node")
	}
	addr, perr := p.address(0)
	if perr != nil {
		return nil, perr
	}
	var after *StorageCursor
	if p.has(1) {
		raw, perr := p.bytes(1, "cursor")
		if perr != nil {
			return nil, perr
		}
		c, err := ParseStorageCursor(raw)
		if err != nil {
			return nil, p.bad(1, "cursor", err)
		}
		after = &c
	}
	limit := Quantity(DefaultStorageLimit)
	if p.has(2) {
		if perr := p.decode(2, "limit", &limit); perr != nil {
			return nil, perr
		}
		if limit == 0 || limit > MaxStorageLimit {
			return nil, p.bad(2, "limit", fmt.Errorf("want 0x1 to %#x, got %#x", MaxStorageLimit, uint64(limit)))
		}
	}
	es, more, err := l.ListActorStorage(addr, after, int(limit))
	if errors.Is(err, ErrNoActor) {
		return nil, newError(CodeNotFound, "%v", err)
	}
	if err != nil {
		return nil, internal(fmt.Errorf("list storage of %s: %w", addr, err))
	}
	out := &StorageListJSON{Entries: make([]StorageEntryJSON, len(es))}
	for i := range es {
		out.Entries[i] = NewStorageEntryJSON(&es[i])
	}
	if more && len(es) > 0 {
		next := es[len(es)-1].Cursor().Bytes()
		out.Next = &next
	}
	return out, nil
}

// ListActorStorage calls cowboy_listActorStorage: one page of addr's
// storage after cursor (nil: the first page), limit entries (0: the
// node's default). An address without code is a *Error with CodeNotFound.
func (c *Client) ListActorStorage(ctx context.Context, addr types.Address, cursor []byte, limit uint64) (*StorageListJSON, error) {
	var out StorageListJSON
	var cur any
	if cursor != nil {
		cur = Bytes(cursor)
	}
	var lim any
	if limit != 0 {
		lim = Quantity(limit)
	}
	return &out, c.Call(ctx, &out, "cowboy_listActorStorage", Address(addr), cur, lim)
}
