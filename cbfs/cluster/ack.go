package cluster

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
)

// errTooFewDurable is why a put fails when a segment has fewer than K
// shards whose barrier succeeded: it cannot be rebuilt.
var errTooFewDurable = errors.New("fewer than K of a segment's shards were made durable")

// ackEvery is how many shard bytes a put's relays receive between two
// durability barriers: it bounds what a relay holds undurable for one
// writer (and what a failed barrier makes the writer rebuild) while
// keeping the barriers, each an fsync per shard file and one of the
// directory and the index per relay, few (one at the end of a 100 MiB
// put at K=4, M=2).
const ackEvery = 256 << 20

// ackSlot is shard j of segment i, received by a relay and not yet
// durable there.
type ackSlot struct {
	i, j int
	h    cbfs.ShardHash
}

// acks tracks, for one put, the shards each relay has received with
// PutShardReq.Defer, and asks each relay for a durability barrier
// (OpSyncShards) for them. A shard counts as stored only once its
// relay's barrier has succeeded; finish places the others again.
type acks struct {
	c *Cluster
	a relay.Auth

	mu     sync.Mutex
	per    map[cbfs.RelayID][]ackSlot // received, no barrier asked yet
	bytes  int                        // shard bytes in per
	failed map[int][]int              // segment -> shards whose barrier failed
	errs   []error                    // why, one per failed barrier request
}

func newAcks(c *Cluster, a relay.Auth) *acks {
	return &acks{c: c, a: a, per: map[cbfs.RelayID][]ackSlot{}, failed: map[int][]int{}}
}

// add records segment e's shards as received by relays (shard j by
// relays[j]); once ackEvery bytes have accumulated it runs their
// barriers before returning.
func (k *acks) add(ctx context.Context, e *cbfs.EncodedSegment, relays []cbfs.RelayID) {
	k.mu.Lock()
	for j, id := range relays {
		k.per[id] = append(k.per[id], ackSlot{e.Index, j, e.Hashes[j]})
		k.bytes += len(e.Shards[j])
	}
	var batch map[cbfs.RelayID][]ackSlot
	every := ackEvery
	if k.c.ackEvery > 0 {
		every = k.c.ackEvery
	}
	if k.bytes >= every {
		batch, k.per, k.bytes = k.per, map[cbfs.RelayID][]ackSlot{}, 0
	}
	k.mu.Unlock()
	k.barrier(ctx, batch)
}

// barrier asks every relay in batch, at once, to make its shards there
// durable, and records the shards of every request that failed.
func (k *acks) barrier(ctx context.Context, batch map[cbfs.RelayID][]ackSlot) {
	var wg sync.WaitGroup
	for id, slots := range batch {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for len(slots) > 0 {
				part := slots[:min(len(slots), relay.MaxSyncShards)]
				slots = slots[len(part):]
				hashes := make([]cbfs.ShardHash, len(part))
				for n, s := range part {
					hashes[n] = s.h
				}
				err := k.c.call(id, func(cl *relay.Client) error { return cl.SyncShards(ctx, k.a, hashes) })
				if err == nil {
					continue
				}
				k.mu.Lock()
				for _, s := range part {
					k.failed[s.i] = append(k.failed[s.i], s.j)
				}
				k.errs = append(k.errs, fmt.Errorf("0x%x: %w", id[:4], err))
				k.mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// finish runs the last barriers, then rebuilds each shard whose barrier
// failed (its relay stopped or restarted after receiving it, or could not
// sync it) from K of its segment's durable shards and places it again,
// durably, updating m's placement. It fails, and the put with it, if a
// segment has fewer than K durable shards or a rebuilt shard finds no
// relay: nothing is then committed.
func (k *acks) finish(ctx context.Context, m *cbfs.Manifest) error {
	if k.c.beforeAck != nil {
		k.c.beforeAck()
	}
	k.mu.Lock()
	batch := k.per
	k.per = nil
	k.mu.Unlock()
	k.barrier(ctx, batch)
	if err := ctx.Err(); err != nil {
		return err
	}
	lost := errors.Join(k.errs...)
	n := int(m.K + m.M)
	for _, i := range slices.Sorted(maps.Keys(k.failed)) {
		missing := slices.Compact(slices.Sorted(slices.Values(k.failed[i])))
		healthy := make([]bool, n)
		used := map[cbfs.RelayID]bool{}
		for j := range healthy {
			if !slices.Contains(missing, j) {
				healthy[j] = true
				used[m.Segments[i].Relays[j]] = true
			}
		}
		if n-len(missing) < int(m.K) {
			return fmt.Errorf("cluster: put: segment %d: %d of its %d shards lost, K=%d: %w (%w)", i, len(missing), n, m.K, errTooFewDurable, lost)
		}
		if _, err := k.c.rebuildSegment(ctx, k.a, m, i, healthy, used, missing); err != nil {
			return fmt.Errorf("cluster: put: segment %d: shards not made durable (%w) could not be placed again: %w", i, lost, err)
		}
	}
	return nil
}
