package main

import (
	"context"
	"fmt"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// rpcRevocations reads the Storage Manager's "revoke" events from a node
// (cowboy_getLogs), at most rpc.MaxLogRange blocks a call.
type rpcRevocations struct{ c *rpc.Client }

func (r *rpcRevocations) Revocations(ctx context.Context, from uint64) ([]relay.ChainRevocation, uint64, error) {
	head, err := r.c.BlockNumber(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("block number: %w", err)
	}
	if head < from {
		return nil, from - 1, nil
	}
	to := min(head, from+rpc.MaxLogRange-1)
	addr := rpc.Address(storage.ManagerAddress)
	fb, tb := rpc.BlockAt(from), rpc.BlockAt(to)
	var logs []rpc.LogJSON
	if err := r.c.Call(ctx, &logs, "cowboy_getLogs", rpc.LogFilterJSON{Address: &addr, Name: "revoke", FromBlock: &fb, ToBlock: &tb}); err != nil {
		return nil, 0, fmt.Errorf("get logs %d..%d: %w", from, to, err)
	}
	revs, err := revokeLogs(logs)
	if err != nil {
		return nil, 0, err
	}
	return revs, to, nil
}

// revokeLogs decodes 0x0A "revoke" events; a log from anywhere else is
// an error (the node's filter is not trusted to have applied).
func revokeLogs(logs []rpc.LogJSON) ([]relay.ChainRevocation, error) {
	out := make([]relay.ChainRevocation, 0, len(logs))
	for i, l := range logs {
		if types.Address(l.Address) != storage.ManagerAddress || l.Name != "revoke" {
			return nil, fmt.Errorf("log %d is %s %q, not a 0x0A revoke", i, types.Address(l.Address), l.Name)
		}
		var ev storage.RevokeEvent
		if err := types.Unmarshal(l.Data, &ev); err != nil {
			return nil, fmt.Errorf("log %d: revoke event: %w", i, err)
		}
		if len(ev.Volume) != 32 || len(ev.Link) != 32 {
			return nil, fmt.Errorf("log %d: revoke event volume and link must be 32 bytes", i)
		}
		out = append(out, relay.ChainRevocation{Volume: cbfs.VolumeID(ev.Volume), Link: [32]byte(ev.Link), Expiry: ev.Expiry})
	}
	return out, nil
}
