package main

import (
	"context"
	"math/big"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/cluster"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/cmd/internal/chainfeed"
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

// TestRelayAnswersChallenges: on a devnet node, a relay registered in
// 0x0B with stake holds a committed file; the owner takes an audit's
// custody receipt to the chain as a challenge, and the relay's Responder
// reads the challenge event and answers it on chain (a "respond" event).
func TestRelayAnswersChallenges(t *testing.T) {
	h := devnetHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := rpc.Dial(h.url)
	owner, _ := genesis.DevKey(0)
	stake := new(big.Int).Mul(big.NewInt(1001), big.NewInt(1e18))
	register := func() (*relay.Server, *crypto.PrivateKey) {
		rk, _ := crypto.GenerateKey()
		srv, err := relay.New(relay.Config{Dir: t.TempDir(), Listen: "127.0.0.1:0", Key: rk})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		id := srv.ID()
		h.ok("transfer", "--to", "0x"+bytesHex(id[:]), "--value", "1002cby", "--from", "dev0")
		if _, err := chainfeed.Send(ctx, c, rk, storage.RegistryAddress, stake, storage.Payload("register_relay", srv.Addr(), uint64(1<<30)), 50_000); err != nil {
			t.Fatalf("register relay: %v", err)
		}
		return srv, rk
	}
	srv, rk := register()
	srv2, _ := register()
	// A client takes its relays from the registry: cowboy_getRelays.
	t.Setenv(envVolumes, t.TempDir())
	h.ok("volume", "create", "fromchain", "--k", "1", "--m", "1", "--relays", "chain", "--deposit", "1cby", "--from", "dev0")
	src := filepath.Join(t.TempDir(), "f.txt")
	mustWrite(t, src, []byte("placed on the registry's relay"), 0o644)
	h.ok("volume", "put", "fromchain", src, "--commit", "--from", "dev0")
	if got := h.ok("volume", "get", "fromchain", "f.txt", "--from", "dev0"); got != "placed on the registry's relay" {
		t.Fatalf("get from the registry's relay: %q", got)
	}
	sc, err := relay.NewClient(srv.Addr(), srv.ID(), owner)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	if st, err := sc.Stat(ctx); err != nil || st.Used == 0 {
		t.Fatalf("the registered relay holds nothing: %+v %v", st, err)
	}
	if _, err := chainfeed.Send(ctx, c, owner, storage.ManagerAddress, big.NewInt(1e18), storage.Payload("create_volume", "logs", uint64(1), uint64(0)), 50_000); err != nil {
		t.Fatalf("create volume: %v", err)
	}
	key, _ := cbfs.NewVolumeKey()
	vol := &cbfs.Volume{ID: cbfs.DeriveVolumeID(owner.Address(), "logs"), Key: key}
	tok, _ := cbfs.Grant(owner, "logs", nil, cbfs.PermRead|cbfs.PermWrite, uint64(time.Now().Add(time.Hour).Unix()), owner.Address(), [8]byte{})
	cl, err := cluster.New([]cluster.RelayInfo{{ID: srv.ID(), Addr: srv.Addr()}}, owner, tok)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	m, err := cl.Put(ctx, vol, "a.log", cbfs.Params{K: 1, M: 0, SegmentSize: cbfs.MinSegmentSize}, strings.NewReader(strings.Repeat("held ", 20_000)), nil)
	if err != nil {
		t.Fatal(err)
	}
	tags, _ := vol.PathTags("a.log")
	pid := tags[len(tags)-1]
	if _, err := chainfeed.Send(ctx, c, owner, storage.ManagerAddress, nil, storage.Payload("commit", vol.ID[:], pid[:], m.Commitment().Bytes()), 50_000); err != nil {
		t.Fatalf("commit: %v", err)
	}
	_, receipts, err := cl.AuditReceipts(ctx, vol, "a.log", 1)
	if err != nil || len(receipts) == 0 {
		t.Fatalf("audit: %d receipts, %v", len(receipts), err)
	}
	go (&chainfeed.Responder{Client: c, Key: rk, Server: srv}).Run(ctx, 20*time.Millisecond)
	rb, _ := cbfs.Marshal(receipts[0])
	rc, err := chainfeed.Send(ctx, c, owner, storage.RegistryAddress, nil, storage.Payload("challenge", rb), 50_000)
	if err != nil {
		t.Fatalf("challenge: %v", err)
	}
	addr := rpc.Address(storage.RegistryAddress)
	from := rpc.BlockAt(uint64(rc.BlockNumber))
	for deadline := time.Now().Add(time.Minute); ; {
		var logs []rpc.LogJSON
		if err := c.Call(ctx, &logs, "cowboy_getLogs", rpc.LogFilterJSON{Address: &addr, Name: "respond", FromBlock: &from}); err != nil {
			t.Fatal(err)
		}
		if len(logs) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the relay did not answer the challenge on chain within a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}

	// cowboy volume audit keeps the receipts of the "fromchain" volume
	// (one shard on each relay); once a relay is gone, --challenge takes
	// its receipt to the chain.
	if out := h.ok("volume", "audit", "fromchain", "--from", "dev0"); !strings.Contains(out, "1 files audited, 0 shards failed, 0 challenged; 2 custody receipts kept") {
		t.Fatalf("audit: %s", out)
	}
	srv2.Close() // its shard of f.txt is gone; the other relay still lists the file
	before := challenges(t, c)
	if out := h.ok("volume", "audit", "fromchain", "--challenge", "--from", "dev0"); !strings.Contains(out, "1 shards failed, 1 challenged") {
		t.Fatalf("audit --challenge: %s", out)
	}
	if after := challenges(t, c); after != before+1 {
		t.Fatalf("challenge events: %d before, %d after", before, after)
	}
}

// challenges counts the Relay Registry's challenge events.
func challenges(t *testing.T, c *rpc.Client) int {
	t.Helper()
	addr := rpc.Address(storage.RegistryAddress)
	from := rpc.BlockAt(0)
	var logs []rpc.LogJSON
	if err := c.Call(context.Background(), &logs, "cowboy_getLogs", rpc.LogFilterJSON{Address: &addr, Name: "challenge", FromBlock: &from}); err != nil {
		t.Fatal(err)
	}
	return len(logs)
}
