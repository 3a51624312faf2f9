package store

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/store/verifier"
)

// crashBatch is block h's writes, a pure function of h, so the parent can
// recompute what any committed height must look like.
func crashBatch(h uint64) *Batch {
	rng := rand.New(rand.NewSource(int64(h)))
	b := &Batch{}
	for i := 0; i < 300; i++ {
		w := Write{Key: k(rng.Intn(5000))}
		if rng.Intn(5) > 0 {
			w.Value = []byte(fmt.Sprintf("h%d-i%d", h, i))
		}
		b.State = append(b.State, w)
	}
	b.TxReceipts = []Write{{Key: MakeKey(KindReceipt, [20]byte{}, 0, [32]byte{byte(h), byte(h >> 8)}), Value: []byte{byte(h)}}}
	b.Raw = []RawWrite{{Key: []byte("height"), Value: binary.BigEndian.AppendUint64(nil, h)}}
	return b
}

// TestCrashChild commits crash batches forever; TestKill9Store kills it.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv("COWBOY_STORE_CRASH_DIR")
	if dir == "" {
		t.Skip("helper process for TestKill9Store")
	}
	s, err := Open(dir, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	next := uint64(0)
	if h, _, ok := s.LastCommitted(); ok {
		next = h + 1
	}
	for ; ; next++ {
		if _, err := s.Commit(next, crashBatch(next)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
	}
}

// TestKill9Store kills a committing process with SIGKILL at random moments
// and checks that every reopen lands exactly on a committed height: roots,
// state and raw data all of that block, never a mix of two.
func TestKill9Store(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(42))
	var model [numDBs]*node
	modelHeight := int64(-1)
	last := int64(-1)
	for round := 0; round < 20; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
		cmd.Env = append(os.Environ(), "COWBOY_STORE_CRASH_DIR="+dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(20+rng.Intn(150)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()

		s, err := Open(dir, Options{NoSync: true})
		if err != nil {
			t.Fatalf("round %d: reopen after kill: %v", round, err)
		}
		h, roots, ok := s.LastCommitted()
		if !ok {
			s.Close()
			continue
		}
		if int64(h) < last {
			t.Fatalf("round %d: height went back from %d to %d", round, last, h)
		}
		last = int64(h)
		for ; modelHeight < int64(h); modelHeight++ {
			b := crashBatch(uint64(modelHeight + 1))
			model[StateDB] = apply(model[StateDB], 0, updatesOf(dedupe(b.State), nil, nil))
			model[TxReceiptsDB] = apply(model[TxReceiptsDB], 0, updatesOf(dedupe(b.TxReceipts), nil, nil))
		}
		if roots.State != hashOf(model[StateDB]) || roots.TxReceipts != hashOf(model[TxReceiptsDB]) {
			t.Fatalf("round %d: roots at height %d differ from the model", round, h)
		}
		raw, err := s.GetRaw([]byte("height"))
		if err != nil || binary.BigEndian.Uint64(raw) != h {
			t.Fatalf("round %d: raw data is not from height %d: %x %v", round, h, raw, err)
		}
		// A value written by exactly this block is there, with a proof.
		b := crashBatch(h)
		w := dedupe(b.State)[0]
		got, err := s.Get(StateDB, w.Key)
		if w.Value == nil {
			if err == nil {
				t.Fatalf("round %d: deleted key present", round)
			}
		} else if string(got) != string(w.Value) {
			t.Fatalf("round %d: key holds %q, block %d wrote %q", round, got, h, w.Value)
		}
		p, _ := s.Prove(StateDB, w.Key, h)
		if err := verifier.Verify(roots.State, w.Key[:], w.Value, p); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		s.Close()
	}
	if last < 1 {
		t.Fatalf("the child never committed more than %d blocks", last)
	}
	t.Logf("20 kills, reopened at heights up to %d", last)
}
