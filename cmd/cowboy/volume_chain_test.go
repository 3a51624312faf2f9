package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/chainfeed"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
)

// TestVolumeRevokeOnChain: on a real devnet node, a volume registered
// with a deposit, a read grant for dev1, and a relay that is not in the
// volume's list (so `revoke` cannot push to it) but follows the chain.
// `cowboy volume revoke --chain` records the revocation in 0x0A; that
// relay then refuses the token, having read it from the chain's events.
func TestVolumeRevokeOnChain(t *testing.T) {
	h := devnetHarness(t)
	relays := startRelays(t, 3)
	k, _ := crypto.GenerateKey()
	watcher, err := relay.New(relay.Config{Dir: t.TempDir(), Listen: "127.0.0.1:0", Key: k})
	if err != nil {
		t.Fatal(err)
	}
	if err := watcher.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { watcher.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go watcher.FollowChain(ctx, &chainfeed.RPC{Client: rpc.Dial(h.url)}, 20*time.Millisecond)

	ownerDir := t.TempDir()
	t.Setenv(envVolumes, ownerDir)
	h.ok("volume", "create", "logs", "--k", "2", "--m", "1", "--relays", relays, "--deposit", "1cby", "--from", "dev0")
	var g struct {
		Token, ID string
		Expiry    uint64
	}
	decodeJSON(t, h.ok("--json", "volume", "grant", "logs", "--to", "dev1", "--read", "--ttl", "1h", "--from", "dev0"), &g)
	tok, err := cbfs.ParseToken(g.Token)
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cbfs.Marshal(tok)
	dev1, _ := genesis.DevKey(1)
	cli, err := relay.NewClient(watcher.Addr(), watcher.ID(), dev1)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	dev0, _ := genesis.DevKey(0)
	auth := relay.Auth{Token: tb, Vol: cbfs.DeriveVolumeID(dev0.Address(), "logs")}
	if _, err := cli.List(ctx, auth); err != nil {
		t.Fatalf("the token before revoking: %v", err)
	}

	out := h.ok("volume", "revoke", "logs", g.Token, "--chain", "--from", "dev0")
	if !strings.Contains(out, "on chain (0x0A)") || !strings.Contains(out, "on 3 of 3 relays") {
		t.Fatalf("revoke: %s", out)
	}
	// The watcher follows every 20 ms; give a loaded machine a minute.
	for deadline := time.Now().Add(time.Minute); ; {
		_, err := cli.List(ctx, auth)
		if err != nil && strings.Contains(err.Error(), "revoked") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the chain-following relay still serves the revoked token: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	h.fails([]string{"volume", "revoke", "logs", g.Token, "--chain", "--from", "dev0"}, "already revoked")
}
