package rpc

import (
	"context"
	"fmt"
)

// RelayLister is the optional backend capability behind cowboy_getRelays:
// the CBFS Relay Registry (0x0B), which clients read to place shards.
type RelayLister interface {
	Relays() ([]RelayJSON, error)
}

// RelayJSON is one registered CBFS relay.
type RelayJSON struct {
	Address  Address      `json:"address"` // its node key's address: the relay's identity
	Addr     string       `json:"addr"`    // ip:port of its QUIC service
	Capacity Quantity     `json:"capacity"`
	Stake    *BigQuantity `json:"stake"`
	Exiting  bool         `json:"exiting"` // leaving: place nothing new on it
	Slashed  Quantity     `json:"slashed"` // custody challenges it failed
}

func getRelays(_ context.Context, b Backend, _ *params) (any, *Error) {
	rl, ok := b.(RelayLister)
	if !ok {
		return nil, newError(CodeMethodNotFound, "method cowboy_getRelays is not served by this node")
	}
	rs, err := rl.Relays()
	if err != nil {
		return nil, internal(fmt.Errorf("relays: %w", err))
	}
	if rs == nil {
		rs = []RelayJSON{}
	}
	return rs, nil
}

// Relays calls cowboy_getRelays.
func (c *Client) Relays(ctx context.Context) ([]RelayJSON, error) {
	var out []RelayJSON
	if err := c.Call(ctx, &out, "cowboy_getRelays"); err != nil {
		return nil, err
	}
	return out, nil
}
