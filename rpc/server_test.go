package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// post sends body to the server and returns the status and response body.
func post(t testing.TB, srv *httptest.Server, contentType, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
}

// sameJSON compares two JSON texts by value.
func sameJSON(t testing.TB, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("response is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expectation %q: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("response\n got %s\nwant %s", got, want)
	}
}

// rpcErr extracts the error of a single response, failing if there is none.
func rpcErr(t testing.TB, body []byte) (Error, json.RawMessage) {
	t.Helper()
	var r struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *Error          `json:"error"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("response is not a JSON-RPC object: %v\n%s", err, body)
	}
	if r.Error == nil {
		t.Fatalf("want an error, got %s", body)
	}
	if r.Result != nil {
		t.Fatalf("error response also has a result: %s", body)
	}
	return *r.Error, r.ID
}

func req(method string, params string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, method, params)
}

func TestServerResults(t *testing.T) {
	f := newFixture(t)
	srv, _ := serve(t, f.b, Options{})
	alice := types.Address(f.alice).Hex()
	aliceBal := fmt.Sprintf(`"0x%x"`, f.b.balances[f.alice])
	supply := fmt.Sprintf(`"0x%x"`, f.b.supply)
	tests := []struct {
		name, body, want string
	}{
		{"chainId", req("cowboy_chainId", `[]`), `{"jsonrpc":"2.0","id":1,"result":"0x1e61"}`},
		{"chainId without params", `{"jsonrpc":"2.0","id":1,"method":"cowboy_chainId"}`, `{"jsonrpc":"2.0","id":1,"result":"0x1e61"}`},
		{"string id echoed", `{"jsonrpc":"2.0","id":"abc","method":"cowboy_blockNumber","params":[]}`, `{"jsonrpc":"2.0","id":"abc","result":"0x1"}`},
		{"null id echoed", `{"jsonrpc":"2.0","id":null,"method":"cowboy_blockNumber"}`, `{"jsonrpc":"2.0","id":null,"result":"0x1"}`},
		{"big balance", req("cowboy_getBalance", `["`+alice+`","latest"]`), `{"jsonrpc":"2.0","id":1,"result":` + aliceBal + `}`},
		{"balance, lower-case address, no tag", req("cowboy_getBalance", `["`+strings.ToLower(alice)+`"]`), `{"jsonrpc":"2.0","id":1,"result":` + aliceBal + `}`},
		{"unknown account has zero", req("cowboy_getBalance", `["0x000000000000000000000000000000000000dead"]`), `{"jsonrpc":"2.0","id":1,"result":"0x0"}`},
		{"nonce latest", req("cowboy_getNonce", `["`+alice+`","latest"]`), `{"jsonrpc":"2.0","id":1,"result":"0x2"}`},
		{"nonce pending", req("cowboy_getNonce", `["`+alice+`","pending"]`), `{"jsonrpc":"2.0","id":1,"result":"0x3"}`},
		{"missing block is null", req("cowboy_getBlockByNumber", `["0x5",false]`), `{"jsonrpc":"2.0","id":1,"result":null}`},
		{"max height is null", req("cowboy_getBlockByNumber", `["0xffffffffffffffff"]`), `{"jsonrpc":"2.0","id":1,"result":null}`},
		{"unknown block hash is null", req("cowboy_getBlockByHash", `["0x`+strings.Repeat("ab", 32)+`",true]`), `{"jsonrpc":"2.0","id":1,"result":null}`},
		{"unknown tx is null", req("cowboy_getTransactionByHash", `["0x`+strings.Repeat("00", 32)+`"]`), `{"jsonrpc":"2.0","id":1,"result":null}`},
		{"unknown receipt is null", req("cowboy_getTransactionReceipt", `["0x`+strings.Repeat("00", 32)+`"]`), `{"jsonrpc":"2.0","id":1,"result":null}`},
		{"pending receipt is null", req("cowboy_getTransactionReceipt", `["`+f.pending.Hash().Hex()+`"]`), `{"jsonrpc":"2.0","id":1,"result":null}`},
		{"basefees", req("cowboy_basefees", `[]`), `{"jsonrpc":"2.0","id":1,"result":{"cycle":"0x7","cell":"0x3","height":"0x2"}}`},
		{"totalSupply", req("cowboy_totalSupply", `[]`), `{"jsonrpc":"2.0","id":1,"result":` + supply + `}`},
		{"estimateFees", req("cowboy_estimateFees", `[{"to":"`+alice+`","value":"0x10","payload":"0x0102"}]`),
			`{"jsonrpc":"2.0","id":1,"result":{"cyclesLimit":"0x2710","cellsLimit":"0x2","maxFeePerCycle":"0xf","maxFeePerCell":"0x7","tipPerCycle":"0x1","tipPerCell":"0x1","maxCost":"0x249fe"}}`},
		{"sendRawTransaction", req("cowboy_sendRawTransaction", `["`+Bytes(signedTx(f.key, 3, &f.bob, 1, nil).Encode()).String()+`"]`),
			`{"jsonrpc":"2.0","id":1,"result":"` + signedTx(f.key, 3, &f.bob, 1, nil).Hash().Hex() + `"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, srv, "application/json", tt.body)
			if status != http.StatusOK {
				t.Fatalf("HTTP %d: %s", status, body)
			}
			sameJSON(t, body, tt.want)
		})
	}
}

func TestServerErrors(t *testing.T) {
	f := newFixture(t)
	srv, _ := serve(t, f.b, Options{})
	alice := types.Address(f.alice).Hex()
	mixed := flipCase(alice) // mixed case that is not the EIP-55 checksum
	nonCanonical := append([]byte(nil), f.transfer.Encode()...)
	nonCanonical[1] = 0x18 // chain id 7777 cannot be written in one byte: 0x19 1e61 -> 0x18 ...
	tests := []struct {
		name     string
		body     string
		code     int
		contains string
		nullID   bool
	}{
		{"parse error", `{"jsonrpc":"2.0",`, CodeParseError, "parse error", true},
		{"empty body", ``, CodeParseError, "parse error", true},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"cowboy_chainId"} x`, CodeParseError, "parse error", true},
		{"not an object", `"cowboy_chainId"`, CodeInvalidRequest, "want a JSON object", true},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"cowboy_chainId"}`, CodeInvalidRequest, `"jsonrpc" must be "2.0"`, false},
		{"jsonrpc not a string", `{"jsonrpc":2,"id":1,"method":"cowboy_chainId"}`, CodeInvalidRequest, `"jsonrpc" must be "2.0"`, false},
		{"no method", `{"jsonrpc":"2.0","id":1}`, CodeInvalidRequest, `"method"`, false},
		{"method not a string", `{"jsonrpc":"2.0","id":1,"method":7}`, CodeInvalidRequest, `"method"`, false},
		{"id is an object", `{"jsonrpc":"2.0","id":{},"method":"cowboy_chainId"}`, CodeInvalidRequest, "id must be", true},
		{"unknown method", req("eth_blockNumber", `[]`), CodeMethodNotFound, `method "eth_blockNumber" not found`, false},
		{"params by name", req("cowboy_getBalance", `{"address":"`+alice+`"}`), CodeInvalidParams, "params as a JSON array", false},
		{"too many params", req("cowboy_chainId", `[1]`), CodeInvalidParams, "cowboy_chainId takes 0 params, got 1", false},
		{"too few params", req("cowboy_getBalance", `[]`), CodeInvalidParams, "cowboy_getBalance takes 1 to 2 params, got 0", false},
		{"address not hex", req("cowboy_getBalance", `["0xzz00000000000000000000000000000000000000"]`), CodeInvalidParams, "params[0] (address)", false},
		{"address too short", req("cowboy_getBalance", `["0x1234"]`), CodeInvalidParams, "40 hex digits", false},
		{"address bad checksum", req("cowboy_getBalance", `["`+mixed+`"]`), CodeInvalidParams, "checksum", false},
		{"address as number", req("cowboy_getBalance", `[12]`), CodeInvalidParams, "params[0] (address)", false},
		{"balance at pending", req("cowboy_getBalance", `["`+alice+`","pending"]`), CodeInvalidParams, "params[1] (block)", false},
		{"nonce at height", req("cowboy_getNonce", `["`+alice+`","0x1"]`), CodeInvalidParams, "params[1] (block)", false},
		{"height with leading zero", req("cowboy_getBlockByNumber", `["0x01"]`), CodeInvalidParams, "leading zero", false},
		{"height 0x", req("cowboy_getBlockByNumber", `["0x"]`), CodeInvalidParams, "no digits", false},
		{"height decimal string", req("cowboy_getBlockByNumber", `["12"]`), CodeInvalidParams, "0x-prefixed", false},
		{"height as JSON number", req("cowboy_getBlockByNumber", `[1]`), CodeInvalidParams, "params[0] (block)", false},
		{"height over 64 bits", req("cowboy_getBlockByNumber", `["0x10000000000000000"]`), CodeInvalidParams, "64 bits", false},
		{"pending block", req("cowboy_getBlockByNumber", `["pending"]`), CodeInvalidParams, "params[0] (block)", false},
		{"fullTx not a bool", req("cowboy_getBlockByNumber", `["latest","yes"]`), CodeInvalidParams, "params[1] (fullTx)", false},
		{"short hash", req("cowboy_getTransactionByHash", `["0x1234"]`), CodeInvalidParams, "params[0] (hash)", false},
		{"null hash", req("cowboy_getTransactionReceipt", `[null]`), CodeInvalidParams, "params[0] (hash): missing", false},
		{"block hash bad hex", req("cowboy_getBlockByHash", `["0x`+strings.Repeat("g", 64)+`"]`), CodeInvalidParams, "params[0] (hash)", false},
		{"raw tx not hex", req("cowboy_sendRawTransaction", `["0xzz"]`), CodeInvalidParams, "params[0] (transaction)", false},
		{"raw tx odd length", req("cowboy_sendRawTransaction", `["0x123"]`), CodeInvalidParams, "odd number", false},
		{"raw tx without 0x", req("cowboy_sendRawTransaction", `["00"]`), CodeInvalidParams, "0x-prefixed", false},
		{"raw tx not CBOR", req("cowboy_sendRawTransaction", `["0x00"]`), CodeTxRejected, "decode transaction", false},
		{"raw tx not canonical", req("cowboy_sendRawTransaction", `["`+Bytes(nonCanonical).String()+`"]`), CodeTxRejected, "decode transaction", false},
		{"raw tx unsigned", req("cowboy_sendRawTransaction", `["`+Bytes((&types.Tx{ChainID: testChainID, Payload: []byte{}}).Encode()).String()+`"]`), CodeTxRejected, "signature does not recover a sender", false},
		{"estimate unknown field", req("cowboy_estimateFees", `[{"paylaod":"0x"}]`), CodeInvalidParams, `unknown field "paylaod"`, false},
		{"estimate value leading zero", req("cowboy_estimateFees", `[{"to":"`+alice+`","value":"0x01"}]`), CodeInvalidParams, "leading zero", false},
		{"estimate value over 256 bits", req("cowboy_estimateFees", `[{"to":"`+alice+`","value":"0x1`+strings.Repeat("0", 64)+`"}]`), CodeInvalidParams, "256 bits", false},
		{"estimate not an object", req("cowboy_estimateFees", `["`+alice+`"]`), CodeInvalidParams, "want a JSON object", false},
		{"estimate actor creation", req("cowboy_estimateFees", `[{}]`), CodeTxRejected, "actor creation", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, srv, "application/json", tt.body)
			if status != http.StatusOK {
				t.Fatalf("HTTP %d: %s", status, body)
			}
			e, id := rpcErr(t, body)
			if e.Code != tt.code || !strings.Contains(e.Message, tt.contains) {
				t.Fatalf("got %d %q, want %d containing %q", e.Code, e.Message, tt.code, tt.contains)
			}
			if wantID := map[bool]string{true: "null", false: "1"}[tt.nullID]; string(id) != wantID {
				t.Fatalf("id = %s, want %s", id, wantID)
			}
		})
	}
}

func TestServerRejectionData(t *testing.T) {
	f := newFixture(t)
	srv, _ := serve(t, f.b, Options{})
	stale := signedTx(f.key, 0, &f.bob, 1, nil)
	_, body := post(t, srv, "application/json", req("cowboy_sendRawTransaction", `["`+Bytes(stale.Encode()).String()+`"]`))
	sameJSON(t, body, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"nonce 0 is too low: account `+f.alice.Hex()+` is at nonce 2","data":{"reason":"nonce_too_low"}}}`)
	_, body = post(t, srv, "application/json", req("cowboy_sendRawTransaction", `["0x00"]`))
	e, _ := rpcErr(t, body)
	if e.RejectReason() != "decode" {
		t.Fatalf("undecodable tx: reason %q, want decode (%s)", e.RejectReason(), body)
	}
}

func TestServerBatchesAndNotifications(t *testing.T) {
	f := newFixture(t)
	srv, _ := serve(t, f.b, Options{MaxBatch: 3})
	tests := []struct {
		name, body string
		status     int
		want       string // "" for no body
	}{
		{"notification", `{"jsonrpc":"2.0","method":"cowboy_chainId"}`, http.StatusNoContent, ""},
		{"notification of an unknown method", `{"jsonrpc":"2.0","method":"nope"}`, http.StatusNoContent, ""},
		{"batch in order, notification skipped", `[
			{"jsonrpc":"2.0","id":2,"method":"cowboy_blockNumber"},
			{"jsonrpc":"2.0","method":"cowboy_chainId"},
			{"jsonrpc":"2.0","id":1,"method":"cowboy_chainId"}]`, http.StatusOK,
			`[{"jsonrpc":"2.0","id":2,"result":"0x1"},{"jsonrpc":"2.0","id":1,"result":"0x1e61"}]`},
		{"batch of notifications", `[{"jsonrpc":"2.0","method":"cowboy_chainId"},{"jsonrpc":"2.0","method":"cowboy_chainId"}]`, http.StatusNoContent, ""},
		{"batch with invalid members", `[1,{"jsonrpc":"2.0","id":3,"method":"x"}]`, http.StatusOK,
			`[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: want a JSON object"}},{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"method \"x\" not found"}}]`},
		{"empty batch", `[]`, http.StatusOK, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: empty batch"}}`},
		{"batch over the cap", `[{},{},{},{}]`, http.StatusOK, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: batch of 4 requests exceeds the limit of 3"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, srv, "application/json", tt.body)
			if status != tt.status {
				t.Fatalf("HTTP %d, want %d: %s", status, tt.status, body)
			}
			if tt.want == "" {
				if len(body) != 0 {
					t.Fatalf("want no body, got %s", body)
				}
				return
			}
			sameJSON(t, body, tt.want)
		})
	}
	status, body := post(t, srv, "application/json", `[{"jsonrpc":"2.0","id":1,"method":"cowboy_chainId"}`)
	if status != http.StatusOK {
		t.Fatalf("truncated batch: HTTP %d", status)
	}
	if e, _ := rpcErr(t, body); e.Code != CodeParseError {
		t.Fatalf("truncated batch: code %d, want %d", e.Code, CodeParseError)
	}
}

func TestServerHTTP(t *testing.T) {
	f := newFixture(t)
	srv, _ := serve(t, f.b, Options{MaxBodyBytes: 512})
	ok := req("cowboy_chainId", "[]")
	tests := []struct {
		name, contentType, body string
		status                  int
	}{
		{"json with charset", "application/json; charset=utf-8", ok, http.StatusOK},
		{"text/plain", "text/plain", ok, http.StatusUnsupportedMediaType},
		{"form (curl's default)", "application/x-www-form-urlencoded", ok, http.StatusUnsupportedMediaType},
		{"no content type", "", ok, http.StatusUnsupportedMediaType},
		{"body over the cap", "application/json", `{"jsonrpc":"2.0","id":1,"method":"cowboy_chainId","params":[],"pad":"` + strings.Repeat("x", 600) + `"}`, http.StatusRequestEntityTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if status, body := post(t, srv, tt.contentType, tt.body); status != tt.status {
				t.Fatalf("HTTP %d, want %d: %s", status, tt.status, body)
			}
		})
	}
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != http.MethodPost {
		t.Fatalf("GET: HTTP %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

func TestServerBackendFailures(t *testing.T) {
	f := newFixture(t)
	srv, _ := serve(t, f.b, Options{})
	alice := types.Address(f.alice).Hex()

	f.b.failWith = errors.New("pebble: disk on fire")
	for _, body := range []string{
		req("cowboy_getBalance", `["`+alice+`"]`),
		req("cowboy_getBlockByNumber", `["0x1"]`),
		req("cowboy_totalSupply", `[]`),
		req("cowboy_getTransactionByHash", `["`+f.transfer.Hash().Hex()+`"]`),
		req("cowboy_sendRawTransaction", `["`+Bytes(signedTx(f.key, 3, &f.bob, 1, nil).Encode()).String()+`"]`),
	} {
		_, out := post(t, srv, "application/json", body)
		if e, _ := rpcErr(t, out); e.Code != CodeInternal || !strings.Contains(e.Message, "disk on fire") {
			t.Fatalf("%s: got %d %q, want -32603 naming the cause", body, e.Code, e.Message)
		}
	}
	f.b.failWith = nil

	// A panic answers -32603 for that request only; the batch and the
	// server go on.
	f.b.panicIn = "Account"
	_, out := post(t, srv, "application/json", `[`+req("cowboy_getBalance", `["`+alice+`"]`)+`,`+req("cowboy_chainId", `[]`)+`]`)
	var batch []json.RawMessage
	if err := json.Unmarshal(out, &batch); err != nil || len(batch) != 2 {
		t.Fatalf("batch after panic: %s", out)
	}
	if e, _ := rpcErr(t, batch[0]); e.Code != CodeInternal {
		t.Fatalf("panicking method: code %d", e.Code)
	}
	sameJSON(t, batch[1], `{"jsonrpc":"2.0","id":1,"result":"0x1e61"}`)
}

// keys lists an object's member names, sorted.
func keys(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not an object: %s", raw)
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sorted(s ...string) []string { sort.Strings(s); return s }

// TestJSONShapes pins the member names docs/rpc.md promises, and the
// null-versus-empty rules of the optional fields.
func TestJSONShapes(t *testing.T) {
	f := newFixture(t)
	srv, _ := serve(t, f.b, Options{})
	result := func(body string) json.RawMessage {
		_, out := post(t, srv, "application/json", body)
		var r struct{ Result json.RawMessage }
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatal(err)
		}
		return r.Result
	}
	txKeys := sorted("hash", "from", "chainId", "nonce", "to", "value", "cyclesLimit", "cellsLimit", "maxFeePerCycle",
		"maxFeePerCell", "tipPerCycle", "tipPerCell", "accessList", "payload", "signature", "blockHash", "blockNumber", "transactionIndex")

	block := result(req("cowboy_getBlockByNumber", `["0x1",true]`))
	if got, want := keys(t, block), sorted("hash", "parentHash", "height", "time", "proposer", "stateRoot", "txRoot",
		"receiptsRoot", "basefeeCycle", "basefeeCell", "cyclesUsed", "cellsUsed", "status", "transactions"); !reflect.DeepEqual(got, want) {
		t.Fatalf("block keys %v, want %v", got, want)
	}
	var b struct{ Transactions []json.RawMessage }
	if err := json.Unmarshal(block, &b); err != nil || len(b.Transactions) != 2 {
		t.Fatalf("block transactions: %s", block)
	}
	if got := keys(t, b.Transactions[0]); !reflect.DeepEqual(got, txKeys) {
		t.Fatalf("tx keys %v, want %v", got, txKeys)
	}
	genesis := result(req("cowboy_getBlockByNumber", `["earliest"]`))
	if !bytes.Contains(genesis, []byte(`"transactions":[]`)) {
		t.Fatalf("empty block must list [] transactions: %s", genesis)
	}

	var tx0, tx1 map[string]json.RawMessage
	json.Unmarshal(b.Transactions[0], &tx0)
	json.Unmarshal(b.Transactions[1], &tx1)
	if string(tx0["accessList"]) != "null" || string(tx0["payload"]) != `"0x"` {
		t.Fatalf("tx without access list: accessList %s payload %s", tx0["accessList"], tx0["payload"])
	}
	wantAL := fmt.Sprintf(`[{"address":"%s","storageKeys":["0x01%s","0x02%s"]}]`, f.bob.Hex(), strings.Repeat("0", 62), strings.Repeat("0", 62))
	sameJSON(t, tx1["accessList"], wantAL)
	if string(tx1["payload"]) != `"0x80"` {
		t.Fatalf("payload %s", tx1["payload"])
	}
	var sig map[string]string
	json.Unmarshal(tx0["signature"], &sig)
	if len(sig) != 3 || len(sig["r"]) != 66 || len(sig["s"]) != 66 || (sig["yParity"] != "0x0" && sig["yParity"] != "0x1") {
		t.Fatalf("signature %s", tx0["signature"])
	}

	pending := result(req("cowboy_getTransactionByHash", `["`+f.pending.Hash().Hex()+`"]`))
	var p map[string]json.RawMessage
	json.Unmarshal(pending, &p)
	for _, k := range []string{"blockHash", "blockNumber", "transactionIndex"} {
		if string(p[k]) != "null" {
			t.Fatalf("pending tx %s = %s, want null", k, p[k])
		}
	}

	receipt := result(req("cowboy_getTransactionReceipt", `["`+f.failed.Hash().Hex()+`"]`))
	if got, want := keys(t, receipt), sorted("transactionHash", "blockHash", "blockNumber", "transactionIndex", "from", "to",
		"status", "cyclesUsed", "cellsUsed", "fee", "burned", "tip", "returnData", "events", "error"); !reflect.DeepEqual(got, want) {
		t.Fatalf("receipt keys %v, want %v", got, want)
	}
	if !bytes.Contains(receipt, []byte(`"events":[]`)) || !bytes.Contains(receipt, []byte(`"status":"0x0"`)) {
		t.Fatalf("failed receipt: %s", receipt)
	}
	ok := result(req("cowboy_getTransactionReceipt", `["`+f.transfer.Hash().Hex()+`"]`))
	if !bytes.Contains(ok, []byte(`"error":""`)) || !bytes.Contains(ok, []byte(`"returnData":"0x"`)) ||
		!bytes.Contains(ok, []byte(`"events":[{"address":"`+f.bob.Hex()+`","name":"Paid","data":"0x0102"}]`)) {
		t.Fatalf("successful receipt: %s", ok)
	}
}

func TestActorCreationTxJSON(t *testing.T) {
	f := newFixture(t)
	tx := signedTx(f.key, 9, nil, 0, func(tx *types.Tx) { tx.Payload = []byte{0x40} })
	j, err := NewTxJSON(tx, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"to":null`)) {
		t.Fatalf("actor creation: %s", out)
	}
	var back TxJSON
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	rebuilt, err := back.Tx()
	if err != nil || rebuilt.Hash() != tx.Hash() || rebuilt.To != nil {
		t.Fatalf("round trip: %v", err)
	}
	back.Nonce++
	if _, err := back.Tx(); err == nil {
		t.Fatal("a tampered transaction must not rebuild")
	}
}

// flipCase swaps the case of the first hex letter of an EIP-55 address,
// which breaks its checksum while keeping it mixed-case.
func flipCase(addr string) string {
	b := []byte(addr)
	for i := 2; i < len(b); i++ {
		switch {
		case b[i] >= 'a' && b[i] <= 'f':
			b[i] -= 32
			return string(b)
		case b[i] >= 'A' && b[i] <= 'F':
			b[i] += 32
			return string(b)
		}
	}
	panic("address has no hex letters: " + addr)
}

// TestTxErrorUnwraps: a node may wrap its typed refusal with context; the
// reason must still reach the client, and an untyped failure is internal.
func TestTxErrorUnwraps(t *testing.T) {
	e := txError(fmt.Errorf("mempool: add: %w", &rejectErr{"insufficient_funds", "account holds 0 base units"}))
	if e.Code != CodeTxRejected || e.RejectReason() != "insufficient_funds" ||
		e.Message != "mempool: add: account holds 0 base units" {
		t.Fatalf("wrapped rejection: %+v", e)
	}
	if e := txError(errors.New("store closed")); e.Code != CodeInternal || e.RejectReason() != "" {
		t.Fatalf("untyped failure: %+v", e)
	}
}

// TestFullBlockWithBrokenTx: converting a full block runs on worker
// goroutines; a broken transaction there must be an error, not a crash.
func TestFullBlockWithBrokenTx(t *testing.T) {
	f := newFixture(t)
	if _, err := convertTx(nil, nil); err == nil || !strings.Contains(err.Error(), "panic") {
		t.Fatalf("convertTx(nil) = %v, want the panic as an error", err)
	}
	unsigned := &types.Tx{ChainID: testChainID, Payload: []byte{}}
	b := &types.Block{Header: f.b.blocks[1].Header, Txs: []*types.Tx{f.transfer, f.failed, unsigned}}
	if _, err := NewBlockJSON(b, true); err == nil || !strings.Contains(err.Error(), "tx 2") {
		t.Fatalf("err = %v, want one naming tx 2", err)
	}
	b.Txs = []*types.Tx{f.transfer, f.failed}
	out, err := NewBlockJSON(b, true)
	if err != nil || len(out.Transactions.Full) != 2 || types.Hash(out.Transactions.Full[1].Hash) != f.failed.Hash() {
		t.Fatalf("full block: %v", err)
	}
}
