package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/keystore"
	"github.com/cowboy-chain/cowboy/rpc"
)

// harness runs the CLI in-process against a fake chain served by the real
// rpc.Server over HTTP, with a keystore in a temporary directory.
type harness struct {
	t        *testing.T
	chain    *fakeChain
	url      string
	keystore string
	pwFile   string // holds "correct horse battery"
}

func newHarness(t *testing.T, chainID uint64) *harness {
	t.Helper()
	chain := newFakeChain(t, chainID)
	srv := httptest.NewServer(rpc.NewServer(chain, rpc.Options{}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	h := &harness{t: t, chain: chain, url: srv.URL, keystore: filepath.Join(dir, "keys"), pwFile: filepath.Join(dir, "pw")}
	if err := os.WriteFile(h.pwFile, []byte("correct horse battery\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return h
}

type result struct {
	stdout, stderr string
	code           int
}

// run executes `cowboy --rpc URL --keystore DIR args...` with stdin.
func (h *harness) runIn(stdin string, args ...string) result {
	h.t.Helper()
	var out, errb bytes.Buffer
	a := newApp(strings.NewReader(stdin), &out, &errb)
	a.openTTY = func() (*os.File, error) { return nil, errors.New("no terminal in tests") }
	a.ksOptions = []keystore.Option{keystore.WithScryptParams(1<<4, 8, 1)}
	full := append([]string{"--rpc", h.url, "--keystore", h.keystore}, args...)
	code := run(context.Background(), a, full)
	return result{out.String(), errb.String(), code}
}

func (h *harness) run(args ...string) result {
	h.t.Helper()
	return h.runIn("", args...)
}

// ok runs and fails the test unless the command succeeded.
func (h *harness) ok(args ...string) string {
	h.t.Helper()
	r := h.run(args...)
	if r.code != 0 {
		h.t.Fatalf("cowboy %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// fails runs and checks for exit 1 with one "error: ..." line on stderr
// that contains every want.
func (h *harness) fails(args []string, want ...string) result {
	h.t.Helper()
	r := h.run(args...)
	checkFailure(h.t, r, args, want...)
	return r
}

func checkFailure(t *testing.T, r result, args []string, want ...string) {
	t.Helper()
	if r.code != 1 {
		t.Fatalf("cowboy %s: exit %d, want 1\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "error: ") || strings.Count(r.stderr, "error: ") != 1 {
		t.Fatalf("cowboy %s: stderr %q, want one line starting with \"error: \"", strings.Join(args, " "), r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(last, w) {
			t.Errorf("cowboy %s: error %q does not mention %q", strings.Join(args, " "), last, w)
		}
	}
}

func decodeJSON(t *testing.T, s string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("output is not the expected JSON: %v\n%s", err, s)
	}
}

func devAddr(t *testing.T, i int) types.Address {
	t.Helper()
	a, err := genesis.DevAddress(i)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func mustBig(t *testing.T, s string) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("%q is not a decimal integer", s)
	}
	return v
}

func TestKeysRoundTrip(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	pw := []string{"--password-file", h.pwFile}

	var created keyView
	decodeJSON(t, h.ok(append([]string{"keys", "new", "alice", "--json"}, pw...)...), &created)
	alice, err := types.ParseAddress(created.Address)
	if err != nil || created.Name != "alice" || created.File != filepath.Join(h.keystore, "alice.json") {
		t.Fatalf("keys new --json = %+v (%v)", created, err)
	}
	out := h.ok(append([]string{"keys", "new", "bob"}, pw...)...)
	if !strings.Contains(out, "Created key  bob") || !strings.Contains(out, "cowboy keys export bob") {
		t.Errorf("keys new output:\n%s", out)
	}

	if got := strings.TrimSpace(h.ok("keys", "show", "alice")); got != alice.Hex() {
		t.Errorf("keys show alice = %q, want %s", got, alice)
	}
	var list []keyView
	decodeJSON(t, h.ok("keys", "list", "--json"), &list)
	if len(list) != 2 || list[0].Name != "alice" || list[0].Address != alice.Hex() || list[1].Name != "bob" {
		t.Errorf("keys list --json = %+v", list)
	}
	if out := h.ok("keys", "list"); !strings.Contains(out, "alice") || !strings.Contains(out, alice.Hex()) || !strings.HasPrefix(out, "NAME") {
		t.Errorf("keys list:\n%s", out)
	}

	// Export gives the key that signs for alice's address.
	exported := strings.TrimSpace(h.ok(append([]string{"keys", "export", "alice"}, pw...)...))
	b, err := hex.DecodeString(exported)
	if err != nil || len(b) != 32 {
		t.Fatalf("keys export printed %q", exported)
	}
	k, err := crypto.PrivateKeyFromBytes(b)
	if err != nil || types.Address(k.Address()) != alice {
		t.Fatalf("exported key is for %x, want %s (%v)", k.Address(), alice, err)
	}

	// Import it again under another name, from stdin, then from a file.
	r := h.runIn("0x"+exported+"\n", append([]string{"keys", "import", "alice2", "--json"}, pw...)...)
	if r.code != 0 {
		t.Fatalf("keys import from stdin: %s", r.stderr)
	}
	var imported keyView
	decodeJSON(t, r.stdout, &imported)
	if imported.Address != alice.Hex() {
		t.Errorf("imported address %s, want %s", imported.Address, alice)
	}
	keyFile := filepath.Join(t.TempDir(), "k.hex")
	if err := os.WriteFile(keyFile, []byte(exported), 0o600); err != nil {
		t.Fatal(err)
	}
	h.ok(append([]string{"keys", "import", "alice3", "--private-key-file", keyFile}, pw...)...)
	if got := strings.TrimSpace(h.ok(append([]string{"keys", "export", "alice3"}, pw...)...)); got != exported {
		t.Errorf("export after import from file = %s, want %s", got, exported)
	}
	var exp struct{ Name, Address, PrivateKey string }
	decodeJSON(t, h.ok(append([]string{"keys", "export", "alice3", "--json"}, pw...)...), &exp)
	if exp.PrivateKey != exported || exp.Address != alice.Hex() {
		t.Errorf("keys export --json = %+v", exp)
	}

	// No command but export ever printed the private key.
	for _, args := range [][]string{{"keys", "list"}, {"keys", "show", "alice"}, {"keys", "list", "--json"}} {
		if out := h.ok(args...); strings.Contains(out, exported) {
			t.Errorf("cowboy %s printed the private key", strings.Join(args, " "))
		}
	}
}

func TestKeysErrors(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	pw := []string{"--password-file", h.pwFile}
	h.ok(append([]string{"keys", "new", "alice"}, pw...)...)
	wrong := filepath.Join(t.TempDir(), "wrong")
	if err := os.WriteFile(wrong, []byte("nope\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  []string
		stdin string
		want  []string
	}{
		{args: []string{"keys", "export", "alice", "--password-file", wrong}, want: []string{"wrong passphrase for key alice"}},
		{args: []string{"keys", "export", "alice"}, want: []string{"--password-file"}},
		{args: []string{"keys", "new", "carol"}, want: []string{"--password-file"}},
		{args: []string{"keys", "new", "carol", "--password-file", empty}, want: []string{"first line is empty"}},
		{args: []string{"keys", "new", "carol", "--password-file", "/nonexistent/pw"}, want: []string{"password file", "/nonexistent/pw"}},
		{args: append([]string{"keys", "new", "alice"}, pw...), want: []string{"already exists", "alice"}},
		{args: append([]string{"keys", "new", "dev0"}, pw...), want: []string{"reserved", "dev0"}},
		{args: append([]string{"keys", "new", "../x"}, pw...), want: []string{"invalid key name"}},
		{args: []string{"keys", "new"}, want: []string{"needs NAME"}},
		{args: []string{"keys", "new", "a", "b"}, want: []string{"takes 1 argument"}},
		{args: []string{"keys", "show", "nobody"}, want: []string{"no such key", "nobody"}},
		{args: []string{"keys", "shwo", "alice"}, want: []string{"unknown command \"shwo\" for \"cowboy keys\""}},
		{args: append([]string{"keys", "import", "carol"}, pw...), want: []string{"no private key on stdin"}},
		{args: append([]string{"keys", "import", "carol"}, pw...), stdin: "12345\n", want: []string{"want 64 hex digits"}},
		{args: append([]string{"keys", "import", "carol"}, pw...), stdin: strings.Repeat("zz", 32), want: []string{"not hexadecimal"}},
	} {
		r := h.runIn(tc.stdin, tc.args...)
		checkFailure(t, r, tc.args, tc.want...)
	}
	// A refused import wrote nothing.
	h.fails([]string{"keys", "show", "carol"}, "no such key")
}

func TestBalance(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	dev0 := devAddr(t, 0)
	out := h.ok("balance", "dev0")
	for _, want := range []string{dev0.Hex(), "1,000,000 CBY (1000000000000000000000000 base units)", "Nonce"} {
		if !strings.Contains(out, want) {
			t.Errorf("balance dev0 output lacks %q:\n%s", want, out)
		}
	}
	var bal struct {
		Address string `json:"address"`
		Balance string `json:"balance"`
		Nonce   uint64 `json:"nonce"`
	}
	for _, who := range []string{"dev0", dev0.Hex(), strings.ToLower(dev0.Hex())} {
		decodeJSON(t, h.ok("balance", who, "--json"), &bal)
		if bal.Address != dev0.Hex() || bal.Balance != "1000000000000000000000000" || bal.Nonce != 0 {
			t.Errorf("balance %s --json = %+v", who, bal)
		}
	}
	// A keystore name resolves to its address; an unfunded account is 0.
	h.ok("keys", "new", "alice", "--password-file", h.pwFile)
	decodeJSON(t, h.ok("balance", "alice", "--json"), &bal)
	if bal.Balance != "0" {
		t.Errorf("balance of a fresh key = %+v", bal)
	}

	bad := []byte(dev0.Hex())
	for i := 2; i < len(bad); i++ { // flip the case of one letter: checksum breaks
		if bad[i] >= 'a' && bad[i] <= 'f' {
			bad[i] -= 32
			break
		} else if bad[i] >= 'A' && bad[i] <= 'F' {
			bad[i] += 32
			break
		}
	}
	for _, tc := range []struct {
		who  string
		want []string
	}{
		{"0x123", []string{"invalid address", "40 hex digits"}},
		{string(bad), []string{"EIP-55 checksum"}},
		{"nobody", []string{"not an address", "nobody"}},
		{strings.TrimPrefix(strings.ToLower(dev0.Hex()), "0x"), []string{"did you mean 0x"}},
		{"dev10", []string{"not an address"}},
		{"a b", []string{"not an address"}},
	} {
		h.fails([]string{"balance", tc.who}, tc.want...)
	}
}

type transferOut struct {
	Hash        string      `json:"hash"`
	BlockNumber uint64      `json:"blockNumber"`
	BlockHash   string      `json:"blockHash"`
	TxIndex     uint64      `json:"transactionIndex"`
	Status      string      `json:"status"`
	From        string      `json:"from"`
	To          *string     `json:"to"`
	CyclesUsed  uint64      `json:"cyclesUsed"`
	CellsUsed   uint64      `json:"cellsUsed"`
	Fee         string      `json:"fee"`
	Burned      string      `json:"burned"`
	Tip         string      `json:"tip"`
	Error       string      `json:"error"`
	ReturnData  string      `json:"returnData"`
	Events      []eventView `json:"events"`
	Value       string      `json:"value"`
	Nonce       uint64      `json:"nonce"`
}

func TestTransfer(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	dev0, dev1 := devAddr(t, 0), devAddr(t, 1)

	out := h.ok("transfer", "--from", "dev0", "--to", "dev1", "--value", "1.5cby")
	sent := h.chain.sent[0]
	for _, want := range []string{
		sent.Hash().Hex(), "Block", "1 (", "Status", "success",
		"Cycles used", "10,000", "Cells used", "0",
		// fee = 10,000 × (7 basefee + 1 tip); burned = 10,000 × 7; tip = 10,000 × 1
		"Fee paid", "(80000 base units)", "Burned", "(70000 base units)", "Tip", "(10000 base units)",
		"Value", "1.5 CBY (1500000000000000000 base units)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("transfer output lacks %q:\n%s", want, out)
		}
	}
	if sent.ChainID != genesis.DevnetChainID || sent.Nonce != 0 || *sent.To != dev1 || sent.CyclesLimit != transferCycles ||
		sent.MaxFeePerCycle != 2*fakeBasefeeCycle+1 || sent.TipPerCycle != 1 {
		t.Errorf("sent transaction %+v: want the node's chain id, nonce and estimate", sent)
	}
	if from, _ := sent.Sender(); from != dev0 {
		t.Errorf("signed by %s, want dev0 %s", from, dev0)
	}

	// Second transfer, --json: the nonce advances, amounts are decimal
	// strings, and the balances moved by exactly value and fee.
	var tr transferOut
	decodeJSON(t, h.ok("transfer", "--from", "dev0", "--to", dev1.Hex(), "--value", "1000", "--json"), &tr)
	if tr.Status != "success" || tr.Nonce != 1 || tr.Value != "1000" || tr.BlockNumber != 2 ||
		tr.CyclesUsed != 10_000 || tr.Fee != "80000" || tr.Burned != "70000" || tr.Tip != "10000" ||
		tr.From != dev0.Hex() || tr.To == nil || *tr.To != dev1.Hex() || tr.Hash != h.chain.sent[1].Hash().Hex() {
		t.Errorf("transfer --json = %+v", tr)
	}
	fee := mustBig(t, tr.Fee)
	if new(big.Int).Add(mustBig(t, tr.Burned), mustBig(t, tr.Tip)).Cmp(fee) != 0 {
		t.Errorf("fee %s != burned %s + tip %s", tr.Fee, tr.Burned, tr.Tip)
	}
	var bal struct {
		Address, Balance string
		Nonce            uint64
	}
	decodeJSON(t, h.ok("balance", "dev1", "--json"), &bal)
	want := new(big.Int).Add(genesis.DevBalance, mustBig(t, "1500000000000000000"))
	want.Add(want, big.NewInt(1000))
	if bal.Balance != want.String() {
		t.Errorf("dev1 balance %s, want %s", bal.Balance, want)
	}
	decodeJSON(t, h.ok("balance", "dev0", "--json"), &bal)
	want = new(big.Int).Sub(genesis.DevBalance, mustBig(t, "1500000000000000000"))
	want.Sub(want, big.NewInt(1000+2*80000))
	if bal.Balance != want.String() || bal.Nonce != 2 {
		t.Errorf("dev0 balance %s nonce %d, want %s and 2", bal.Balance, bal.Nonce, want)
	}
}

func TestTransferFeeFlags(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	h.ok("transfer", "--from", "dev0", "--to", "dev1", "--value", "1", "--tip-per-cycle", "5")
	h.ok("transfer", "--from", "dev0", "--to", "dev1", "--value", "1", "--max-fee-per-cycle", "8", "--tip-per-cell", "0")
	h.ok("transfer", "--from", "dev0", "--to", "dev1", "--value", "1",
		"--cycles-limit", "20000", "--cells-limit", "4", "--max-fee-per-cycle", "30", "--max-fee-per-cell", "9", "--tip-per-cycle", "2")
	for i, want := range []struct{ cycles, cells, maxCycle, maxCell, tipCycle, tipCell uint64 }{
		{10_000, 0, 2*fakeBasefeeCycle + 5, 2*fakeBasefeeCell + 1, 5, 1}, // a tip alone moves the max fee with it
		{10_000, 0, 8, 2 * fakeBasefeeCell, 1, 0},                        // a max fee alone keeps the estimated tip; a tip of 0 alone lowers the max fee with it
		{20_000, 4, 30, 9, 2, 1},
	} {
		tx := h.chain.sent[i]
		got := struct{ cycles, cells, maxCycle, maxCell, tipCycle, tipCell uint64 }{
			tx.CyclesLimit, tx.CellsLimit, tx.MaxFeePerCycle, tx.MaxFeePerCell, tx.TipPerCycle, tx.TipPerCell}
		if got != want {
			t.Errorf("transfer %d sent %+v, want %+v", i, got, want)
		}
	}
}

func TestTransferFromKeystore(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	var k keyView
	decodeJSON(t, h.ok("keys", "new", "alice", "--password-file", h.pwFile, "--json"), &k)
	h.ok("transfer", "--from", "dev3", "--to", "alice", "--value", "10cby")
	h.ok("transfer", "--from", "alice", "--to", "dev4", "--value", "2.25cby", "--password-file", h.pwFile)
	// By address: the keystore key with that address signs.
	h.ok("transfer", "--from", k.Address, "--to", "dev4", "--value", "1", "--password-file", h.pwFile)
	for _, tx := range h.chain.sent[1:] {
		if from, _ := tx.Sender(); from.Hex() != k.Address {
			t.Errorf("transaction signed by %s, want alice %s", from, k.Address)
		}
	}
	wrong := filepath.Join(t.TempDir(), "wrong")
	if err := os.WriteFile(wrong, []byte("nope\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.fails([]string{"transfer", "--from", "alice", "--to", "dev4", "--value", "1", "--password-file", wrong}, "wrong passphrase for key alice")
	h.fails([]string{"transfer", "--from", devAddr(t, 5).Hex(), "--to", "dev4", "--value", "1"}, "no key for", "cowboy keys import")
	h.fails([]string{"transfer", "--from", "nobody", "--to", "dev4", "--value", "1"}, "no such key", "nobody")
	if len(h.chain.sent) != 3 {
		t.Errorf("%d transactions reached the node, want 3", len(h.chain.sent))
	}
}

func TestTransferBadInput(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	base := []string{"transfer", "--from", "dev0", "--to", "dev1"}
	for _, tc := range []struct {
		extra []string
		want  []string
	}{
		{[]string{"--value", "1.5"}, []string{"--value", "for CBY write 1.5cby"}},
		{[]string{"--value", "-1cby"}, []string{"--value", "cannot be negative"}},
		{[]string{"--value", "1.0000000000000000001cby"}, []string{"more than 18 decimals"}},
		{[]string{"--value", "lots"}, []string{"invalid amount \"lots\""}},
		{[]string{"--value", ""}, []string{"empty"}},
		{[]string{"--value", "1", "--tip-per-cycle", "x"}, []string{"--tip-per-cycle", "invalid amount"}},
		{[]string{"--value", "1", "--max-fee-per-cycle", "100000000cby"}, []string{"--max-fee-per-cycle", "at most"}},
		{[]string{"--value", "1", "--cycles-limit", "-5"}, []string{"--cycles-limit", "whole number"}},
		{[]string{"--value", "1", "--timeout", "0s"}, []string{"--timeout", "positive"}},
	} {
		h.fails(append(append([]string{}, base...), tc.extra...), tc.want...)
	}
	h.fails([]string{"transfer", "--from", "dev0", "--to", "0xabc", "--value", "1"}, "--to", "invalid address")
	h.fails([]string{"transfer", "--from", "dev0", "--value", "1"}, "required flag", "to")
	h.fails([]string{"transfer", "--from", "dev0", "--to", "dev1", "--value", "1", "extra"}, "takes 0 argument")
	if len(h.chain.sent) != 0 {
		t.Errorf("%d bad transfers reached the node", len(h.chain.sent))
	}
}

func TestTransferRejected(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	// More than dev0 has: the node's reason is printed, exit 1.
	r := h.fails([]string{"transfer", "--from", "dev0", "--to", "dev1", "--value", "2000000cby"},
		"rejected", "insufficient funds", "(insufficient_funds)")
	if r.stdout != "" {
		t.Errorf("a rejected transfer printed %q", r.stdout)
	}
	h.fails([]string{"transfer", "--from", "dev0", "--to", "dev1", "--value", "1", "--nonce", "5"}, "nonce 5 leaves a gap", "(nonce_gap)")
	h.fails([]string{"transfer", "--from", "dev0", "--to", "dev1", "--value", "1", "--max-fee-per-cycle", "3"}, "below the basefee", "(fee_too_low)")
}

// A transaction included but failed prints its receipt and exits 1.
func TestTransferFailedReceipt(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	r := h.run("transfer", "--from", "dev0", "--to", "dev1", "--value", "1", "--cycles-limit", "5000", "--json")
	checkFailure(t, r, nil, "failed in block 1", "out of cycles")
	var tr transferOut
	decodeJSON(t, r.stdout, &tr)
	if tr.Status != "failed" || tr.Error != "out of cycles" || tr.CyclesUsed != 5000 || tr.Fee != "40000" {
		t.Errorf("failed transfer --json = %+v", tr)
	}
}

func TestDevKeysNeedTheDevnet(t *testing.T) {
	h := newHarness(t, 1) // not the devnet
	h.fails([]string{"transfer", "--from", "dev0", "--to", "dev1", "--value", "1"}, "devnet key", "chain id 1", "7777")
	// Nor may anything be sent to a dev account there: its key is public.
	h.ok("keys", "new", "alice", "--password-file", h.pwFile)
	h.fails([]string{"transfer", "--from", "alice", "--to", "dev1", "--value", "1", "--password-file", h.pwFile},
		"--to dev1 is a devnet account", "chain id 1")
	// Reading a dev account's balance needs no chain check.
	h.ok("balance", "dev0")
	if len(h.chain.sent) != 0 {
		t.Error("a dev key signed for a chain that is not the devnet")
	}
}

func TestTransferWaitAndNoWait(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	h.chain.hold = true
	// Never mined: the CLI gives up at --timeout and says how to look later.
	r := h.run("transfer", "--from", "dev0", "--to", "dev1", "--value", "1", "--timeout", "50ms")
	hash := h.chain.sent[0].Hash().Hex()
	checkFailure(t, r, nil, hash, "no receipt after 50ms", "cowboy tx get "+hash)

	// --no-wait prints the hash at once; the pending nonce counts the first.
	var nw struct{ Hash, Status string }
	decodeJSON(t, h.ok("transfer", "--from", "dev0", "--to", "dev1", "--value", "1", "--no-wait", "--json"), &nw)
	if nw.Hash != h.chain.sent[1].Hash().Hex() || nw.Status != "pending" || h.chain.sent[1].Nonce != 1 {
		t.Errorf("--no-wait --json = %+v, nonce %d", nw, h.chain.sent[1].Nonce)
	}
	// tx get shows a pending transaction without a receipt.
	var got struct {
		Transaction txView       `json:"transaction"`
		Receipt     *receiptView `json:"receipt"`
	}
	decodeJSON(t, h.ok("tx", "get", hash, "--json"), &got)
	if got.Transaction.Status != "pending" || got.Receipt != nil || got.Transaction.BlockNumber != nil {
		t.Errorf("tx get of a pending transaction = %+v", got)
	}
	if out := h.ok("tx", "get", hash); !strings.Contains(out, "pending") || strings.Contains(out, "Receipt") {
		t.Errorf("tx get of a pending transaction:\n%s", out)
	}
}

func TestTxGet(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	h.ok("transfer", "--from", "dev0", "--to", "dev1", "--value", "1.5cby")
	tx := h.chain.sent[0]
	hash := tx.Hash().Hex()
	out := h.ok("tx", "get", hash)
	for _, want := range []string{hash, "included in block 1", devAddr(t, 0).Hex(), devAddr(t, 1).Hex(),
		"1.5 CBY", "Receipt", "success", "Fee paid", "(80000 base units)"} {
		if !strings.Contains(out, want) {
			t.Errorf("tx get output lacks %q:\n%s", want, out)
		}
	}
	var got struct {
		Transaction txView       `json:"transaction"`
		Receipt     *receiptView `json:"receipt"`
	}
	decodeJSON(t, h.ok("tx", "get", hash, "--json"), &got)
	v := got.Transaction
	if v.Hash != hash || v.Status != "included" || v.BlockNumber == nil || *v.BlockNumber != 1 || v.Value != "1500000000000000000" ||
		v.MaxFeePerCycle != "15" || v.TipPerCycle != "1" || v.ChainID != 7777 || v.Payload != "0x" {
		t.Errorf("tx get --json transaction = %+v", v)
	}
	if got.Receipt == nil || got.Receipt.Status != "success" || got.Receipt.Fee != "80000" || got.Receipt.CyclesUsed != 10_000 {
		t.Errorf("tx get --json receipt = %+v", got.Receipt)
	}
	h.fails([]string{"tx", "get", "0x" + strings.Repeat("ab", 32)}, "not found")
	h.fails([]string{"tx", "get", "0x1234"}, "invalid hash")
	h.fails([]string{"tx", "get"}, "needs HASH")
}

func TestBlock(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	h.ok("transfer", "--from", "dev0", "--to", "dev1", "--value", "2cby")
	tx := h.chain.sent[0]

	var b struct {
		Hash, ParentHash, Proposer, StateRoot, TxRoot, ReceiptsRoot string
		Height, Time, CyclesUsed, CellsUsed                         uint64
		BasefeeCycle, BasefeeCell, Status                           string
		Transactions                                                json.RawMessage
	}
	for _, ref := range []string{"", "latest", "1", "0x1", h.chain.blocks[1].Header.Hash().Hex()} {
		args := []string{"block", "--json"}
		if ref != "" {
			args = append(args, ref)
		}
		decodeJSON(t, h.ok(args...), &b)
		if b.Height != 1 || b.Hash != h.chain.blocks[1].Header.Hash().Hex() || b.BasefeeCycle != "7" || b.CyclesUsed != 10_000 || b.Status != "finalized" {
			t.Errorf("block %q --json = %+v", ref, b)
		}
		var hashes []string
		if err := json.Unmarshal(b.Transactions, &hashes); err != nil || len(hashes) != 1 || hashes[0] != tx.Hash().Hex() {
			t.Errorf("block %q transactions = %s", ref, b.Transactions)
		}
	}
	decodeJSON(t, h.ok("block", "1", "--full", "--json"), &b)
	var full []txView
	if err := json.Unmarshal(b.Transactions, &full); err != nil || len(full) != 1 || full[0].Value != "2000000000000000000" || full[0].From != devAddr(t, 0).Hex() {
		t.Errorf("block --full transactions = %s (%v)", b.Transactions, err)
	}
	out := h.ok("block", "1", "--full")
	for _, want := range []string{"Block", "1", "finalized", tx.Hash().Hex(), "2 CBY", devAddr(t, 1).Hex(), "nonce 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("block 1 --full output lacks %q:\n%s", want, out)
		}
	}
	decodeJSON(t, h.ok("block", "0", "--full", "--json"), &b)
	if string(b.Transactions) != "[]" {
		t.Errorf("genesis transactions = %s, want []", b.Transactions)
	}
	// A consensus block hash of a block that is only certified.
	pending := types.Hash{0xc0}
	round := uint64(7)
	h.chain.consensus = map[types.Hash]*rpc.BlockStatus{pending: {Hash: pending, ConsensusHash: &pending,
		Height: 2, Round: &round, Status: rpc.StatusCommitted}}
	out = h.ok("block", pending.Hex())
	for _, want := range []string{"Block", "2", "committed (not final", pending.Hex(), "Round", "7"} {
		if !strings.Contains(out, want) {
			t.Errorf("block of a committed consensus hash lacks %q:\n%s", want, out)
		}
	}
	var pv pendingBlockView
	decodeJSON(t, h.ok("block", pending.Hex(), "--json"), &pv)
	if pv != (pendingBlockView{Hash: pending.Hex(), Height: 2, Round: 7, Status: "committed"}) {
		t.Errorf("block --json of a committed block = %+v", pv)
	}
	h.fails([]string{"block", types.Hash{0xc1}.Hex()}, "not found")
	h.fails([]string{"block", "99"}, "block 99 not found", "height 1")
	h.fails([]string{"block", "lots"}, "want a height")
	h.fails([]string{"block", "1", "2"}, "at most one")
	h.fails([]string{"tx", "gte", "0x00"}, "unknown command \"gte\" for \"cowboy tx\"")
}

func TestFees(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	out := h.ok("fees")
	for _, want := range []string{"Next block", "1", "7 base units per cycle", "3 base units per cell"} {
		if !strings.Contains(out, want) {
			t.Errorf("fees output lacks %q:\n%s", want, out)
		}
	}
	var f struct {
		Height                    uint64
		BasefeeCycle, BasefeeCell string
	}
	decodeJSON(t, h.ok("fees", "--json"), &f)
	if f.Height != 1 || f.BasefeeCycle != "7" || f.BasefeeCell != "3" {
		t.Errorf("fees --json = %+v", f)
	}
}

// With no node listening, every command that needs one says where it
// looked and how to start one.
func TestNodeUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close() // nothing listens there now: connections are refused
	h := newHarness(t, genesis.DevnetChainID)
	h.url = url
	for _, args := range [][]string{
		{"balance", "dev0"}, {"fees"}, {"block"}, {"tx", "get", "0x" + strings.Repeat("00", 32)},
		{"transfer", "--from", "dev0", "--to", "dev1", "--value", "1"},
	} {
		h.fails(args, "not reachable at "+url, "cowboyd devnet")
	}
}

// $COWBOY_RPC is used when --rpc is not given.
func TestRPCFromEnvironment(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	t.Setenv(envRPC, h.url)
	var out, errb bytes.Buffer
	a := newApp(strings.NewReader(""), &out, &errb)
	if code := run(context.Background(), a, []string{"fees", "--json"}); code != 0 {
		t.Fatalf("fees with $%s: %s", envRPC, errb.String())
	}
	if !strings.Contains(out.String(), `"basefeeCycle": "7"`) {
		t.Errorf("fees with $%s:\n%s", envRPC, out.String())
	}
}

// Every command explains itself and shows an example in --help.
func TestHelp(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	root := newApp(nil, nil, nil).rootCmd()
	for _, path := range commandPaths(root) {
		out := h.ok(append(strings.Fields(path)[1:], "--help")...)
		if !strings.Contains(out, "Examples:\n  cowboy") || !strings.Contains(out, "Usage:") {
			t.Errorf("%s --help has no usage or example:\n%s", path, out)
		}
	}
}

// docs/cli.md documents every command and every flag the code defines.
func TestDocsCoverCommands(t *testing.T) {
	data, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	root := newApp(nil, nil, nil).rootCmd()
	for _, path := range commandPaths(root) {
		if !strings.Contains(doc, "## `"+path) {
			t.Errorf("docs/cli.md has no section \"## `%s ...`\"", path)
		}
	}
	for _, c := range allCommands(root) {
		c.LocalFlags().VisitAll(func(f *pflagFlag) {
			if f.Name != "help" && !strings.Contains(doc, "--"+f.Name) {
				t.Errorf("docs/cli.md does not mention %s's flag --%s", c.CommandPath(), f.Name)
			}
		})
	}
}

type pflagFlag = pflag.Flag

// allCommands is root and every command below it, without cobra's help.
func allCommands(root *cobra.Command) []*cobra.Command {
	out := []*cobra.Command{root}
	for _, c := range root.Commands() {
		if c.Name() == "help" {
			continue
		}
		out = append(out, allCommands(c)...)
	}
	return out
}

// commandPaths lists the runnable commands, "cowboy keys new" and so on.
func commandPaths(root *cobra.Command) []string {
	var out []string
	for _, c := range allCommands(root) {
		if c.Runnable() {
			out = append(out, c.CommandPath())
		}
	}
	return out
}
