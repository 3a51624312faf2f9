package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
)

// The tests in this file pin the edges the mutation gate found unpinned
// (docs/testing.md, "cbfs/cluster, fifth session"): relay-list parsing,
// the down list, placement running out of relays. They use live
// in-process relays only where a relay must answer, and never wait for a
// timeout.

// TestLoadRelaysFormats reads relay lists in both formats, with blank
// lines and comments, and refuses broken ones.
func TestLoadRelaysFormats(t *testing.T) {
	id := "0x" + strings.Repeat("ab", 20)
	id2 := "0x" + strings.Repeat("cd", 20)
	tests := []struct {
		name    string
		content string
		want    []string // addresses, in order
		wantErr bool
	}{
		{"empty file", "", nil, false},
		{"only blanks", "  \n\t\n", nil, false},
		{"lines with comments", "# relays\n\n" + id + "@1.2.3.4:5\n  # more\n" + id2 + "@h:6\n", []string{"1.2.3.4:5", "h:6"}, false},
		{"json", ` [{"id":"` + id + `","addr":"a:1"}]`, []string{"a:1"}, false},
		{"broken json", `[{"id":`, nil, true},
		{"json with a bad id", `[{"id":"0x12","addr":"a:1"}]`, nil, true},
		{"a bad line", id + "@a:1\nnot a relay\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "relays")
			if err := os.WriteFile(f, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := LoadRelays(f)
			if (err != nil) != tt.wantErr {
				t.Fatalf("LoadRelays: %v, want error %v", err, tt.wantErr)
			}
			var addrs []string
			for _, r := range got {
				addrs = append(addrs, r.Addr)
			}
			if !tt.wantErr && strings.Join(addrs, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("addresses %v, want %v", addrs, tt.want)
			}
		})
	}
	if _, err := LoadRelays(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("a missing relay list loaded")
	}
}

// TestForcedCallClearsDown: a forced call that succeeds takes the relay
// off the down list; one that fails leaves it there, and an unforced
// call to a down relay is refused without being made.
func TestForcedCallClearsDown(t *testing.T) {
	tc := newTestCluster(t, 1)
	c := tc.client(t)
	id := tc.infos[0].ID
	fail := errors.New("transport broke")
	tests := []struct {
		name     string
		force    bool
		err      error // what the call returns
		called   bool
		downLeft bool
	}{
		{"unforced call to a down relay", false, nil, false, true},
		{"forced call that fails", true, fail, true, true},
		{"forced call that succeeds", true, nil, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.markDown(id)
			called := false
			err := c.callMaybeDown(id, tt.force, func(*relay.Client) error { called = true; return tt.err })
			if called != tt.called {
				t.Fatalf("called %v, want %v", called, tt.called)
			}
			if !tt.called && !errors.Is(err, errDown) {
				t.Fatalf("refused call returned %v, want errDown", err)
			}
			if got := c.isDown(id); got != tt.downLeft {
				t.Fatalf("down after the call: %v, want %v", got, tt.downLeft)
			}
		})
	}
}

// TestPutRunsOutOfRelays: with one of three relays marked down, a K=2
// M=1 put has no relay for its third shard and fails with an error
// instead of reaching past the ranking.
func TestPutRunsOutOfRelays(t *testing.T) {
	tc := newTestCluster(t, 3)
	c := tc.client(t)
	c.markDown(tc.infos[1].ID)
	_, err := c.Put(context.Background(), tc.vol, "f", cbfs.Params{K: 2, M: 1, SegmentSize: 4096}, bytes.NewReader(randData(100)), nil)
	if err == nil || !strings.Contains(err.Error(), "no relay left") {
		t.Fatalf("put with a relay short: %v", err)
	}
}

// TestPutReplaceRaisesSeq: each put over a file stores a manifest one
// sequence above the one it replaces, and reads back the newest bytes.
func TestPutReplaceRaisesSeq(t *testing.T) {
	tc := newTestCluster(t, 3)
	c := tc.client(t)
	ctx := context.Background()
	p := cbfs.Params{K: 2, M: 1, SegmentSize: 4096}
	for i, size := range []int{100, 5000, 7} {
		data := randData(size)
		m, err := c.Put(ctx, tc.vol, "f", p, bytes.NewReader(data), nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Seq != uint64(i) {
			t.Fatalf("put %d: seq %d, want %d", i, m.Seq, i)
		}
		var out bytes.Buffer
		got, err := c.Get(ctx, tc.vol, "f", &out, nil)
		if err != nil || !bytes.Equal(out.Bytes(), data) || got.Seq != uint64(i) {
			t.Fatalf("put %d: read back %v", i, err)
		}
	}
}

// TestHedgeAndCopies pins the two small formulas: the hedge after a
// quorum of probe answers (max(1 s, 4× their time)) and the manifest
// copies (min(relays, K+M)).
func TestHedgeAndCopies(t *testing.T) {
	hedges := []struct{ elapsed, want time.Duration }{
		{0, time.Second},
		{100 * time.Millisecond, time.Second},
		{250 * time.Millisecond, time.Second},
		{300 * time.Millisecond, 1200 * time.Millisecond},
		{2 * time.Second, 8 * time.Second},
	}
	for _, h := range hedges {
		if got := hedge(h.elapsed); got != h.want {
			t.Errorf("hedge(%v) = %v, want %v", h.elapsed, got, h.want)
		}
	}
	copies := []struct{ k, m, relays, want int }{
		{4, 2, 10, 6},
		{4, 2, 6, 6},
		{4, 2, 5, 5},
		{2, 1, 8, 3},
		{1, 0, 3, 1},
	}
	for _, cc := range copies {
		m := &cbfs.Manifest{K: uint8(cc.k), M: uint8(cc.m)}
		if got := manifestCopies(m, cc.relays); got != cc.want {
			t.Errorf("manifestCopies(K=%d M=%d, %d relays) = %d, want %d", cc.k, cc.m, cc.relays, got, cc.want)
		}
	}
}

// TestRepairThresholds drops shards of a one-segment K=2 M=2 file from
// live relays (five relays: one spare) and repairs with a threshold:
// a segment with exactly K + threshold healthy shards is left alone, one
// below is rebuilt (down to exactly K healthy shards), one with fewer
// than K is lost, and a threshold outside 0..M is refused. A repair that
// rebuilt nothing keeps the manifest's sequence.
func TestRepairThresholds(t *testing.T) {
	tc := newTestCluster(t, 5)
	c := tc.client(t)
	ctx := context.Background()
	p := cbfs.Params{K: 2, M: 2, SegmentSize: 4096}
	tests := []struct {
		name      string
		drop      int // shards dropped, from shard 0 on
		threshold int
		degraded  int
		rebuilt   int
		lost      int
		wantErr   bool
	}{
		{"nothing missing", 0, 2, 0, 0, 0, false},
		{"exactly K+threshold healthy", 1, 1, 0, 0, 0, false},
		{"one below K+threshold", 1, 2, 1, 1, 0, false},
		{"exactly K healthy", 2, 2, 1, 2, 0, false},
		{"threshold 0, exactly K healthy", 2, 0, 0, 0, 0, false},
		{"fewer than K healthy", 3, 2, 1, 0, 1, true},
		{"threshold below 0", 0, -1, 0, 0, 0, true},
		{"threshold above M", 0, 3, 0, 0, 0, true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := "r" + string(rune('a'+i))
			data := randData(3000 + i)
			m, err := c.Put(ctx, tc.vol, path, p, bytes.NewReader(data), nil)
			if err != nil {
				t.Fatal(err)
			}
			tags, _ := tc.vol.PathTags(path)
			a := c.auth(tc.vol.ID, tags)
			s := m.Segments[0]
			for j := 0; j < tt.drop; j++ {
				if err := c.clients[s.Relays[j]].DropShards(ctx, a, []cbfs.ShardHash{s.Hashes[j]}); err != nil {
					t.Fatal(err)
				}
			}
			rep, err := c.Repair(ctx, tc.vol, path, tt.threshold)
			if (err != nil) != tt.wantErr {
				t.Fatalf("repair: %v, want error %v", err, tt.wantErr)
			}
			if tt.threshold < 0 || tt.threshold > int(p.M) {
				return
			}
			if rep.Segments != 1 || rep.Degraded != tt.degraded || rep.Rebuilt != tt.rebuilt || rep.Lost != tt.lost {
				t.Fatalf("report %+v", rep)
			}
			wantSeq := uint64(0)
			if tt.rebuilt > 0 {
				wantSeq = 1
			}
			if rep.Seq != wantSeq || rep.Root != m.Root() {
				t.Fatalf("report seq %d root %x, want seq %d root %x", rep.Seq, rep.Root, wantSeq, m.Root())
			}
			if tt.lost > 0 {
				return
			}
			after, err := c.Manifest(ctx, tc.vol, path)
			if err != nil || after.Seq != wantSeq {
				t.Fatalf("manifest after repair: %+v %v", after, err)
			}
			healthy := 0
			for j, id := range after.Segments[0].Relays {
				have, err := c.clients[id].Has(ctx, a, []cbfs.ShardHash{after.Segments[0].Hashes[j]})
				if err == nil && have[0] {
					healthy++
				}
			}
			if want := int(p.K+p.M) - tt.drop + tt.rebuilt; healthy != want {
				t.Fatalf("%d healthy shards after repair, want %d", healthy, want)
			}
			var out bytes.Buffer
			if _, err := c.Get(ctx, tc.vol, path, &out, nil); err != nil || !bytes.Equal(out.Bytes(), data) {
				t.Fatalf("get after repair: %v", err)
			}
		})
	}
}

// TestPutManifestRefused: relays that refuse a manifest (they hold a
// newer sequence) are asked once, not again in the second pass (that
// pass is for relays marked down), and a store that reaches fewer than
// M+1 relays fails naming each refusal once; one that reaches M+1 of
// K+M succeeds.
func TestPutManifestRefused(t *testing.T) {
	tests := []struct {
		name    string
		refuse  int // relays holding a newer manifest
		wantErr bool
	}{
		{"one of three refuses", 1, false},
		{"two of three refuse", 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc := newTestCluster(t, 3)
			c := tc.client(t)
			ctx := context.Background()
			m, err := c.Put(ctx, tc.vol, "f", cbfs.Params{K: 2, M: 1, SegmentSize: 4096}, bytes.NewReader(randData(500)), nil)
			if err != nil {
				t.Fatal(err)
			}
			tags, _ := tc.vol.PathTags("f")
			pid := tags[len(tags)-1]
			a := c.auth(tc.vol.ID, tags)
			newer := *m
			newer.Seq = 7
			sealed, err := tc.vol.SealManifest(&newer, pid)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range tc.infos[:tt.refuse] {
				if err := c.clients[r.ID].PutManifest(ctx, a, newer.Seq, sealed); err != nil {
					t.Fatal(err)
				}
			}
			m.Seq = 1
			err = c.putManifest(ctx, tc.vol, tags, m)
			if (err != nil) != tt.wantErr {
				t.Fatalf("putManifest: %v, want error %v", err, tt.wantErr)
			}
			if err == nil {
				return
			}
			// M+1 copies are the least that outlive M failed relays.
			if !strings.Contains(err.Error(), "stored on 1 relays, need 2") {
				t.Fatalf("putManifest: %v, want 1 stored of 2 needed", err)
			}
			for _, r := range tc.infos[:tt.refuse] {
				if n := strings.Count(err.Error(), fmt.Sprintf("0x%x", r.ID[:4])); n != 1 {
					t.Fatalf("relay 0x%x named %d times in %v", r.ID[:4], n, err)
				}
			}
		})
	}
}

// TestManifestAsksDownRelaysLast: with every relay marked down, a lookup
// still asks them (forced) and finds the manifest, and the relays whose
// copies it took are taken off the down list; with some marked down, the
// others answer.
func TestManifestAsksDownRelaysLast(t *testing.T) {
	tc := newTestCluster(t, 3)
	c := tc.client(t)
	ctx := context.Background()
	if _, err := c.Put(ctx, tc.vol, "f", cbfs.Params{K: 2, M: 1, SegmentSize: 4096}, bytes.NewReader(randData(700)), nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		down []int
	}{
		{"none down", nil},
		{"one down", []int{0}},
		{"all down", []int{0, 1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, i := range tt.down {
				c.markDown(tc.infos[i].ID)
			}
			m, err := c.Manifest(ctx, tc.vol, "f")
			if err != nil || m.Path != "f" {
				t.Fatalf("manifest: %+v %v", m, err)
			}
			if len(tt.down) == len(tc.infos) {
				// The first two copies answer the lookup (the third
				// may be cancelled): those two relays are up again.
				cleared := 0
				for _, r := range tc.infos {
					if !c.isDown(r.ID) {
						cleared++
					}
				}
				if cleared < 2 {
					t.Fatalf("%d relays cleared by a forced lookup, want at least 2", cleared)
				}
			}
			for _, r := range tc.infos {
				c.callMaybeDown(r.ID, true, func(*relay.Client) error { return nil })
			}
		})
	}
	if _, err := c.Manifest(ctx, tc.vol, "nothing"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("manifest of a missing path: %v", err)
	}
}

// TestManifestNewestOfFirstTwo: two relays hold copies at sequences 5
// and 7 (in both assignments, so that whichever answers first, one case
// has the older copy first), a third is marked down and a fourth never
// answers. Each lookup returns the newer copy once both answered, and
// cancels the silent relay's request rather than waiting for it.
func TestManifestNewestOfFirstTwo(t *testing.T) {
	tests := []struct {
		name string
		seqs []uint64 // of relays 0 and 1
	}{
		{"older on relay 0", []uint64{5, 7}},
		{"older on relay 1", []uint64{7, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc := newTestCluster(t, 3)
			ctx := context.Background()
			put := tc.client(t)
			m, err := put.Put(ctx, tc.vol, "f", cbfs.Params{K: 2, M: 1, SegmentSize: 4096}, bytes.NewReader(randData(900)), nil)
			if err != nil {
				t.Fatal(err)
			}
			tags, _ := tc.vol.PathTags("f")
			pid := tags[len(tags)-1]
			a := put.auth(tc.vol.ID, tags)
			for i, seq := range tt.seqs {
				cp := *m
				cp.Seq = seq
				sealed, err := tc.vol.SealManifest(&cp, pid)
				if err != nil {
					t.Fatal(err)
				}
				if err := put.clients[tc.infos[i].ID].PutManifest(ctx, a, seq, sealed); err != nil {
					t.Fatal(err)
				}
			}
			silent := silentRelay(t)
			c, err := New(append(slices.Clone(tc.infos), silent), tc.owner, tc.tok)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.markDown(tc.infos[2].ID)
			ended := make(chan error, 1)
			c.manifestDone = func(id cbfs.RelayID, err error) {
				if id == silent.ID {
					ended <- err
				}
			}
			for i := 0; i < 8; i++ {
				got, err := c.Manifest(ctx, tc.vol, "f")
				if err != nil || got.Seq != 7 {
					t.Fatalf("lookup %d: %+v %v, want the copy at sequence 7", i, got, err)
				}
				if err := <-ended; !errors.Is(err, context.Canceled) {
					t.Fatalf("lookup %d: the silent relay's request ended with %v, want context.Canceled", i, err)
				}
			}
		})
	}
}

// TestVolumeOpsOnLiveRelays: on live relays only, a probe (default wait
// and an hour's wait) returns every relay at once and leaves none down;
// a repair pass with threshold 0 leaves a segment with one shard gone
// alone and one with threshold -1 (each file's M) rebuilds it; an audit
// names exactly the dropped shard; a listing keeps the newest of three
// sequences; a delete of a missing path succeeds; a revocation is taken
// by every relay.
func TestVolumeOpsOnLiveRelays(t *testing.T) {
	tc := newTestCluster(t, 4)
	c := tc.client(t)
	ctx := context.Background()
	for _, wait := range []time.Duration{0, time.Hour} {
		c.probeWait = wait
		for _, r := range tc.infos {
			c.markDown(r.ID)
		}
		if up := c.Probe(ctx); len(up) != len(tc.infos) {
			t.Fatalf("probe (wait %v): %d relays up, want %d", wait, len(up), len(tc.infos))
		}
		for _, r := range tc.infos {
			if c.isDown(r.ID) {
				t.Fatalf("probe (wait %v) left relay 0x%x down", wait, r.ID[:4])
			}
		}
	}
	c.probeWait = 0

	m, err := c.Put(ctx, tc.vol, "f", cbfs.Params{K: 2, M: 1, SegmentSize: 4096}, bytes.NewReader(randData(2000)), nil)
	if err != nil {
		t.Fatal(err)
	}
	tags, _ := tc.vol.PathTags("f")
	a := c.auth(tc.vol.ID, tags)
	s := m.Segments[0]
	if err := c.clients[s.Relays[1]].DropShards(ctx, a, []cbfs.ShardHash{s.Hashes[1]}); err != nil {
		t.Fatal(err)
	}
	bad, err := c.Audit(ctx, tc.vol, "f", 9)
	if err != nil || len(bad) != 1 || bad[0].Segment != 0 || bad[0].Shard != 1 {
		t.Fatalf("audit: %+v %v, want shard 1 of segment 0", bad, err)
	}
	if _, err := c.Audit(ctx, tc.vol, "missing", 9); err == nil {
		t.Fatal("audit of a missing file")
	}
	passes := []struct {
		threshold         int
		degraded, rebuilt int
	}{
		{0, 0, 0},  // K of K+M healthy: enough at threshold 0
		{-1, 1, 1}, // each file's M: any loss is repaired
	}
	for _, p := range passes {
		sum, err := c.RepairVolume(ctx, tc.vol, p.threshold)
		if err != nil || sum.Files != 1 || sum.Degraded != p.degraded || sum.Rebuilt != p.rebuilt || sum.Lost != 0 || len(sum.Failed) != 0 {
			t.Fatalf("repair pass, threshold %d: %+v %v", p.threshold, sum, err)
		}
	}

	// A listing takes the newest copy: relays hold sequences 5, 7 and 6.
	cur, err := c.Manifest(ctx, tc.vol, "f")
	if err != nil {
		t.Fatal(err)
	}
	pid := tags[len(tags)-1]
	for i, seq := range []uint64{5, 7, 6} {
		cp := *cur
		cp.Seq = seq
		sealed, err := tc.vol.SealManifest(&cp, pid)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.clients[tc.infos[i].ID].PutManifest(ctx, a, seq, sealed); err != nil {
			t.Fatal(err)
		}
	}
	ents, err := c.ListQuorum(ctx, tc.vol, 0)
	if err != nil || len(ents) != 1 || ents[0].Seq != 7 {
		t.Fatalf("list: %+v %v, want f at sequence 7", ents, err)
	}

	if err := c.Delete(ctx, tc.vol, "never-stored"); err != nil {
		t.Fatalf("delete of a missing path: %v", err)
	}
	var id [32]byte
	id[0] = 1
	rev, err := cbfs.Revoke(tc.owner, "v", id, uint64(time.Now().Add(time.Hour).Unix()))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := c.Revoke(ctx, rev); err != nil || n != len(tc.infos) {
		t.Fatalf("revoke: %d relays took it (%v), want %d", n, err, len(tc.infos))
	}
}

// TestUpdateSegmentCount grows and shrinks a file by Update with no
// segment reported changed: the segment count is ceil(size/SegSize) at
// and around segment boundaries, new segments are placed although the
// caller did not name them, and the file reads back.
func TestUpdateSegmentCount(t *testing.T) {
	tc := newTestCluster(t, 3)
	c := tc.client(t)
	ctx := context.Background()
	const seg = 4096
	// Every version is a prefix of base, so a segment of unchanged
	// length has unchanged contents, as Update's caller promises.
	base := randData(4 * seg)
	old, err := c.Put(ctx, tc.vol, "u", cbfs.Params{K: 2, M: 1, SegmentSize: seg}, bytes.NewReader(base[:100]), nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ size, segs int }{
		{seg - 2, 1}, {seg - 1, 1}, {seg, 1}, {seg + 1, 2}, {2*seg - 2, 2}, {2*seg - 1, 2}, {3 * seg, 3},
		{2 * seg, 2}, // the last segment cut, none rewritten: a new root all the same
		{1, 1},
	}
	for _, tt := range tests {
		data := base[:tt.size]
		m, err := c.Update(ctx, tc.vol, old, bytes.NewReader(data), uint64(len(data)), func(int) bool { return false }, Attrs{})
		if err != nil {
			t.Fatalf("size %d: %v", tt.size, err)
		}
		if len(m.Segments) != tt.segs {
			t.Fatalf("size %d: %d segments, want %d", tt.size, len(m.Segments), tt.segs)
		}
		var out bytes.Buffer
		if _, err := c.Get(ctx, tc.vol, "u", &out, nil); err != nil || !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("size %d: read back: %v", tt.size, err)
		}
		if bad, err := c.Audit(ctx, tc.vol, "u", 5); err != nil || len(bad) != 0 {
			t.Fatalf("size %d: audit against the new root: %v %v", tt.size, bad, err)
		}
		old = m
	}
}

// TestPutManifestLeavesDownRelaysLast: a relay marked down is asked only
// in putManifest's second pass, when the relays up cannot take every
// copy. With enough relays up the new manifest goes to the first K+M of
// its ranking that are up, and the down relay (up in fact, so a call
// would succeed) keeps the copy it had.
func TestPutManifestLeavesDownRelaysLast(t *testing.T) {
	tc := newTestCluster(t, 5)
	c := tc.client(t)
	ctx := context.Background()
	m, err := c.Put(ctx, tc.vol, "f", cbfs.Params{K: 2, M: 1, SegmentSize: 4096}, bytes.NewReader(randData(2000)), nil)
	if err != nil {
		t.Fatal(err)
	}
	tags, _ := tc.vol.PathTags("f")
	rank := Rank(manifestSeed(tc.vol.ID, tags[len(tags)-1]), tc.infos)
	old := m.Seq
	m.Seq++
	c.markDown(rank[0].ID)
	if err := c.putManifest(ctx, tc.vol, tags, m); err != nil {
		t.Fatal(err)
	}
	a := c.auth(tc.vol.ID, tags)
	for i, r := range rank {
		seq, _, err := c.clients[r.ID].GetManifest(ctx, a)
		switch {
		case i == 0 && (err != nil || seq != old):
			t.Fatalf("relay ranked first, marked down: sequence %d (%v), want the old %d", seq, err, old)
		case i >= 1 && i <= 3 && (err != nil || seq != m.Seq):
			t.Fatalf("relay ranked %d: sequence %d (%v), want the new %d", i, seq, err, m.Seq)
		case i == 4 && err == nil && seq == m.Seq:
			t.Fatalf("relay ranked last holds the new manifest: more than K+M copies")
		}
	}
}
