package daemon

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/runner/executor"
)

// TestTickReportsOthers: a tick with no job of its own still reports a
// failure to read the runner's record (the watch and collect step), and
// an unregistered runner (no record) is not a failure. The chain is a
// stand-in JSON-RPC server.
func TestTickReportsOthers(t *testing.T) {
	kb := crypto.Keccak256([]byte("daemon-tick-test"))
	key, err := crypto.PrivateKeyFromBytes(kb[:])
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		runner  string // the JSON-RPC response body's tail for cowboy_getRunner
		wantErr string
	}{
		{"not registered", `"result":null`, ""},
		{"record unreadable", `"error":{"code":-32000,"message":"state read failed"}`, "runner record"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var req struct {
					ID     json.RawMessage `json:"id"`
					Method string          `json:"method"`
				}
				if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
					w.WriteHeader(400)
					return
				}
				tail := `"error":{"code":-32601,"message":"no such method"}`
				switch req.Method {
				case "cowboy_chainId":
					tail = `"result":"0x1"`
				case "cowboy_blockNumber":
					tail = `"result":"0x5"`
				case "cowboy_getJobs":
					tail = `"result":[]`
				case "cowboy_getRunner":
					tail = tt.runner
				}
				w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,` + tail + `}`))
			}))
			defer srv.Close()
			d, err := Open(Config{Home: filepath.Join(t.TempDir(), "d"), Key: key, RPC: rpc.Dial(srv.URL), Exec: executor.Kinds{},
				Log: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			err = d.Tick(context.Background())
			if (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("tick: %v, want %q", err, tt.wantErr)
			}
		})
	}
}
