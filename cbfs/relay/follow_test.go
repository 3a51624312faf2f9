package relay

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/crypto"
)

// blocks is a chain as a relay sees it: the revocations of each height.
type blocks struct {
	head   uint64
	revs   map[uint64][]ChainRevocation
	evicts map[uint64][]cbfs.VolumeID
	err    error
	asks   []uint64 // the from heights asked for
}

func (b *blocks) Events(_ context.Context, from uint64) (ChainEvents, uint64, error) {
	b.asks = append(b.asks, from)
	if b.err != nil {
		return ChainEvents{}, 0, b.err
	}
	var out ChainEvents
	for h := from; h <= b.head; h++ {
		out.Revocations = append(out.Revocations, b.revs[h]...)
		out.Evictions = append(out.Evictions, b.evicts[h]...)
	}
	return out, b.head, nil
}

// A token revoked on chain is refused once the relay syncs; the cursor
// survives a restart, so a relay that was down catches up with what was
// revoked meanwhile, and a node error changes nothing.
func TestRevocationsFollowTheChain(t *testing.T) {
	dir := t.TempDir()
	nodeKey, _ := crypto.GenerateKey()
	owner, _ := crypto.GenerateKey()
	start := func() (*Server, *Client) {
		srv, err := New(Config{Dir: dir, Listen: "127.0.0.1:0", Key: nodeKey})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		cli, err := NewClient(srv.Addr(), srv.ID(), owner)
		if err != nil {
			t.Fatal(err)
		}
		return srv, cli
	}
	ctx := context.Background()
	vol := cbfs.DeriveVolumeID(owner.Address(), "logs")
	exp := uint64(time.Now().Add(time.Hour).Unix())
	grant := func(nonce byte) (Auth, [32]byte) {
		tok, _ := cbfs.Grant(owner, "logs", nil, cbfs.PermRead, exp, owner.Address(), [8]byte{nonce})
		id, _ := tok.Links[0].ID()
		b, _ := cbfs.Marshal(tok)
		return Auth{Token: b, Vol: vol}, id
	}
	a1, id1 := grant(1)
	a2, id2 := grant(2)
	works := func(cli *Client, a Auth) bool {
		_, err := cli.List(ctx, a)
		return err == nil
	}

	chain := &blocks{head: 4, revs: map[uint64][]ChainRevocation{}}
	srv, cli := start()
	if n, err := srv.SyncChain(ctx, chain); err != nil || n != 0 {
		t.Fatalf("first sync: %d %v", n, err)
	}
	if !works(cli, a1) || !works(cli, a2) {
		t.Fatal("fresh tokens refused")
	}
	// Block 5 revokes token 1; another volume's link is not ours to apply.
	chain.revs[5] = []ChainRevocation{{Volume: vol, Link: id1, Expiry: exp}}
	chain.head = 5
	if n, err := srv.SyncChain(ctx, chain); err != nil || n != 1 {
		t.Fatalf("sync: %d %v", n, err)
	}
	if works(cli, a1) || !works(cli, a2) {
		t.Fatal("after the sync token 1 must be refused and token 2 served")
	}
	// The node fails: nothing changes, the cursor stays.
	chain.err = errors.New("node down")
	if _, err := srv.SyncChain(ctx, chain); err == nil {
		t.Fatal("a node error was not reported")
	}
	chain.err = nil
	if c, _ := srv.ChainCursor(); c != 5 {
		t.Fatalf("cursor %d after a failed sync, want 5", c)
	}
	cli.Close()
	srv.Close()
	// While the relay is down, block 8 revokes token 2.
	chain.revs[8] = []ChainRevocation{{Volume: vol, Link: id2, Expiry: exp}}
	chain.head = 9
	srv, cli = start()
	defer srv.Close()
	defer cli.Close()
	chain.asks = nil
	if n, err := srv.SyncChain(ctx, chain); err != nil || n != 1 {
		t.Fatalf("catch-up sync: %d %v", n, err)
	}
	if len(chain.asks) != 1 || chain.asks[0] != 6 {
		t.Fatalf("the restarted relay asked from %v, want from 6 (its cursor + 1)", chain.asks)
	}
	if works(cli, a1) || works(cli, a2) {
		t.Fatal("revoked tokens served after the catch-up")
	}
}

// An eviction on chain drops the volume's shards, manifests and usage from
// the relay; another volume's data stays.
func TestEvictionDropsTheVolume(t *testing.T) {
	f := newFixture(t, Limits{})
	other := newFixtureOn(t, f)
	ctx := context.Background()
	store := func(fx *fixture) {
		m, shards := fx.encodeFile(t, "a.txt", bytes.Repeat([]byte("evict "), 5000))
		a := fx.auth(t, "a.txt")
		for k, s := range shards {
			if err := fx.cli.PutShard(ctx, putReq(a, m, k[0], k[1]), s); err != nil {
				t.Fatal(err)
			}
		}
	}
	store(f)
	store(other)
	st, _ := f.cli.Stat(ctx)
	if len(st.Volumes) != 2 {
		t.Fatalf("stat before: %+v", st)
	}
	chain := &blocks{head: 3, evicts: map[uint64][]cbfs.VolumeID{3: {f.vol.ID}}}
	if n, err := f.srv.SyncChain(ctx, chain); err != nil || n != 1 {
		t.Fatalf("sync: %d %v", n, err)
	}
	if ents, err := f.cli.List(ctx, Auth{Token: f.tok, Vol: f.vol.ID}); err != nil || len(ents) != 0 {
		t.Fatalf("evicted volume still lists %d files (%v)", len(ents), err)
	}
	st, _ = f.cli.Stat(ctx)
	if len(st.Volumes) != 1 || st.Volumes[0].Vol != other.vol.ID || st.Used != st.Volumes[0].Bytes {
		t.Fatalf("stat after: %+v", st)
	}
	if _, err := other.cli.Has(ctx, other.auth(t, "a.txt"), nil); err != nil {
		t.Fatalf("the other volume: %v", err)
	}
}

// newFixtureOn is a second owner and volume on f's relay.
func newFixtureOn(t *testing.T, f *fixture) *fixture {
	owner, _ := crypto.GenerateKey()
	key, _ := cbfs.NewVolumeKey()
	vol := &cbfs.Volume{ID: cbfs.DeriveVolumeID(owner.Address(), "logs"), Key: key}
	cli, err := NewClient(f.srv.Addr(), f.srv.ID(), owner)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	tok, _ := cbfs.Grant(owner, "logs", nil, cbfs.PermRead|cbfs.PermWrite, uint64(time.Now().Add(time.Hour).Unix()), owner.Address(), [8]byte{})
	tb, _ := cbfs.Marshal(tok)
	return &fixture{srv: f.srv, owner: owner, vol: vol, cli: cli, tok: tb}
}
