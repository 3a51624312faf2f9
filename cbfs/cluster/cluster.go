// Package cluster is the CBFS client over many relays: it places each
// segment's shards on distinct relays chosen deterministically from the
// relay list, keeps sealed manifests on several relays, reads any K
// verified shards back, and repairs files whose healthy shards fall below
// K + a threshold.
package cluster

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"lukechampine.com/blake3"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/crypto"
)

// RelayInfo is one relay of the list: identity and address.
type RelayInfo struct {
	ID   cbfs.RelayID `json:"id"`
	Addr string       `json:"addr"`
}

// String is "0xID@ip:port", the form ParseRelay reads.
func (r RelayInfo) String() string { return fmt.Sprintf("0x%x@%s", r.ID, r.Addr) }

// MarshalJSON writes the ID as 0x-hex.
func (r RelayInfo) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]string{"id": fmt.Sprintf("0x%x", r.ID), "addr": r.Addr})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *RelayInfo) UnmarshalJSON(b []byte) error {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	p, err := ParseRelay(m["id"] + "@" + m["addr"])
	if err != nil {
		return err
	}
	*r = p
	return nil
}

// ParseRelay reads "0xID@ip:port".
func ParseRelay(s string) (RelayInfo, error) {
	id, addr, ok := strings.Cut(strings.TrimSpace(s), "@")
	b, err := hex.DecodeString(strings.TrimPrefix(id, "0x"))
	if !ok || err != nil || len(b) != 20 || addr == "" {
		return RelayInfo{}, fmt.Errorf("cluster: relay %q is not 0x<40 hex>@ip:port", s)
	}
	return RelayInfo{ID: cbfs.RelayID(b), Addr: addr}, nil
}

// LoadRelays reads a relay list file: one "0xID@ip:port" a line (# comments
// allowed) or a JSON array of {id, addr}.
func LoadRelays(path string) ([]RelayInfo, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cluster: relay list: %w", err)
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		var rs []RelayInfo
		if err := json.Unmarshal(t, &rs); err != nil {
			return nil, fmt.Errorf("cluster: relay list %s: %w", path, err)
		}
		return rs, nil
	}
	var rs []RelayInfo
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r, err := ParseRelay(line)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// Cluster talks to a list of relays on behalf of one token holder.
type Cluster struct {
	relays  []RelayInfo
	clients map[cbfs.RelayID]*relay.Client
	key     *crypto.PrivateKey
	token   []byte
	// Workers is how many segments are coded at once (default: cores).
	Workers int
	// Tolerate is how many relays List and Probe may leave unanswered:
	// the volume's M (see ListQuorum). Zero waits for every relay.
	Tolerate int

	mu   sync.Mutex
	down map[cbfs.RelayID]time.Time // relays that failed recently: skipped until then

	// listDone, probeDone and manifestDone, when set (tests), are told how
	// each relay's request of ListQuorum, Probe or askManifest ended.
	listDone, probeDone, manifestDone func(id cbfs.RelayID, err error)
	// probeWait, when set (tests), replaces probeTimeout.
	probeWait time.Duration
	// beforeAck, when set (tests), runs after a put's shards are all
	// received and before its last durability barriers.
	beforeAck func()
	// ackEvery, when set (tests), replaces the ackEvery constant.
	ackEvery int
}

// downFor is how long a relay that failed to answer is skipped.
const downFor = 10 * time.Second

// New connects lazily to relays as key, presenting tok on every request.
func New(relays []RelayInfo, key *crypto.PrivateKey, tok *cbfs.Token) (*Cluster, error) {
	if len(relays) == 0 {
		return nil, errors.New("cluster: no relays")
	}
	tb, err := cbfs.Marshal(tok)
	if err != nil {
		return nil, fmt.Errorf("cluster: encode token: %w", err)
	}
	c := &Cluster{relays: slices.Clone(relays), clients: map[cbfs.RelayID]*relay.Client{}, key: key, token: tb, down: map[cbfs.RelayID]time.Time{}}
	for _, r := range relays {
		if _, dup := c.clients[r.ID]; dup {
			c.Close()
			return nil, fmt.Errorf("cluster: relay 0x%x listed twice", r.ID)
		}
		cl, err := relay.NewClient(r.Addr, r.ID, key)
		if err != nil {
			c.Close()
			return nil, err
		}
		c.clients[r.ID] = cl
	}
	return c, nil
}

// Close closes every relay connection.
func (c *Cluster) Close() {
	for _, cl := range c.clients {
		cl.Close()
	}
}

// Relays is the relay list.
func (c *Cluster) Relays() []RelayInfo { return slices.Clone(c.relays) }

func (c *Cluster) isDown(id cbfs.RelayID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Before(c.down[id])
}

// note records the outcome of a call: a transport failure (not a refusal)
// marks the relay down for a while so later calls fail fast.
func (c *Cluster) note(id cbfs.RelayID, err error) {
	var se *relay.StatusError
	if err == nil || errors.As(err, &se) || errors.Is(err, context.Canceled) {
		return
	}
	c.markDown(id)
}

// markDown skips relay id for downFor.
func (c *Cluster) markDown(id cbfs.RelayID) {
	c.mu.Lock()
	c.down[id] = time.Now().Add(downFor)
	c.mu.Unlock()
}

// errDown is returned for a relay skipped because it failed recently.
var errDown = errors.New("cluster: relay is down")

// call runs f against relay id unless it is known down.
func (c *Cluster) call(id cbfs.RelayID, f func(*relay.Client) error) error {
	return c.callMaybeDown(id, false, f)
}

// callMaybeDown is call that, with force, also tries a relay marked down:
// the second pass of an operation that must reach enough relays (a
// loaded machine can time out a live connection and mark it down).
func (c *Cluster) callMaybeDown(id cbfs.RelayID, force bool, f func(*relay.Client) error) error {
	cl, ok := c.clients[id]
	if !ok {
		return fmt.Errorf("cluster: relay 0x%x is not in the relay list", id)
	}
	if !force && c.isDown(id) {
		return fmt.Errorf("%w: 0x%x", errDown, id[:4])
	}
	err := f(cl)
	c.note(id, err)
	if err == nil && force {
		c.mu.Lock()
		delete(c.down, id)
		c.mu.Unlock()
	}
	return err
}

// Rank orders relays by blake3(seed ‖ relay ID): the deterministic
// placement order for one segment (seed = FileID ‖ index) or one
// manifest (seed = volume ‖ PathID). Every client computes the same order
// from the same list.
func Rank(seed []byte, relays []RelayInfo) []RelayInfo {
	type scored struct {
		r RelayInfo
		s [32]byte
	}
	ss := make([]scored, len(relays))
	for i, r := range relays {
		ss[i] = scored{r, blake3.Sum256(append(slices.Clone(seed), r.ID[:]...))}
	}
	slices.SortFunc(ss, func(a, b scored) int { return bytes.Compare(a.s[:], b.s[:]) })
	out := make([]RelayInfo, len(ss))
	for i, s := range ss {
		out[i] = s.r
	}
	return out
}

func segmentSeed(f cbfs.FileID, i int) []byte {
	return append(append([]byte("cbfs/place/v1"), f[:]...), byte(i>>56), byte(i>>48), byte(i>>40), byte(i>>32), byte(i>>24), byte(i>>16), byte(i>>8), byte(i))
}

func manifestSeed(v cbfs.VolumeID, pid cbfs.Tag) []byte {
	return append(append([]byte("cbfs/manifest/v1"), v[:]...), pid[:]...)
}

func (c *Cluster) auth(vol cbfs.VolumeID, tags []cbfs.Tag) relay.Auth {
	return relay.Auth{Token: c.token, Vol: vol, Tags: tags}
}

// Progress is told how many plaintext bytes have been stored or read so far.
type Progress func(done int64)

// placeSegment uploads one segment's shards to distinct relays: shard j
// goes to the j-th relay of the segment's ranking that is up, and a failed
// upload moves on to the next unused relay. proofs (may be nil) supplies
// each shard's proof when the root is already known (repair).
func (c *Cluster) placeSegment(ctx context.Context, a relay.Auth, order []RelayInfo, shards [][]byte, hashes []cbfs.ShardHash, used map[cbfs.RelayID]bool, only []int, proof func(j int) (*cbfs.ShardProof, [32]byte, uint8)) (map[int]cbfs.RelayID, error) {
	return c.place(ctx, a, order, shards, hashes, used, only, proof, false)
}

// place is placeSegment; with deferred the relays only receive the
// shards (PutShardReq.Defer), and each must later pass a durability
// barrier (acks) before it counts as stored.
func (c *Cluster) place(ctx context.Context, a relay.Auth, order []RelayInfo, shards [][]byte, hashes []cbfs.ShardHash, used map[cbfs.RelayID]bool, only []int, proof func(j int) (*cbfs.ShardProof, [32]byte, uint8), deferred bool) (map[int]cbfs.RelayID, error) {
	var mu sync.Mutex
	next := 0
	pick := func() (RelayInfo, bool) {
		mu.Lock()
		defer mu.Unlock()
		for next < len(order) {
			r := order[next]
			next++
			if !used[r.ID] && !c.isDown(r.ID) {
				used[r.ID] = true
				return r, true
			}
		}
		return RelayInfo{}, false
	}
	placed := map[int]cbfs.RelayID{}
	errs := make([]error, len(shards))
	var wg sync.WaitGroup
	for _, j := range only {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := &relay.PutShardReq{Auth: a, Hash: hashes[j], Defer: deferred}
			if proof != nil {
				p, root, n := proof(j)
				req.Proof, req.Root, req.N = *p, root, n
			} else {
				req.Proof.ShardLen = uint32(len(shards[j]))
			}
			for {
				r, ok := pick()
				if !ok {
					errs[j] = fmt.Errorf("shard %d: no relay left to take it (last: %v)", j, errs[j])
					return
				}
				err := c.call(r.ID, func(cl *relay.Client) error { return cl.PutShard(ctx, req, shards[j]) })
				if err == nil {
					mu.Lock()
					placed[j] = r.ID
					mu.Unlock()
					return
				}
				errs[j] = err
				if ctx.Err() != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, j := range only {
		if _, ok := placed[j]; !ok {
			return nil, errs[j]
		}
	}
	return placed, nil
}

// Put stores the file read from r at path (replacing any file there), K+M
// shards per segment on distinct relays, then the proofs and the sealed
// manifest. It returns the
// manifest; its Commitment is what goes on chain.
func (c *Cluster) Put(ctx context.Context, v *cbfs.Volume, path string, p cbfs.Params, r io.Reader, progress Progress) (*cbfs.Manifest, error) {
	return c.PutAttrs(ctx, v, path, p, r, progress, Attrs{})
}

// PutAttrs is Put that records the file's attributes in its manifest.
func (c *Cluster) PutAttrs(ctx context.Context, v *cbfs.Volume, path string, p cbfs.Params, r io.Reader, progress Progress, at Attrs) (*cbfs.Manifest, error) {
	tags, err := v.PathTags(path)
	if err != nil {
		return nil, err
	}
	a := c.auth(v.ID, tags)
	n := p.K + p.M
	if n > len(c.relays) {
		return nil, fmt.Errorf("cluster: k+m=%d shards need as many relays, have %d", n, len(c.relays))
	}
	// A put replaces: the old version's shards and manifest go first (a
	// relay keeps one manifest per path, and never a lower sequence). The
	// new manifest's sequence is above the old one's, so a copy of the old
	// manifest on a relay the delete missed loses to it.
	var seq uint64
	if old, err := c.Manifest(ctx, v, path); err == nil {
		seq = old.Seq + 1
		if err := c.Delete(ctx, v, path); err != nil {
			return nil, fmt.Errorf("cluster: replace %s: %w", path, err)
		}
	}
	var (
		doneMu sync.Mutex
		done   int64
	)
	// Relays receive the shards without making each durable; acks has
	// them make a batch durable at once (a barrier every ackEvery bytes
	// and at the end), and only shards whose barrier succeeded count as
	// stored before the proofs and the manifest go out.
	acks := newAcks(c, a)
	m, err := cbfs.Encode(ctx, v, path, p, r, c.Workers, func(ctx context.Context, e *cbfs.EncodedSegment) ([]cbfs.RelayID, error) {
		order := Rank(segmentSeed(e.File, e.Index), c.relays)
		all := make([]int, n)
		for j := range all {
			all[j] = j
		}
		placed, err := c.place(ctx, a, order, e.Shards, e.Hashes, map[cbfs.RelayID]bool{}, all, nil, true)
		if err != nil {
			return nil, err
		}
		relays := make([]cbfs.RelayID, n)
		for j := range relays {
			relays[j] = placed[j]
		}
		acks.add(ctx, e, relays)
		doneMu.Lock()
		defer doneMu.Unlock()
		for _, s := range e.Shards[:p.K] {
			done += int64(len(s))
		}
		if progress != nil {
			progress(done)
		}
		return relays, nil
	})
	if err != nil {
		return nil, err
	}
	if progress != nil {
		progress(int64(m.Size))
	}
	if err := acks.finish(ctx, m); err != nil {
		return nil, err
	}
	at.set(m)
	m.Seq = seq
	if err := c.putProofs(ctx, a, m); err != nil {
		return nil, err
	}
	if err := c.putManifest(ctx, v, tags, m); err != nil {
		return nil, err
	}
	return m, nil
}

// putProofs sends each relay the Merkle proofs of the shards it holds.
func (c *Cluster) putProofs(ctx context.Context, a relay.Auth, m *cbfs.Manifest) error {
	per := map[cbfs.RelayID][]relay.ShardProofEntry{}
	for i, s := range m.Segments {
		for j, id := range s.Relays {
			per[id] = append(per[id], relay.ShardProofEntry{Hash: s.Hashes[j], Proof: m.Proof(i, j)})
		}
	}
	root := m.Root()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for id, ents := range per {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for len(ents) > 0 {
				batch := ents[:min(len(ents), 2048)]
				ents = ents[len(batch):]
				err := c.call(id, func(cl *relay.Client) error {
					return cl.PutProofs(ctx, &relay.ProofsReq{Auth: a, Root: root, N: m.K + m.M}, batch)
				})
				if err != nil {
					mu.Lock()
					firstErr = cmpErr(firstErr, fmt.Errorf("cluster: proofs to 0x%x: %w", id[:4], err))
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// manifestCopies is how many relays keep each sealed manifest.
func manifestCopies(m *cbfs.Manifest, relays int) int { return min(relays, int(m.K+m.M)) }

// putManifest stores the sealed manifest on the first K+M relays of its
// ranking that are up; it needs at least M+1 copies so that losing any M
// relays still leaves one.
func (c *Cluster) putManifest(ctx context.Context, v *cbfs.Volume, tags []cbfs.Tag, m *cbfs.Manifest) error {
	pid := tags[len(tags)-1]
	sealed, err := v.SealManifest(m, pid)
	if err != nil {
		return err
	}
	a := c.auth(v.ID, tags)
	want := manifestCopies(m, len(c.relays))
	stored := 0
	var errs []error
	done := map[cbfs.RelayID]bool{}
	for pass := 0; pass < 2 && stored < want; pass++ {
		for _, r := range Rank(manifestSeed(v.ID, pid), c.relays) {
			if stored == want {
				break
			}
			if done[r.ID] || (pass == 1 && !c.isDown(r.ID)) {
				continue
			}
			err := c.callMaybeDown(r.ID, pass == 1, func(cl *relay.Client) error { return cl.PutManifest(ctx, a, m.Seq, sealed) })
			if err != nil {
				if !errors.Is(err, errDown) {
					errs = append(errs, fmt.Errorf("0x%x: %w", r.ID[:4], err))
				}
				continue
			}
			done[r.ID] = true
			stored++
		}
	}
	if stored < min(want, int(m.M)+1) {
		return fmt.Errorf("cluster: manifest stored on %d relays, need %d: %w", stored, min(want, int(m.M)+1), errors.Join(errs...))
	}
	return nil
}

// Manifest finds the newest manifest of path that opens under the volume
// key. It asks every relay at once (a relay that died without closing
// its connection would otherwise hold the lookup until the idle timeout)
// and takes the newest of the first two good copies, enough to see a
// repair's newer one; relays marked down are asked only if no other
// relay has a copy.
func (c *Cluster) Manifest(ctx context.Context, v *cbfs.Volume, path string) (*cbfs.Manifest, error) {
	tags, err := v.PathTags(path)
	if err != nil {
		return nil, err
	}
	pid := tags[len(tags)-1]
	a := c.auth(v.ID, tags)
	var up, down []RelayInfo
	for _, r := range Rank(manifestSeed(v.ID, pid), c.relays) {
		if c.isDown(r.ID) {
			down = append(down, r)
		} else {
			up = append(up, r)
		}
	}
	var lastErr error = fmt.Errorf("cluster: %s: no such file", path)
	for pass, rs := range [][]RelayInfo{up, down} {
		best, err := c.askManifest(ctx, v, a, pid, rs, pass == 1)
		if best != nil {
			return best, nil
		}
		if err != nil {
			lastErr = err
		}
	}
	return nil, lastErr
}

// askManifest asks rs at once for the manifest and returns the newest of
// the first two good copies (or of all, if fewer), cancelling the rest.
func (c *Cluster) askManifest(ctx context.Context, v *cbfs.Volume, a relay.Auth, pid cbfs.Tag, rs []RelayInfo, force bool) (*cbfs.Manifest, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		m   *cbfs.Manifest
		err error
	}
	ch := make(chan answer, len(rs))
	for _, r := range rs {
		go func() {
			var seq uint64
			var sealed []byte
			err := c.callMaybeDown(r.ID, force, func(cl *relay.Client) (err error) {
				seq, sealed, err = cl.GetManifest(ctx, a)
				return c.manifestEnded(r.ID, err)
			})
			if err != nil {
				ch <- answer{err: err}
				return
			}
			m, err := v.OpenManifest(sealed, pid)
			if err != nil || m.Seq != seq {
				ch <- answer{err: fmt.Errorf("cluster: relay 0x%x served a bad manifest: %v", r.ID[:4], err)}
				return
			}
			ch <- answer{m: m}
		}()
	}
	var best *cbfs.Manifest
	var lastErr error
	good := 0
	for range rs {
		ans := <-ch
		if ans.err != nil {
			if !errors.Is(ans.err, relay.ErrNotFound) {
				lastErr = ans.err
			}
			continue
		}
		if best == nil || ans.m.Seq > best.Seq {
			best = ans.m
		}
		if good++; good >= 2 {
			break
		}
	}
	return best, lastErr
}

// Get writes the file at path to w, verifying every shard.
func (c *Cluster) Get(ctx context.Context, v *cbfs.Volume, path string, w io.Writer, progress Progress) (*cbfs.Manifest, error) {
	m, err := c.Manifest(ctx, v, path)
	if err != nil {
		return nil, err
	}
	if m.Dir {
		return nil, fmt.Errorf("cluster: %s is a directory", path)
	}
	tags, _ := v.PathTags(path)
	a := c.auth(v.ID, tags)
	fetch := func(ctx context.Context, i, j int, dst []byte) ([]byte, error) {
		var b []byte
		err := c.call(m.Segments[i].Relays[j], func(cl *relay.Client) (err error) {
			b, err = cl.GetShardTo(ctx, a, m.Segments[i].Hashes[j], dst)
			return err
		})
		return b, err
	}
	pw := &progressWriter{w: w, f: progress}
	// A relay that stalled while the others answered (killed without
	// closing, say) is skipped for a while, as one that failed.
	slow := func(b cbfs.BadShard) {
		if errors.Is(b.Err, cbfs.ErrSlow) {
			c.markDown(m.Segments[b.Segment].Relays[b.Shard])
		}
	}
	if err := cbfs.Decode(ctx, v, m, fetch, pw, c.Workers, slow); err != nil {
		return nil, err
	}
	return m, nil
}

type progressWriter struct {
	w io.Writer
	n int64
	f Progress
}

func (p *progressWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.n += int64(n)
	if p.f != nil {
		p.f(p.n)
	}
	return n, err
}

// Entry is one listed file.
type Entry struct {
	Path       string
	Size       uint64
	Seq        uint64
	Commitment cbfs.StorageCommitment
	Attrs      Attrs
	Dir        bool // a directory's attributes (PutDir), not a file
}

// List returns every file of the volume the token may read, by path,
// once every relay but Tolerate has answered (ListQuorum).
func (c *Cluster) List(ctx context.Context, v *cbfs.Volume) ([]Entry, error) {
	return c.ListQuorum(ctx, v, c.Tolerate)
}

// ListQuorum is List that returns as soon as all relays but tolerate have
// answered, cancelling the requests still out (a relay that died without
// closing its connection no longer holds the listing for its timeout).
// With tolerate = M of the volume's files this loses no file: putManifest
// stores each manifest (and each newer one, with its higher sequence) on
// at least min(relays, M+1) relays, and any relays-M answers include one
// of them. A file coded with a smaller M than tolerate may be missed.
func (c *Cluster) ListQuorum(ctx context.Context, v *cbfs.Volume, tolerate int) ([]Entry, error) {
	a := c.auth(v.ID, nil)
	best := map[cbfs.Tag]*cbfs.Manifest{}
	var okRelays int
	var lastErr error
	quorum := max(1, len(c.relays)-max(0, tolerate))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		ents []relay.ListEntry
		err  error
	}
	// Every relay at once; the channel holds every answer, so the
	// requests cancelled below never block.
	ch := make(chan answer, len(c.relays))
	for _, r := range c.relays {
		go func() {
			var ents []relay.ListEntry
			err := c.call(r.ID, func(cl *relay.Client) (err error) {
				ents, err = cl.List(ctx, a)
				return err
			})
			if c.listDone != nil {
				c.listDone(r.ID, err)
			}
			ch <- answer{ents, err}
		}()
	}
	for range c.relays {
		if okRelays >= quorum {
			break
		}
		ans := <-ch
		if ans.err != nil {
			lastErr = ans.err
			continue
		}
		okRelays++
		for _, e := range ans.ents {
			if len(e.Tags) == 0 {
				continue
			}
			pid := e.Tags[len(e.Tags)-1]
			m, err := v.OpenManifest(e.Sealed, pid)
			if err != nil {
				continue
			}
			if b := best[pid]; b == nil || m.Seq > b.Seq {
				best[pid] = m
			}
		}
	}
	if okRelays == 0 {
		return nil, fmt.Errorf("cluster: no relay answered: %v", lastErr)
	}
	out := make([]Entry, 0, len(best))
	for _, m := range best {
		out = append(out, Entry{Path: m.Path, Size: m.Size, Seq: m.Seq, Commitment: m.Commitment(), Attrs: AttrsOf(m), Dir: m.Dir})
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// Delete removes the file at path from every relay that answers (all are
// asked at once, even ones marked down: a copy left behind would outlive
// the delete).
func (c *Cluster) Delete(ctx context.Context, v *cbfs.Volume, path string) error {
	tags, err := v.PathTags(path)
	if err != nil {
		return err
	}
	a := c.auth(v.ID, tags)
	n, errs := c.everyRelay(func(cl *relay.Client) error { return cl.Delete(ctx, a) })
	if n == 0 && len(errs) > 0 {
		return fmt.Errorf("cluster: delete %s: %w", path, errors.Join(errs...))
	}
	return nil
}

// everyRelay runs f on every relay in parallel and returns how many
// succeeded and the failures other than "not found".
func (c *Cluster) everyRelay(f func(*relay.Client) error) (int, []error) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	var errs []error
	for _, r := range c.relays {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := c.callMaybeDown(r.ID, true, f)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				n++
			case errors.Is(err, relay.ErrNotFound):
			default:
				errs = append(errs, fmt.Errorf("0x%x: %w", r.ID[:4], err))
			}
		}()
	}
	wg.Wait()
	return n, errs
}

// Revoke hands an owner-signed revocation to every relay at once; it
// returns how many accepted it.
func (c *Cluster) Revoke(ctx context.Context, r *cbfs.Revocation) (int, error) {
	n, errs := c.everyRelay(func(cl *relay.Client) error { return cl.Revoke(ctx, r) })
	if n == 0 {
		return 0, fmt.Errorf("cluster: no relay took the revocation: %w", errors.Join(errs...))
	}
	return n, nil
}

// manifestEnded tells the test hook manifestDone how a relay's manifest
// request ended, and returns err.
func (c *Cluster) manifestEnded(id cbfs.RelayID, err error) error {
	if c.manifestDone != nil {
		c.manifestDone(id, err)
	}
	return err
}
