package p2p

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/quic-go/quic-go"
)

// penaltyInvalid is what the application charges a peer for a message that
// decoded but failed its checks (a block with a bad certificate): as much
// as a garbage frame, since an honest node checks before it relays.
const penaltyInvalid = 40

// codeInvalid closes a connection whose peer sent an invalid message.
const codeInvalid quic.ApplicationErrorCode = 9

// holdsRelay reports whether gossip on topic waits for Relay instead of
// being relayed on receipt (Config.HoldRelay).
func (h *Host) holdsRelay(t Topic) bool { return slices.Contains(h.cfg.HoldRelay, t) }

// Relay forwards a gossip message received on a HoldRelay topic to every
// connected peer but the one it came from, once the application has
// checked it [Network Layer: blocks are relayed by validators]. Peers that
// have seen it drop it as a duplicate.
func (h *Host) Relay(m Message) error {
	if m.Direct || m.ID == (MsgID{}) {
		return errors.New("p2p: relay: not a received gossip message")
	}
	if err := h.checkPayload(m.Topic, m.Payload); err != nil {
		return err
	}
	if h.ctx.Err() != nil {
		return ErrClosed
	}
	h.broadcast(&frame{kind: kindGossip, topic: m.Topic, payload: m.Payload}, m.From, true)
	return nil
}

// Penalize lowers a peer's score for a message the application found
// invalid (it decoded, but its content is wrong) and disconnects it, as a
// garbage frame would; at the ban score its ID is refused for a while.
// The peer need not be connected any more: the score is by ID.
func (h *Host) Penalize(id PeerID, reason error) {
	h.nViolations.Add(1)
	banned := h.scores.penalize(id, penaltyInvalid, time.Now())
	h.log.Info("p2p peer sent an invalid message", "peer", id, "err", reason, "banned", banned)
	h.mu.Lock()
	p := h.peers[id]
	h.mu.Unlock()
	if p != nil {
		p.conn.CloseWithError(codeInvalid, fmt.Sprintf("invalid message: %v", reason))
	}
}
