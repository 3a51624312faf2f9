package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/crypto"
)

// startRelays runs n in-process relays on loopback and writes their list.
func startRelays(t *testing.T, n int) string {
	t.Helper()
	var lines []string
	for i := 0; i < n; i++ {
		k, _ := crypto.GenerateKey()
		srv, err := relay.New(relay.Config{Dir: t.TempDir(), Listen: "127.0.0.1:0", Key: k})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		id := srv.ID()
		lines = append(lines, "0x"+bytesHex(id[:])+"@"+srv.Addr())
	}
	f := filepath.Join(t.TempDir(), "relays.txt")
	if err := os.WriteFile(f, []byte("# test relays\n"+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func bytesHex(b []byte) string {
	const hexd = "0123456789abcdef"
	out := make([]byte, 2*len(b))
	for i, c := range b {
		out[2*i], out[2*i+1] = hexd[c>>4], hexd[c&15]
	}
	return string(out)
}

// TestVolumeCommands runs the user's path of docs/cbfs.md: create, put,
// ls, get, grant a prefix-scoped read token, open it as the holder, read
// inside and fail outside the prefix, revoke, fail.
func TestVolumeCommands(t *testing.T) {
	h := newHarness(t, 7777)
	relays := startRelays(t, 6)
	ownerDir, holderDir := t.TempDir(), t.TempDir()
	t.Setenv(envVolumes, ownerDir)
	h.ok("volume", "create", "logs", "--k", "4", "--m", "2", "--segment-size", "64KiB", "--relays", relays, "--from", "dev0")
	h.fails([]string{"volume", "create", "logs", "--relays", relays, "--from", "dev0"}, "already exists")

	data := make([]byte, 300<<10)
	r := rand.New(rand.NewPCG(5, 5))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	src := filepath.Join(t.TempDir(), "audit.jsonl")
	mustWrite(t, src, data, 0o644)
	out := h.ok("volume", "put", "logs", src, "--from", "dev0")
	if !strings.Contains(out, "stored audit.jsonl: 307200 bytes in 5 segments") {
		t.Fatalf("put: %s", out)
	}
	h.ok("volume", "put", "logs", src, "--as", "reports/q3.jsonl", "--from", "dev0")
	ls := h.ok("volume", "ls", "logs", "--from", "dev0")
	if !strings.Contains(ls, "audit.jsonl") || !strings.Contains(ls, "reports/q3.jsonl") {
		t.Fatalf("ls: %s", ls)
	}
	dst := filepath.Join(t.TempDir(), "out.jsonl")
	h.ok("volume", "get", "logs", "audit.jsonl", "-o", dst, "--from", "dev0")
	if got, _ := os.ReadFile(dst); !bytes.Equal(got, data) {
		t.Fatal("get returned other bytes")
	}
	h.fails([]string{"volume", "get", "logs", "nope", "--from", "dev0"}, "no such file")

	// mv renames without moving shards: the old name is gone, the new one
	// reads back the same bytes, and renaming a missing file fails.
	if out := h.ok("volume", "mv", "logs", "audit.jsonl", "old/audit.jsonl", "--from", "dev0"); !strings.Contains(out, "renamed audit.jsonl to old/audit.jsonl (307200 bytes") {
		t.Fatalf("mv: %s", out)
	}
	h.fails([]string{"volume", "get", "logs", "audit.jsonl", "--from", "dev0"}, "no such file")
	h.fails([]string{"volume", "mv", "logs", "audit.jsonl", "x", "--from", "dev0"}, "no such file")
	h.fails([]string{"volume", "mv", "logs", "old/audit.jsonl", "--from", "dev0"}, "needs DST")
	h.ok("volume", "mv", "logs", "old/audit.jsonl", "audit.jsonl", "--from", "dev0")
	if got := h.ok("volume", "get", "logs", "audit.jsonl", "--from", "dev0"); got != string(data) {
		t.Fatal("get after mv and back returned other bytes")
	}

	var g struct {
		Token, ID string
		Expiry    uint64
	}
	decodeJSON(t, h.ok("--json", "volume", "grant", "logs", "--to", "dev1", "--read", "--prefix", "reports/", "--ttl", "1h", "--from", "dev0"), &g)
	cfg, _ := os.ReadFile(filepath.Join(ownerDir, "logs.json"))
	var vc volumeConfig
	json.Unmarshal(cfg, &vc)

	t.Setenv(envVolumes, holderDir)
	h.ok("volume", "open", "logs", "--token", g.Token, "--key", vc.Key, "--relays", relays)
	dst2 := filepath.Join(t.TempDir(), "q3.jsonl")
	h.ok("volume", "get", "logs", "reports/q3.jsonl", "-o", dst2, "--from", "dev1")
	if got, _ := os.ReadFile(dst2); !bytes.Equal(got, data) {
		t.Fatal("holder read other bytes")
	}
	h.fails([]string{"volume", "get", "logs", "audit.jsonl", "--from", "dev1"}, "outside the token's prefix")
	h.fails([]string{"volume", "put", "logs", src, "--as", "reports/new", "--from", "dev1"}, "does not allow")
	if ls := h.ok("volume", "ls", "logs", "--from", "dev1"); strings.Contains(ls, "audit.jsonl") || !strings.Contains(ls, "reports/q3.jsonl") {
		t.Fatalf("holder ls shows files outside its prefix: %s", ls)
	}
	h.fails([]string{"volume", "get", "logs", "reports/q3.jsonl", "--from", "dev2"}, "bound to another holder")

	t.Setenv(envVolumes, ownerDir)
	if out := h.ok("volume", "revoke", "logs", g.Token, "--from", "dev0"); !strings.Contains(out, "on 6 of 6 relays") {
		t.Fatalf("revoke: %s", out)
	}
	t.Setenv(envVolumes, holderDir)
	h.fails([]string{"volume", "get", "logs", "reports/q3.jsonl", "--from", "dev1"}, "revoked")
}
