package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
)

// RepairReport says what a repair found and did.
type RepairReport struct {
	Segments int    // segments checked
	Degraded int    // segments below K + threshold
	Rebuilt  int    // shards rebuilt and re-placed
	Lost     int    // segments with fewer than K healthy shards (unrecoverable)
	Seq      uint64 // manifest sequence after the repair
	Root     [32]byte
}

// probeTimeout bounds the liveness probe while fewer than all relays
// but Tolerate have answered.
const probeTimeout = 3 * time.Second

// hedge is how long the relays still out get once all but Tolerate have
// answered: max(1 s, 4× the time those took), as for hedged reads.
func hedge(elapsed time.Duration) time.Duration { return max(time.Second, 4*elapsed) }

// Probe asks every relay for its status at once and returns the ones that
// answered; the others are marked down. Once all relays but Tolerate have
// answered, the rest get hedge() more and are then cancelled, so a relay
// that died without closing its connection (or never answers) does not
// hold a repair pass for a timeout.
func (c *Cluster) Probe(ctx context.Context) map[cbfs.RelayID]*relay.StatResp {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		id  cbfs.RelayID
		st  *relay.StatResp
		err error
	}
	start := time.Now()
	// Every answer fits: the requests cancelled below never block.
	ch := make(chan answer, len(c.relays))
	for _, r := range c.relays {
		go func() {
			st, err := c.clients[r.ID].Stat(ctx)
			if c.probeDone != nil {
				c.probeDone(r.ID, err)
			}
			ch <- answer{r.ID, st, err}
		}()
	}
	quorum := max(1, len(c.relays)-max(0, c.Tolerate))
	wait := probeTimeout
	if c.probeWait > 0 {
		wait = c.probeWait
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	up := map[cbfs.RelayID]*relay.StatResp{}
	answered := map[cbfs.RelayID]bool{}
wait:
	for len(answered) < len(c.relays) {
		select {
		case ans := <-ch:
			answered[ans.id] = true
			if ans.err == nil {
				up[ans.id] = ans.st
			}
			if len(answered) == quorum && len(answered) < len(c.relays) {
				deadline.Reset(hedge(time.Since(start)))
			}
		case <-deadline.C:
			break wait
		case <-ctx.Done():
			break wait
		}
	}
	cancel()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.relays {
		if up[r.ID] != nil {
			delete(c.down, r.ID)
		} else {
			c.down[r.ID] = time.Now().Add(downFor)
		}
	}
	return up
}

// Repair checks every shard of path on its relay and, for each segment
// whose healthy shards number fewer than K + threshold (0 ≤ threshold ≤ M),
// rebuilds the missing shards from K healthy ones and places them on
// relays that hold no shard of that segment, in the segment's ranking
// order. Rebuilt shards are bit for bit the originals, so the file's
// commitment is unchanged; the manifest's placement and Seq are updated.
func (c *Cluster) Repair(ctx context.Context, v *cbfs.Volume, path string, threshold int) (*RepairReport, error) {
	return c.repair(ctx, v, path, threshold, c.Probe(ctx))
}

// repair is Repair with the relays a probe found up.
func (c *Cluster) repair(ctx context.Context, v *cbfs.Volume, path string, threshold int, up map[cbfs.RelayID]*relay.StatResp) (*RepairReport, error) {
	m, err := c.Manifest(ctx, v, path)
	if err != nil {
		return nil, err
	}
	if threshold < 0 || threshold > int(m.M) {
		return nil, fmt.Errorf("cluster: repair threshold %d outside 0..%d", threshold, m.M)
	}
	tags, _ := v.PathTags(path)
	a := c.auth(v.ID, tags)
	n := int(m.K + m.M)

	// Which shards does each live relay really hold?
	type slot struct{ i, j int }
	held := map[cbfs.RelayID][]slot{}
	for i, s := range m.Segments {
		for j, id := range s.Relays {
			held[id] = append(held[id], slot{i, j})
		}
	}
	healthy := make([][]bool, len(m.Segments))
	for i := range healthy {
		healthy[i] = make([]bool, n)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for id, slots := range held {
		if up[id] == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for len(slots) > 0 {
				batch := slots[:min(len(slots), relay.MaxHasShards)]
				slots = slots[len(batch):]
				hashes := make([]cbfs.ShardHash, len(batch))
				for k, sl := range batch {
					hashes[k] = m.Segments[sl.i].Hashes[sl.j]
				}
				var have []bool
				err := c.call(id, func(cl *relay.Client) (err error) {
					have, err = cl.Has(ctx, a, hashes)
					return err
				})
				if err != nil {
					return
				}
				mu.Lock()
				for k, sl := range batch {
					healthy[sl.i][sl.j] = have[k]
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()

	rep := &RepairReport{Segments: len(m.Segments)}
	var lostErr error
	for i := range m.Segments {
		var missing []int
		used := map[cbfs.RelayID]bool{}
		for j := 0; j < n; j++ {
			if healthy[i][j] {
				used[m.Segments[i].Relays[j]] = true
			} else {
				missing = append(missing, j)
			}
		}
		if n-len(missing) >= int(m.K)+threshold || len(missing) == 0 {
			continue
		}
		rep.Degraded++
		if n-len(missing) < int(m.K) {
			rep.Lost++
			lostErr = fmt.Errorf("cluster: segment %d has %d healthy shards, needs %d", i, n-len(missing), m.K)
			continue
		}
		rebuilt, err := c.rebuildSegment(ctx, a, m, i, healthy[i], used, missing)
		rep.Rebuilt += rebuilt
		if err != nil {
			return rep, fmt.Errorf("cluster: repair segment %d: %w", i, err)
		}
	}
	rep.Root = m.Root()
	rep.Seq = m.Seq
	if rep.Rebuilt > 0 {
		m.Seq++
		rep.Seq = m.Seq
		if err := c.putManifest(ctx, v, tags, m); err != nil {
			return rep, err
		}
	}
	return rep, lostErr
}

// rebuildSegment rebuilds the missing shards of segment i from K of its
// healthy ones and places them, durably, on relays not in used (the
// relays of its healthy shards), in the segment's ranking order; m's
// placement is updated. It returns how many shards it placed.
func (c *Cluster) rebuildSegment(ctx context.Context, a relay.Auth, m *cbfs.Manifest, i int, healthy []bool, used map[cbfs.RelayID]bool, missing []int) (int, error) {
	fetch := func(ctx context.Context, si, j int, dst []byte) ([]byte, error) {
		if !healthy[j] {
			return nil, errors.New("shard not healthy")
		}
		var b []byte
		err := c.call(m.Segments[si].Relays[j], func(cl *relay.Client) (err error) {
			b, err = cl.GetShardTo(ctx, a, m.Segments[si].Hashes[j], dst)
			return err
		})
		return b, err
	}
	shards, _, err := cbfs.RebuildShards(ctx, m, i, fetch)
	if err != nil {
		return 0, err
	}
	root := m.Root()
	proof := func(j int) (*cbfs.ShardProof, [32]byte, uint8) {
		p := m.Proof(i, j)
		return &p, root, m.K + m.M
	}
	order := Rank(segmentSeed(m.File, i), c.relays)
	placed, err := c.placeSegment(ctx, a, order, shards, m.Segments[i].Hashes, used, missing, proof)
	if err != nil {
		return 0, err
	}
	for j, id := range placed {
		m.Segments[i].Relays[j] = id
	}
	return len(placed), nil
}

// Audit challenges one random range of every shard of path on its relay
// and checks the answer against the manifest root. It returns the shards
// that failed (missing, unreachable or wrong), which Repair then replaces.
func (c *Cluster) Audit(ctx context.Context, v *cbfs.Volume, path string, seed uint64) ([]cbfs.BadShard, error) {
	bad, _, err := c.AuditReceipts(ctx, v, path, seed)
	return bad, err
}

// AuditReceipts is Audit that also returns the relays' signed custody
// receipts of the shards that passed: the evidence for an on-chain
// challenge (Relay Registry "challenge") if a relay later stops answering.
// An answer whose receipt is missing, forged or for another shard counts
// as failed.
func (c *Cluster) AuditReceipts(ctx context.Context, v *cbfs.Volume, path string, seed uint64) ([]cbfs.BadShard, []*cbfs.CustodyReceipt, error) {
	m, err := c.Manifest(ctx, v, path)
	if err != nil {
		return nil, nil, err
	}
	var receipts []*cbfs.CustodyReceipt
	tags, _ := v.PathTags(path)
	a := c.auth(v.ID, tags)
	root := m.Root()
	var bad []cbfs.BadShard
	x := seed | 1
	for i, s := range m.Segments {
		sl := uint64(m.ShardLen(i))
		for j, id := range s.Relays {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			length := min(sl, 4096)
			off := x % (sl - length + 1)
			var resp *relay.ChallengeResp
			var slice []byte
			err := c.call(id, func(cl *relay.Client) (err error) {
				resp, slice, err = cl.Challenge(ctx, &relay.ChallengeReq{Auth: a, Hash: s.Hashes[j], Offset: off, Length: length})
				return err
			})
			if err == nil {
				_, err = relay.VerifyChallenge(root, s.Hashes[j], off, length, resp, slice)
			}
			if err == nil {
				err = checkReceipt(resp.Receipt, id, v.ID, tags[len(tags)-1], root, s.Hashes[j])
			}
			if err != nil {
				bad = append(bad, cbfs.BadShard{Segment: i, Shard: j, Err: err})
				continue
			}
			receipts = append(receipts, resp.Receipt)
		}
	}
	return bad, receipts, nil
}

// checkReceipt accepts a custody receipt signed by relay id for exactly
// this shard.
func checkReceipt(r *cbfs.CustodyReceipt, id cbfs.RelayID, vol cbfs.VolumeID, pid cbfs.Tag, root [32]byte, h cbfs.ShardHash) error {
	if r == nil {
		return errors.New("cluster: challenge answer has no custody receipt")
	}
	if r.Relay != id || r.Volume != vol || r.PathID != pid || r.Root != root || r.Hash != h {
		return errors.New("cluster: custody receipt is for another shard or relay")
	}
	return r.Verify()
}
