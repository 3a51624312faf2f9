package explorer_test

import (
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/node/devnettest"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/rpc/explorer"
)

// chain is a devnet with a token (events), a heartbeat (a timer), a
// transfer, and a failed call, served by the explorer in front of the RPC
// server.
type chain struct {
	c                  *devnettest.Chain
	srv                *httptest.Server
	token, heart       types.Address
	deployTx, transfer types.Hash
}

func newChain(t testing.TB) *chain {
	t.Helper()
	c := devnettest.New(t)
	read := func(p string) []byte {
		b, err := os.ReadFile("../../examples/" + p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ch := &chain{c: c}
	ch.token = c.MustDeploy(0, read("token/main.py"), nil, "Gold", "GLD", int64(1000))
	ch.deployTx = headTx(t, c)
	ch.heart = c.MustDeploy(0, read("heartbeat/main.py"), big.NewInt(1e18))
	to := c.Addr(1)
	c.Send(0, &to, big.NewInt(5), nil)
	ch.transfer = headTx(t, c)
	ch.srv = httptest.NewServer(explorer.New(c.Node, rpc.NewServer(c.Node, rpc.Options{}), nil))
	t.Cleanup(ch.srv.Close)
	return ch
}

func headTx(t testing.TB, c *devnettest.Chain) types.Hash {
	t.Helper()
	b, err := c.Node.BlockByNumber(c.Node.Head().Height)
	if err != nil || len(b.Txs) != 1 {
		t.Fatalf("head block: %v", err)
	}
	return b.Txs[0].Hash()
}

// get fetches a path without following redirects.
func (ch *chain) get(t testing.TB, path string) (int, http.Header, string) {
	t.Helper()
	cl := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := cl.Get(ch.srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(body)
}

// TestPages loads every page, good and bad input alike, and checks the
// status, what each page must show, where a search leads, and that every
// answer carries the Content-Security-Policy.
func TestPages(t *testing.T) {
	ch := newChain(t)
	head := ch.c.Node.Head().Height
	long := strings.Repeat("z", 5000)
	for _, tt := range []struct {
		path   string
		status int
		want   []string // in the body, or the Location of a redirect
	}{
		{"/", 200, []string{"Latest blocks", "Basefee per cycle", "Basefee per cell", "<polyline", ch.transfer.Hex(), "/static/app.js"}},
		{"/block/0", 200, []string{"Block 0", "No transactions"}},
		{"/block/1", 200, []string{"Block 1", ch.deployTx.Hex(), `id="prev"`, `id="next"`}},
		{"/block/" + ch.c.Node.Head().Hash().Hex(), 200, []string{"Transactions (1)", ch.transfer.Hex()}},
		{"/tx/" + ch.deployTx.Hex(), 200, []string{"actor deployment", "success", `id="actor-link"`, ch.token.Hex(), "Transfer", "__init__", `id="trace-link"`}},
		{"/tx/" + ch.deployTx.Hex() + "?trace=1", 200, []string{"storage_set(", "emit_event(&#39;Transfer&#39;", "cycles"}},
		{"/tx/" + ch.transfer.Hex(), 200, []string{"success", ch.c.Addr(1).Hex()}},
		{"/address/" + ch.token.Hex(), 200, []string{"Actor", "class Token", "Transfer", "No pending timers", `id="storage"`, "&#34;supply&#34;", "&#34;GLD&#34;"}},
		{"/address/" + ch.heart.Hex(), 200, []string{"class Heartbeat", `id="timers"`, "beat"}},
		{"/address/" + ch.c.Addr(1).Hex(), 200, []string{"Account", "1,000,000"}},
		{"/validators", 200, []string{"Validators", "devnet"}},
		{"/static/app.js", 200, []string{"cowboy_subscribe"}},
		{"/static/style.css", 200, []string{"font-family"}},
		// Search leads to the page of what it was given.
		{"/search?q=1", 303, []string{"/block/1"}},
		{"/search?q=" + ch.transfer.Hex(), 303, []string{"/tx/" + ch.transfer.Hex()}},
		{"/search?q=" + ch.c.Node.Head().Hash().Hex(), 303, []string{"/block/" + ch.c.Node.Head().Hash().Hex()}},
		{"/search?q=" + strings.ToLower(ch.token.Hex()), 303, []string{"/address/" + ch.token.Hex()}},
		{"/search?q=", 303, []string{"/"}},
		// Bad input: a clear page, never a crash.
		{"/block/abc", 400, []string{"height or its hash"}},
		{"/block/99999999", 404, []string{"not made yet"}},
		{"/block/99999999999999999999999", 400, []string{"out of range"}},
		{"/block/0x" + strings.Repeat("0", 64), 404, []string{"not found"}},
		{"/tx/xyz", 400, []string{"by its hash"}},
		{"/tx/0x" + strings.Repeat("ab", 32), 404, []string{"not found"}},
		{"/address/0x12", 400, []string{"40 hex digits"}},
		{"/address/" + ch.token.Hex() + "?storage=0x12", 400, []string{"66 hex digits"}},
		{"/address/" + ch.token.Hex() + "?storage=0x" + strings.Repeat("ff", 33), 200, []string{"No storage after this point"}},
		{"/address/" + strings.Replace(ch.token.Hex(), "B", "b", 1), 400, []string{"checksum"}},
		{"/search?q=" + long, 400, []string{"zzzz…"}},
		{"/search?q=%3Cscript%3Ealert(1)%3C/script%3E", 400, []string{"&lt;script&gt;"}},
		{"/search?q=0x" + strings.Repeat("cd", 32), 404, []string{"No block or transaction"}},
		{"/nope", 404, []string{"no page"}},
		{"/static/missing.js", 404, nil},
	} {
		t.Run(tt.path[:min(len(tt.path), 60)], func(t *testing.T) {
			status, hdr, body := ch.get(t, tt.path)
			if status != tt.status {
				t.Fatalf("status %d, want %d\n%s", status, tt.status, body[:min(len(body), 500)])
			}
			if csp := hdr.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self'") ||
				strings.Contains(csp, "unsafe") || !strings.Contains(csp, "frame-ancestors 'none'") {
				t.Errorf("Content-Security-Policy %q", csp)
			}
			where := body
			if status == 303 {
				where = hdr.Get("Location")
			}
			for _, w := range tt.want {
				if !strings.Contains(where, w) {
					t.Errorf("%s does not show %q", tt.path, w)
				}
			}
			if strings.Contains(body, "<script>alert") || len(body) > 4000 && status >= 400 && strings.Contains(body, long) {
				t.Errorf("%s echoes raw input", tt.path)
			}
		})
	}
	if head != ch.c.Node.Head().Height {
		t.Fatal("loading pages made a block")
	}
}

// TestStoragePages pages through an actor with more entries than one page
// shows, by the page's own links.
func TestStoragePages(t *testing.T) {
	c := devnettest.New(t)
	many := c.MustDeploy(0, []byte(`from cowboy_sdk import actor


@actor
class Many:
    def __init__(self):
        for i in range(60):
            self.storage["k%d" % i] = i
`), nil)
	ch := &chain{c: c, srv: httptest.NewServer(explorer.New(c.Node, rpc.NewServer(c.Node, rpc.Options{}), nil))}
	t.Cleanup(ch.srv.Close)
	seen := map[string]bool{}
	path := "/address/" + many.Hex()
	for pages := 0; path != ""; pages++ {
		status, _, body := ch.get(t, path)
		if status != 200 || pages > 2 {
			t.Fatalf("%s: status %d after %d pages", path, status, pages)
		}
		for _, m := range regexp.MustCompile(`&#34;(k\d+)&#34;`).FindAllStringSubmatch(body, -1) {
			if seen[m[1]] {
				t.Fatalf("%s shown twice", m[1])
			}
			seen[m[1]] = true
		}
		if pages > 0 && !strings.Contains(body, `id="storage-first"`) {
			t.Errorf("page %d has no link to the first", pages)
		}
		path = ""
		if m := regexp.MustCompile(`id="storage-next" href="([^"#]+)`).FindStringSubmatch(body); m != nil {
			path = strings.ReplaceAll(m[1], "&amp;", "&")
		}
	}
	if len(seen) != 60 {
		t.Fatalf("the pages show %d of 60 keys", len(seen))
	}
}

// TestRPCPassesThrough: JSON-RPC over POST still reaches the server
// behind the explorer.
func TestRPCPassesThrough(t *testing.T) {
	ch := newChain(t)
	resp, err := http.Post(ch.srv.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"cowboy_blockNumber","params":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), `"result":"0x3"`) {
		t.Fatalf("cowboy_blockNumber through the explorer: %s", body)
	}
}

// BenchmarkHomePage renders the home page over a chain of 100 blocks (its
// charts read every one of them).
func BenchmarkHomePage(b *testing.B) {
	ch := newChain(b)
	if _, err := ch.c.Node.DevMine(100); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if status, _, _ := ch.get(b, "/"); status != 200 {
			b.Fatalf("status %d", status)
		}
	}
}
