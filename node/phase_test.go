package node

import (
	"os"
	"runtime/pprof"
	"testing"
	"time"
)

func TestPhases(t *testing.T) {
	b := &testing.B{}
	g, raw := benchWorkload(b)
	txs := decodeAll(b, raw)
	n, _ := Open(Config{Home: t.TempDir(), Genesis: g, Logger: quietLog()})
	defer n.Close()
	s := time.Now()
	n.SubmitBatch(txs)
	t.Logf("submit %v", time.Since(s))
	f, _ := os.Create("/tmp/blk.out")
	pprof.StartCPUProfile(f)
	s = time.Now()
	for n.pool.Len() > 0 {
		n.ProduceBlock()
	}
	t.Logf("blocks %v", time.Since(s))
	pprof.StopCPUProfile()
}
