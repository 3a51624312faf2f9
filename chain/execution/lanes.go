package execution

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// LaneOf tags a transaction with its execution lane (§6.3, §6.4, §17.9):
// calls to the system actors that take transactions (the validator
// registry, the storage manager and the relay registry) are the system
// lane; transfers, deploys and actor calls are the user lane; calls to
// the runner market (0x01–0x03) are the runner lane. The timer lane
// carries no transactions (timers run in the Deliver Timers step); job
// continuations run in the runner lane's Resolve Jobs step.
func LaneOf(tx *types.Tx) fees.Lane {
	if tx.To == nil || !systemFirstByte[tx.To[0]] {
		return fees.LaneUser // the common case, decided without comparing addresses
	}
	if *tx.To == staking.Address || storage.Handles(*tx.To) {
		return fees.LaneSystem
	}
	if runner.Handles(*tx.To) {
		return fees.LaneRunner // runner registry, job posts, commits and reveals (§6.3)
	}
	return fees.LaneUser
}

// systemFirstByte marks the first bytes of the addresses LaneOf puts in a
// reserved lane: an address starting with any other byte is the user
// lane's. LaneOf runs several times for every transaction of every block.
var systemFirstByte = func() (m [256]bool) {
	for _, a := range []types.Address{staking.Address, storage.ManagerAddress, storage.RegistryAddress,
		runner.RegistryAddress, runner.DispatcherAddress, runner.VerifierAddress} {
		m[a[0]] = true
	}
	return m
}()

// TxCycleCap is how many cycles a block's transactions may use: the block
// cap less the timer lane's reservation when timers are due at height
// (spec/README.md "lanes": a reserved lane's budget is not taken before
// the lane has been served; timers are served after the transactions, so
// their budget is set aside first). When no timer is due the reservation
// spills to the transactions.
func TxCycleCap(st *state.StateDB, height uint64) (uint64, error) {
	due, err := timers.New(st).HasDue(height)
	if err != nil {
		return 0, err
	}
	if due {
		return fees.CapCycles - timers.TimerLaneCycles, nil
	}
	return fees.CapCycles, nil
}

// txLanes are the lanes that carry transactions and hold a reservation.
var txLanes = [...]fees.Lane{fees.LaneSystem, fees.LaneRunner}

// laneMeter is the §17.9 accounting of a block's transactions. Each
// reserved lane (system, runner) has its LaneCycleBudget; the user lane
// has what is left of the transactions' cap (TxCycleCap) after those
// reservations, plus the unused budget of every reserved lane that has
// been served, i.e. whose last candidate in the block's order has been
// processed (a lane with no candidates is served from the start). A
// reserved lane's transaction whose limit no longer fits its reservation
// competes for the user lane's room instead, so a registry call with a
// large limit is not stuck forever. Lanes meter cycles; cells are shared
// (spec/README.md "lanes"). The sum never exceeds the cap.
type laneMeter struct {
	txCap uint64
	used  [fees.LaneUser + 1]uint64
	left  [fees.LaneUser + 1]int // candidates of the lane not yet processed
}

func newLaneMeter(txCap uint64, order []*types.Tx) *laneMeter {
	m := &laneMeter{txCap: txCap}
	for _, tx := range order {
		m.left[LaneOf(tx)]++
	}
	return m
}

// userRoom is the cycles the user lane may still take.
func (m *laneMeter) userRoom() uint64 {
	room := m.txCap
	for _, l := range txLanes {
		room -= min(room, fees.LaneCycleBudget[l])
		if m.left[l] == 0 {
			room += fees.LaneCycleBudget[l] - m.used[l]
		}
	}
	return room - min(room, m.used[fees.LaneUser])
}

// fit returns the lane whose budget a transaction of lane l with the given
// cycle limit is charged to, and false when it fits none.
func (m *laneMeter) fit(l fees.Lane, limit uint64) (fees.Lane, bool) {
	if l != fees.LaneUser && limit <= fees.LaneCycleBudget[l]-m.used[l] {
		return l, true
	}
	return fees.LaneUser, limit <= m.userRoom()
}

// done records that a candidate of lane l was processed, having used
// cycles from the budget of lane charged.
func (m *laneMeter) done(l, charged fees.Lane, cycles uint64) {
	m.used[charged] += cycles
	m.left[l]--
}

// orderDomain separates the ordering keys from every other keccak of the
// beacon.
var orderDomain = []byte("cowboy/tx-order/v1")

// VRFOrder is the block's order of its selected transactions (§6.4 "VRF
// ordering within the selected set", §6.5): every transaction draws a slot
// key keccak256("cowboy/tx-order/v1" ‖ beacon ‖ tx hash) and the slots are
// sorted by key; each sender's transactions then fill that sender's slots
// in nonce order, so a sender's transactions still run in nonce order while
// where they run among the others is the beacon's choice. The result
// depends only on the set of transactions and the beacon, never on the
// order the proposer listed them in: Build applies it, so ordering is part
// of the state transition rather than a rule a proposal can break
// (docs/decisions.md "Lanes"). A transaction whose sender does not recover
// keeps its own slot (execution refuses it).
func VRFOrder(beacon [32]byte, txs []*types.Tx) []*types.Tx {
	slots := make([]orderSlot, len(txs))
	for i, tx := range txs {
		h := tx.Hash()
		slots[i] = orderSlot{key: crypto.Keccak256(orderDomain, beacon[:], h[:]), hash: h, tx: tx, group: -1}
		if from, err := tx.Sender(); err == nil {
			slots[i].from, slots[i].group = from, 0
		}
	}
	ord := slotOrder(slots)
	// Each sender's transactions in nonce order (ties by hash), then dealt
	// into its slots in slot order. Senders are numbered in slot order
	// (one map lookup per transaction) and their transactions laid out
	// sender after sender, in slot order within a sender, by a counting
	// sort: no list or map per sender.
	groups := make(map[types.Address]int32, len(slots))
	var count []int32 // transactions per sender
	for _, o := range ord {
		s := &slots[o.i]
		if s.group < 0 {
			continue
		}
		g, ok := groups[s.from]
		if !ok {
			g = int32(len(count))
			groups[s.from] = g
			count = append(count, 0)
		}
		s.group = g
		count[g]++
	}
	start := make([]int32, len(count)+1) // sender g's transactions are byGroup[start[g]:start[g+1]]
	for g, c := range count {
		start[g+1] = start[g] + c
	}
	byGroup := make([]*types.Tx, start[len(count)])
	next := slices.Clone(start[:len(count)])
	for _, o := range ord {
		if s := &slots[o.i]; s.group >= 0 {
			byGroup[next[s.group]] = s.tx
			next[s.group]++
		}
	}
	for g := range count {
		slices.SortStableFunc(byGroup[start[g]:start[g+1]], func(a, b *types.Tx) int {
			if c := cmp.Compare(a.Nonce, b.Nonce); c != 0 {
				return c
			}
			ha, hb := a.Hash(), b.Hash()
			return bytes.Compare(ha[:], hb[:])
		})
	}
	out := make([]*types.Tx, len(slots))
	copy(next, start) // the next of each sender's transactions to deal
	for i, o := range ord {
		s := &slots[o.i]
		if s.group < 0 {
			out[i] = s.tx
			continue
		}
		out[i] = byGroup[next[s.group]]
		next[s.group]++
	}
	return out
}

// orderSlot is a transaction's slot in VRFOrder.
type orderSlot struct {
	key   [32]byte // keccak256(orderDomain ‖ beacon ‖ hash)
	hash  types.Hash
	tx    *types.Tx
	from  types.Address
	group int32 // index of the sender's group; -1: no sender
}

// slotRef is a slot's place in the sort: the first 8 bytes of its key as
// a big-endian integer, and the slot's index.
type slotRef struct {
	hi uint64
	i  int32
}

// slotOrder returns the slots' indices sorted by key, ties by hash (equal
// keys and hashes are the same transaction; ties by index). It sorts
// 16-byte (key prefix, index) pairs compared as integers instead of the
// 128-byte slots through bytes.Compare; the rest of the key and the hash
// are read only where two prefixes are equal, which keccak keys make rare.
func slotOrder(slots []orderSlot) []slotRef {
	ord := make([]slotRef, len(slots))
	for i := range slots {
		ord[i] = slotRef{hi: binary.BigEndian.Uint64(slots[i].key[:8]), i: int32(i)}
	}
	slices.SortFunc(ord, func(a, b slotRef) int {
		if c := cmp.Compare(a.hi, b.hi); c != 0 {
			return c
		}
		sa, sb := &slots[a.i], &slots[b.i]
		if c := bytes.Compare(sa.key[8:], sb.key[8:]); c != 0 {
			return c
		}
		if c := bytes.Compare(sa.hash[:], sb.hash[:]); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	return ord
}
