package store

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"strings"
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

// crashRetain is the window of TestKill9Store: small enough that undo
// logs are pruned many times over the run.
const crashRetain = 32

// TestCrashChild commits crash batches forever; TestKill9Store kills it.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv("COWBOY_STORE_CRASH_DIR")
	if dir == "" {
		t.Skip("helper process for TestKill9Store")
	}
	s, err := Open(dir, Options{Retain: crashRetain})
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
		// Progress for the parent, which kills relative to it.
		fmt.Printf("%s%d\n", crashCommitted, next)
	}
}

// TestKill9Store kills a committing process with SIGKILL at random moments
// and checks that every reopen lands exactly on a committed height: roots,
// state and raw data all of that block, never a mix of two. The older
// heights of the retention window, rebuilt from the undo logs, prove
// against the roots the model computes for them.
func TestKill9Store(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(42))
	ma := newArena() // the model's trees; nothing is freed
	var model [numDBs]ref
	var modelAt [][numDBs]ref // model trees after each height, sharing nodes
	modelHeight := int64(-1)
	last := int64(-1)
	for round := 0; round < 20; round++ {
		// The kill lands relative to the child's progress, not to the
		// wall clock (a loaded machine can take longer than any fixed
		// window just to start the child): once it reports 1–8 commits past
		// what the last round reopened at, a random 0–3 ms later, so most
		// kills hit the middle of a commit.
		kill := uint64(last+1) + uint64(rng.Intn(8))
		delay := time.Duration(rng.Intn(3000)) * time.Microsecond
		if err := runChildUntil(dir, kill, delay); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}

		s, err := Open(dir, Options{NoSync: true, Retain: crashRetain})
		if err != nil {
			t.Fatalf("round %d: reopen after kill: %v", round, err)
		}
		h, roots, ok := s.LastCommitted()
		if !ok {
			t.Fatalf("round %d: nothing committed after the child reported height %d", round, kill)
		}
		if int64(h) < int64(kill) {
			t.Fatalf("round %d: reopened at height %d, below %d, which the child reported committed", round, h, kill)
		}
		last = int64(h)
		for ; modelHeight < int64(h); modelHeight++ {
			b := crashBatch(uint64(modelHeight + 1))
			model[StateDB] = ma.apply(model[StateDB], updatesOf(dedupe(b.State), nil)).root
			model[TxReceiptsDB] = ma.apply(model[TxReceiptsDB], updatesOf(dedupe(b.TxReceipts), nil)).root
			modelAt = append(modelAt, model)
		}
		if roots.State != ma.hash(model[StateDB]) || roots.TxReceipts != ma.hash(model[TxReceiptsDB]) {
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
		checkCrashWindow(t, s, round, h, ma, modelAt, rng)
		s.Close()
	}
	if last < 1 {
		t.Fatalf("the child never committed more than %d blocks", last)
	}
	t.Logf("20 kills, reopened at heights up to %d", last)
}

// crashCommitted prefixes the child's progress lines.
const crashCommitted = "committed "

// runChildUntil starts TestCrashChild on dir, waits until it reports
// height target committed, waits delay more, and kills it with SIGKILL.
// The child's output is drained to the end so it never blocks on a full
// pipe, which would put every kill at a write instead of inside a commit.
func runChildUntil(dir string, target uint64, delay time.Duration) error {
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), "COWBOY_STORE_CRASH_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	reached := make(chan struct{})
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		sc := bufio.NewScanner(out)
		for done := false; sc.Scan(); {
			line := sc.Text()
			if done || !strings.HasPrefix(line, crashCommitted) {
				continue
			}
			if h, err := strconv.ParseUint(strings.TrimPrefix(line, crashCommitted), 10, 64); err == nil && h >= target {
				close(reached)
				done = true
			}
		}
	}()
	select {
	case <-reached:
	case <-drained: // the child exited by itself: a failure, reported below
	}
	time.Sleep(delay)
	cmd.Process.Signal(syscall.SIGKILL)
	<-drained
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		return fmt.Errorf("child did not run until killed (%v): %s", err, stderr.String())
	}
	return nil
}

// checkCrashWindow checks, after a reopen at height h, the retention
// window the undo logs rebuilt: the oldest retained height, the one before
// the newest and a random one each prove the keys their block wrote, a
// never-written key and a receipt against the model's roots for that
// height, and the height below the window is refused.
func checkCrashWindow(t *testing.T, s *Store, round int, h uint64, ma *arena, modelAt [][numDBs]ref, rng *rand.Rand) {
	t.Helper()
	oldest := uint64(0)
	if h >= crashRetain {
		oldest = h - crashRetain + 1
	}
	if oldest > 0 {
		if _, err := s.Prove(StateDB, k(0), oldest-1); !errors.Is(err, ErrNotRetained) {
			t.Fatalf("round %d: height %d below the window [%d, %d]: %v", round, oldest-1, oldest, h, err)
		}
	}
	heights := []uint64{oldest, oldest + uint64(rng.Int63n(int64(h-oldest+1)))}
	if h > 0 {
		heights = append(heights, h-1)
	}
	for _, hh := range heights {
		m := modelAt[hh]
		for db := DB(0); db < numDBs; db++ {
			if r, err := s.Root(db, hh); err != nil || r != ma.hash(m[db]) {
				t.Fatalf("round %d: %s root at height %d (newest %d): %x %v, model %x", round, db, hh, h, r, err, ma.hash(m[db]))
			}
		}
		keys := []struct {
			db  DB
			key Key
		}{{StateDB, k(99999)}, {TxReceiptsDB, crashBatch(hh).TxReceipts[0].Key}}
		for i, w := range dedupe(crashBatch(hh).State) {
			if i == 5 {
				break
			}
			keys = append(keys, struct {
				db  DB
				key Key
			}{StateDB, w.Key})
		}
		for _, c := range keys {
			want := ma.lookup(m[c.db], verifier.Path(c.key[:]))
			p, got, err := s.ProveValue(c.db, c.key, hh)
			if err != nil {
				t.Fatalf("round %d: prove at height %d (newest %d): %v", round, hh, h, err)
			}
			if want.present != (got != nil) || string(got) != string(want.value) {
				t.Fatalf("round %d: value at height %d is %q, model %q", round, hh, got, want.value)
			}
			if err := verifier.Verify(ma.hash(m[c.db]), c.key[:], want.value, p); err != nil {
				t.Fatalf("round %d: proof at height %d (newest %d): %v", round, hh, h, err)
			}
		}
	}
}

// lookup returns the value at path in the tree, if a leaf holds it: the
// model's answer for a height.
func (a *arena) lookup(n ref, path [32]byte) prior {
	for depth := 0; n != 0 && !n.isLeaf(); depth++ {
		if verifier.Bit(path, depth) == 0 {
			n = a.inode(n).left
		} else {
			n = a.inode(n).right
		}
	}
	if n != 0 && a.leaf(n).path == path {
		return prior{value: a.value(n), present: true}
	}
	return prior{}
}
