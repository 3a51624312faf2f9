package main

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDevnetPortInUse: a devnet that cannot listen says which flag picks
// another port, and removes the home it had just made, so the next try
// does not find a half-started chain (issue 16).
func TestDevnetPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	home := filepath.Join(t.TempDir(), "devnet")
	var out, errb bytes.Buffer
	root := newRoot(&out, &errb)
	root.SetArgs([]string{"devnet", "--home", home, "--rpc", ln.Addr().String(), "--log-level", "error"})
	err = root.Execute()
	if err == nil || !strings.Contains(err.Error(), "address already in use") || !strings.Contains(err.Error(), "--rpc 127.0.0.1:PORT") {
		t.Fatalf("start on a busy port: %v", err)
	}
	if _, serr := os.Stat(home); !os.IsNotExist(serr) {
		t.Fatalf("the failed start left %s behind (%v)", home, serr)
	}

	// An existing home is never removed, whatever fails.
	keep := t.TempDir()
	root = newRoot(&out, &errb)
	root.SetArgs([]string{"devnet", "--home", keep, "--rpc", ln.Addr().String(), "--log-level", "error"})
	if err := root.Execute(); err == nil {
		t.Fatal("want an error")
	}
	if _, serr := os.Stat(keep); serr != nil {
		t.Fatalf("existing home removed: %v", serr)
	}
}

// TestLogFormat: --log-format json writes one JSON object per line, with
// the record's attributes as fields.
func TestLogFormat(t *testing.T) {
	var buf bytes.Buffer
	log, err := newLogger(&buf, "json", slog.LevelInfo)
	if err != nil {
		t.Fatal(err)
	}
	log.Warn("stopping with pending transactions", "dropped", 3)
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil || rec["msg"] != "stopping with pending transactions" || rec["dropped"] != float64(3) || rec["level"] != "WARN" {
		t.Fatalf("json log %q: %v", buf.String(), err)
	}
	if _, err := newLogger(&buf, "yaml", slog.LevelInfo); err == nil || !strings.Contains(err.Error(), "--log-format \"yaml\"") {
		t.Fatalf("bad format: %v", err)
	}
	root := newRoot(&buf, &buf)
	root.SetArgs([]string{"devnet", "--home", t.TempDir(), "--log-format", "xml"})
	if err := root.Execute(); err == nil || !strings.Contains(err.Error(), "want text or json") {
		t.Fatalf("devnet --log-format xml: %v", err)
	}
}
