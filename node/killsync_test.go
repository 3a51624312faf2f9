package node

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/crypto"
)

// finalChain builds blocks finalized simplex blocks on the genesis of
// gen, each carrying perBlock transfers from the dev accounts in turn (so
// block h+1 spends nonces block h left), as a sync answer carries them:
// encoded, no sender known. The certificates are not signed: replayFinal
// does not check them (applySync does, before it).
func finalChain(t testing.TB, gen *genesis.Genesis, blocks, perBlock int) []simplex.Certified {
	t.Helper()
	const senders = 7
	keys := make([]*crypto.PrivateKey, senders)
	for i := range keys {
		keys[i] = devKey(t, i+3)
	}
	nonces := make([]uint64, senders)
	parent := gen.Hash()
	prev := &simplex.Block{Payload: parent[:]}
	out := make([]simplex.Certified, blocks)
	for h := range out {
		p := &payload{Time: gen.Time + uint64(h) + 1}
		for i := 0; i < perBlock; i++ {
			s := (h*perBlock + i) % senders
			p.Txs = append(p.Txs, pipelineTransfer(gen.ChainID, keys[s], nonces[s], types.Address{0x5d, byte(s), byte(h)}, 1))
			nonces[s]++
		}
		enc, err := p.encode()
		if err != nil {
			t.Fatal(err)
		}
		b := &simplex.Block{Parent: prev.Hash(), Height: uint64(h + 1), Round: uint64(h + 1), Proposer: h % len(gen.Validators), Payload: enc}
		out[h] = finalize(b)
		prev = b
	}
	return out
}

// TestSyncPipelineMatchesSerial: a full node replaying a run of finalized
// blocks through the pipeline (each executed while the one before it is
// synced) commits exactly the headers a node applying them one at a time
// commits, and the pipeline did build ahead.
func TestSyncPipelineMatchesSerial(t *testing.T) {
	tn := newTestNet(t, 4)
	chain := finalChain(t, tn.gen, 24, 20)
	piped := tn.open(0)
	defer piped.Close()
	piped.checkCarried = true // every carried view against the committed state
	serial := tn.open(1)
	defer serial.Close()
	for i := 0; i < len(chain); i += 8 {
		if err := piped.replayFinal(chain[i:i+8], nil); err != nil {
			t.Fatal(err)
		}
	}
	if piped.pipelined.Load() == 0 {
		t.Fatal("no block was built while the one below it was committing")
	}
	for _, c := range chain {
		if err := serial.applyFinal(c, nil); err != nil {
			t.Fatal(err)
		}
	}
	if serial.pipelined.Load() != 0 {
		t.Fatal("applyFinal of single blocks built ahead")
	}
	compareChains(t, piped, serial)
}

// compareChains requires a and b to hold the same blocks, header hashes
// (state, tx and receipt roots) included.
func compareChains(t *testing.T, a, b *Node) {
	t.Helper()
	if a.Head().Height != b.Head().Height {
		t.Fatalf("heads %d and %d", a.Head().Height, b.Head().Height)
	}
	for h := uint64(1); h <= a.Head().Height; h++ {
		x, err := a.BlockByNumber(h)
		if err != nil {
			t.Fatal(err)
		}
		y, err := b.BlockByNumber(h)
		if err != nil {
			t.Fatal(err)
		}
		if x.Header.Hash() != y.Header.Hash() {
			t.Fatalf("block %d differs: state root %s against %s, %d txs against %d", h, x.Header.StateRoot, y.Header.StateRoot, len(x.Txs), len(y.Txs))
		}
	}
}

// TestKillSyncChild is the full node TestKillDuringSyncPipeline kills; it
// runs only when the parent sets COWBOY_KILLSYNC_DIR. It replays the
// chain the parent wrote in runs of killSyncRun blocks (applyFinals: each
// block executed while the one before it syncs) and, after each run
// returns, reports the head it reached in the file "reported".
func TestKillSyncChild(t *testing.T) {
	dir := os.Getenv("COWBOY_KILLSYNC_DIR")
	if dir == "" {
		t.Skip("helper process for TestKillDuringSyncPipeline")
	}
	fail := func(what string, err error) {
		fmt.Fprintln(os.Stderr, what+":", err)
		os.Exit(3)
	}
	n, chain, err := openKillSync(dir)
	if err != nil {
		fail("open", err)
	}
	for {
		head := n.Head().Height
		if head >= uint64(len(chain)) {
			select {} // until killed
		}
		if err := n.replayFinal(chain[head:min(head+killSyncRun, uint64(len(chain)))], nil); err != nil {
			fail("replay", err)
		}
		if err := writeFileAtomic(filepath.Join(dir, "reported"), []byte(strconv.FormatUint(n.Head().Height, 10))); err != nil {
			fail("report", err)
		}
	}
}

// killSyncRun is how many finalized blocks the killed full node applies
// in one applyFinals call, as a sync answer would bring them.
const killSyncRun = 8

// openKillSync opens the killed node's home in dir (validator 0's keys
// of the test net, genesis.json beside it) and reads the chain the parent
// wrote.
func openKillSync(dir string) (*Node, []simplex.Certified, error) {
	gen, err := genesis.Load(filepath.Join(dir, "genesis.json"))
	if err != nil {
		return nil, nil, err
	}
	home := filepath.Join(dir, "node0")
	keys, err := LoadKeys(home)
	if err != nil {
		return nil, nil, err
	}
	raw, err := os.ReadFile(filepath.Join(dir, "chain.cbor"))
	if err != nil {
		return nil, nil, err
	}
	var encs [][]byte
	if err := types.Unmarshal(raw, &encs); err != nil {
		return nil, nil, err
	}
	chain := make([]simplex.Certified, len(encs))
	for i, e := range encs {
		if chain[i], err = simplex.DecodeCertified(e); err != nil {
			return nil, nil, err
		}
	}
	n, err := Open(Config{Home: home, Genesis: gen, Logger: quietLog(),
		Network: &NetworkConfig{Keys: keys, ListenAddr: "127.0.0.1:0", Tick: 50 * time.Millisecond, Bootstrap: []string{}}})
	if err != nil {
		return nil, nil, err
	}
	return n, chain, nil
}

// TestKillDuringSyncPipeline kills a full node with SIGKILL while it
// replays finalized blocks through the pipeline, several times, each time
// once it has reported a higher head. After each kill the reopened node
// must hold at least every block it reported, each the finalized block of
// its height with its certificate; its blocks must link from genesis to
// the head; and each sender's nonce in the state must equal its transfers
// in those blocks (state and blocks from the same commits). Then it
// finishes the replay and must hold the very headers a node applying the
// blocks one at a time holds.
func TestKillDuringSyncPipeline(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	tn := newTestNet(t, 4)
	const blocks = 120
	chain := finalChain(t, tn.gen, blocks, 24)
	if err := tn.gen.Save(filepath.Join(tn.dir, "genesis.json")); err != nil {
		t.Fatal(err)
	}
	encs := make([][]byte, len(chain))
	for i, c := range chain {
		var err error
		if encs[i], err = simplex.EncodeCertified(c); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := types.Marshal(encs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tn.dir, "chain.cbor"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	reportedFile := filepath.Join(tn.dir, "reported")
	var reported uint64
	for round := 1; round <= 3; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillSyncChild$")
		cmd.Env = append(os.Environ(), "COWBOY_KILLSYNC_DIR="+tn.dir)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		// Kill once the child reports a head past this round's mark: it
		// is then in the middle of its next run of blocks.
		mark := uint64(round * blocks / 4)
		deadline := time.Now().Add(120 * time.Second)
		for {
			if b, err := os.ReadFile(reportedFile); err == nil {
				if h, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil && h >= mark {
					reported = h
					break
				}
			}
			select {
			case <-exited:
				t.Fatalf("round %d: the child exited before reporting a head past %d: %s", round, mark, stderr.String())
			case <-time.After(time.Millisecond):
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				<-exited
				t.Fatalf("round %d: no head past %d reported: %s", round, mark, stderr.String())
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		<-exited

		n, _, err := openKillSync(tn.dir)
		if err != nil {
			t.Fatalf("round %d: reopen: %v", round, err)
		}
		head := n.Head().Height
		if head < reported {
			t.Fatalf("round %d: head %d after the kill, but %d was reported committed", round, head, reported)
		}
		for h := uint64(1); h <= head; h++ {
			c, err := n.certified(h)
			if err != nil || c.QC.BlockHash != chain[h-1].QC.BlockHash {
				t.Fatalf("round %d: block %d is not the finalized block of its height: %v", round, h, err)
			}
		}
		counts := verifyChainLinks(t, n)
		for s := 3; s < 10; s++ {
			a, _ := genesis.DevAddress(s)
			nonce, _, err := n.Account(a)
			if err != nil {
				t.Fatal(err)
			}
			if nonce != counts[a] {
				t.Fatalf("round %d: dev%d has nonce %d in the state but %d transfers in the blocks", round, s, nonce, counts[a])
			}
		}
		t.Logf("round %d: reported %d, head %d after the kill", round, reported, head)
		n.Close()
	}
	n, _, err := openKillSync(tn.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if err := n.replayFinal(chain[n.Head().Height:], nil); err != nil {
		t.Fatal(err)
	}
	serial := tn.open(1)
	defer serial.Close()
	for _, c := range chain {
		if err := serial.applyFinal(c, nil); err != nil {
			t.Fatal(err)
		}
	}
	compareChains(t, n, serial)
}
