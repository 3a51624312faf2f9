package node

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
)

// openAt opens a devnet on home whose wall clock reads *now.
func openAt(t *testing.T, home string, now *int64) *Node {
	t.Helper()
	n, err := Open(Config{Home: home, Genesis: genesis.Devnet(), Logger: quietLog(),
		Now: func() time.Time { return time.Unix(*now, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestDevClockPersists: the clock offset of dev_increaseTime and
// dev_setTime survives a restart, and dev_revert takes it back to the one
// of the block reverted to (before, a restart went back to the wall
// clock: later blocks all had the time of the last one until the wall
// clock caught up).
func TestDevClockPersists(t *testing.T) {
	home := t.TempDir()
	now := int64(genesis.DevnetGenesisTime + 100)
	n := openAt(t, home, &now)
	defer func() { n.Close() }()
	step := func(what string, f func() (uint64, error), want int64) {
		t.Helper()
		got, err := f()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if int64(got) != want {
			t.Fatalf("%s: block time %d, want %d (wall clock %d)", what, got, want, now)
		}
	}
	mine := func() (uint64, error) {
		hs, err := n.DevMine(1)
		if err != nil {
			return 0, err
		}
		return hs[0].Time, nil
	}
	reopen := func() {
		n.Close()
		n = openAt(t, home, &now)
	}
	step("increase 1000", func() (uint64, error) { h, err := n.DevIncreaseTime(1000); return h.Time, err }, now+1000)
	snap := n.Head()
	now += 3
	reopen()
	step("mine after a restart", mine, now+1000)
	step("set time", func() (uint64, error) { h, err := n.DevSetTime(uint64(now + 50_000)); return h.Time, err }, now+50_000)
	now += 7
	reopen()
	step("mine after a restart", mine, now+50_000)
	if _, err := n.DevRevert(snap.Height, nil); err != nil {
		t.Fatal(err)
	}
	now += 100_000 // past the reverted blocks' times: the offset of the snapshot applies again
	step("mine after the revert", mine, now+1000)
	reopen()
	now++
	step("mine after the revert and a restart", mine, now+1000)
}

// TestDevClockKill9: a devnet process killed with SIGKILL after
// dev_setTime continues from that time when it starts again: a
// dev_increaseTime of 10 s after the restart makes a block at least 10 s
// after the set time (with the offset lost it would be the set time, the
// parent's, because block time never goes backwards).
func TestDevClockKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	home := t.TempDir()
	start := func() (*exec.Cmd, string) {
		os.Remove(filepath.Join(home, "rpc.addr"))
		cmd := exec.Command(os.Args[0], "-test.run=^TestKill9Child$")
		cmd.Env = append(os.Environ(), "COWBOY_KILL_HOME="+home)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, waitAddr(t, home, cmd, &stderr)
	}
	cmd, url := start()
	set := time.Now().Unix() + 1_000_000
	var blk map[string]any
	call(t, url, "dev_setTime", []any{fmt.Sprintf("%#x", set)}, &blk)
	if got := parseQ(t, blk["time"].(string)); got != uint64(set) {
		t.Fatalf("dev_setTime: block time %d, want %d", got, set)
	}
	setAt := time.Now().Unix()
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	cmd, url = start()
	defer func() { cmd.Process.Signal(syscall.SIGKILL); cmd.Wait() }()
	call(t, url, "dev_increaseTime", []any{"0xa"}, &blk)
	got := int64(parseQ(t, blk["time"].(string)))
	elapsed := time.Now().Unix() - setAt
	if got < set+10 || got > set+10+elapsed+1 {
		t.Fatalf("after the restart: block time %d, want %d + 10 + the %d s that passed", got, set, elapsed)
	}
}
