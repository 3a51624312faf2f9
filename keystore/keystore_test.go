package keystore

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// light scrypt parameters keep the tests fast; the format is the same.
func openTest(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "keys"), WithScryptParams(1<<4, 8, 1))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A fixed key and its address, computed by the crypto package.
const testKeyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

func testAddress(t *testing.T) types.Address {
	t.Helper()
	b, _ := hex.DecodeString(testKeyHex)
	k, err := crypto.PrivateKeyFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return types.Address(k.Address())
}

func TestNewLoadListShow(t *testing.T) {
	s := openTest(t)
	addr, err := s.New("alice", "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	k, err := s.Load("alice", "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if types.Address(k.Address()) != addr {
		t.Fatalf("loaded key has address %s, New returned %s", types.Address(k.Address()), addr)
	}
	if got, err := s.Show("alice"); err != nil || got != addr {
		t.Fatalf("Show = %s, %v; want %s", got, err, addr)
	}
	bob, err := s.Import("bob", testKeyHex, "pw")
	if err != nil {
		t.Fatal(err)
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != "alice" || list[0].Address != addr || list[1].Name != "bob" || list[1].Address != bob {
		t.Fatalf("List = %+v", list)
	}
	for _, e := range list {
		if e.Err != nil {
			t.Errorf("List entry %s: %v", e.Name, e.Err)
		}
	}
}

func TestImportExportRoundTrip(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"plain", testKeyHex},
		{"prefixed", "0x" + testKeyHex},
		{"upper_prefix", "0X" + strings.ToUpper(testKeyHex)},
		{"newline", testKeyHex + "\n"},
		{"spaces", "  " + testKeyHex + "\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openTest(t)
			addr, err := s.Import("k", tc.in, "pw")
			if err != nil {
				t.Fatal(err)
			}
			if addr != testAddress(t) {
				t.Fatalf("Import address %s, want %s", addr, testAddress(t))
			}
			out, err := s.Export("k", "pw")
			if err != nil {
				t.Fatal(err)
			}
			if out != testKeyHex {
				t.Fatalf("Export = %s, want %s", out, testKeyHex)
			}
		})
	}
}

func TestImportRejectsBadKeys(t *testing.T) {
	order := "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141" // the curve order n
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "want 64 hex digits, got 0"},
		{"short", testKeyHex[:62], "want 64 hex digits, got 62"},
		{"long", testKeyHex + "00", "want 64 hex digits, got 66"},
		{"not_hex", "zz" + testKeyHex[2:], "not hexadecimal"},
		{"zero", strings.Repeat("0", 64), "zero or not below the curve order"},
		{"order", order, "zero or not below the curve order"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openTest(t)
			_, err := s.Import("k", tc.in, "pw")
			if !errors.Is(err, ErrInvalidKey) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Import error %v, want ErrInvalidKey mentioning %q", err, tc.want)
			}
			if len(tc.in) > 8 && strings.Contains(err.Error(), tc.in[2:10]) {
				t.Fatalf("error %q quotes the key material", err)
			}
			if _, err := s.Show("k"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("a refused import left a file behind: %v", err)
			}
		})
	}
}

func TestWrongPassphrase(t *testing.T) {
	s := openTest(t)
	if _, err := s.Import("alice", testKeyHex, "right"); err != nil {
		t.Fatal(err)
	}
	for _, pass := range []string{"wrong", "", "right "} {
		_, err := s.Load("alice", pass)
		if !errors.Is(err, ErrWrongPassphrase) {
			t.Fatalf("Load with %q: %v, want ErrWrongPassphrase", pass, err)
		}
		if err.Error() != "wrong passphrase for key alice" {
			t.Fatalf("error text %q", err)
		}
		if _, err := s.Export("alice", pass); !errors.Is(err, ErrWrongPassphrase) {
			t.Fatalf("Export with %q: %v", pass, err)
		}
	}
}

func TestNamesAndCreationRules(t *testing.T) {
	s := openTest(t)
	if _, err := s.New("taken", "pw"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, pass string
		want       error
	}{
		{"", "pw", ErrInvalidName},
		{"../evil", "pw", ErrInvalidName},
		{"a/b", "pw", ErrInvalidName},
		{"with space", "pw", ErrInvalidName},
		{"dot.json", "pw", ErrInvalidName},
		{"émile", "pw", ErrInvalidName},
		{strings.Repeat("x", 65), "pw", ErrInvalidName},
		{"dev0", "pw", ErrReservedName},
		{"dev9", "pw", ErrReservedName},
		{"fresh", "", ErrEmptyPassphrase},
		{"taken", "pw", ErrExists},
	} {
		if _, err := s.New(tc.name, tc.pass); !errors.Is(err, tc.want) {
			t.Errorf("New(%q): %v, want %v", tc.name, err, tc.want)
		}
		if _, err := s.Import(tc.name, testKeyHex, tc.pass); !errors.Is(err, tc.want) {
			t.Errorf("Import(%q): %v, want %v", tc.name, err, tc.want)
		}
	}
	// Allowed edge cases: 64 characters, dashes, underscores, and names
	// that merely start like the reserved ones.
	for _, name := range []string{strings.Repeat("x", 64), "a-b_C9", "dev10", "dev", "Dev0", "devx"} {
		if _, err := s.New(name, "pw"); err != nil {
			t.Errorf("New(%q): %v", name, err)
		}
	}
	if _, err := s.Show("nobody"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Show(nobody): %v, want ErrNotFound", err)
	}
	if _, err := s.Load("../taken", "pw"); !errors.Is(err, ErrInvalidName) {
		t.Errorf("Load(../taken): %v, want ErrInvalidName", err)
	}
}

func TestFilePermissionsAndFormat(t *testing.T) {
	s := openTest(t)
	addr, err := s.Import("alice", testKeyHex, "pw")
	if err != nil {
		t.Fatal(err)
	}
	di, err := os.Stat(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("keystore dir mode %v, want 0700", di.Mode().Perm())
	}
	path := filepath.Join(s.Dir(), "alice.json")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(s.Dir())
	if len(entries) != 1 {
		t.Errorf("keystore holds %d entries, want only alice.json (no temp files)", len(entries))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ToLower(string(data)), testKeyHex) {
		t.Fatal("key file contains the private key in the clear")
	}
	var j map[string]any
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	if j["version"] != float64(1) || j["address"] != addr.Hex() {
		t.Fatalf("version/address in file: %v %v", j["version"], j["address"])
	}
	kdf := j["kdf"].(map[string]any)
	ciph := j["cipher"].(map[string]any)
	if kdf["name"] != "scrypt" || kdf["n"] != float64(16) || ciph["name"] != "aes-256-gcm" {
		t.Fatalf("kdf %v cipher %v", kdf, ciph)
	}
	if len(ciph["nonce"].(string)) != 24 || len(ciph["ciphertext"].(string)) != 96 || len(kdf["salt"].(string)) != 64 {
		t.Fatalf("field sizes: %v %v", kdf, ciph)
	}
}

// Real keys use N = 2^15; a key written with the defaults opens.
func TestDefaultScryptParams(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Import("k", testKeyHex, "pw"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(s.Dir(), "k.json"))
	var j fileJSON
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	if j.KDF.N != 1<<15 || j.KDF.R != 8 || j.KDF.P != 1 {
		t.Fatalf("default scrypt params %+v", j.KDF)
	}
	if out, err := s.Export("k", "pw"); err != nil || out != testKeyHex {
		t.Fatalf("Export = %q, %v", out, err)
	}
}

// Every edit of a key file makes it fail to load, with ErrDamaged rather
// than a wrong-passphrase error or, worse, a different key.
func TestTamperedFile(t *testing.T) {
	flipHex := func(s string) string {
		b := []byte(s)
		if b[0] == '0' {
			b[0] = '1'
		} else {
			b[0] = '0'
		}
		return string(b)
	}
	other := types.Address{0x01, 0x02}
	for _, tc := range []struct {
		name   string
		mutate func(j *fileJSON)
		fix    bool // recompute the checksum, as a deliberate forger would
		want   error
	}{
		{"ciphertext", func(j *fileJSON) { j.Cipher.Ciphertext = flipHex(j.Cipher.Ciphertext) }, false, ErrDamaged},
		{"nonce", func(j *fileJSON) { j.Cipher.Nonce = flipHex(j.Cipher.Nonce) }, false, ErrDamaged},
		{"salt", func(j *fileJSON) { j.KDF.Salt = flipHex(j.KDF.Salt) }, false, ErrDamaged},
		{"address", func(j *fileJSON) { j.Address = other.Hex() }, false, ErrDamaged},
		{"n", func(j *fileJSON) { j.KDF.N = 32 }, false, ErrDamaged},
		{"checksum", func(j *fileJSON) { j.Checksum = flipHex(j.Checksum) }, false, ErrDamaged},
		{"version", func(j *fileJSON) { j.Version = 2 }, false, ErrDamaged},
		{"cipher_name", func(j *fileJSON) { j.Cipher.Name = "aes-128-cbc" }, false, ErrDamaged},
		{"short_ciphertext", func(j *fileJSON) { j.Cipher.Ciphertext = j.Cipher.Ciphertext[:64] }, false, ErrDamaged},
		{"huge_n", func(j *fileJSON) { j.KDF.N = 1 << 30 }, false, ErrDamaged},
		{"n_not_power_of_two", func(j *fileJSON) { j.KDF.N = 17 }, false, ErrDamaged},
		// A forger who recomputes the checksum still cannot get past GCM:
		// the swapped address is authenticated data.
		{"address_forged", func(j *fileJSON) { j.Address = other.Hex() }, true, ErrWrongPassphrase},
		{"ciphertext_forged", func(j *fileJSON) { j.Cipher.Ciphertext = flipHex(j.Cipher.Ciphertext) }, true, ErrWrongPassphrase},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openTest(t)
			if _, err := s.Import("alice", testKeyHex, "pw"); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(s.Dir(), "alice.json")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var j fileJSON
			if err := json.Unmarshal(data, &j); err != nil {
				t.Fatal(err)
			}
			tc.mutate(&j)
			if tc.fix {
				f, err := parseFileUnchecked(j)
				if err != nil {
					t.Fatal(err)
				}
				j.Checksum = hex.EncodeToString(f.checksum())
			}
			data, _ = json.Marshal(j)
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			k, err := s.Load("alice", "pw")
			if !errors.Is(err, tc.want) {
				t.Fatalf("Load of tampered file: key %v, error %v; want %v", k != nil, err, tc.want)
			}
		})
	}
}

// parseFileUnchecked builds a keyFile from JSON without the checks, so a
// test can compute the checksum of a forged file.
func parseFileUnchecked(j fileJSON) (*keyFile, error) {
	addr, err := types.ParseAddress(j.Address)
	if err != nil {
		return nil, err
	}
	f := &keyFile{addr: addr, n: j.KDF.N, r: j.KDF.R, p: j.KDF.P}
	if f.salt, err = hex.DecodeString(j.KDF.Salt); err != nil {
		return nil, err
	}
	if f.nonce, err = hex.DecodeString(j.Cipher.Nonce); err != nil {
		return nil, err
	}
	if f.ciphertext, err = hex.DecodeString(j.Cipher.Ciphertext); err != nil {
		return nil, err
	}
	return f, nil
}

func TestGarbageFiles(t *testing.T) {
	for _, tc := range []struct{ name, content string }{
		{"empty", ""},
		{"not_json", "hello"},
		{"array", "[]"},
		{"unknown_field", `{"version":1,"extra":true}`},
		{"huge", `{"version":1,"address":"` + strings.Repeat("a", maxFileSize) + `"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openTest(t)
			if _, err := s.New("good", "pw"); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(s.Dir(), "bad.json"), []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Show("bad"); !errors.Is(err, ErrDamaged) {
				t.Fatalf("Show(bad): %v, want ErrDamaged", err)
			}
			list, err := s.List()
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 2 || list[0].Name != "bad" || !errors.Is(list[0].Err, ErrDamaged) || list[1].Err != nil {
				t.Fatalf("List = %+v: want bad (damaged) and good", list)
			}
		})
	}
}

func TestListIgnoresOtherFiles(t *testing.T) {
	s := openTest(t)
	if l, err := s.List(); err != nil || len(l) != 0 {
		t.Fatalf("List of a keystore not yet created = %v, %v", l, err)
	}
	if _, err := s.New("a", "pw"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"README", ".a-123.tmp", "b c.json"} {
		if err := os.WriteFile(filepath.Join(s.Dir(), name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(s.Dir(), "sub.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := s.List()
	if err != nil || len(l) != 1 || l[0].Name != "a" {
		t.Fatalf("List = %+v, %v", l, err)
	}
}

func TestOpenRejectsBadScryptParams(t *testing.T) {
	for _, p := range [][3]int{{0, 8, 1}, {3, 8, 1}, {1 << 21, 8, 1}, {16, 0, 1}, {16, 8, 0}, {1 << 20, 16, 1}} {
		if _, err := Open(t.TempDir(), WithScryptParams(p[0], p[1], p[2])); err == nil {
			t.Errorf("Open with scrypt %v succeeded", p)
		}
	}
	if _, err := Open(""); err == nil {
		t.Error("Open(\"\") succeeded")
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv(EnvDir, "/somewhere/keys")
	if d, err := DefaultDir(); err != nil || d != "/somewhere/keys" {
		t.Fatalf("DefaultDir with $%s = %q, %v", EnvDir, d, err)
	}
	t.Setenv(EnvDir, "")
	t.Setenv("HOME", "/home/u")
	if d, err := DefaultDir(); err != nil || d != "/home/u/.cowboy/keys" {
		t.Fatalf("DefaultDir = %q, %v", d, err)
	}
}

func TestIsReserved(t *testing.T) {
	for name, want := range map[string]bool{"dev0": true, "dev5": true, "dev9": true, "dev10": false, "dev": false, "Dev1": false, "devx": false, "xdev1": false} {
		if IsReserved(name) != want {
			t.Errorf("IsReserved(%q) = %v", name, !want)
		}
	}
}

// Writers racing for one name: exactly one wins, the others get ErrExists,
// and the file that stays is the winner's.
func TestConcurrentNewSameName(t *testing.T) {
	s := openTest(t)
	const n = 8
	type res struct {
		addr types.Address
		err  error
	}
	out := make(chan res, n)
	for range n {
		go func() {
			a, err := s.New("race", "pw")
			out <- res{a, err}
		}()
	}
	var won []types.Address
	for range n {
		r := <-out
		switch {
		case r.err == nil:
			won = append(won, r.addr)
		case !errors.Is(r.err, ErrExists):
			t.Errorf("New: %v", r.err)
		}
	}
	if len(won) != 1 {
		t.Fatalf("%d writers succeeded, want exactly 1", len(won))
	}
	k, err := s.Load("race", "pw")
	if err != nil || types.Address(k.Address()) != won[0] {
		t.Fatalf("stored key %v (%v), want the winner's %s", k, err, won[0])
	}
	entries, _ := os.ReadDir(s.Dir())
	if len(entries) != 1 {
		t.Errorf("%d files left in the keystore, want 1 (temp files must go)", len(entries))
	}
}
