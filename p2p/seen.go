package p2p

import (
	"container/list"
	"sync"

	"github.com/cowboy-chain/cowboy/crypto"
)

// MsgID identifies a gossip message: BLAKE3 of the topic byte followed by
// the payload. Equal payloads are the same message whoever publishes them,
// which is what flooding wants (the same transaction from two peers is one
// transaction).
type MsgID [32]byte

func msgID(t Topic, payload []byte) MsgID {
	return MsgID(crypto.Blake3([]byte{byte(t)}, payload))
}

// seenCache is a bounded LRU set of message IDs. A duplicate refreshes its
// entry, so a message still circulating stays suppressed.
type seenCache struct {
	mu    sync.Mutex
	cap   int
	order *list.List // front = most recent; values are MsgID
	index map[MsgID]*list.Element
}

func newSeenCache(capacity int) *seenCache {
	return &seenCache{cap: capacity, order: list.New(), index: make(map[MsgID]*list.Element, capacity)}
}

// add records id and reports whether it was new.
func (c *seenCache) add(id MsgID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.index[id]; ok {
		c.order.MoveToFront(e)
		return false
	}
	c.index[id] = c.order.PushFront(id)
	for c.order.Len() > c.cap {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.index, old.Value.(MsgID))
	}
	return true
}
