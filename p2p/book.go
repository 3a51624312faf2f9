package p2p

import (
	"math/rand/v2"
	"net"
	"net/netip"
	"sort"
	"strconv"
	"sync"
	"time"
)

// Address book bounds.
const (
	maxBookSize        = 1024 // known addresses; new ones past this are ignored
	maxDialFailures    = 6    // a learned (non-bootstrap) address is forgotten after this many failures in a row
	maxConcurrentDials = 4    // dials in flight at once
)

// book is the set of addresses this node may dial: the bootstrap peers
// from its Config, addresses learned by peer exchange, and peers that have
// connected. Each entry carries its reconnect backoff.
type book struct {
	mu         sync.Mutex
	entries    map[string]*bookEntry // by "ip:port"
	backoffMin time.Duration
	backoffMax time.Duration
}

type bookEntry struct {
	addr      string
	id        PeerID // zero: accept whatever node answers (unpinned bootstrap)
	bootstrap bool   // never forgotten, and its ID is not taken from peer exchange
	failures  int
	nextDial  time.Time
	dialing   bool
}

func newBook(min, max time.Duration) *book {
	return &book{entries: make(map[string]*bookEntry), backoffMin: min, backoffMax: max}
}

// validDialAddr accepts only "ip:port" with a literal, specified IP and a
// non-zero port: addresses from peers are never resolved through DNS, and
// an unspecified address cannot be dialled.
func validDialAddr(addr string) bool {
	if len(addr) > maxAddrLen {
		return false
	}
	ap, err := netip.ParseAddrPort(addr)
	return err == nil && ap.Port() != 0 && !ap.Addr().IsUnspecified() && !ap.Addr().IsMulticast()
}

// announcedAddr is the address other nodes should dial to reach a peer: the
// IP we saw its packets come from (it cannot lie about that and still
// complete a handshake) with the port its Hello announced.
func announcedAddr(remote net.Addr, listen string) string {
	ra, err := netip.ParseAddrPort(remote.String())
	if err != nil {
		return ""
	}
	_, port, err := net.SplitHostPort(listen)
	if err != nil {
		return ""
	}
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil || p == 0 {
		return ""
	}
	a := netip.AddrPortFrom(ra.Addr().Unmap(), uint16(p)).String()
	if !validDialAddr(a) {
		return ""
	}
	return a
}

// add records addr (with id if known). Bootstrap entries are added by the
// host itself; learned ones are ignored once the book is full.
func (b *book) add(addr string, id PeerID, bootstrap bool) {
	if !validDialAddr(addr) {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.entries[addr]
	if e == nil {
		if !bootstrap && len(b.entries) >= maxBookSize {
			return
		}
		b.entries[addr] = &bookEntry{addr: addr, id: id, bootstrap: bootstrap}
		return
	}
	if bootstrap {
		e.bootstrap, e.id = true, id
	} else if !e.bootstrap && !id.IsZero() {
		e.id = id
	}
}

// due picks up to n entries whose backoff has passed and that skip does not
// exclude, marks them as being dialled and returns copies.
func (b *book) due(now time.Time, n int, skip func(addr string, id PeerID) bool) []bookEntry {
	b.mu.Lock()
	defer b.mu.Unlock()
	inflight := 0
	var cands []*bookEntry
	for _, e := range b.entries {
		if e.dialing {
			inflight++
			continue
		}
		if now.Before(e.nextDial) || skip(e.addr, e.id) {
			continue
		}
		cands = append(cands, e)
	}
	n = min(n, maxConcurrentDials-inflight)
	if n <= 0 || len(cands) == 0 {
		return nil
	}
	// Bootstrap peers first, then fewest failures, then at random.
	rand.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].bootstrap != cands[j].bootstrap {
			return cands[i].bootstrap
		}
		return cands[i].failures < cands[j].failures
	})
	out := make([]bookEntry, 0, n)
	for _, e := range cands[:min(n, len(cands))] {
		e.dialing = true
		out = append(out, *e)
	}
	return out
}

// done records the outcome of a dial of addr.
func (b *book) done(addr string, ok bool, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.entries[addr]
	if e == nil {
		return
	}
	e.dialing = false
	if ok {
		// Failures are reset only by a connection that lasts (see
		// disconnected): a node that accepts and then drops us at once
		// must still be backed off from.
		e.nextDial = now.Add(b.backoffMin)
		return
	}
	e.failures++
	if !e.bootstrap && e.failures >= maxDialFailures {
		delete(b.entries, addr)
		return
	}
	e.nextDial = now.Add(b.backoff(e.failures))
}

// stableAfter is how long a connection must last to clear its address's
// failure count.
const stableAfter = 10 * time.Second

// disconnected schedules a redial of addr after a connection to it ended.
// A connection that lasted clears the failures, so it is restored after
// the minimum backoff; one that did not counts as a failure, so a peer
// that keeps dropping us is dialled less and less often.
func (b *book) disconnected(addr string, lasted time.Duration, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.entries[addr]
	if e == nil || e.dialing {
		return
	}
	if lasted >= stableAfter {
		e.failures = 0
	} else {
		e.failures++
	}
	e.nextDial = now.Add(b.backoff(e.failures))
}

// backoff is exponential in the failure count, capped, with ±25% jitter so
// that nodes restarted together do not redial in lockstep.
func (b *book) backoff(failures int) time.Duration {
	d := b.backoffMin
	for i := 1; i < failures && d < b.backoffMax; i++ {
		d *= 2
	}
	d = min(d, b.backoffMax)
	return d - d/4 + time.Duration(rand.Int64N(int64(d/2)+1))
}

func (b *book) size() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.entries)
}

// forget drops addr (it turned out to be this node).
func (b *book) forget(addr string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.entries, addr)
}

// refused counts a connection that the other node closed for being full
// as a failed dial, so we back off from it (and, unless it is a bootstrap
// peer, eventually forget it).
func (b *book) refused(addr string, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.entries[addr]
	if e == nil || e.dialing {
		return
	}
	e.failures++
	if !e.bootstrap && e.failures >= maxDialFailures {
		delete(b.entries, addr)
		return
	}
	e.nextDial = now.Add(b.backoff(e.failures))
}
