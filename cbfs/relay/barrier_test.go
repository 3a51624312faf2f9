package relay

import (
	"bytes"
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
)

// putDeferredFile sends every shard of m with Defer and returns the hashes.
func (f *fixture) putDeferredFile(t *testing.T, cli *Client, a Auth, m *cbfs.Manifest, shards map[[2]int][]byte) []cbfs.ShardHash {
	t.Helper()
	var hashes []cbfs.ShardHash
	for k, s := range shards {
		r := putReq(a, m, k[0], k[1])
		r.Defer = true
		if err := cli.PutShard(context.Background(), r, s); err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, r.Hash)
	}
	return hashes
}

// held asks the relay which of hashes it holds.
func held(t *testing.T, cli *Client, a Auth, hashes []cbfs.ShardHash) []bool {
	t.Helper()
	have, err := cli.Has(context.Background(), a, hashes)
	if err != nil {
		t.Fatal(err)
	}
	return have
}

func allOf(v []bool, want bool) bool {
	for _, x := range v {
		if x != want {
			return false
		}
	}
	return len(v) > 0
}

// TestBarrierAcknowledges: a shard put with Defer is received, not held
// (Has says no, it is not counted in the usage nor indexed) until a
// barrier naming it succeeds; after the barrier it is held, counted and
// served, and a second barrier is a no-op. A barrier naming a shard the
// relay never received fails with NotFound, and so does one for shards
// whose path was deleted before it.
func TestBarrierAcknowledges(t *testing.T) {
	f := newFixture(t, Limits{})
	ctx := context.Background()
	m, shards := f.encodeFile(t, "a/b.bin", bytes.Repeat([]byte("deferred "), 20000))
	a := f.auth(t, "a/b.bin")
	hashes := f.putDeferredFile(t, f.cli, a, m, shards)
	if have := held(t, f.cli, a, hashes); !allOf(have, false) {
		t.Fatalf("received shards held before the barrier: %v", have)
	}
	if u := f.srv.stat().Used; u != 0 {
		t.Fatalf("received shards counted before the barrier: %d bytes", u)
	}
	if n := f.srv.PutShards.Load(); n != 0 {
		t.Fatalf("%d shards stored before the barrier", n)
	}
	// A received shard's proofs cannot be attached yet: it is not held.
	ents := []ShardProofEntry{{Hash: m.Segments[0].Hashes[0], Proof: m.Proof(0, 0)}}
	if err := f.cli.PutProofs(ctx, &ProofsReq{Auth: a, Root: m.Root(), N: m.K + m.M}, ents); !errors.Is(err, ErrNotFound) {
		t.Fatalf("proofs before the barrier: %v", err)
	}

	if err := f.cli.SyncShards(ctx, a, append(hashes, hashes[0])); err != nil {
		t.Fatal(err)
	}
	if have := held(t, f.cli, a, hashes); !allOf(have, true) {
		t.Fatalf("after the barrier: %v", have)
	}
	var want uint64
	for k, s := range shards {
		want += uint64(len(s))
		got, err := f.cli.GetShard(ctx, a, m.Segments[k[0]].Hashes[k[1]])
		if err != nil || !bytes.Equal(got, s) {
			t.Fatalf("shard %v after the barrier: %v", k, err)
		}
	}
	if u := f.srv.stat().Used; u <= want {
		t.Fatalf("usage %d after the barrier, want more than the shards' %d bytes", u, want)
	}
	if n := f.srv.Barriers.Load(); n != 1 {
		t.Fatalf("%d barriers counted, want 1", n)
	}
	if n := f.srv.PutShards.Load(); n != int64(len(hashes)) {
		t.Fatalf("%d shards stored, want %d", n, len(hashes))
	}
	if f.srv.pending != 0 || len(f.srv.deferred) != 0 {
		t.Fatalf("after the barrier: %d bytes pending, %d shards waiting", f.srv.pending, len(f.srv.deferred))
	}
	used := f.srv.stat().Used
	if err := f.cli.SyncShards(ctx, a, hashes); err != nil {
		t.Fatalf("a second barrier: %v", err)
	}
	if n := f.srv.Barriers.Load(); n != 1 {
		t.Fatalf("a barrier of held shards synced something: %d barriers", n)
	}
	// A deferred put of a shard held already changes nothing.
	f.putDeferredFile(t, f.cli, a, m, shards)
	if len(f.srv.deferred) != 0 || f.srv.stat().Used != used {
		t.Fatalf("a held shard put again: %d waiting, usage %d (was %d)", len(f.srv.deferred), f.srv.stat().Used, used)
	}

	// Never received: the whole barrier fails.
	if err := f.cli.SyncShards(ctx, a, []cbfs.ShardHash{hashes[0], {1, 2, 3}}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("barrier naming a shard never sent: %v", err)
	}

	// Received, then the path deleted: the barrier fails, nothing counted.
	m2, shards2 := f.encodeFile(t, "a/c.bin", bytes.Repeat([]byte("gone "), 20000))
	a2 := f.auth(t, "a/c.bin")
	hashes2 := f.putDeferredFile(t, f.cli, a2, m2, shards2)
	if err := f.cli.Delete(ctx, a2); err != nil {
		t.Fatal(err)
	}
	if err := f.cli.SyncShards(ctx, a2, hashes2); !errors.Is(err, ErrNotFound) {
		t.Fatalf("barrier after a delete: %v", err)
	}
	if have := held(t, f.cli, a2, hashes2); !allOf(have, false) {
		t.Fatalf("deleted shards held: %v", have)
	}
	if f.srv.pending != 0 || len(f.srv.deferred) != 0 || f.srv.stat().Used != used {
		t.Fatalf("after a failed barrier: %d pending, %d waiting, usage %d (want %d)", f.srv.pending, len(f.srv.deferred), f.srv.stat().Used, used)
	}
	// A write token is needed.
	bad := a
	bad.Token = []byte{1}
	if err := f.cli.SyncShards(ctx, bad, hashes); err == nil {
		t.Fatal("a barrier without a valid token was accepted")
	}
}

// TestBarrierAfterRestart: a relay that stops between receiving shards
// and their barrier (as kill -9 would, before anything is synced) comes
// back without them: the startup sweep removes their files (they have no
// index entry), and the barrier that names them fails, so a writer never
// counts them as stored. Shards acknowledged by an earlier barrier are
// still held.
func TestBarrierAfterRestart(t *testing.T) {
	f := newFixture(t, Limits{})
	ctx := context.Background()
	m, shards := f.encodeFile(t, "x/kept.bin", bytes.Repeat([]byte("kept "), 20000))
	a := f.auth(t, "x/kept.bin")
	kept := f.putDeferredFile(t, f.cli, a, m, shards)
	if err := f.cli.SyncShards(ctx, a, kept); err != nil {
		t.Fatal(err)
	}
	m2, shards2 := f.encodeFile(t, "x/lost.bin", bytes.Repeat([]byte("lost "), 20000))
	a2 := f.auth(t, "x/lost.bin")
	lost := f.putDeferredFile(t, f.cli, a2, m2, shards2)
	pid2 := a2.Tags[len(a2.Tags)-1]
	file := f.srv.files.path(f.vol.ID, pid2, lost[0])
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("received shard's file: %v", err)
	}
	cfg := f.srv.cfg
	f.cli.Close()
	f.srv.Close()

	srv, err := New(Config{Dir: cfg.Dir, Listen: "127.0.0.1:0", Key: cfg.Key})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cli, _ := NewClient(srv.Addr(), srv.ID(), f.owner)
	defer cli.Close()
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("the startup sweep left a received, unsynced shard: %v", err)
	}
	if err := cli.SyncShards(ctx, a2, lost); !errors.Is(err, ErrNotFound) {
		t.Fatalf("barrier after a restart: %v", err)
	}
	if have := held(t, cli, a2, lost); !allOf(have, false) {
		t.Fatalf("lost shards held: %v", have)
	}
	if have := held(t, cli, a, kept); !allOf(have, true) {
		t.Fatalf("acknowledged shards after a restart: %v", have)
	}
	if err := cli.SyncShards(ctx, a, kept); err != nil {
		t.Fatalf("barrier of held shards after a restart: %v", err)
	}
}

// TestDeferredExpiryAndCapacity: received shards count against the
// capacity while they wait, and a writer that never sends the barrier
// loses them after deferredTTL: the next deferred put drops them, their
// files go, the bytes are free again, and the late barrier fails.
func TestDeferredExpiryAndCapacity(t *testing.T) {
	f := newFixture(t, Limits{})
	var mu sync.Mutex
	now := time.Now()
	f.srv.cfg.Now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}
	ctx := context.Background()
	m, shards := f.encodeFile(t, "e/old.bin", bytes.Repeat([]byte("old "), 20000))
	a := f.auth(t, "e/old.bin")
	old := f.putDeferredFile(t, f.cli, a, m, shards)
	waiting := f.srv.pending
	if waiting == 0 || len(f.srv.deferred) != len(old) {
		t.Fatalf("received: %d bytes pending, %d waiting", waiting, len(f.srv.deferred))
	}
	// Full while they wait: capacity counts them.
	f.srv.lim.Capacity = waiting + 10
	m2, shards2 := f.encodeFile(t, "e/new.bin", bytes.Repeat([]byte("new "), 20000))
	a2 := f.auth(t, "e/new.bin")
	r := putReq(a2, m2, 0, 0)
	r.Defer = true
	var se *StatusError
	if err := f.cli.PutShard(ctx, r, shards2[[2]int{0, 0}]); !errors.As(err, &se) || se.Status != StatusFull {
		t.Fatalf("a put beyond the capacity with shards waiting: %v", err)
	}
	f.srv.lim.Capacity = DefaultLimits().Capacity

	mu.Lock()
	now = now.Add(deferredTTL) // exactly the TTL: kept
	mu.Unlock()
	if err := f.cli.PutShard(ctx, r, shards2[[2]int{0, 0}]); err != nil {
		t.Fatal(err)
	}
	if len(f.srv.deferred) != len(old)+1 {
		t.Fatalf("dropped before their time: %d waiting", len(f.srv.deferred))
	}
	mu.Lock()
	now = now.Add(time.Nanosecond) // past it: dropped
	mu.Unlock()
	r2 := putReq(a2, m2, 0, 1)
	r2.Defer = true
	// Room for exactly r2 (the same length as r, with a proof as long):
	// stored, filling the relay to the byte.
	f.srv.mu.Lock()
	f.srv.lim.Capacity = f.srv.used + 2*(f.srv.pending-waiting)
	f.srv.mu.Unlock()
	if err := f.cli.PutShard(ctx, r2, shards2[[2]int{0, 1}]); err != nil {
		t.Fatalf("a received shard that exactly fills the relay: %v", err)
	}
	f.srv.lim.Capacity = DefaultLimits().Capacity
	if len(f.srv.deferred) != 2 {
		t.Fatalf("after the TTL: %d waiting, want the 2 new ones", len(f.srv.deferred))
	}
	pid := a.Tags[len(a.Tags)-1]
	for _, h := range old {
		if _, err := os.Stat(f.srv.files.path(f.vol.ID, pid, h)); !os.IsNotExist(err) {
			t.Fatalf("an expired shard's file is still there: %v", err)
		}
	}
	if err := f.cli.SyncShards(ctx, a, old); !errors.Is(err, ErrNotFound) {
		t.Fatalf("barrier after the TTL: %v", err)
	}
	if err := f.cli.SyncShards(ctx, a2, []cbfs.ShardHash{r.Hash, r2.Hash}); err != nil {
		t.Fatal(err)
	}
	if f.srv.pending != 0 || len(f.srv.deferred) != 0 {
		t.Fatalf("at the end: %d bytes pending, %d waiting", f.srv.pending, len(f.srv.deferred))
	}
}

// TestBarrierHashCap: a barrier names at most MaxSyncShards; one that
// names exactly that many is served (here: none was received, so not
// found), one more is refused as invalid before anything is looked up.
func TestBarrierHashCap(t *testing.T) {
	f := newFixture(t, Limits{})
	a := f.auth(t, "cap/f.bin")
	hashes := make([]cbfs.ShardHash, MaxSyncShards+1)
	for i := range hashes {
		hashes[i] = cbfs.ShardHash{byte(i), byte(i >> 8), 1}
	}
	ctx := context.Background()
	if err := f.cli.SyncShards(ctx, a, hashes[:MaxSyncShards]); !errors.Is(err, ErrNotFound) {
		t.Fatalf("barrier of MaxSyncShards shards: %v", err)
	}
	var se *StatusError
	if err := f.cli.SyncShards(ctx, a, hashes); !errors.As(err, &se) || se.Status != StatusInvalid {
		t.Fatalf("barrier of one shard more: %v", err)
	}
}

// TestHasHashCap: an OpHas request of MaxHasShards hashes, the batch a
// repair sends, fits in a request header and is answered; one of 4,096
// (the batch a repair used to send) does not fit, which is why the batch
// is MaxHasShards.
func TestHasHashCap(t *testing.T) {
	f := newFixture(t, Limits{})
	a := f.auth(t, "cap/has.bin")
	hashes := make([]cbfs.ShardHash, 4096)
	for i := range hashes {
		hashes[i] = cbfs.ShardHash{byte(i), byte(i >> 8), 2}
	}
	ctx := context.Background()
	have, err := f.cli.Has(ctx, a, hashes[:MaxHasShards])
	if err != nil || len(have) != MaxHasShards {
		t.Fatalf("has of MaxHasShards shards: %d answers, %v", len(have), err)
	}
	for i, h := range have {
		if h {
			t.Fatalf("has: shard %d reported held, none was stored", i)
		}
	}
	if _, err := f.cli.Has(ctx, a, hashes); err == nil {
		t.Fatal("has of 4,096 shards went through the header cap")
	}
}
