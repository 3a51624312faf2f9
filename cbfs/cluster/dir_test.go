package cluster

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/cbfs"
)

// TestPutDir stores a directory's attributes as a manifest with no
// contents: a listing shows it as a directory with its mode, owner and
// times, a get refuses it, a rename moves it, a file put over it replaces
// it, and a delete removes it.
func TestPutDir(t *testing.T) {
	tc := newTestCluster(t, 4)
	c := tc.client(t)
	ctx := context.Background()
	p := cbfs.Params{K: 2, M: 1, SegmentSize: 4096}
	at := Attrs{Mode: 0o750, ModTime: 1e18, ATime: 2e18, Owner: &cbfs.Owner{UID: 0, GID: 7}}
	if _, err := c.PutDir(ctx, tc.vol, "d/e", p, at); err != nil {
		t.Fatal(err)
	}
	list := func() map[string]Entry {
		t.Helper()
		ents, err := c.List(ctx, tc.vol)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]Entry{}
		for _, e := range ents {
			out[e.Path] = e
		}
		return out
	}
	e, ok := list()["d/e"]
	if !ok || !e.Dir || e.Size != 0 || e.Attrs.Mode != at.Mode || e.Attrs.ModTime != at.ModTime || e.Attrs.ATime != at.ATime || e.Attrs.Owner == nil || *e.Attrs.Owner != *at.Owner {
		t.Fatalf("listed %+v, want directory d/e with %+v", e, at)
	}
	if _, err := c.Get(ctx, tc.vol, "d/e", &bytes.Buffer{}, nil); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("get of a directory: %v", err)
	}
	if _, err := c.Rename(ctx, tc.vol, "d/e", "f"); err != nil {
		t.Fatal(err)
	}
	if ents := list(); !ents["f"].Dir || ents["f"].Attrs.Mode != at.Mode {
		t.Fatalf("after rename: %+v", ents)
	} else if _, still := ents["d/e"]; still {
		t.Fatal("d/e still listed after its rename")
	}
	if _, err := c.Put(ctx, tc.vol, "f", p, bytes.NewReader([]byte("file")), nil); err != nil {
		t.Fatal(err)
	}
	if e := list()["f"]; e.Dir || e.Size != 4 {
		t.Fatalf("a file put over a directory manifest: %+v", e)
	}
	if _, err := c.PutDir(ctx, tc.vol, "g", p, Attrs{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, tc.vol, "g"); err != nil {
		t.Fatal(err)
	}
	if _, still := list()["g"]; still {
		t.Fatal("g listed after its delete")
	}
	bad := &cbfs.Manifest{Version: cbfs.ManifestVersion, K: 2, M: 1, SegSize: 4096, Dir: true, Size: 1}
	if err := bad.Validate(); err == nil {
		t.Fatal("a directory manifest with contents validated")
	}
}
