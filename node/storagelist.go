package node

import (
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/statekey"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/store"
)

// The node lists actor storage (cowboy_listActorStorage, the explorer).
var _ rpc.StorageLister = (*Node)(nil)

// ListActorStorage pages through an actor's storage records (kind 0x03,
// docs/state-layout.md) at the latest committed block. Their keys are
// kind ‖ address ‖ namespace ‖ keccak256(key), and the store keeps records
// in key order, so one actor's records are one range of the store, read
// in (namespace, slot) order; each record holds its key (state.EncodeSlot).
// Nothing is indexed: the consensus state is all it reads, so dev_revert
// and restarts need no upkeep.
func (n *Node) ListActorStorage(addr types.Address, after *rpc.StorageCursor, limit int) ([]rpc.StorageEntry, bool, error) {
	st := n.newState()
	isActor := st.IsActor(addr)
	if err := st.Err(); err != nil {
		return nil, false, err
	}
	if !isActor {
		return nil, false, fmt.Errorf("%w at %s: the account holds no code", rpc.ErrNoActor, addr)
	}
	prefix := append([]byte{statekey.KindActorStorage}, addr[:]...)
	var from *store.Key
	if after != nil {
		k := store.Key(statekey.Make(statekey.KindActorStorage, addr, after.Namespace, after.Slot))
		from = &k
	}
	recs, more, err := n.db.Scan(store.StateDB, prefix, from, limit)
	if err != nil {
		return nil, false, fmt.Errorf("list storage of %s: %w", addr, err)
	}
	out := make([]rpc.StorageEntry, len(recs))
	for i, r := range recs {
		key, value, err := state.DecodeSlot(r.Value)
		if err != nil {
			return nil, false, fmt.Errorf("storage record %x of %s: %w", r.Key[21:], addr, err)
		}
		out[i] = rpc.StorageEntry{Namespace: r.Key[21], Key: key, Value: value}
		copy(out[i].Slot[:], r.Key[22:])
	}
	return out, more, nil
}
