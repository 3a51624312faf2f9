package timers

import (
	"encoding/binary"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/statekey"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// A list is a paged FIFO of timer ids in the state: a header record
// [head, tail, count] (CBOR array; pages head…tail hold count ids in
// order) and pages of at most PageIDs ids each. Pushing touches the header
// and one page, whatever the length; popping n ids touches ⌈n/PageIDs⌉+1
// pages. Page numbers start in the middle of the uint64 range so ids can
// also be pushed back at the front (the backlog does that).
type list struct {
	kind  byte
	index uint64
}

// List kinds.
const (
	listRing     byte = 1 // index: slot 0…255
	listBucket   byte = 2 // index: epoch
	listOverflow byte = 3 // index: epoch
	listBacklog  byte = 4 // index: 0
)

const firstPage = 1 << 62

type listHeader struct {
	_     struct{} `cbor:",toarray"`
	Head  uint64
	Tail  uint64
	Count uint64
}

func (l list) slot() (s [32]byte) {
	s[0] = l.kind
	binary.BigEndian.PutUint64(s[8:], l.index)
	return s
}

func (l list) headerKey() state.Key {
	return statekey.Make(statekey.KindTimer, types.Address{}, nsHeader, l.slot())
}

func (l list) pageKey(p uint64) state.Key {
	s := l.slot()
	binary.BigEndian.PutUint64(s[24:], p)
	return statekey.Make(statekey.KindTimer, types.Address{}, nsPage, s)
}

func (l list) header(st *state.StateDB) (listHeader, error) {
	raw := st.Get(l.headerKey())
	if raw == nil {
		return listHeader{Head: firstPage, Tail: firstPage - 1}, st.Err()
	}
	var h listHeader
	if err := types.Unmarshal(raw, &h); err != nil {
		return h, fmt.Errorf("timer list %d/%d header: %w", l.kind, l.index, err)
	}
	return h, nil
}

func (l list) setHeader(st *state.StateDB, h listHeader) error {
	if h.Count == 0 {
		st.Set(l.headerKey(), nil)
		return nil
	}
	b, err := types.Marshal(&h)
	if err != nil {
		return err
	}
	st.Set(l.headerKey(), b)
	return nil
}

func (l list) page(st *state.StateDB, p uint64) ([]uint64, error) {
	raw := st.Get(l.pageKey(p))
	if raw == nil {
		return nil, st.Err()
	}
	ids, err := decodeIDs(raw)
	if err != nil {
		return nil, fmt.Errorf("timer list %d/%d page %d: %w", l.kind, l.index, p, err)
	}
	return ids, nil
}

func (l list) setPage(st *state.StateDB, p uint64, ids []uint64) {
	if len(ids) == 0 {
		st.Set(l.pageKey(p), nil)
		return
	}
	st.Set(l.pageKey(p), encodeIDs(ids))
}

// count is the number of ids in the list (cancelled ones included until
// they are popped).
func (l list) count(st *state.StateDB) (uint64, error) {
	h, err := l.header(st)
	return h.Count, err
}

// push appends id at the tail.
func (l list) push(st *state.StateDB, id uint64) error {
	h, err := l.header(st)
	if err != nil {
		return err
	}
	var ids []uint64
	if h.Count > 0 {
		if ids, err = l.page(st, h.Tail); err != nil {
			return err
		}
	}
	if h.Count == 0 || len(ids) >= PageIDs {
		h.Tail++
		if h.Count == 0 {
			h.Head = h.Tail
		}
		ids = nil
	}
	l.setPage(st, h.Tail, append(ids, id))
	h.Count++
	return l.setHeader(st, h)
}

// pushFront puts ids back at the head, in their order.
func (l list) pushFront(st *state.StateDB, ids []uint64) error {
	if len(ids) == 0 {
		return nil
	}
	h, err := l.header(st)
	if err != nil {
		return err
	}
	var head []uint64
	if h.Count > 0 {
		if head, err = l.page(st, h.Head); err != nil {
			return err
		}
	} else {
		h.Head = h.Tail + 1
		h.Tail = h.Head
	}
	// Fill the head page up to PageIDs, then new pages before it.
	rest := ids
	room := PageIDs - len(head)
	if h.Count == 0 {
		room = PageIDs
	}
	if room > 0 {
		take := min(room, len(rest))
		head = append(append([]uint64(nil), rest[len(rest)-take:]...), head...)
		rest = rest[:len(rest)-take]
	}
	l.setPage(st, h.Head, head)
	for len(rest) > 0 {
		take := min(PageIDs, len(rest))
		h.Head--
		l.setPage(st, h.Head, append([]uint64(nil), rest[len(rest)-take:]...))
		rest = rest[:len(rest)-take]
	}
	h.Count += uint64(len(ids))
	return l.setHeader(st, h)
}

// pop removes and returns up to n ids from the head.
func (l list) pop(st *state.StateDB, n uint64) ([]uint64, error) {
	h, err := l.header(st)
	if err != nil || h.Count == 0 || n == 0 {
		return nil, err
	}
	var out []uint64
	for uint64(len(out)) < n && h.Count > 0 {
		ids, err := l.page(st, h.Head)
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return nil, fmt.Errorf("timer list %d/%d: page %d is missing with %d ids counted", l.kind, l.index, h.Head, h.Count)
		}
		take := min(uint64(len(ids)), n-uint64(len(out)))
		out = append(out, ids[:take]...)
		h.Count -= take
		if take == uint64(len(ids)) {
			l.setPage(st, h.Head, nil)
			h.Head++
		} else {
			l.setPage(st, h.Head, append([]uint64(nil), ids[take:]...))
		}
	}
	return out, l.setHeader(st, h)
}
