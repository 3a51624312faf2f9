package main

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"time"

	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/cmd/internal/chainfeed"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
)

// registerTimeout bounds the wait for the register_relay receipt, so a
// stuck node turns into an error instead of a relay that never serves.
const registerTimeout = 2 * time.Minute

// registerCycles is the cycles limit of register_relay: the node's
// estimate covers only the intrinsic cost of native storage calls (the
// same limit `cowboy relay register` uses).
const registerCycles = 50_000

// ensureRegistered bonds stake and registers the relay (its node key, addr
// and capacity) in the Relay Registry 0x0B (§9) unless the key is already
// registered there, so a restart never registers twice. It waits for the
// receipt; a failed one, or a key that cannot pay stake plus fees, is an
// error and the caller must not serve.
func ensureRegistered(ctx context.Context, c *rpc.Client, key *crypto.PrivateKey, addr string, capBytes uint64, stake *big.Int, out io.Writer) error {
	me := types.Address(key.Address())
	relays, err := c.Relays(ctx)
	if err != nil {
		return fmt.Errorf("read the relay registry (0x0B) from %s: %w", c.URL(), err)
	}
	for _, r := range relays {
		if types.Address(r.Address) != me {
			continue
		}
		state := ""
		if r.Exiting {
			state = ", exiting"
		}
		fmt.Fprintf(out, "relay %s is already registered in 0x0B (addr %s, stake %s%s); not registering again\n", me, r.Addr, types.FormatCBY(r.Stake.Int()), state)
		return nil
	}
	bal, err := c.Balance(ctx, me)
	if err != nil {
		return fmt.Errorf("balance of the relay key %s: %w", me, err)
	}
	if bal.Cmp(stake) <= 0 {
		return fmt.Errorf("the relay key %s holds %s, not enough to stake %s plus fees: fund it first (cbfs-relay id --home DIR prints the address)", me, types.FormatCBY(bal), types.FormatCBY(stake))
	}
	fmt.Fprintf(out, "registering relay %s in 0x0B: addr %s, capacity %d bytes, stake %s\n", me, addr, capBytes, types.FormatCBY(stake))
	wctx, cancel := context.WithTimeout(ctx, registerTimeout)
	defer cancel()
	rc, err := chainfeed.Send(wctx, c, key, storage.RegistryAddress, stake, storage.Payload("register_relay", addr, capBytes), registerCycles)
	if err != nil {
		return fmt.Errorf("register_relay: %w", err)
	}
	fmt.Fprintf(out, "registered in block %d (transaction %s)\n", uint64(rc.BlockNumber), rc.TransactionHash)
	return nil
}
