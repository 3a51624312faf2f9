package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/rpc"
)

// TestBecomeValidatorProcesses runs docs/localnet.md "Becoming a
// validator" with the real binaries: "cowboyd localnet 2" with 10-block
// epochs; a third home made by "cowboyd init --genesis" and run by
// "cowboyd start" as a full node; "cowboy transfer" funds it and "cowboy
// validator register --home" stakes; from the next boundary its
// cowboy_consensusStatus says validator and "cowboy validator list" says
// active; after "cowboy validator exit" it is a full node again from the
// boundary after that. All three agree on every block, and R_n is the
// threshold beacon's at every height (the DKG runs on chain every epoch,
// with and without the joiner), verified by "cowboy beacon verify".
func TestBecomeValidatorProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cowboyd and cowboy and runs three processes")
	}
	dir := t.TempDir()
	cowboyd := filepath.Join(dir, "cowboyd")
	cowboy := filepath.Join(dir, "cowboy")
	for bin, pkg := range map[string]string{cowboyd: ".", cowboy: "../cowboy"} {
		if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	base := freePortBase(t)
	netDir := filepath.Join(dir, "net")
	lnet := exec.Command(cowboyd, "localnet", "2", "--home", netDir, "--base-port", strconv.Itoa(base),
		"--block-time", "200ms", "--epoch-length", "10")
	if err := lnet.Start(); err != nil {
		t.Fatal(err)
	}
	joinHome := filepath.Join(dir, "v2")
	var join *exec.Cmd
	defer func() {
		for _, c := range []*exec.Cmd{join, lnet} {
			if c != nil && c.Process != nil {
				c.Process.Signal(syscall.SIGTERM)
				c.Wait()
			}
		}
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(joinHome, logFile))
			if len(b) > 4000 {
				b = b[len(b)-4000:]
			}
			t.Logf("joiner log tail:\n%s", b)
		}
	}()
	url := func(port int) string { return fmt.Sprintf("http://127.0.0.1:%d", port) }
	node0, joinRPC := url(base), url(base+10)
	c0 := rpc.NewClient(node0, nil)
	run := func(name string, args ...string) string {
		t.Helper()
		out, err := exec.Command(name, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	waitFor := func(what string, d time.Duration, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(d); !cond(); time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within %s", what, d)
			}
		}
	}
	height := func(c *rpc.Client) uint64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		h, _ := c.BlockNumber(ctx)
		return h
	}
	waitFor("the localnet makes blocks", 60*time.Second, func() bool { return height(c0) >= 2 })

	out := run(cowboyd, "init", "--home", joinHome, "--genesis", filepath.Join(nodeHome(netDir, 0), genesisFile),
		"--p2p", fmt.Sprintf("127.0.0.1:%d", base+110), "--rpc", fmt.Sprintf("127.0.0.1:%d", base+10))
	addr := regexp.MustCompile(`node\s+(0x[0-9a-fA-F]{40})`).FindStringSubmatch(out)
	if addr == nil {
		t.Fatalf("init printed no node address:\n%s", out)
	}
	join = exec.Command(cowboyd, "start", "--home", joinHome, "--bootstrap", fmt.Sprintf("127.0.0.1:%d", base+100))
	logf, err := os.Create(filepath.Join(joinHome, logFile))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	join.Stdout, join.Stderr = logf, logf
	if err := join.Start(); err != nil {
		t.Fatal(err)
	}
	cj := rpc.NewClient(joinRPC, nil)
	mode := func() string {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		var st rpc.ConsensusStatusJSON
		if err := cj.Call(ctx, &st, "cowboy_consensusStatus"); err != nil {
			return ""
		}
		return st.Mode
	}
	waitFor("the new node follows as a full node", 60*time.Second, func() bool { return mode() == "full" && height(cj) >= height(c0) })

	run(cowboy, "--rpc", node0, "transfer", "--from", "dev0", "--to", addr[1], "--value", "5000cby")
	run(cowboy, "--rpc", joinRPC, "validator", "register", "--home", joinHome, "--stake", "2000cby")
	// status is the new validator's line in the registry part of "cowboy
	// validator list", asked of the node that returned the receipts.
	status := func() string {
		out := run(cowboy, "--rpc", joinRPC, "validator", "list")
		_, registry, _ := strings.Cut(out, "Registry:")
		for _, line := range strings.Split(registry, "\n") {
			if strings.Contains(strings.ToLower(line), strings.ToLower(addr[1])) {
				return line
			}
		}
		return ""
	}
	if s := status(); !strings.Contains(s, "pending") && !strings.Contains(s, "active") {
		t.Fatalf("after register, validator list shows %q", s)
	}
	waitFor("the new node validates from the next boundary", 60*time.Second, func() bool { return mode() == "validator" })
	if s := status(); !strings.Contains(s, "active") {
		t.Fatalf("validating, but validator list shows %q", s)
	}

	run(cowboy, "--rpc", joinRPC, "validator", "exit", "--home", joinHome)
	waitFor("the node is a full node again after its exit", 60*time.Second, func() bool { return mode() == "full" })
	if s := status(); !strings.Contains(s, "exiting") {
		t.Fatalf("after exit, validator list shows %q", s)
	}

	// All three agree on every block and every R_n. R_n is the threshold
	// beacon's at every height, across the epochs with and without the
	// joiner: each epoch's key comes from the DKG its validators ran on
	// chain in the epoch before; "cowboy beacon verify" checks every
	// height; the set changed twice, and no epoch fell back to the VRF.
	c1 := rpc.NewClient(url(base+1), nil)
	top := min(height(c0), height(c1), height(cj))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dkgEpochs := map[uint64]bool{}
	for h := uint64(0); h <= top; h++ {
		var want rpc.Hash
		var wantR rpc.Hash
		for i, c := range []*rpc.Client{c0, c1, cj} {
			b, err := c.BlockByNumber(ctx, rpc.BlockAt(h), false)
			if err != nil {
				t.Fatalf("block %d: %v", h, err)
			}
			var r *rpc.RandomnessJSON
			if h > 0 {
				if r, err = c.Randomness(ctx, h); err != nil {
					t.Fatalf("node %d randomness %d: %v", i, h, err)
				}
				if r.Source != rpc.RandomnessBeacon {
					t.Fatalf("node %d height %d: randomness source %q (%s)", i, h, r.Source, r.Note)
				}
				if r.KeySource == "dkg" {
					dkgEpochs[uint64(*r.Epoch)] = true
				}
			}
			if i == 0 {
				want = b.Hash
				if r != nil {
					wantR = r.Randomness
				}
			} else if b.Hash != want || r != nil && r.Randomness != wantR {
				t.Fatalf("height %d: node 0 has %s, node %d %s (or another R_n)", h, want, i, b.Hash)
			}
		}
		if h > 0 {
			// No --trust-node-key: the key is proven from genesis.json
			// through every epoch's certificates and anchored registry
			// records (docs/decisions.md "Epoch anchors").
			out := run(cowboy, "--rpc", node0, "beacon", "verify", strconv.FormatUint(h, 10), "--genesis", filepath.Join(nodeHome(netDir, 0), genesisFile))
			if !strings.Contains(out, "verified") || !strings.Contains(out, "proven through") {
				t.Fatalf("cowboy beacon verify %d: %s", h, out)
			}
		}
	}
	if len(dkgEpochs) < 3 {
		t.Fatalf("only epochs %v had a DKG key up to height %d", dkgEpochs, top)
	}
}
