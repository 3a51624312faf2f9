package blake3asm

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite crypto/blake16/compress_amd64.s from Generate")

const target = "../../compress_amd64.s"

// TestGenerated: the committed assembly is exactly what Generate writes
// (blake16's and the store's TestCompress16 then hold it to the scalar
// compression).
func TestGenerated(t *testing.T) {
	want := Generate()
	if *update {
		if err := os.WriteFile(target, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from Generate(); rewrite it with go test ./crypto/blake16/internal/blake3asm -update", target)
	}
}
