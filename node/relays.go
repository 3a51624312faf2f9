package node

import (
	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/rpc"
)

// The node serves the CBFS relay list (cowboy_getRelays).
var _ rpc.RelayLister = (*Node)(nil)

// Relays lists the Relay Registry (0x0B) after the last block.
func (n *Node) Relays() ([]rpc.RelayJSON, error) {
	st := n.headState()
	rs, err := storage.ListRelays(st)
	if err != nil {
		return nil, err
	}
	out := make([]rpc.RelayJSON, len(rs))
	for i, r := range rs {
		out[i] = rpc.RelayJSON{Address: rpc.Address(r.Address), Addr: r.Relay.Addr, Capacity: rpc.Quantity(r.Relay.Capacity),
			Stake: rpc.NewBigQuantity(r.Relay.Stake), Exiting: r.Relay.Exiting, Slashed: rpc.Quantity(r.Relay.Slashed)}
	}
	return out, nil
}
