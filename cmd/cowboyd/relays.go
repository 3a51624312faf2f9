package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/cmd/internal/chainfeed"
	"github.com/cowboy-chain/cowboy/rpc"
)

// devRelayBasePort is the first port (UDP for QUIC, TCP for the bulk shard
// path) of `cowboyd devnet --relays N`:
// fixed ports keep HOME/relays.txt valid across restarts.
const devRelayBasePort = 7450

// startDevRelays runs n CBFS relays in this process for a devnet, each
// with its identity and store under home/relays/relayI, on loopback ports
// 7450…, and writes home/relays.txt, the list `cowboy volume create
// --relays` reads. The returned func stops them; follow makes them follow
// the devnet's own chain once its RPC is up.
func startDevRelays(home string, n int, log *slog.Logger) (list string, stop func(), follow func(ctx context.Context, rpcAddr string), err error) {
	var srvs []*relay.Server
	stop = func() {
		for _, s := range srvs {
			s.Close()
		}
	}
	var lines []string
	for i := 0; i < n; i++ {
		dir := filepath.Join(home, "relays", fmt.Sprintf("relay%d", i))
		key, err := relay.LoadOrCreateKey(dir)
		if err != nil {
			stop()
			return "", nil, nil, err
		}
		srv, err := relay.New(relay.Config{Dir: filepath.Join(dir, "db"), Listen: fmt.Sprintf("127.0.0.1:%d", devRelayBasePort+i), Key: key, Log: log})
		if err != nil {
			stop()
			return "", nil, nil, fmt.Errorf("devnet relay %d: %w", i, err)
		}
		if err := srv.Start(); err != nil {
			srv.Close()
			stop()
			return "", nil, nil, fmt.Errorf("devnet relay %d: %w", i, err)
		}
		srvs = append(srvs, srv)
		id := srv.ID()
		lines = append(lines, fmt.Sprintf("0x%x@%s", id[:], srv.Addr()))
		// relay.json, as cbfs-relay writes it: `cowboy relay register
		// --home DIR` reads the address from it.
		js := fmt.Sprintf("{\"id\":\"0x%x\",\"addr\":%q}\n", id[:], srv.Addr())
		if err := os.WriteFile(filepath.Join(dir, "relay.json"), []byte(js), 0o644); err != nil {
			stop()
			return "", nil, nil, fmt.Errorf("devnet relay %d: %w", i, err)
		}
	}
	list = filepath.Join(home, "relays.txt")
	body := "# CBFS relays of this devnet (cowboyd devnet --relays)\n" + strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(list, []byte(body), 0o644); err != nil {
		stop()
		return "", nil, nil, fmt.Errorf("write %s: %w", list, err)
	}
	follow = func(ctx context.Context, rpcAddr string) {
		src := &chainfeed.RPC{Client: rpc.Dial("http://" + rpcAddr)}
		for _, s := range srvs {
			go s.FollowChain(ctx, src, devRelayFollow)
		}
	}
	return list, stop, follow, nil
}

// devRelayFollow is how often devnet relays read revocations and
// evictions from the devnet's chain.
const devRelayFollow = time.Second
