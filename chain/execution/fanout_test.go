package execution

import (
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// treeActor is fanoutActor with one more level: tree asks each kid to fan
// out n messages of its own, so most of the transaction's messages are
// nested sends.
const treeActor = fanoutActor + `
    def tree(self, kids, n, targets):
        for k in kids:
            send_message(k, "fan", n, targets)
`

// §3.3: the 1,024-message cap counts nested sends, not only the first
// handler's. The root sends 2 messages and each kid tries 600: the first kid
// gets all 600 (1+2+600 = 603 enqueued), the second only 421 more, and its
// 422nd send raises; without nested counting all 1,203 would be delivered.
func TestFanoutLimitCountsNestedSends(t *testing.T) {
	e := newActorEnv(t)
	root := e.mustDeploy(treeActor)
	var kids, targets []any
	for salt := byte(1); salt <= 2; salt++ {
		kids = append(kids, e.deploySalt(treeActor, salt).ContractAddress.Hex())
	}
	// The per-actor cycle budget (§12.1) would stop 1,000 handlers of one
	// actor first, so the noops go to four copies.
	for salt := byte(3); salt <= 6; salt++ {
		targets = append(targets, e.deploySalt(treeActor, salt).ContractAddress.Hex())
	}
	e.newBlock()
	rc := e.callWith(root, nil, 40_000_000, 1_000_000, "tree", kids, int64(600), targets)
	if rc.Status != types.ReceiptSuccess {
		t.Fatalf("tree: %s", rc.Error)
	}
	if len(rc.Messages) != MaxMessagesPerTx {
		t.Fatalf("%d messages delivered, want %d", len(rc.Messages), MaxMessagesPerTx)
	}
	for i, m := range rc.Messages {
		if m.Status != types.ReceiptSuccess {
			t.Fatalf("message %d (%s) failed: %s", i, m.Method, m.Error)
		}
	}
	e.newBlock()
	if msg := ret(t, e.call(*mustAddr(t, kids[0]), "err")); msg != nil {
		t.Fatalf("first kid hit the cap: %q", msg)
	}
	if msg, _ := ret(t, e.call(*mustAddr(t, kids[1]), "err")).(string); !strings.Contains(msg, "at most 1024 messages") {
		t.Fatalf("second kid's error %q, want the fanout limit", msg)
	}
}

func mustAddr(t *testing.T, hex any) *types.Address {
	t.Helper()
	a, err := types.ParseAddress(hex.(string))
	if err != nil {
		t.Fatal(err)
	}
	return &a
}
