package execution

import (
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestMailboxCapacityEdges pins §3.3's mailbox_capacity_bytes at its
// edges: a message's size is its payload plus its method name, a send
// that exactly fills the mailbox is accepted and one byte more is
// refused, and the bytes a handler has already sent count toward the
// same mailbox, not toward other ones.
func TestMailboxCapacityEdges(t *testing.T) {
	a, b := types.Address{0xa1}, types.Address{0xb2}
	type send struct {
		to      types.Address
		method  string
		payload int
		ok      bool
	}
	for _, c := range []struct {
		name    string
		waiting map[types.Address]int // bytes already queued this transaction
		sends   []send
	}{
		{"exactly full", map[types.Address]int{a: MailboxCapacity - 24}, []send{{a, "noop", 20, true}}},
		{"one byte over", map[types.Address]int{a: MailboxCapacity - 23}, []send{{a, "noop", 20, false}}},
		{"the method name counts", map[types.Address]int{a: MailboxCapacity - 20}, []send{{a, "noop", 20, false}}},
		{"an empty mailbox takes a big message", nil, []send{{a, "m", MailboxCapacity - 1, true}}},
		{"this handler's earlier sends count", map[types.Address]int{a: MailboxCapacity - 30}, []send{
			{a, "m", 9, true},  // 10 bytes: 20 left
			{a, "m", 19, true}, // exactly full
			{a, "m", 0, false}, // one byte over
		}},
		{"sends to another actor do not count", map[types.Address]int{a: MailboxCapacity - 10}, []send{
			{b, "m", 500_000, true},
			{a, "m", 9, true},
			{b, "m", 499_998, true}, // b exactly full
			{b, "", 1, false},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newActorEnv(t)
			self := e.mustDeploy(fanoutActor)
			rt := newRuntime(e.st, e.bc, e.from, 1_000_000, 100_000)
			for to, n := range c.waiting {
				rt.mailbox[to] = n
			}
			h := &handlerHost{rt: rt, env: &envelope{to: self, depth: 1}}
			nonce := e.st.Nonce(self)
			accepted := uint64(0)
			for i, s := range c.sends {
				_, err := h.Send(pvmMessage(s.to, s.method, make([]byte, s.payload)))
				if s.ok && err != nil {
					t.Fatalf("send %d: %v", i, err)
				}
				if !s.ok && (err == nil || !strings.Contains(err.Error(), "mailbox")) {
					t.Fatalf("send %d: err = %v, want the mailbox refusal", i, err)
				}
				if err == nil {
					accepted++
				}
			}
			// Each accepted send takes the sender's next nonce (its message
			// id is derived from it); a refused one takes none.
			if got := e.st.Nonce(self); got != nonce+accepted {
				t.Fatalf("nonce %d after %d accepted sends from %d", got, accepted, nonce)
			}
		})
	}
}
