//go:build unix

package relay

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/internal/pebblelog"
)

// BenchmarkShardDisk measures the disk side of one 100 MiB put with K=4,
// M=2 on one relay's code path, with nothing sent or hashed: 75 shards of
// 2 MiB, each written as a relay writes it (shardFiles.write: a temporary
// file with O_DIRECT, its fsync, the rename, the directory's fsync), then
// its meta (8 KiB, about a shard's Bao outboard) committed to Pebble and
// the WAL synced, as putShard does before it acknowledges the shard
// ("shards", one shard at a time; "shards-3-at-once", three writers, as
// a relay serves a client's three segments in flight). Beside them, the
// same 150 MiB written to one file with one fsync at the end
// ("one-file"), and the 100 MiB of plaintext so ("one-file-100MiB":
// BenchmarkProcesses' local write). The difference is the price of the
// erasure code's extra bytes and of making every shard durable before it
// is acknowledged (three device flushes per shard instead of one per
// file). wall-s is the time per put's worth, cpu-s this process's CPU.
//
//	go test -run XXX -bench ShardDisk -benchtime 3x ./cbfs/relay/
func BenchmarkShardDisk(b *testing.B) {
	const shard, shards = 2<<20 + 4, 75
	bufs := make([][]byte, shards)
	for i := range bufs {
		bufs[i] = make([]byte, shard, blockEnd(shard)) // large allocations start on a page: directable
		for j := range bufs[i] {
			bufs[i][j] = byte(i + j)
		}
	}
	meta := make([]byte, 8<<10)
	report := func(b *testing.B, c0 time.Duration, start time.Time) {
		b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "wall-s")
		b.ReportMetric((benchCPU()-c0).Seconds()/float64(b.N), "cpu-s")
	}
	// conc shards are written at once (a relay serves up to three puts of
	// one client at a time: Encode's Uploads).
	shardsRun := func(b *testing.B, conc int) {
		dir := b.TempDir()
		db, err := pebble.Open(filepath.Join(dir, "db"), &pebble.Options{Logger: pebblelog.Quiet{}})
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		f := &shardFiles{root: filepath.Join(dir, shardsDirName)}
		var vol cbfs.VolumeID
		b.SetBytes(shard * shards)
		c0, start := benchCPU(), time.Now()
		b.ResetTimer()
		for it := 0; it < b.N; it++ {
			pid := cbfs.Tag{byte(it), byte(it >> 8)} // a new file's directory, as a put's
			errs := make(chan error, conc)
			for w := 0; w < conc; w++ {
				go func() {
					for i := w; i < shards; i += conc {
						h := cbfs.ShardHash{byte(i)}
						if err := f.write(vol, pid, h, bufs[i]); err != nil {
							errs <- err
							return
						}
						if err := db.Set(key(pfxMeta, vol[:], pid[:], h[:]), meta, pebble.Sync); err != nil {
							errs <- err
							return
						}
					}
					errs <- nil
				}()
			}
			for w := 0; w < conc; w++ {
				if err := <-errs; err != nil {
					b.Fatal(err)
				}
			}
		}
		b.StopTimer()
		report(b, c0, start)
	}
	b.Run("shards", func(b *testing.B) { shardsRun(b, 1) })
	b.Run("shards-3-at-once", func(b *testing.B) { shardsRun(b, 3) })
	// The deferred put and its barrier (barrier.go): the 75 shards
	// written three at a time without an fsync (store, durable false),
	// then one barrier for each of six relays' shares (every sixth shard,
	// its own directory, as six relays each hold one shard of every
	// segment), the six at once as a client sends them: the files'
	// fsyncs (sync), the directory's, and the metas in one batch with one
	// WAL sync. The relays' stores are one Pebble here.
	deferredRun := func(b *testing.B, sync func(paths []string, dir string) error, buffered bool) {
		dir := b.TempDir()
		db, err := pebble.Open(filepath.Join(dir, "db"), &pebble.Options{Logger: pebblelog.Quiet{}})
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		f := &shardFiles{root: filepath.Join(dir, shardsDirName)}
		f.buffered.Store(buffered)
		var vol cbfs.VolumeID
		const relays, conc = 6, 3
		b.SetBytes(shard * shards)
		c0, start := benchCPU(), time.Now()
		b.ResetTimer()
		for it := 0; it < b.N; it++ {
			pid := func(r int) cbfs.Tag { return cbfs.Tag{byte(it), byte(it >> 8), byte(r)} }
			errs := make(chan error, relays)
			for w := 0; w < conc; w++ {
				go func() {
					for i := w; i < shards; i += conc {
						if err := f.store(vol, pid(i%relays), cbfs.ShardHash{byte(i)}, bufs[i], false); err != nil {
							errs <- err
							return
						}
					}
					errs <- nil
				}()
			}
			for w := 0; w < conc; w++ {
				if err := <-errs; err != nil {
					b.Fatal(err)
				}
			}
			for r := 0; r < relays; r++ {
				go func() {
					var paths []string
					bt := db.NewBatch()
					defer bt.Close()
					p := pid(r)
					for i := r; i < shards; i += relays {
						h := cbfs.ShardHash{byte(i)}
						paths = append(paths, f.path(vol, p, h))
						bt.Set(key(pfxMeta, vol[:], p[:], h[:]), meta, nil)
					}
					err := sync(paths, f.pathDir(vol, p))
					if err == nil {
						err = bt.Commit(pebble.Sync)
					}
					errs <- err
				}()
			}
			for r := 0; r < relays; r++ {
				if err := <-errs; err != nil {
					b.Fatal(err)
				}
			}
		}
		b.StopTimer()
		report(b, c0, start)
	}
	b.Run("deferred-barrier", func(b *testing.B) { deferredRun(b, syncFiles, false) })
	// The same with the files' fsyncs issued at once, and with one
	// syncfs(2) of the file system instead of them.
	parallel := func(paths []string, dir string) error {
		errs := make(chan error, len(paths))
		for _, p := range paths {
			go func() { errs <- syncFile(p) }()
		}
		var err error
		for range paths {
			err = errors.Join(err, <-errs)
		}
		return errors.Join(err, syncDir(dir))
	}
	b.Run("deferred-barrier-parallel", func(b *testing.B) { deferredRun(b, parallel, false) })
	b.Run("deferred-barrier-syncfs", func(b *testing.B) {
		deferredRun(b, func(paths []string, dir string) error {
			d, err := os.Open(dir)
			if err != nil {
				return err
			}
			defer d.Close()
			return syncfs(d)
		}, false)
	})
	// Through the page cache (no O_DIRECT): the writes return once copied,
	// and the barrier's fsyncs write the bytes back.
	b.Run("deferred-barrier-buffered", func(b *testing.B) { deferredRun(b, syncFiles, true) })
	b.Run("deferred-barrier-buffered-parallel", func(b *testing.B) { deferredRun(b, parallel, true) })
	// n of the shards' bytes to one file, one fsync at the end.
	oneFile := func(b *testing.B, n int) {
		dir := b.TempDir()
		b.SetBytes(int64(shard * n))
		c0, start := benchCPU(), time.Now()
		b.ResetTimer()
		for it := 0; it < b.N; it++ {
			fh, err := os.Create(filepath.Join(dir, "local.bin"))
			if err != nil {
				b.Fatal(err)
			}
			for _, data := range bufs[:n] {
				if _, err := fh.Write(data); err != nil {
					b.Fatal(err)
				}
			}
			if err := errors.Join(fh.Sync(), fh.Close()); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		report(b, c0, start)
	}
	b.Run("one-file", func(b *testing.B) { oneFile(b, shards) })
	b.Run("one-file-100MiB", func(b *testing.B) { oneFile(b, shards*4/6) })
}
