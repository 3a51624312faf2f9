package state

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"slices"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// Reader is the committed state underneath: the store's state_db at the
// last committed block. Absent keys return (nil, nil).
type Reader interface {
	GetState(key Key) ([]byte, error)
}

// Write is one changed key; Value nil deletes it.
type Write struct {
	Key   Key
	Value []byte
}

// ErrInsufficientBalance is returned by SubBalance; nothing changes.
var ErrInsufficientBalance = errors.New("insufficient balance")

// StateDB caches accounts read from the Reader and records every change in
// a journal. It is used by one goroutine (the block executor).
type StateDB struct {
	r        Reader
	accounts map[types.Address]*entry
	// last is the entry entry returned last: a transaction's account
	// operations come in runs on one account (its sender's nonce, balance
	// check, debit, refund), and an address comparison is cheaper than a
	// map lookup of a table larger than the caches. Entries stay in
	// accounts for the view's life, so last is never stale.
	last *entry
	// touched lists the entries marked dirty since the last Writes, each
	// once (entry.listed); a revert may have unmarked some since.
	touched []*entry
	free    []entry  // entries are allocated a slab at a time
	supply  *big.Int // nil until loaded
	supplyW bool
	// slots caches raw records (actor code, storage, dedup entries) by
	// key; a nil value is known absent.
	slots     map[Key][]byte
	slotDirty map[Key]bool
	journal   []undo
	err       error // first read or decode failure; sticky
}

// entry is one account as the view holds it: one map lookup finds both the
// account and whether the block changed it, and the journal points at it.
type entry struct {
	addr   types.Address
	acc    *Account // nil: known absent
	dirty  bool     // changed since the last Writes
	listed bool     // in StateDB.touched
}

// entrySlab is how many entries the view allocates at once.
const entrySlab = 256

type undo struct {
	e         *entry // the account's entry; nil for supply and record entries
	kind      undoKind
	prevDirty bool
	neg       bool // undoBalance, undoSupply: the change was a debit
	// undoAccount: the replaced account (nil: it was absent);
	// undoSupplySet: the replaced supply, as prev.Balance.
	prev *Account
	slot *slotUndo // undoSlot: restores a raw record, kept out of line
	// undoBalance, undoSupply: the amount added (or, if neg, taken), as
	// little-endian words; undoNonce: the previous nonce. Balances change
	// in place and the journal keeps only this, so a transfer allocates
	// nothing for its account changes.
	delta [deltaWords]big.Word
}

type undoKind uint8

const (
	undoAccount   undoKind = iota // the account object was replaced
	undoNonce                     // the nonce was set in place
	undoBalance                   // the balance changed in place by delta
	undoSupply                    // the supply changed in place by delta
	undoSupplySet                 // the supply was replaced
	undoSlot                      // a raw record was written
)

// deltaWords holds 256 bits on 64-bit machines, the most a value or a
// balance can be (types' maxValueBits); a larger change (possible only on
// 32-bit machines) takes the copying path.
const deltaWords = 256 / bits.UintSize

// slotUndo is the undo of a raw-record write, kept out of line so that
// account entries, by far the most common, stay small.
type slotUndo struct {
	key       Key
	prevVal   []byte
	prevKnown bool
}

// New opens a view over r.
func New(r Reader) *StateDB {
	return &StateDB{r: r, accounts: map[types.Address]*entry{}, slots: map[Key][]byte{}, slotDirty: map[Key]bool{}}
}

// Err reports the first failure to read the committed state. A block must
// not be committed if Err is set: the view may be incomplete.
func (s *StateDB) Err() error { return s.err }

func (s *StateDB) load(a types.Address) *Account { return s.entry(a).acc }

// entry returns a's entry, reading the account on first use. After a
// failed read the entry is absent and not kept (the failure is sticky:
// nothing this view holds will be written).
func (s *StateDB) entry(a types.Address) *entry {
	if e := s.last; e != nil && e.addr == a {
		return e
	}
	if e, ok := s.accounts[a]; ok {
		s.last = e
		return e
	}
	if len(s.free) == 0 {
		s.free = make([]entry, entrySlab)
	}
	e := &s.free[0]
	s.free = s.free[1:]
	e.addr = a
	raw, err := s.r.GetState(AccountKey(a))
	if err != nil {
		s.fail(fmt.Errorf("read account %s: %w", a, err))
		return e
	}
	if raw != nil {
		if e.acc, err = decodeAccount(raw); err != nil {
			s.fail(fmt.Errorf("account %s: %w", a, err))
			e.acc = nil
			return e
		}
	}
	s.accounts[a] = e
	s.last = e
	return e
}

// touch marks e changed.
func (s *StateDB) touch(e *entry) {
	e.dirty = true
	if !e.listed {
		e.listed = true
		s.touched = append(s.touched, e)
	}
}

func (s *StateDB) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// Account returns a copy of the account, or a zero account if absent.
func (s *StateDB) Account(a types.Address) *Account {
	if acc := s.load(a); acc != nil {
		return acc.copy()
	}
	return &Account{Balance: new(big.Int)}
}

// Balance is the account's balance in base units (a copy).
func (s *StateDB) Balance(a types.Address) *big.Int {
	if acc := s.load(a); acc != nil {
		return new(big.Int).Set(acc.Balance)
	}
	return new(big.Int)
}

// HasBalance reports whether the account holds at least v, without copying.
func (s *StateDB) HasBalance(a types.Address, v *big.Int) bool {
	if acc := s.load(a); acc != nil {
		return acc.Balance.Cmp(v) >= 0
	}
	return v.Sign() <= 0
}

// Nonce is the number of transactions the account has sent.
func (s *StateDB) Nonce(a types.Address) uint64 {
	if acc := s.load(a); acc != nil {
		return acc.Nonce
	}
	return 0
}

// modify journals the current account and returns a mutable copy; the
// changes that only touch the nonce or the balance take the in-place paths
// below instead.
func (s *StateDB) modify(a types.Address) *Account { return s.modifyEntry(s.entry(a)) }

func (s *StateDB) modifyEntry(e *entry) *Account {
	cur := e.acc
	s.journal = append(s.journal, undo{e: e, kind: undoAccount, prev: cur, prevDirty: e.dirty})
	var next *Account
	if cur == nil {
		next = &Account{Balance: new(big.Int)}
	} else {
		next = cur.copy()
	}
	e.acc = next
	s.touch(e)
	return next
}

// SetNonce sets the account's nonce.
func (s *StateDB) SetNonce(a types.Address, n uint64) {
	e := s.entry(a)
	acc := e.acc
	if acc == nil {
		s.modifyEntry(e).Nonce = n
		return
	}
	u := undo{e: e, kind: undoNonce, prevDirty: e.dirty}
	u.delta[0] = big.Word(acc.Nonce)
	if bits.UintSize == 32 {
		u.delta[1] = big.Word(acc.Nonce >> 32)
	}
	s.journal = append(s.journal, u)
	s.touch(e)
	acc.Nonce = n
}

// changeBalance adds v (≥ 0) to a's balance, or takes it if neg (the
// caller has checked that the balance covers it). An existing account
// changes in place and the journal records v; an absent one is created
// through modify.
func (s *StateDB) changeBalance(a types.Address, v *big.Int, neg bool) {
	e := s.entry(a)
	acc := e.acc
	if w := v.Bits(); acc == nil || len(w) > deltaWords {
		acc = s.modifyEntry(e)
	} else {
		u := undo{e: e, kind: undoBalance, neg: neg, prevDirty: e.dirty}
		copy(u.delta[:], w)
		s.journal = append(s.journal, u)
		s.touch(e)
	}
	if neg {
		acc.Balance.Sub(acc.Balance, v)
	} else {
		acc.Balance.Add(acc.Balance, v)
	}
}

// AddBalance credits v (≥ 0) base units.
func (s *StateDB) AddBalance(a types.Address, v *big.Int) {
	if v.Sign() == 0 {
		return
	}
	s.changeBalance(a, v, false)
}

// SubBalance debits v base units, or fails with ErrInsufficientBalance
// and changes nothing.
func (s *StateDB) SubBalance(a types.Address, v *big.Int) error {
	if v.Sign() == 0 {
		return nil
	}
	if !s.HasBalance(a, v) {
		return fmt.Errorf("%w: %s has %s, needs %s", ErrInsufficientBalance, a, s.Balance(a), v)
	}
	s.changeBalance(a, v, true)
	return nil
}

// Supply is the total CBY in existence, in base units.
func (s *StateDB) Supply() *big.Int { return new(big.Int).Set(s.loadSupply()) }

// loadSupply returns the supply itself (not a copy), reading it once.
func (s *StateDB) loadSupply() *big.Int {
	if s.supply == nil {
		s.supply = new(big.Int)
		raw, err := s.r.GetState(supplyKey)
		if err != nil {
			s.fail(fmt.Errorf("read total supply: %w", err))
		} else if raw != nil {
			s.supply.SetBytes(raw)
		}
	}
	return s.supply
}

// changeSupply adds v (≥ 0) to the supply, or takes it if neg, in place
// with the change journaled (or, for a change beyond deltaWords, with a
// copy of the old supply journaled).
func (s *StateDB) changeSupply(v *big.Int, neg bool) {
	cur := s.loadSupply()
	if w := v.Bits(); len(w) > deltaWords {
		s.journal = append(s.journal, undo{kind: undoSupplySet, prev: &Account{Balance: cur}, prevDirty: s.supplyW})
		cur = new(big.Int).Set(cur)
		s.supply = cur
	} else {
		u := undo{kind: undoSupply, neg: neg, prevDirty: s.supplyW}
		copy(u.delta[:], w)
		s.journal = append(s.journal, u)
	}
	s.supplyW = true
	if neg {
		cur.Sub(cur, v)
	} else {
		cur.Add(cur, v)
	}
}

// Mint creates v base units in account a (genesis allocations, rewards).
func (s *StateDB) Mint(a types.Address, v *big.Int) {
	s.AddBalance(a, v)
	s.changeSupply(v, false)
}

// Burn destroys v base units already removed from an account (basefees,
// §4.2: 100% burned), so the total supply falls.
func (s *StateDB) Burn(v *big.Int) {
	if v.Sign() == 0 {
		return
	}
	s.changeSupply(v, true)
}

// Get reads a raw record (actor code, actor storage, dedup entries); nil
// means absent. The returned slice must not be modified.
func (s *StateDB) Get(k Key) []byte {
	if v, ok := s.slots[k]; ok {
		return v
	}
	v, err := s.r.GetState(k)
	if err != nil {
		s.fail(fmt.Errorf("read record %x: %w", k[:], err))
		return nil
	}
	s.slots[k] = v
	return v
}

// Set writes a raw record; a nil value deletes it. The state keeps v.
func (s *StateDB) Set(k Key, v []byte) {
	prev, known := s.slots[k]
	if !known {
		prev = s.Get(k)
		known = true
	}
	if v != nil && len(v) == 0 {
		v = []byte{}
	}
	s.journal = append(s.journal, undo{kind: undoSlot, slot: &slotUndo{key: k, prevVal: prev, prevKnown: known}, prevDirty: s.slotDirty[k]})
	s.slots[k] = v
	s.slotDirty[k] = true
}

// Grow makes room for n more journal entries, so a block of known size
// does not regrow the journal as it executes.
func (s *StateDB) Grow(n int) { s.journal = slices.Grow(s.journal, n) }

// Snapshot marks the journal; RevertToSnapshot undoes everything after it.
func (s *StateDB) Snapshot() int { return len(s.journal) }

// RevertToSnapshot restores the state as it was at Snapshot id.
func (s *StateDB) RevertToSnapshot(id int) {
	for i := len(s.journal) - 1; i >= id; i-- {
		u := &s.journal[i]
		switch u.kind {
		case undoSlot:
			su := u.slot
			if su.prevKnown {
				s.slots[su.key] = su.prevVal
			} else {
				delete(s.slots, su.key)
			}
			if u.prevDirty {
				s.slotDirty[su.key] = true
			} else {
				delete(s.slotDirty, su.key)
			}
			continue
		case undoSupply:
			undoDelta(s.supply, u)
			s.supplyW = u.prevDirty
			continue
		case undoSupplySet:
			s.supply, s.supplyW = u.prev.Balance, u.prevDirty
			continue
		case undoAccount:
			u.e.acc = u.prev
		case undoNonce:
			n := uint64(u.delta[0])
			if bits.UintSize == 32 {
				n |= uint64(u.delta[1]) << 32
			}
			u.e.acc.Nonce = n
		case undoBalance:
			undoDelta(u.e.acc.Balance, u)
		}
		u.e.dirty = u.prevDirty // still listed in touched; Writes skips it
	}
	clear(s.journal[id:]) // drop the references the undone entries held
	s.journal = s.journal[:id]
}

// undoDelta reverses an in-place change of x by u's delta.
func undoDelta(x *big.Int, u *undo) {
	d := new(big.Int).SetBits(slices.Clone(u.delta[:]))
	if u.neg {
		x.Add(x, d)
	} else {
		x.Sub(x, d)
	}
}

// Writes returns every changed key, sorted by key so the commit does not
// depend on map order, and clears the journal (the block is final).
func (s *StateDB) Writes() ([]Write, error) {
	if s.err != nil {
		return nil, s.err
	}
	out := make([]Write, 0, len(s.touched)+len(s.slotDirty)+1)
	for _, e := range s.touched {
		if !e.dirty {
			continue // changed, then reverted
		}
		acc := e.acc
		w := Write{Key: AccountKey(e.addr)}
		if acc != nil && !acc.empty() {
			b, err := encodeAccount(acc)
			if err != nil {
				return nil, fmt.Errorf("encode account %s: %w", e.addr, err)
			}
			w.Value = b
		}
		out = append(out, w)
	}
	for k := range s.slotDirty {
		out = append(out, Write{Key: k, Value: s.slots[k]})
	}
	if s.supplyW {
		v := s.supply.Bytes()
		if v == nil {
			v = []byte{}
		}
		out = append(out, Write{Key: supplyKey, Value: v})
	}
	slices.SortFunc(out, func(a, b Write) int { return bytes.Compare(a.Key[:], b.Key[:]) })
	s.journal = s.journal[:0]
	for _, e := range s.touched {
		e.dirty, e.listed = false, false
	}
	clear(s.touched)
	s.touched = s.touched[:0] // kept for the next block when the view is carried (Rebase)
	clear(s.slotDirty)
	s.supplyW = false
	return out, nil
}

// ErrUnwritten is Rebase's refusal: the view holds changes Writes has not
// taken, or a read failed.
var ErrUnwritten = errors.New("state view has unwritten changes")

// Rebase makes s, whose changes Writes has taken, the view of the next
// block over r, which must read the state after those writes. What s has
// cached is that state already (the accounts and records the block read
// or wrote, the supply), so the next block finds them without reading
// and decoding them again: the block pipeline carries one view from block
// to block (node/blockpipe.go). It fails, changing nothing, if s holds a
// change not yet taken or a read failure.
func (s *StateDB) Rebase(r Reader) error {
	if err := s.unwritten(); err != nil {
		return err
	}
	s.r = r
	return nil
}

// unwritten is ErrUnwritten if s holds a change Writes has not taken or a
// read failure.
func (s *StateDB) unwritten() error {
	// Every journal entry marks its account or record dirty (or the supply
	// written), and a revert unmarks it with the entry, so no dirty mark
	// means an empty journal.
	if s.err != nil || len(s.slotDirty) > 0 || s.supplyW {
		return ErrUnwritten
	}
	for _, e := range s.touched {
		if e.dirty {
			return ErrUnwritten
		}
	}
	return nil
}

// ErrStale is Verify's finding: the view holds a value the state it is
// compared with does not.
var ErrStale = errors.New("state view differs from the state underneath")

// Verify compares everything s holds (accounts, records, the supply) with
// what r reads, as a fresh view over r would see it, and reports the
// first difference in key order. Rebase is right only while every state
// write of a block goes through the block's view: the block pipeline's
// tests run Verify on each carried view against the committed state
// (node's checkCarried), so a writer that bypasses the view fails them.
// It reads every key s holds; it is for tests, not for the block path.
func (s *StateDB) Verify(r Reader) error {
	if err := s.unwritten(); err != nil {
		return err
	}
	addrs := make([]types.Address, 0, len(s.accounts))
	for a := range s.accounts {
		addrs = append(addrs, a)
	}
	slices.SortFunc(addrs, func(a, b types.Address) int { return bytes.Compare(a[:], b[:]) })
	for _, a := range addrs {
		raw, err := r.GetState(AccountKey(a))
		if err != nil {
			return fmt.Errorf("verify account %s: %w", a, err)
		}
		var under *Account // what a fresh view would hold; nil if absent or empty
		if raw != nil {
			if under, err = decodeAccount(raw); err != nil {
				return fmt.Errorf("verify account %s: %w", a, err)
			}
		}
		if !sameAccount(s.accounts[a].acc, under) {
			return fmt.Errorf("%w: account %s is %v in the view, %v underneath", ErrStale, a, s.accounts[a].acc, under)
		}
	}
	keys := make([]Key, 0, len(s.slots))
	for k := range s.slots {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b Key) int { return bytes.Compare(a[:], b[:]) })
	for _, k := range keys {
		raw, err := r.GetState(k)
		if err != nil {
			return fmt.Errorf("verify record %x: %w", k[:], err)
		}
		if v := s.slots[k]; !bytes.Equal(v, raw) || (v == nil) != (raw == nil) {
			return fmt.Errorf("%w: record %x is %x in the view, %x underneath", ErrStale, k[:], v, raw)
		}
	}
	if s.supply != nil {
		raw, err := r.GetState(supplyKey)
		if err != nil {
			return fmt.Errorf("verify total supply: %w", err)
		}
		if under := new(big.Int).SetBytes(raw); s.supply.Cmp(under) != 0 {
			return fmt.Errorf("%w: total supply is %s in the view, %s underneath", ErrStale, s.supply, under)
		}
	}
	return nil
}

// sameAccount reports whether two accounts read the same to every rule:
// an empty account is an absent one.
func sameAccount(a, b *Account) bool {
	if a == nil || a.empty() {
		return b == nil || b.empty()
	}
	if b == nil || a.Nonce != b.Nonce || a.Balance.Cmp(b.Balance) != 0 || (a.CodeHash == nil) != (b.CodeHash == nil) {
		return false
	}
	return a.CodeHash == nil || *a.CodeHash == *b.CodeHash
}

// Cached is how many accounts and records s holds, for callers that bound
// how long they carry a view (Rebase).
func (s *StateDB) Cached() int { return len(s.accounts) + len(s.slots) }
