package daemon

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

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
	me := rpc.Address(key.Address()).String()
	for _, tt := range []struct {
		name    string
		jobs    string // the result of cowboy_getJobs (ME: the daemon's address)
		runner  string // the JSON-RPC response body's tail for cowboy_getRunner
		wantErr string
		wantJob executor.Job // what the executor was given (ID 0: not called)
	}{
		{"not registered", `[]`, `"result":null`, "", executor.Job{}},
		{"record unreadable", `[]`, `"error":{"code":-32000,"message":"state read failed"}`, "runner record", executor.Job{}},
		{"a job of its own is executed as posted",
			`[{"id":"0x7","kind":"llm","model":"sim-1","input":{"prompt":"p"},"maxTokens":"0x20","maxWallMs":"0x5dc","seed":"0x9","members":["ME"],"phase":"committing"}]`,
			`"result":null`, "job 7: commit", executor.Job{ID: 7, Kind: "llm", Model: "sim-1", MaxTokens: 32, Seed: 9, MaxWall: 1500 * time.Millisecond}},
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
					tail = `"result":"0x1"`
				case "cowboy_getJobs":
					tail = `"result":` + strings.ReplaceAll(tt.jobs, "ME", me)
				case "cowboy_getRunner":
					tail = tt.runner
				}
				w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,` + tail + `}`))
			}))
			defer srv.Close()
			var got executor.Job
			exec := executor.Kinds{"llm": recorder(func(j executor.Job) { got = j })}
			d, err := Open(Config{Home: filepath.Join(t.TempDir(), "d"), Key: key, RPC: rpc.Dial(srv.URL), Exec: exec,
				Log: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			err = d.Tick(context.Background())
			if (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("tick: %v, want %q", err, tt.wantErr)
			}
			got.Input = nil
			if !reflect.DeepEqual(got, tt.wantJob) {
				t.Fatalf("executed %+v, want %+v", got, tt.wantJob)
			}
		})
	}
}

// recorder is an executor that records the job it is given.
type recorder func(executor.Job)

func (r recorder) Execute(_ context.Context, j executor.Job) executor.Result {
	r(j)
	return executor.Result{Status: 0, Output: []byte("ok"), Usage: 1}
}
