package cowboysdk_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/node"
	"github.com/cowboy-chain/cowboy/pvm/cbor"
)

// python is the interpreter the client tests run under: Debian's, which sees
// python3-cbor2, python3-pycryptodome and python3-ecdsa (.ci/run installs
// them). The test skips, saying what is missing, only when they are absent.
const python = "/usr/bin/python3"

func needPython(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(python); err != nil {
		t.Skipf("%s not found: install python3 (Debian) to run the Python client tests", python)
	}
	out, err := exec.Command(python, "-c", "import cbor2, Cryptodome, ecdsa").CombinedOutput()
	if err != nil {
		t.Skipf("%s lacks the client's dependencies (apt-get install python3-cbor2 python3-pycryptodome python3-ecdsa): %s", python, out)
	}
}

// goVector is one payload or value whose canonical CBOR Go produced; py is
// the same value as a Python expression.
type goVector struct {
	Kind string `json:"kind"` // call, deploy or value
	Py   string `json:"py"`
	Hex  string `json:"hex"`
}

type txVector struct {
	Dev     int      `json:"dev"`
	Fields  []uint64 `json:"fields"` // chain_id … tip_per_cell, with 0 for to and value
	To      *string  `json:"to"`
	Value   string   `json:"value"` // decimal
	Payload string   `json:"payload"`
	Hex     string   `json:"hex"`
}

func big2(exp uint) *big.Int { return new(big.Int).Lsh(big.NewInt(1), exp) }

// writeGoVectors writes the vectors test_unit.py's test_go_vectors checks:
// call and deploy payloads from chain/types, values from pvm/cbor.EncodeGo,
// and transactions signed by chain/types (RFC 6979 nonces, so the Python
// signatures must be the same bytes).
func writeGoVectors(t *testing.T) string {
	t.Helper()
	enc := func(v any) []byte {
		b, err := cbor.EncodeGo(v)
		if err != nil {
			t.Fatalf("EncodeGo(%v): %v", v, err)
		}
		return b
	}
	var vecs struct {
		Payloads []goVector `json:"payloads"`
		Txs      []txVector `json:"txs"`
	}
	call := func(py, method string, args ...any) {
		if args == nil {
			args = []any{}
		}
		b, err := (&types.CallPayload{Method: method, Args: enc(args)}).Encode()
		if err != nil {
			t.Fatal(err)
		}
		vecs.Payloads = append(vecs.Payloads, goVector{"call", py, hex.EncodeToString(b)})
	}
	call(`["increment", []]`, "increment")
	call(`["get_count", []]`, "get_count")
	call(`["transfer", ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8", 5]]`, "transfer", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", 5)
	call(`["set", [{"b": 1, "aa": [1.5, None, True, False]}, b"\x01\x02", -1, 2**70, -(2**70), 0.1, 1.0, "é"]]`, "set",
		cbor.Map{{Key: "b", Value: 1}, {Key: "aa", Value: []any{1.5, nil, true, false}}},
		[]byte{1, 2}, -1, big2(70), new(big.Int).Neg(big2(70)), 0.1, 1.0, "é")
	dep, err := (&types.DeployPayload{Code: "x = 1\n", Salt: make([]byte, 32), Args: enc([]any{"Gold", "GLD", 1000})}).Encode()
	if err != nil {
		t.Fatal(err)
	}
	vecs.Payloads = append(vecs.Payloads, goVector{"deploy", `["x = 1\n", b"\x00" * 32, ["Gold", "GLD", 1000]]`, hex.EncodeToString(dep)})
	for _, v := range []struct {
		py  string
		go_ any
	}{
		{`{"zz": 1, "a": 2, 1: 3, b"k": 4, (1, 2): 5, -1: 6, 1.5: 7, None: 8}`, cbor.Map{
			{Key: "zz", Value: 1}, {Key: "a", Value: 2}, {Key: 1, Value: 3}, {Key: []byte("k"), Value: 4},
			{Key: []any{1, 2}, Value: 5}, {Key: -1, Value: 6}, {Key: 1.5, Value: 7}, {Key: nil, Value: 8}}},
		{`-0.0`, math.Copysign(0, -1)},
		{`float("inf")`, math.Inf(1)},
		{`2**64 - 1`, uint64(math.MaxUint64)},
		{`2**64`, big2(64)},
		{`-(2**64)`, new(big.Int).Neg(big2(64))},
		{`-(2**64) - 1`, new(big.Int).Sub(new(big.Int).Neg(big2(64)), big.NewInt(1))},
		{`"x" * 300`, stringOf('x', 300)},
		{`[[[]]]`, []any{[]any{[]any{}}}},
	} {
		vecs.Payloads = append(vecs.Payloads, goVector{"value", v.py, hex.EncodeToString(enc(v.go_))})
	}

	dev1 := "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	for i, c := range []struct {
		to      *string
		value   *big.Int
		payload []byte
	}{
		{&dev1, big.NewInt(1_000_000_000_000_000_000), nil},
		{&dev1, big2(70), []byte{0x82, 0x61, 0x66, 0x80}},
		{nil, big.NewInt(0), dep},
	} {
		key, err := genesis.DevKey(i)
		if err != nil {
			t.Fatal(err)
		}
		tx := &types.Tx{ChainID: genesis.DevnetChainID, Nonce: uint64(i * 7), Value: c.value, Payload: c.payload,
			CyclesLimit: 100000, CellsLimit: 200, MaxFeePerCycle: 15, MaxFeePerCell: 7, TipPerCycle: 1, TipPerCell: 1}
		if tx.Payload == nil {
			tx.Payload = []byte{}
		}
		if c.to != nil {
			a, err := types.ParseAddress(*c.to)
			if err != nil {
				t.Fatal(err)
			}
			tx.To = &a
		}
		tx.Sign(key)
		vecs.Txs = append(vecs.Txs, txVector{Dev: i, To: c.to, Value: c.value.String(), Payload: hex.EncodeToString(tx.Payload), Hex: hex.EncodeToString(tx.Encode()),
			Fields: []uint64{tx.ChainID, tx.Nonce, 0, 0, tx.CyclesLimit, tx.CellsLimit, tx.MaxFeePerCycle, tx.MaxFeePerCell, tx.TipPerCycle, tx.TipPerCell}})
	}
	b, err := json.MarshalIndent(vecs, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "go_vectors.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func stringOf(c byte, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return string(b)
}

// TestPythonClient runs the cowboy package's unittest suite (sdk/python/tests)
// under Debian's python3, against a real in-process devnet node for the
// end-to-end test (COWBOY_RPC) and with vectors Go produced for the byte
// comparisons (COWBOY_GO_VECTORS).
func TestPythonClient(t *testing.T) {
	needPython(t)
	vectors := writeGoVectors(t)

	n, err := node.Open(node.Config{Home: t.TempDir(), Genesis: genesis.Devnet(), RPCAddr: "127.0.0.1:0",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	for deadline := time.Now().Add(60 * time.Second); n.RPCAddr() == "" && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	t.Cleanup(func() { cancel(); <-done; n.Close() })
	if n.RPCAddr() == "" {
		t.Fatal("the devnet node did not start its RPC server")
	}

	cmd := exec.Command(python, "-m", "unittest", "-v")
	cmd.Dir = "tests"
	cmd.Env = append(os.Environ(), "COWBOY_RPC=http://"+n.RPCAddr(), "COWBOY_GO_VECTORS="+vectors,
		"PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("python tests failed: %v", err)
	}
	if strings.Contains(string(out), "skipped") {
		t.Fatal("a Python test skipped although COWBOY_RPC and COWBOY_GO_VECTORS are set")
	}

	// The example the docs show runs as written.
	ex := exec.Command(python, filepath.Join("examples", "counter.py"), "http://"+n.RPCAddr())
	ex.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err = ex.CombinedOutput()
	t.Logf("examples/counter.py:\n%s", out)
	if err != nil {
		t.Fatalf("examples/counter.py: %v", err)
	}
	if !strings.Contains(string(out), "get_count = 1") {
		t.Fatal("examples/counter.py did not print get_count = 1")
	}
}
