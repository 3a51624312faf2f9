package vm

import (
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/object"
)

func BenchmarkHandFib25(b *testing.B) {
	for i := 0; i < b.N; i++ {
		th := newTestThread(1<<40, nil)
		g := object.NewStrDict()
		fib := &Function{Code: fibCode(), Globals: g, Name: "fib", QualName: "fib"}
		g.Set("fib", fib)
		if _, err := th.Call(fib, []object.Value{object.Int(25)}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
