package pvm

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// TestBlobPrograms runs the actors in testdata/blobs, calling main, and
// compares what they print with the .out beside each.
func TestBlobPrograms(t *testing.T) {
	files, err := filepath.Glob("testdata/blobs/*.py")
	if err != nil || len(files) == 0 {
		t.Fatalf("no blob programs: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(file + ".out")
			if err != nil {
				t.Fatal(err)
			}
			p, err := CheckActor(src)
			if err != nil {
				t.Fatal(err)
			}
			h := newMemHost()
			var out bytes.Buffer
			if _, _, err := p.Run(Config{CyclesLimit: 10_000_000, CellsLimit: 1_000_000, Host: h, Stdout: &out}, Call{Method: "main"}); err != nil {
				t.Fatalf("main: %v\n%s", err, out.String())
			}
			if out.String() != string(want) {
				t.Errorf("output differs\n--- got\n%s--- want\n%s", out.String(), want)
			}
			// What is left in NSBlob is exactly the 64 KiB blob.
			var kept []string
			for k := range h.store {
				if k[0] == NSBlob {
					kept = append(kept, k[1:])
				}
			}
			if len(kept) != 1 || kept[0] != string(BlobHash(bytes.Repeat([]byte("x"), 65536))) {
				t.Errorf("NSBlob holds %d entries, want only the 64 KiB blob", len(kept))
			}
		})
	}
}

// TestBlobHostCosts pins the blob calls' costs: blob_hash is §17.3 hash
// (100 + 1 per byte); put_blob adds 40 cycles per KiB or part of one
// (blob commit, CIP-3 §2.2.1) and a storage write (200 cycles, a cell per
// byte of the 34-byte key and the value); get_blob is a storage read (10
// cycles, a cell per 100 bytes read). Each is measured against
// get_block_info (100 cycles) made the same way, with the same slack for
// the VM's own argument work as the timer cost test.
func TestBlobHostCosts(t *testing.T) {
	cost := func(h *memHost, body string) Result {
		src := "import pvm_host\nclass Actor:\n    def m(self):\n        d = b'x' * 3000\n        k = b'x' * 1024\n        " + body + "\n"
		_, res, err := callActor(t, h, src, "m")
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		return res
	}
	base := cost(newMemHost(), `pvm_host.get_block_info()`)
	stored := newMemHost()
	cost(stored, `pvm_host.put_blob(d)`)
	const slack = 40
	for _, c := range []struct {
		h     *memHost
		call  string
		host  uint64
		cells uint64
	}{
		{newMemHost(), `pvm_host.blob_hash(d)`, meter.HostHash + 3000, 0},
		{newMemHost(), `pvm_host.put_blob(d)`, meter.HostHash + 3000 + 3*meter.CostBlobPerKiB + meter.HostStorageWrite, 34 + 3000},
		{newMemHost(), `pvm_host.put_blob(k)`, meter.HostHash + 1024 + 1*meter.CostBlobPerKiB + meter.HostStorageWrite, 34 + 1024},
		{stored, `pvm_host.get_blob(pvm_host.blob_hash(d))`, meter.HostHash + 3000 + meter.HostStorageRead, meter.CeilDiv(34+3000, 100)},
		{newMemHost(), `pvm_host.get_blob(b'\x1e\x20' + bytes(32))`, meter.HostStorageRead, 1},
		{stored, `pvm_host.delete_blob(pvm_host.blob_hash(d))`, meter.HostHash + 3000 + meter.HostStorageWrite, 34},
	} {
		r := cost(c.h, c.call)
		d := r.CyclesUsed - base.CyclesUsed
		if want := c.host - meter.HostBlockInfo; d < want || d > want+slack {
			t.Errorf("%s costs %d cycles more than get_block_info; want %d (+ at most %d of argument work)", c.call, d, want, slack)
		}
		if d := r.CellsUsed - base.CellsUsed; d != c.cells {
			t.Errorf("%s: %d cells, want %d", c.call, d, c.cells)
		}
	}
	// A refused put charges no storage and stores nothing.
	h := newMemHost()
	_, _, err := callActor(t, h, "import pvm_host\nclass Actor:\n    def m(self):\n        pvm_host.put_blob(bytes(65537))\n", "m")
	if err == nil || !strings.Contains(err.Error(), "ValueError") || len(h.store) != 0 {
		t.Fatalf("oversized put: %v, %d entries", err, len(h.store))
	}
}
