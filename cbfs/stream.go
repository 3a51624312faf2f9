package cbfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"
)

// EncodedSegment is one sealed, erasure-coded segment handed to the
// caller (which uploads it). Shards alias a buffer that is reused once the
// callback returns.
type EncodedSegment struct {
	File   FileID
	Index  int
	Gen    uint64 // 0 unless rewritten in place (EncodeSegment)
	Shards [][]byte
	Hashes []ShardHash
}

// EncodeSegment seals and codes one segment of an existing file again,
// under a new generation gen (NewSegmentGen): the in-place rewrite of a
// changed segment (cluster Update). The shards are freshly allocated.
func EncodeSegment(v *Volume, p Params, f FileID, index int, gen uint64, plain []byte) (*EncodedSegment, error) {
	if gen == 0 {
		return nil, errors.New("cbfs: a rewritten segment needs a nonzero generation")
	}
	if len(plain) > p.SegmentSize {
		return nil, fmt.Errorf("cbfs: segment of %d bytes, segment size %d", len(plain), p.SegmentSize)
	}
	c, err := newCodec(p)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, p.codedLen(len(plain)))
	copy(buf, plain)
	shards, hashes, err := c.encode(v, f, uint64(index), gen, len(plain), buf)
	if err != nil {
		return nil, err
	}
	return &EncodedSegment{File: f, Index: index, Gen: gen, Shards: shards, Hashes: hashes}, nil
}

// PlaceFunc stores one encoded segment and says where each shard went.
// It is called in segment order, but up to Uploads calls run at once (on
// different segments): a segment's shards go out while the next one's are
// still being acknowledged (each relay fsyncs before it answers), so the
// relays' disk and network latency overlap instead of adding up.
type PlaceFunc func(ctx context.Context, s *EncodedSegment) ([]RelayID, error)

// Workers is how many segments are sealed and coded at once.
func Workers() int { return max(1, runtime.GOMAXPROCS(0)) }

// Uploads is how many segments Encode places at once. With Workers coding
// and one being read, Workers + Uploads + 1 segments are in memory.
const Uploads = 3

// encSlot is one segment's buffer: the reader reads the plaintext into
// its start, and encode seals it there and codes the shards after it.
type encSlot struct {
	buf []byte
}

type encJob struct {
	index int
	slot  *encSlot
	n     int
	out   chan encResult
}

type encResult struct {
	seg *EncodedSegment
	err error
}

// Encode reads a file from r and seals, codes and places it segment by
// segment. Memory is bounded by workers+Uploads+1 segments (plain and coded)
// whatever the file size. It returns the manifest (Seq 0) once every
// segment is placed.
func Encode(ctx context.Context, v *Volume, path string, p Params, r io.Reader, workers int, place PlaceFunc) (*Manifest, error) {
	clean, err := CleanPath(path)
	if err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	fid, err := NewFileID()
	if err != nil {
		return nil, err
	}
	if workers < 1 {
		workers = Workers()
	}
	m := &Manifest{Version: ManifestVersion, Volume: v.ID, File: fid, Path: clean,
		K: uint8(p.K), M: uint8(p.M), SegSize: uint32(p.SegmentSize)}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// A slot is one segment's plain and coded buffers. The reader takes a
	// slot before reading a segment, in segment order, and the slot comes
	// back once that segment is placed; at most Uploads placements run at
	// once and they start in segment order, so the pipeline holds at most
	// nslot segments and can never wait on itself.
	nslot := workers + Uploads + 1
	free := make(chan *encSlot, nslot)
	for i := 0; i < nslot; i++ {
		free <- &encSlot{buf: getSegBuf(p.codedLen(p.SegmentSize))}
	}
	defer func() { // the slots back in free (all, unless a read failed) are kept
		for {
			select {
			case s := <-free:
				putSegBuf(s.buf)
			default:
				return
			}
		}
	}()
	jobs := make(chan encJob)
	order := make(chan encJob, nslot)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := newCodec(p)
			for j := range jobs {
				if err != nil {
					j.out <- encResult{err: err}
					continue
				}
				shards, hashes, e := c.encode(v, fid, uint64(j.index), 0, j.n, j.slot.buf)
				j.out <- encResult{seg: &EncodedSegment{File: fid, Index: j.index, Shards: shards, Hashes: hashes}, err: e}
			}
		}()
	}
	var size uint64
	readErr := make(chan error, 1)
	go func() { // reader
		defer close(order)
		defer close(jobs)
		for i := 0; ; i++ {
			var slot *encSlot
			select {
			case slot = <-free:
			case <-ctx.Done():
				readErr <- ctx.Err()
				return
			}
			n, err := io.ReadFull(r, slot.buf[:p.SegmentSize])
			if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				readErr <- fmt.Errorf("cbfs: read: %w", err)
				return
			}
			if n == 0 && i > 0 {
				free <- slot // never blocks: it came from free
				readErr <- nil
				return
			}
			size += uint64(n)
			j := encJob{index: i, slot: slot, n: n, out: make(chan encResult, 1)}
			order <- j // never blocks: at most nslot slots exist
			select {
			case jobs <- j:
			case <-ctx.Done():
				j.out <- encResult{err: ctx.Err()}
				readErr <- ctx.Err()
				return
			}
			if n < p.SegmentSize {
				readErr <- nil
				return
			}
		}
	}()
	var (
		mu       sync.Mutex
		firstErr error
		uploads  sync.WaitGroup
	)
	failed := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	sem := make(chan struct{}, Uploads)
	for j := range order {
		res := <-j.out
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if res.err != nil && !stop {
			failed(res.err)
			stop = true
		}
		if stop {
			free <- j.slot
			continue
		}
		sem <- struct{}{}
		uploads.Add(1)
		go func() {
			defer uploads.Done()
			relays, err := place(ctx, res.seg)
			if err != nil {
				failed(fmt.Errorf("cbfs: place segment %d: %w", res.seg.Index, err))
			} else {
				mu.Lock()
				for len(m.Segments) <= res.seg.Index {
					m.Segments = append(m.Segments, Segment{})
				}
				m.Segments[res.seg.Index] = Segment{Hashes: res.seg.Hashes, Relays: relays}
				mu.Unlock()
			}
			free <- j.slot
			<-sem
		}()
	}
	uploads.Wait()
	wg.Wait()
	if err := <-readErr; firstErr == nil && err != nil {
		firstErr = err
	}
	if firstErr != nil {
		return nil, firstErr
	}
	m.Size = size
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// FetchFunc returns shard j of segment i from wherever it is placed. It
// may be called from several goroutines at once. dst (empty, with room for
// the shard) is where the caller puts the segment together: a fetch that
// appends the shard to dst saves the caller a copy, but it may return any
// other slice. It must not touch dst after it returns.
type FetchFunc func(ctx context.Context, seg, shard int, dst []byte) ([]byte, error)

// BadShard reports a shard that could not be used: missing, unreachable
// or failing its hash check.
type BadShard struct {
	Segment, Shard int
	Err            error
}

// ErrTampered marks a shard whose bytes do not match the manifest.
var ErrTampered = errors.New("cbfs: shard does not match its manifest hash")

// ErrSlow marks a shard whose relay had not answered when the segment
// was complete without it (see hedgeDelay): the caller may skip that
// relay for a while.
var ErrSlow = errors.New("cbfs: shard not answered while the others were")

// hedgeDelay is how long fetchSegment waits, once a first shard of a
// segment has arrived (after first), for the rest before it asks for one
// more (a parity shard) in place of the slowest: a relay killed without
// closing its connection would otherwise hold the segment until the
// connection's idle timeout.
func hedgeDelay(first time.Duration) time.Duration { return max(time.Second, 4*first) }

// fetchSegment gets K verified shards of segment i, trying data shards
// first and parity shards as shards fail or stall (hedgeDelay), and
// returns them (nil = not fetched) with the failures seen. Fetches still
// running when K shards are in are cancelled (and waited for); those that
// were stalled are reported with ErrSlow. Shard j is fetched into
// buf[j*sl:], when buf has room for every shard (see FetchFunc).
func fetchSegment(ctx context.Context, m *Manifest, i int, fetch FetchFunc, buf []byte) ([][]byte, []BadShard) {
	k, n := int(m.K), int(m.K+m.M)
	sl := m.ShardLen(i)
	if len(buf) < n*sl {
		buf = nil
	}
	want := m.Segments[i].Hashes
	shards := make([][]byte, n)
	var bad []BadShard
	next := 0
	type got struct {
		j   int
		b   []byte
		err error
	}
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	res := make(chan got, n)
	inflight, valid := 0, 0
	launched := make([]time.Time, n)
	launch := func() {
		j := next
		next++
		inflight++
		launched[j] = time.Now()
		var dst []byte
		if buf != nil {
			dst = buf[j*sl : j*sl : (j+1)*sl]
		}
		go func() {
			b, err := fetch(fctx, i, j, dst)
			if err == nil && (len(b) != sl || HashShard(b) != want[j]) {
				err = ErrTampered
			}
			res <- got{j, b, err}
		}()
	}
	start := time.Now()
	var timer *time.Timer
	var hedge <-chan time.Time
	var delay time.Duration
	var hedgedAt time.Time // when the last hedge fired: fetches older than it stalled
	for valid < k {
		for inflight+valid < k && next < n {
			launch()
		}
		if inflight == 0 {
			break
		}
		select {
		case g := <-res:
			inflight--
			if g.err != nil {
				bad = append(bad, BadShard{i, g.j, g.err})
				continue
			}
			shards[g.j] = g.b
			valid++
			if timer == nil && valid < k {
				delay = hedgeDelay(time.Since(start))
				timer = time.NewTimer(delay)
				defer timer.Stop()
				hedge = timer.C
			}
		case <-hedge:
			hedgedAt = time.Now()
			if next < n {
				launch()
			}
			timer.Reset(delay)
		}
	}
	cancel()
	for ; inflight > 0; inflight-- {
		g := <-res
		switch {
		case g.err == nil && valid < k: // only when ctx ended; kept for safety
			shards[g.j] = g.b
			valid++
		case g.err == nil:
		case !hedgedAt.IsZero() && launched[g.j].Before(hedgedAt) && ctx.Err() == nil:
			bad = append(bad, BadShard{i, g.j, fmt.Errorf("%w: %v", ErrSlow, g.err)})
		default:
			bad = append(bad, BadShard{i, g.j, g.err})
		}
	}
	return shards, bad
}

// Decode writes the file described by m to w, fetching K verified shards
// per segment (any K of K+M) with up to workers+2 segments in flight. bad, if
// not nil, is told of every shard that could not be used, so the caller can
// schedule a repair.
func Decode(ctx context.Context, v *Volume, m *Manifest, fetch FetchFunc, w io.Writer, workers int, bad func(BadShard)) error {
	if m.Volume != v.ID {
		return errors.New("cbfs: manifest belongs to another volume")
	}
	if err := m.Validate(); err != nil {
		return err
	}
	if workers < 1 {
		workers = Workers()
	}
	ctx, cancel := context.WithCancel(ctx)
	// Every goroutine started here is done before Decode returns, also on
	// an error (they read m, which the caller may change afterwards).
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	type out struct {
		plain, buf []byte
		err        error
	}
	// Segments in flight: workers decoding, and two more fetching, so
	// the relays' answers overlap with decoding.
	order := make(chan chan out, workers+2)
	// Each segment is fetched into a buffer with room for all its shards
	// and opened there; the buffer goes back (putSegBuf) once its
	// plaintext is written, so a get reuses a few of them instead of
	// allocating every shard.
	p := m.Params()
	segBytes := p.codedLen(p.SegmentSize)
	var mu sync.Mutex
	report := func(b []BadShard) {
		if bad == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		for _, x := range b {
			bad(x)
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(order)
		for i := range m.Segments {
			ch := make(chan out, 1)
			select {
			case order <- ch:
			case <-ctx.Done():
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := newCodec(p)
				if err != nil {
					ch <- out{err: err}
					return
				}
				buf := getSegBuf(segBytes)
				// fetchSegment checked every shard it returns.
				shards, b := fetchSegment(ctx, m, i, fetch, buf)
				report(b)
				plain, err := c.open(v, m.File, uint64(i), m.Segments[i].Gen, m.SegmentLen(i), shards, buf)
				ch <- out{plain, buf, err}
			}()
		}
	}()
	for ch := range order {
		o := <-ch
		if o.err != nil {
			return o.err
		}
		if _, err := w.Write(o.plain); err != nil {
			return fmt.Errorf("cbfs: write: %w", err)
		}
		putSegBuf(o.buf)
	}
	return ctx.Err()
}

// RebuildShards rebuilds every shard of segment i from any K valid ones
// (fetched with fetch) without the volume key: repair needs only the
// manifest. The rebuilt shards are bit for bit the originals, so the
// file's commitment is unchanged.
func RebuildShards(ctx context.Context, m *Manifest, i int, fetch FetchFunc) ([][]byte, []BadShard, error) {
	c, err := newCodec(m.Params())
	if err != nil {
		return nil, nil, err
	}
	shards, bad := fetchSegment(ctx, m, i, fetch, make([]byte, int(m.K+m.M)*m.ShardLen(i)))
	if err := c.reconstruct(shards, true); err != nil {
		return nil, bad, fmt.Errorf("cbfs: segment %d: %w", i, err)
	}
	for j, s := range shards {
		if HashShard(s) != m.Segments[i].Hashes[j] {
			return nil, bad, fmt.Errorf("cbfs: segment %d shard %d: rebuilt shard does not match the manifest", i, j)
		}
	}
	return shards, bad, nil
}
