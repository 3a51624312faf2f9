package cbfs

// Segment buffers kept between the puts and gets of one process.
//
// Go gives freed heap memory back to the kernel, and touching fresh
// memory costs a page fault per 4 KiB: on the 2-core VM of
// docs/benchmarks.md, filling 120 MiB of new buffers took 0.42 CPU-s
// against 0.01 for the same buffers reused, more than the encryption,
// coding and hashing of a 100 MiB put together. Encode and Decode take
// their segment buffers from segBufs and give them back, so a process
// that moves many files (a mount, a runner, the benchmarks) pays for its
// buffers once. A channel, not a sync.Pool, which every collection
// empties.
var segBufs = make(chan []byte, keepSegBufs)

// keepSegBufs is how many buffers segBufs keeps: what one Encode holds
// on two cores (Workers + Uploads + 1 slots). At most keepSegBufs ×
// maxKeptSegBuf (about 100 MiB) stay allocated while idle.
const keepSegBufs = 6

// maxKeptSegBuf is the largest buffer segBufs keeps: a default segment
// with as much parity as data (K = M), and then some. Larger segments get
// buffers of their own.
const maxKeptSegBuf = 2*DefaultSegmentSize + 1<<16

// getSegBuf returns a buffer of n bytes, a kept one when one is idle and
// large enough.
func getSegBuf(n int) []byte {
	select {
	case b := <-segBufs:
		if cap(b) >= n {
			return b[:n]
		}
	default:
	}
	return make([]byte, n)
}

// putSegBuf gives b back for a later getSegBuf; the caller must not use
// it afterwards.
func putSegBuf(b []byte) {
	if cap(b) > maxKeptSegBuf {
		return
	}
	select {
	case segBufs <- b:
	default:
	}
}
