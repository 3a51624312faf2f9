package cluster

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
