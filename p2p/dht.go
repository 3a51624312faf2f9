package p2p

import (
	"bytes"
	"crypto/rand"
	"math/bits"
	"sort"
	"sync"
)

// Peer discovery by a Kademlia DHT (technical-spec-v2 §6.2: "DHT-based
// with bootstrap nodes"), over the node's own QUIC connections and
// identities; peer exchange (PexRequest) stays as a fallback.
//
// Every node keeps a routing table of the peers it has been connected to
// (so every entry's ID was proven by the TLS handshake and its address
// observed), in k-buckets by the length of the common prefix of the XOR
// distance between IDs, k = 20 entries each, most recently seen last; a
// full bucket drops its least recently seen entry. FindNode(target) asks
// a peer for the 20 entries of its table closest to target, each a record
// its node signed (record.go); the answer (Nodes) goes into the address
// book once every signature checks, and the dial loop connects to them
// while below MaxPeers. A node looks up its own ID when it connects to a
// peer and, while below MaxPeers, its own ID and a random ID every
// DHTInterval, asking the 3 connected peers closest to each target (α):
// each round of answers brings closer nodes, which are then connected and
// asked in the next round, the iterative lookup of Kademlia carried out
// through connections. The table never holds hearsay: an address learned
// from Nodes enters it only once a connection proves it.

const (
	kBucket   = 20 // entries per bucket, and nodes per Nodes answer
	dhtAlpha  = 3  // peers asked per lookup
	idBits    = 8 * len(PeerID{})
	findNodeB = len(PeerID{})
)

// routingTable is the k-bucket table. Each entry holds the address the
// peer was seen at and, once the peer sent it, its signed record
// (record.go); only entries with a record are passed on in Nodes answers.
type routingTable struct {
	self    PeerID
	mu      sync.Mutex
	buckets [idBits + 1][]tableEntry
}

type tableEntry struct {
	peerAddr
	rec *record
}

func newRoutingTable(self PeerID) *routingTable { return &routingTable{self: self} }

// bucketOf is the common prefix length of self and id (idBits for self).
func (r *routingTable) bucketOf(id PeerID) int {
	for i := range id {
		if x := id[i] ^ r.self[i]; x != 0 {
			return 8*i + bits.LeadingZeros8(x)
		}
	}
	return idBits
}

// seen records a peer that proved its ID on a connection at addr.
func (r *routingTable) seen(id PeerID, addr string) {
	if id == r.self || addr == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.bucketOf(id)
	list := r.buckets[b]
	var rec *record
	for i, e := range list {
		if e.ID == id {
			rec = e.rec
			list = append(list[:i], list[i+1:]...)
			break
		}
	}
	if len(list) >= kBucket {
		list = list[1:]
	}
	r.buckets[b] = append(list, tableEntry{peerAddr: peerAddr{ID: id, Addr: addr}, rec: rec})
}

// setRecord keeps a connected peer's verified record with its entry,
// unless the entry holds a newer one; it reports whether it was kept.
func (r *routingTable) setRecord(rec record) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	list := r.buckets[r.bucketOf(rec.ID)]
	for i := range list {
		if list[i].ID == rec.ID {
			if list[i].rec != nil && list[i].rec.Seq >= rec.Seq {
				return false
			}
			list[i].rec = &rec
			return true
		}
	}
	return false
}

// closestRecords is closest for a Nodes answer: the entries that have a
// record, each with the address this node saw it at.
func (r *routingTable) closestRecords(target PeerID, n int, skip PeerID) []nodeEntry {
	r.mu.Lock()
	var all []tableEntry
	for _, b := range r.buckets {
		for _, e := range b {
			if e.ID != skip && e.rec != nil {
				all = append(all, e)
			}
		}
	}
	r.mu.Unlock()
	sort.Slice(all, func(i, j int) bool {
		a, b := xor(all[i].ID, target), xor(all[j].ID, target)
		return bytes.Compare(a[:], b[:]) < 0
	})
	out := make([]nodeEntry, 0, min(n, len(all)))
	for _, e := range all[:min(n, len(all))] {
		out = append(out, nodeEntry{Rec: *e.rec, Observed: e.Addr})
	}
	return out
}

// size is the number of entries.
func (r *routingTable) size() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, b := range r.buckets {
		n += len(b)
	}
	return n
}

// closest lists up to n entries nearest to target by XOR distance,
// leaving out skip.
func (r *routingTable) closest(target PeerID, n int, skip PeerID) []peerAddr {
	r.mu.Lock()
	var all []peerAddr
	for _, b := range r.buckets {
		for _, e := range b {
			if e.ID != skip {
				all = append(all, e.peerAddr)
			}
		}
	}
	r.mu.Unlock()
	sortByDistance(all, target)
	if len(all) > n {
		all = all[:n]
	}
	return all
}

// sortByDistance orders entries by XOR distance to target, nearest first.
func sortByDistance(es []peerAddr, target PeerID) {
	sort.Slice(es, func(i, j int) bool {
		a, b := xor(es[i].ID, target), xor(es[j].ID, target)
		return bytes.Compare(a[:], b[:]) < 0
	})
}

func xor(a, b PeerID) (d PeerID) {
	for i := range a {
		d[i] = a[i] ^ b[i]
	}
	return d
}

// lookup asks the dhtAlpha connected peers closest to target for nodes
// near it.
func (h *Host) lookup(target PeerID) {
	h.mu.Lock()
	cands := make([]peerAddr, 0, len(h.peers))
	ps := make(map[PeerID]*peer, len(h.peers))
	for id, p := range h.peers {
		cands = append(cands, peerAddr{ID: id})
		ps[id] = p
	}
	h.mu.Unlock()
	sortByDistance(cands, target)
	f := encodeFrame(&frame{kind: kindFindNode, target: target})
	for i := 0; i < len(cands) && i < dhtAlpha; i++ {
		ps[cands[i].ID].enqueue(0, f)
	}
}

// refreshDHT looks up this node's own ID and a random one.
func (h *Host) refreshDHT() {
	h.lookup(h.id)
	var r PeerID
	if _, err := rand.Read(r[:]); err == nil {
		h.lookup(r)
	}
}

// DHTSize is the number of peers in the DHT routing table.
func (h *Host) DHTSize() int { return h.table.size() }
