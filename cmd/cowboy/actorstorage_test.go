package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestActorStorage lists an actor's storage whole, in --limit pages joined
// by --cursor, and as JSON; bad flags and an address without code fail.
func TestActorStorage(t *testing.T) {
	h := devnetHarness(t)
	src := filepath.Join(t.TempDir(), "main.py")
	mustWrite(t, src, []byte(`from cowboy_sdk import actor, put_blob


@actor
class Many:
    def __init__(self):
        for i in range(1, 6):
            self.storage["k%d" % i] = [i, "v"]
        put_blob(b"blob")
`), 0o644)
	var dep, dep2 struct{ ContractAddress string }
	if err := json.Unmarshal([]byte(h.ok("actor", "deploy", src, "--from", "dev0", "--json")), &dep); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(t.TempDir(), "main.py")
	mustWrite(t, plain, []byte(scaffoldMain), 0o644)
	if err := json.Unmarshal([]byte(h.ok("actor", "deploy", plain, "--from", "dev0", "--json")), &dep2); err != nil {
		t.Fatal(err)
	}

	out := h.ok("actor", "storage", dep.ContractAddress)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 6 || !strings.Contains(out, `"k3" = [3,"v"]`) || !strings.HasPrefix(lines[5], "[blob] \"0x1e20") {
		t.Fatalf("storage:\n%s", out)
	}
	if out := h.ok("actor", "storage", dep2.ContractAddress); !strings.HasPrefix(out, `[attributes] "__dict__" = {`) {
		t.Fatalf("a plain actor's storage:\n%s", out)
	}

	// Pages of 2 joined by their cursors list the same lines.
	var joined []string
	args := []string{"actor", "storage", dep.ContractAddress, "--limit", "2"}
	for pages := 0; ; pages++ {
		r := h.run(args...)
		if r.code != 0 || pages > 3 {
			t.Fatalf("%v: exit %d after %d pages\n%s", args, r.code, pages, r.stderr)
		}
		joined = append(joined, strings.Split(strings.TrimSpace(r.stdout), "\n")...)
		_, cursor, more := strings.Cut(r.stderr, "--cursor ")
		if !more {
			break
		}
		args = []string{"actor", "storage", dep.ContractAddress, "--limit", "2", "--cursor", strings.TrimSuffix(strings.TrimSpace(cursor), ")")}
	}
	if strings.Join(joined, "\n") != strings.Join(lines, "\n") {
		t.Fatalf("pages of 2:\n%s\nwhole:\n%s", strings.Join(joined, "\n"), out)
	}

	var v struct {
		Entries []struct {
			Namespace uint64
			Key       json.RawMessage
			Value     json.RawMessage
			KeyHex    string
			ValueHex  string
		}
		Next *string
	}
	decodeJSON(t, h.ok("actor", "storage", dep.ContractAddress, "--limit", "5", "--json"), &v)
	if len(v.Entries) != 5 || v.Next == nil || v.Entries[0].Namespace != 0 || !strings.HasPrefix(v.Entries[0].KeyHex, "0x626b") || !strings.HasPrefix(v.Entries[0].ValueHex, "0x82") {
		t.Fatalf("--json: %+v", v)
	}

	dev5 := "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc"
	h.fails([]string{"actor", "storage", "dev5"}, "no actor at "+dev5)
	h.fails([]string{"actor", "storage", dep.ContractAddress, "--limit", "0"}, "--limit 0")
	h.fails([]string{"actor", "storage", dep.ContractAddress, "--limit", "x"}, "--limit")
	h.fails([]string{"actor", "storage", dep.ContractAddress, "--cursor", "0x12"}, "a cursor is 33 bytes")
	h.fails([]string{"actor", "storage", dep.ContractAddress, "--cursor", "zz"}, "--cursor")
}
