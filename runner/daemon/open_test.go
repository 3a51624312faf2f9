package daemon

import (
	"log/slog"
	"math/big"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/runner/executor"
)

// TestOpenConfig pins Open's defaults and refusals without a chain: the
// poll interval and logger filled in only when unset, the fault names,
// and a payout refused without a reserve of at least MinSweep.
func TestOpenConfig(t *testing.T) {
	kb := crypto.Keccak256([]byte("daemon-open-test"))
	key, err := crypto.PrivateKeyFromBytes(kb[:])
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.DiscardHandler)
	payout := types.Address{1}
	below := new(big.Int).Sub(MinSweep, big.NewInt(1))
	tests := []struct {
		name     string
		cfg      Config
		wantErr  string
		wantPoll time.Duration
		ownLog   bool
	}{
		{"defaults", Config{}, "", 200 * time.Millisecond, false},
		{"poll and logger kept", Config{Poll: time.Millisecond, Log: logger}, "", time.Millisecond, true},
		{"push server", Config{Listen: "127.0.0.1:0"}, "", 200 * time.Millisecond, false},
		{"negative poll", Config{Poll: -1}, "", 200 * time.Millisecond, false},
		{"fault lie", Config{Fault: FaultLie}, "", 200 * time.Millisecond, false},
		{"fault timeout", Config{Fault: FaultTimeout}, "", 200 * time.Millisecond, false},
		{"unknown fault", Config{Fault: "crash"}, `fault "crash"`, 0, false},
		{"payout with exactly MinSweep kept", Config{Payout: payout, Keep: new(big.Int).Set(MinSweep)}, "", 200 * time.Millisecond, false},
		{"payout below MinSweep", Config{Payout: payout, Keep: below}, "a payout needs a reserve", 0, false},
		{"payout without keep", Config{Payout: payout}, "a payout needs a reserve", 0, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.Home = filepath.Join(t.TempDir(), "d")
			cfg.Key, cfg.RPC, cfg.Exec = key, rpc.Dial("http://127.0.0.1:1"), executor.Kinds{}
			d, err := Open(cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("row %d: err %v, want %q", i, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.cfg.Poll != tt.wantPoll || d.cfg.Log == nil || (d.cfg.Log == logger) != tt.ownLog || d.cfg.Keep == nil {
				t.Fatalf("poll %v log %p keep %v, want poll %v", d.cfg.Poll, d.cfg.Log, d.cfg.Keep, tt.wantPoll)
			}
			// /status names the payout address only when one is set.
			if want := map[bool]string{true: payout.Hex()}[cfg.Payout == payout]; d.Status().Payout != want {
				t.Fatalf("status payout %q, want %q", d.Status().Payout, want)
			}
			url := d.URL()
			if (url != "") != (cfg.Listen != "") || (url != "" && !strings.HasPrefix(url, "http://127.0.0.1:")) {
				t.Fatalf("URL %q with listen %q", url, cfg.Listen)
			}
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			if url != "" {
				if resp, err := http.Get(url + "status"); err == nil {
					resp.Body.Close()
					t.Fatal("the push server still answers after Close")
				}
			}
		})
	}
	if _, err := Open(Config{Home: t.TempDir(), Key: key}); err == nil {
		t.Fatal("Open without rpc and executor succeeded")
	}
}
