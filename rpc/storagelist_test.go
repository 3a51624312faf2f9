package rpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/node/devnettest"
	"github.com/cowboy-chain/cowboy/rpc"
)

// manyKeys keeps 25 entries in self.storage (namespace 0) and one inline
// blob (namespace 2).
const manyKeys = `from cowboy_sdk import actor, put_blob


@actor
class Many:
    def __init__(self):
        for i in range(25):
            self.storage[i] = i * i
        put_blob(b"hello blob")

    def drop(self, i):
        del self.storage[i]
`

// listAll pages through an actor's storage limit entries at a time.
func listAll(t *testing.T, cl *rpc.Client, addr [20]byte, limit uint64) []rpc.StorageEntryJSON {
	t.Helper()
	var all []rpc.StorageEntryJSON
	var cursor []byte
	for pages := 0; ; pages++ {
		page, err := cl.ListActorStorage(context.Background(), addr, cursor, limit)
		if err != nil {
			t.Fatal(err)
		}
		if limit != 0 && uint64(len(page.Entries)) > limit {
			t.Fatalf("page of %d entries, limit %d", len(page.Entries), limit)
		}
		all = append(all, page.Entries...)
		if page.Next == nil {
			return all
		}
		if pages > 1000 {
			t.Fatal("paging does not end")
		}
		cursor = *page.Next
	}
}

// squares is what namespace 0 of manyKeys holds, keys as JSON.
func squares(t *testing.T, es []rpc.StorageEntryJSON) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, e := range es {
		if e.Namespace == 0 {
			out[string(e.KeyJSON)] = string(e.JSON)
		}
	}
	return out
}

// TestListActorStorage lists every entry of an actor, in one page and in
// pages of every size, in (namespace, slot) order; a deleted key leaves
// the list and dev_revert brings it back.
func TestListActorStorage(t *testing.T) {
	c := devnettest.New(t)
	many := c.MustDeploy(0, []byte(manyKeys), nil)
	plain, err := os.ReadFile("../examples/counter/main.py")
	if err != nil {
		t.Fatal(err)
	}
	attrs := c.MustDeploy(0, plain, nil)
	srv := httptest.NewServer(rpc.NewServer(c.Node, rpc.Options{}))
	defer srv.Close()
	cl := rpc.Dial(srv.URL)
	ctx := context.Background()

	all := listAll(t, cl, many, 0)
	if len(all) != 26 {
		t.Fatalf("%d entries, want 25 squares and a blob", len(all))
	}
	for i := 1; i < len(all); i++ {
		a, b := append([]byte{byte(all[i-1].Namespace)}, all[i-1].Slot[:]...), append([]byte{byte(all[i].Namespace)}, all[i].Slot[:]...)
		if string(a) >= string(b) {
			t.Fatalf("entries %d and %d out of (namespace, slot) order", i-1, i)
		}
	}
	sq := squares(t, all)
	for i := 0; i < 25; i++ {
		if got := sq[fmt.Sprint(i)]; got != fmt.Sprint(i*i) {
			t.Errorf("storage[%d] = %s, want %d", i, got, i*i)
		}
	}
	if last := all[len(all)-1]; last.Namespace != 2 || string(last.Value) != "hello blob" || last.JSON != nil || len(last.Key) != 34 {
		t.Errorf("blob entry: namespace %d, key %s, value %q, json %s", last.Namespace, last.Key, last.Value, last.JSON)
	}
	for _, limit := range []uint64{1, 2, 7, 25, 26, 27, 1000} {
		if got := listAll(t, cl, many, limit); !slices.EqualFunc(got, all, func(a, b rpc.StorageEntryJSON) bool {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			return string(ja) == string(jb)
		}) {
			t.Errorf("pages of %d list %d entries, not the %d of one page", limit, len(got), len(all))
		}
	}
	// A plain class Actor keeps its attributes under "__dict__" in namespace 1.
	if es := listAll(t, cl, attrs, 0); len(es) != 1 || es[0].Namespace != 1 || string(es[0].Key) != "__dict__" || string(es[0].JSON) != `{"counter":0}` {
		t.Errorf("plain actor's storage: %+v", es)
	}

	snap, err := cl.DevSnapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.MustCall(0, many, "drop", int64(3))
	if sq := squares(t, listAll(t, cl, many, 5)); len(sq) != 24 || sq["3"] != "" {
		t.Fatalf("after drop(3): %d squares, storage[3] = %q", len(sq), sq["3"])
	}
	if _, err := cl.DevRevert(ctx, snap.Hash.String()); err != nil {
		t.Fatal(err)
	}
	if sq := squares(t, listAll(t, cl, many, 5)); len(sq) != 25 || sq["3"] != "9" {
		t.Fatalf("after the revert: %d squares, storage[3] = %q", len(sq), sq["3"])
	}
}

// TestListActorStorageRefuses: bad params and an address without code are
// clear errors.
func TestListActorStorageRefuses(t *testing.T) {
	c := devnettest.New(t)
	many := c.MustDeploy(0, []byte(manyKeys), nil)
	srv := httptest.NewServer(rpc.NewServer(c.Node, rpc.Options{}))
	defer srv.Close()
	cl := rpc.Dial(srv.URL)
	m := rpc.Address(many).String()
	for _, tt := range []struct {
		params []any
		code   int
		want   string
	}{
		{[]any{rpc.Address(c.Addr(1)).String()}, rpc.CodeNotFound, "no actor at"},
		{[]any{"0x12"}, -32602, "params[0] (address)"},
		{[]any{m, "0x01"}, -32602, "a cursor is 33 bytes"},
		{[]any{m, "zz"}, -32602, "params[1] (cursor)"},
		{[]any{m, nil, "0x0"}, -32602, "want 0x1 to 0x3e8"},
		{[]any{m, nil, "0x3e9"}, -32602, "want 0x1 to 0x3e8"},
		{[]any{m, nil, 5}, -32602, "params[2] (limit)"},
		{[]any{}, -32602, "takes 1 to 3 params"},
	} {
		var out any
		err := cl.Call(context.Background(), &out, "cowboy_listActorStorage", tt.params...)
		var re *rpc.Error
		if !errors.As(err, &re) || re.Code != tt.code || !strings.Contains(re.Message, tt.want) {
			t.Errorf("params %v: %v, want %d %q", tt.params, err, tt.code, tt.want)
		}
	}
}

// BenchmarkListActorStorage lists pages of 100 (and the whole 1,000) of
// an actor's entries among another actor's 1,000, through the RPC server.
func BenchmarkListActorStorage(b *testing.B) {
	c := devnettest.New(b)
	src := strings.Replace(manyKeys, "range(25)", "range(1000)", 1)
	many := c.MustDeploy(0, []byte(src), nil)
	c.MustDeploy(1, []byte(src), nil)
	srv := httptest.NewServer(rpc.NewServer(c.Node, rpc.Options{}))
	defer srv.Close()
	cl := rpc.Dial(srv.URL)
	for _, limit := range []uint64{100, 1000} {
		b.Run(fmt.Sprintf("page=%d", limit), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				page, err := cl.ListActorStorage(context.Background(), many, nil, limit)
				if err != nil || uint64(len(page.Entries)) != limit {
					b.Fatalf("%d entries: %v", len(page.Entries), err)
				}
			}
		})
	}
}
