package blake16

import (
	"math/rand"
	"testing"

	"lukechampine.com/blake3"
)

// TestLeavesNodes holds Leaves and Nodes to BLAKE3 of the same bytes, on
// counts that fill groups and leave lanes unused, written over their own
// input as MerkleRoot does and into a separate slice.
func TestLeavesNodes(t *testing.T) {
	if !Available {
		t.Skip("no AVX-512 here")
	}
	rng := rand.New(rand.NewSource(7))
	for _, n := range []int{0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 47, 64, 100} {
		in := make([][32]byte, n)
		for i := range in {
			rng.Read(in[i][:])
		}
		for _, prefix := range []byte{0, 1, 0xa5} {
			leaves := make([][32]byte, n)
			Leaves(prefix, in, leaves)
			own := append([][32]byte(nil), in...)
			Leaves(prefix, own, own)
			for i := range in {
				want := blake3.Sum256(append([]byte{prefix}, in[i][:]...))
				if leaves[i] != want || own[i] != want {
					t.Fatalf("n %d prefix %x: leaf %d differs", n, prefix, i)
				}
			}
			nodes := make([][32]byte, n/2)
			Nodes(prefix, in, nodes)
			own = append([][32]byte(nil), in...)
			Nodes(prefix, own, own)
			for j := range n / 2 {
				want := blake3.Sum256(append(append([]byte{prefix}, in[2*j][:]...), in[2*j+1][:]...))
				if nodes[j] != want || own[j] != want {
					t.Fatalf("n %d prefix %x: node %d differs", n, prefix, j)
				}
			}
			if n%2 == 1 && own[n-1] != in[n-1] {
				t.Fatalf("n %d: Nodes wrote over the unpaired last input", n)
			}
		}
	}
}

// TestSums holds Sums to BLAKE3 on inputs of every length up to MaxSum,
// mixed so that both shapes fill groups and leave lanes unused, and
// refuses a longer one.
func TestSums(t *testing.T) {
	if !Available {
		t.Skip("no AVX-512 here")
	}
	rng := rand.New(rand.NewSource(8))
	for _, n := range []int{0, 1, 16, 17, 40, 129, 300} {
		in := make([][]byte, n)
		for i := range in {
			in[i] = make([]byte, (i*37+n)%(MaxSum+1))
			rng.Read(in[i])
		}
		out := make([][32]byte, n)
		dst := make([]*[32]byte, n)
		for i := range dst {
			dst[i] = &out[i]
		}
		Sums(in, dst)
		for i := range in {
			if want := blake3.Sum256(in[i]); out[i] != want {
				t.Fatalf("n %d: input %d (%d bytes) differs", n, i, len(in[i]))
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Sums took an input longer than MaxSum")
		}
	}()
	Sums([][]byte{make([]byte, MaxSum+1)}, []*[32]byte{new([32]byte)})
}

// BenchmarkSums: the hashes of 2,000 receipts of 70 bytes (a block of
// transfers), one BLAKE3 call each and sixteen at a time.
func BenchmarkSums(b *testing.B) {
	in := make([][]byte, 2000)
	for i := range in {
		in[i] = make([]byte, 70)
		in[i][0] = byte(i)
	}
	out := make([][32]byte, len(in))
	dst := make([]*[32]byte, len(in))
	for i := range dst {
		dst[i] = &out[i]
	}
	b.Run("one-by-one", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for j := range in {
				out[j] = blake3.Sum256(in[j])
			}
		}
	})
	if !Available {
		return
	}
	b.Run("16-at-a-time", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Sums(in, dst)
		}
	})
}
