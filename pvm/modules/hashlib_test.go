package modules_test

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// TestChainHashes checks hashlib.keccak256 and hashlib.blake3 (not in
// CPython, so not in the conformance programs) against the chain's own
// crypto package, in one shot, streamed, and through copy().
func TestChainHashes(t *testing.T) {
	data := strings.Repeat("cowboy", 500) // several blake3 chunks
	k := crypto.Keccak256([]byte(data))
	b := crypto.Blake3([]byte(data))
	src := `import hashlib
d = b"cowboy" * 500
for name in ["keccak256", "blake3"]:
    h = getattr(hashlib, name)(d)
    s = hashlib.new(name)
    for i in range(0, len(d), 7):
        s.update(d[i:i + 7])
    half = hashlib.new(name, d[:1000])
    c = half.copy()
    c.update(d[1000:])
    half.update(b"junk")
    print(h.name, h.digest_size, h.block_size, h.hexdigest(), s.hexdigest() == h.hexdigest(), c.digest() == h.digest())
`
	out, _ := mustRun(t, src)
	want := "keccak256 32 136 " + hex.EncodeToString(k[:]) + " True True\n" +
		"blake3 32 64 " + hex.EncodeToString(b[:]) + " True True\n"
	if out != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	empty := crypto.Keccak256()
	out, _ = mustRun(t, "import hashlib\nprint(hashlib.keccak256().hexdigest())\n")
	if out != hex.EncodeToString(empty[:])+"\n" {
		t.Fatalf("keccak256 of nothing: %s", out)
	}
}

func TestHashlibErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"hashlib.sha256('abc')", "TypeError: Strings must be encoded before hashing"},
		{"hashlib.sha256(1)", "TypeError: object supporting the buffer API required"},
		{"hashlib.sha256().update(None)", "TypeError: object supporting the buffer API required"},
		{"hashlib.sha256().update()", "TypeError: HASH.update() takes exactly one argument (0 given)"},
		{"hashlib.sha256().digest(1)", "TypeError: HASH.digest() takes no arguments (1 given)"},
		{"hashlib.new('md5')", "ValueError: unsupported hash type md5"},
		{"hashlib.new(5)", "TypeError: new() argument 'name' must be str, not int"},
		{"hashlib.blake2b(digest_size=65)", "ValueError: digest_size must be between 1 and 64 bytes"},
		{"hashlib.blake2b(salt=b'x')", "ValueError: PVM: blake2b salt= is not supported"},
		{"hashlib.sha256(b'', b'')", "TypeError: openssl_sha256() takes at most 1 positional argument (2 given)"},
		{"type(hashlib.sha256())()", "TypeError: cannot create '_hashlib.HASH' instances"},
	} {
		raises(t, "import hashlib\n"+c.src+"\n", c.want)
	}
}

// TestHashlibCost pins technical spec §17.3's price: 100 cycles per hash
// object plus one per byte, so hashing ten times the bytes costs ten times
// the variable cycles.
func TestHashlibCost(t *testing.T) {
	for _, name := range []string{"sha256", "sha512", "sha3_256", "blake2b", "keccak256", "blake3"} {
		src := "import hashlib\nd = bytes(N)\nh = hashlib." + name + "(d)\nh.update(d)\n"
		// The bytes(N) allocation is not metered per byte; what varies is
		// the 2*N bytes hashed.
		if got := variableCost(t, src, 1000); got != 2000*meter.CostHashPerByte {
			t.Errorf("%s: 2000 bytes hashed cost %d cycles, want %d", name, got, 2000*meter.CostHashPerByte)
		}
		proportional(t, src, 1000)
	}
	_, one := mustRun(t, "import hashlib\nh = hashlib.sha256()\n")
	_, two := mustRun(t, "import hashlib\nh = hashlib.sha256()\nh = hashlib.sha256()\n")
	if d := two - one; d < meter.CostHashBase {
		t.Errorf("a second hash object costs %d cycles, want at least %d", d, meter.CostHashBase)
	}
}
