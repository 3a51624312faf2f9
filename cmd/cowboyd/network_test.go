package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/rpc"
)

func run(args ...string) (string, error) {
	var out, errb bytes.Buffer
	root := newRoot(&out, &errb)
	root.SetArgs(args)
	err := root.Execute()
	return out.String() + errb.String(), err
}

func TestInitWritesAValidatorHome(t *testing.T) {
	home := filepath.Join(t.TempDir(), "val")
	out, err := run("init", "--home", home, "--chain-id", "4242")
	if err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	for _, f := range []string{"node.key", "bls.key", genesisFile, configFile} {
		if _, err := os.Stat(filepath.Join(home, f)); err != nil {
			t.Fatalf("init did not write %s: %v", f, err)
		}
	}
	if st, _ := os.Stat(filepath.Join(home, "bls.key")); st.Mode().Perm() != 0o600 {
		t.Fatalf("bls.key mode %v", st.Mode().Perm())
	}
	g, err := genesis.Load(filepath.Join(home, genesisFile))
	if err != nil {
		t.Fatal(err)
	}
	if g.ChainID != 4242 || len(g.Validators) != 1 || !strings.Contains(out, g.Hash().String()) {
		t.Fatalf("genesis %+v, output %q", g, out)
	}
	if _, err := run("init", "--home", home); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("second init: %v", err)
	}
}

func TestNetworkFlagsAndErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"init help names the files", []string{"init", "--help"}, "bls.key"},
		{"start help explains the roles", []string{"start", "--help"}, "full node"},
		{"localnet help documents the ports", []string{"localnet", "--help"}, "P+100+i"},
		{"init needs a home", []string{"init"}, "--home is required"},
		{"start needs a home", []string{"start"}, "--home is required"},
		{"start needs a genesis", []string{"start", "--home", t.TempDir()}, "cowboyd init first"},
		{"localnet needs N", []string{"localnet", "--home", t.TempDir()}, "accepts 1 arg"},
		{"localnet N is a number", []string{"localnet", "x", "--home", t.TempDir()}, "N must be a number"},
		{"localnet ports fit", []string{"localnet", "4", "--home", t.TempDir(), "--base-port", "65500"}, "leaves no room"},
	} {
		out, err := run(tt.args...)
		if err != nil {
			out += err.Error()
		}
		if !strings.Contains(out, tt.want) {
			t.Errorf("%s: output %q does not mention %q", tt.name, out, tt.want)
		}
	}
}

func TestLocalnetHomes(t *testing.T) {
	dir := t.TempDir()
	if err := writeLocalnet(dir, 3, 20000, 99, 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	var hash string
	for i := 0; i < 3; i++ {
		g, err := genesis.Load(filepath.Join(nodeHome(dir, i), genesisFile))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			hash = g.Hash().String()
		} else if g.Hash().String() != hash {
			t.Fatal("homes have different genesis files")
		}
		hc, err := readHomeConfig(nodeHome(dir, i))
		if err != nil || hc.RPC != fmt.Sprintf("127.0.0.1:%d", 20000+i) || hc.P2P != fmt.Sprintf("127.0.0.1:%d", 20100+i) {
			t.Fatalf("node %d config %+v %v", i, hc, err)
		}
		if g.Validators[i].P2PAddr != hc.P2P {
			t.Fatalf("node %d: genesis p2p %s, config %s", i, g.Validators[i].P2PAddr, hc.P2P)
		}
	}
	// Run again on the same directory: kept as is; another N is refused.
	if err := writeLocalnet(dir, 3, 20000, 99, time.Second); err != nil {
		t.Fatal(err)
	}
	if err := writeLocalnet(dir, 4, 20000, 99, time.Second); err == nil {
		t.Fatal("a localnet of 3 was reopened as 4")
	}
}

func freePortBase(t *testing.T) int {
	for p := 21000 + os.Getpid()%2000*10; ; p += 7 {
		ok := true
		for i := 0; i < 4 && ok; i++ {
			if l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p+i)); err == nil {
				l.Close()
			} else {
				ok = false
			}
			if c, err := net.ListenPacket("udp", fmt.Sprintf("127.0.0.1:%d", p+100+i)); err == nil {
				c.Close()
			} else {
				ok = false
			}
		}
		if ok {
			return p
		}
	}
}

// TestLocalnetProcesses builds cowboyd and runs "cowboyd localnet 4" as real
// processes: blocks finalize, one validator is killed with SIGKILL and the
// rest keep finalizing, it is restarted with "cowboyd start" and catches
// up, and all four agree on every block hash.
func TestLocalnetProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cowboyd and runs four processes")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "cowboyd")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	base := freePortBase(t)
	lnet := exec.Command(bin, "localnet", "4", "--home", filepath.Join(dir, "net"), "--base-port", strconv.Itoa(base), "--block-time", "200ms")
	var lout bytes.Buffer
	lnet.Stdout, lnet.Stderr = &lout, &lout
	if err := lnet.Start(); err != nil {
		t.Fatal(err)
	}
	var restarted *exec.Cmd
	defer func() {
		lnet.Process.Signal(syscall.SIGTERM)
		lnet.Wait()
		if restarted != nil {
			restarted.Process.Signal(syscall.SIGTERM)
			restarted.Wait()
		}
		if t.Failed() {
			t.Logf("localnet output:\n%s", lout.String())
		}
	}()
	clients := make([]*rpc.Client, 4)
	for i := range clients {
		clients[i] = rpc.NewClient(fmt.Sprintf("http://127.0.0.1:%d", base+i), nil)
	}
	height := func(i int) uint64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		h, err := clients[i].BlockNumber(ctx)
		if err != nil {
			return 0
		}
		return h
	}
	waitAll := func(nodes []int, min uint64, d time.Duration) {
		t.Helper()
		deadline := time.Now().Add(d)
		for _, i := range nodes {
			for height(i) < min {
				if time.Now().After(deadline) {
					t.Fatalf("node %d stuck at height %d, want %d", i, height(i), min)
				}
				time.Sleep(100 * time.Millisecond)
			}
		}
	}
	waitAll([]int{0, 1, 2, 3}, 5, 60*time.Second)

	pidb, err := os.ReadFile(filepath.Join(dir, "net", "node3", pidFile))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(pidb)))
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill node3 (pid %d): %v", pid, err)
	}
	h := height(0)
	waitAll([]int{0, 1, 2}, h+5, 60*time.Second)

	restarted = exec.Command(bin, "start", "--home", filepath.Join(dir, "net", "node3"))
	if err := restarted.Start(); err != nil {
		t.Fatal(err)
	}
	h = height(0)
	waitAll([]int{0, 1, 2, 3}, h+3, 60*time.Second)
	top := height(3)
	for i := 0; i < 3; i++ {
		top = min(top, height(i))
	}
	ctx := context.Background()
	for n := uint64(1); n <= top; n++ {
		var want string
		for i := range clients {
			b, err := clients[i].BlockByNumber(ctx, rpc.BlockAt(n), false)
			if err != nil {
				t.Fatalf("node %d block %d: %v", i, n, err)
			}
			if i == 0 {
				want = b.Hash.String()
			} else if b.Hash.String() != want {
				t.Fatalf("height %d: node 0 has %s, node %d has %s", n, want, i, b.Hash)
			}
		}
	}
}
