package cluster

import (
	"context"
	"fmt"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
)

// VolumeRepair sums one repair pass over every file of a volume.
type VolumeRepair struct {
	Files    int
	Degraded int               // segments found below K + threshold
	Rebuilt  int               // shards rebuilt and re-placed
	Lost     int               // segments with fewer than K healthy shards
	Failed   map[string]string // path -> error, for files the pass could not repair
}

// RepairVolume repairs every file the token can read (Repair on each).
// threshold < 0 means each file's M: repair any loss. One file's failure
// does not stop the pass; it is listed in Failed.
func (c *Cluster) RepairVolume(ctx context.Context, v *cbfs.Volume, threshold int) (VolumeRepair, error) {
	var sum VolumeRepair
	// One probe a pass: it marks the relays that are gone down, so the
	// listing and every file's repair skip them instead of timing out.
	up := c.Probe(ctx)
	ents, err := c.List(ctx, v)
	if err != nil {
		return sum, fmt.Errorf("cluster: repair pass: %w", err)
	}
	for _, e := range ents {
		if ctx.Err() != nil {
			return sum, ctx.Err()
		}
		th := threshold
		if th < 0 {
			th = int(e.Commitment.M)
		}
		sum.Files++
		rep, err := c.repair(ctx, v, e.Path, th, up)
		if rep != nil {
			sum.Degraded += rep.Degraded
			sum.Rebuilt += rep.Rebuilt
			sum.Lost += rep.Lost
		}
		if err != nil {
			if sum.Failed == nil {
				sum.Failed = map[string]string{}
			}
			sum.Failed[e.Path] = err.Error()
		}
	}
	return sum, nil
}

// RepairDaemon runs RepairVolume at once and then every interval until
// ctx ends: the background repair of issue 15 (segments whose healthy
// shards fall below K + threshold, because a relay is gone or fails its
// challenges, are rebuilt onto other relays). Each pass is handed to
// report.
func (c *Cluster) RepairDaemon(ctx context.Context, v *cbfs.Volume, threshold int, interval time.Duration, report func(VolumeRepair, error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		sum, err := c.RepairVolume(ctx, v, threshold)
		if ctx.Err() != nil {
			return
		}
		report(sum, err)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
