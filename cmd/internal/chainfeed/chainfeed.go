// Package chainfeed is what a CBFS relay reads from the chain: the
// Storage Manager's "revoke" and "evict" events, through a node's
// JSON-RPC (cowboy_getLogs), as a relay.ChainSource.
package chainfeed

import (
	"context"
	"fmt"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// RPC reads the Storage Manager's "revoke" and "evict" events from a node
// (cowboy_getLogs), at most rpc.MaxLogRange blocks a call.
type RPC struct{ Client *rpc.Client }

// Events implements relay.ChainSource.
func (r *RPC) Events(ctx context.Context, from uint64) (relay.ChainEvents, uint64, error) {
	head, err := r.Client.BlockNumber(ctx)
	if err != nil {
		return relay.ChainEvents{}, 0, fmt.Errorf("block number: %w", err)
	}
	if head < from {
		return relay.ChainEvents{}, from - 1, nil
	}
	to := min(head, from+rpc.MaxLogRange-1)
	addr := rpc.Address(storage.ManagerAddress)
	fb, tb := rpc.BlockAt(from), rpc.BlockAt(to)
	var logs []rpc.LogJSON
	if err := r.Client.Call(ctx, &logs, "cowboy_getLogs", rpc.LogFilterJSON{Address: &addr, FromBlock: &fb, ToBlock: &tb}); err != nil {
		return relay.ChainEvents{}, 0, fmt.Errorf("get logs %d..%d: %w", from, to, err)
	}
	evs, err := Decode(logs)
	if err != nil {
		return relay.ChainEvents{}, 0, err
	}
	return evs, to, nil
}

// Decode reads 0x0A "revoke" and "evict" events and skips the
// manager's others; a log from another address is an error (the node's
// filter is not trusted to have applied).
func Decode(logs []rpc.LogJSON) (relay.ChainEvents, error) {
	var out relay.ChainEvents
	for i, l := range logs {
		if types.Address(l.Address) != storage.ManagerAddress {
			return relay.ChainEvents{}, fmt.Errorf("log %d is from %s, not the storage manager", i, types.Address(l.Address))
		}
		switch l.Name {
		case "revoke":
			var ev storage.RevokeEvent
			if err := types.Unmarshal(l.Data, &ev); err != nil {
				return relay.ChainEvents{}, fmt.Errorf("log %d: revoke event: %w", i, err)
			}
			if len(ev.Volume) != 32 || len(ev.Link) != 32 {
				return relay.ChainEvents{}, fmt.Errorf("log %d: revoke event volume and link must be 32 bytes", i)
			}
			out.Revocations = append(out.Revocations, relay.ChainRevocation{Volume: cbfs.VolumeID(ev.Volume), Link: [32]byte(ev.Link), Expiry: ev.Expiry})
		case "evict":
			var ev storage.EvictEvent
			if err := types.Unmarshal(l.Data, &ev); err != nil || len(ev.Volume) != 32 {
				return relay.ChainEvents{}, fmt.Errorf("log %d: evict event: want a 32-byte volume (%v)", i, err)
			}
			out.Evictions = append(out.Evictions, cbfs.VolumeID(ev.Volume))
		}
	}
	return out, nil
}
