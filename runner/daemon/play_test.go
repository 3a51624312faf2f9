package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/runner/executor"
)

// standIn is a stand-in JSON-RPC chain for playing one job through its
// phases: it answers what a daemon's work step asks (nonce, fee estimate,
// runner records, the job) and records the payload of every transaction
// sent to it.
type standIn struct {
	t         *testing.T
	mu        sync.Mutex
	endpoints map[rpc.Address]string // registered runners' push endpoints
	job       *rpc.JobJSON           // what cowboy_getJob answers
	jobs      []rpc.JobJSON          // what cowboy_getJobs answers
	balance   int64                  // what cowboy_getBalance answers
	pending   uint64                 // transactions of the runner's in the mempool
	sent      [][]byte               // payloads of the transactions sent
	values    []string               // and their values
}

func newStandIn(t *testing.T) (*standIn, *rpc.Client) {
	s := &standIn{t: t, endpoints: map[rpc.Address]string{}}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	return s, rpc.Dial(srv.URL)
}

func (s *standIn) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage   `json:"id"`
		Method string            `json:"method"`
		Params []json.RawMessage `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var result any
	switch req.Method {
	case "cowboy_getNonce":
		n := uint64(len(s.sent))
		if len(req.Params) > 1 && string(req.Params[1]) == `"pending"` {
			n += s.pending
		}
		result = rpc.Quantity(n)
	case "cowboy_getBalance":
		result = rpc.NewBigQuantity(big.NewInt(s.balance))
	case "cowboy_getJobs":
		result = s.jobs
	case "cowboy_estimateFees":
		result = rpc.FeeEstimateJSON{CyclesLimit: 1, CellsLimit: 1, MaxFeePerCycle: 1, MaxFeePerCell: 1}
	case "cowboy_sendRawTransaction":
		var raw rpc.Bytes
		if err := json.Unmarshal(req.Params[0], &raw); err != nil {
			s.t.Errorf("sendRawTransaction params: %v", err)
			return
		}
		tx, err := types.DecodeTx(raw)
		if err != nil {
			s.t.Errorf("decode tx: %v", err)
			return
		}
		s.sent = append(s.sent, tx.Payload)
		s.values = append(s.values, tx.Value.String())
		result = rpc.Hash(tx.Hash())
	case "cowboy_getRunner":
		var a rpc.Address
		if err := json.Unmarshal(req.Params[0], &a); err != nil {
			s.t.Errorf("getRunner params: %v", err)
			return
		}
		if ep, ok := s.endpoints[a]; ok {
			result = map[string]any{"address": a, "endpoint": ep}
		}
	case "cowboy_getJob":
		if s.job != nil {
			result = s.job
		}
	default:
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32601,"message":"no such method"}}`))
		return
	}
	b, err := json.Marshal(result)
	if err != nil {
		s.t.Errorf("marshal %s: %v", req.Method, err)
		return
	}
	w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + string(b) + `}`))
}

// take returns the transactions sent since the last call, each described
// as its method and, for a reveal, the names of the members it reveals.
func (s *standIn) take(names map[string]string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for i, p := range s.sent {
		var v []any
		if len(p) == 0 {
			out = append(out, "transfer "+s.values[i])
			continue
		}
		if err := types.Unmarshal(p, &v); err != nil || len(v) < 2 {
			out = append(out, fmt.Sprintf("undecodable %x", p))
			continue
		}
		d := fmt.Sprint(v[0])
		if len(v) < 3 {
			out = append(out, d)
			continue
		}
		if es, ok := v[2].([]any); ok && d == "reveal" {
			for _, e := range es {
				e := e.([]any)
				d += " " + names[string(e[0].([]byte))]
			}
		}
		out = append(out, d)
	}
	s.sent, s.values = s.sent[:0:0], s.values[:0:0]
	return out
}

// fixed is an executor with a fixed answer.
type fixed []byte

func (f fixed) Execute(context.Context, executor.Job) executor.Result {
	return executor.Result{Status: runner.StatusOK, Output: f, Usage: 1}
}

// aggServer is an aggregator's push endpoint that refuses the first fail
// pushes with HTTP 500 and counts every push it receives.
type aggServer struct {
	mu    sync.Mutex
	fail  int
	got   []pushed
	calls int
}

func (a *aggServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls++
	if r.URL.Path != "/v1/results" {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	if a.fail > 0 {
		a.fail--
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	var p pushed
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	a.got = append(a.got, p)
}

// TestWorkPlaysAJob plays one job through its phases against the stand-in
// chain, one work step per block height, and checks what the daemon (member
// A; B and C are the other members) sends at each: the commit, a re-commit
// only 3 blocks after one that did not land, the push to the aggregator
// (retried until it goes through, then never again), its own reveal only
// from the individual-reveal height and again only 3 blocks after one that
// did not land, and as the aggregator the reveal of the pushed results that
// match their commitments, waiting for the missing ones until the last block
// of its window.
func TestWorkPlaysAJob(t *testing.T) {
	keys := map[string]*crypto.PrivateKey{}
	names := map[string]string{}
	addr := map[string]types.Address{}
	for _, n := range []string{"A", "B", "C", "D"} {
		kb := crypto.Keccak256([]byte("daemon-play/" + n))
		k, err := crypto.PrivateKeyFromBytes(kb[:])
		if err != nil {
			t.Fatal(err)
		}
		a := types.Address(k.Address())
		keys[n], addr[n] = k, a
		names[string(a[:])] = n
	}
	const id = 5
	// result is member n's signed answer out and its commitment.
	result := func(n string, out []byte) (pushed, []byte) {
		sig, cm := runner.SignResult(keys[n], id, runner.StatusOK, 1, out)
		return pushed{JobID: id, Member: addr[n].Hex(), Status: runner.StatusOK, Output: out, Usage: 1, Sig: sig}, cm[:]
	}
	answer := []byte("yes")
	large := bytes.Repeat([]byte{'y'}, 60<<10)
	type step struct {
		height uint64
		edit   func(j *rpc.JobJSON, mine []byte) // the chain between steps; mine: A's commitment
		want   []string                          // the transactions sent
		pushes int                               // the aggregator endpoint's calls so far
	}
	committing := func(j *rpc.JobJSON, _ []byte) { j.Phase = "committing" }
	commitA := func(j *rpc.JobJSON, mine []byte) { j.Commits[0] = mine }
	revealing := func(j *rpc.JobJSON, _ []byte) { j.Phase = "revealing" }
	revealedA := func(j *rpc.JobJSON, _ []byte) { j.Reveals = []*rpc.RevealJSON{{}, nil, nil} }
	_, cmB := result("B", answer)
	_, cmC := result("C", answer)
	tests := []struct {
		name   string
		agg    string
		output []byte
		fault  string
		fail   int      // pushes the aggregator refuses first
		stored []string // results pushed to A before the first step: B, C, C-wrong, D, B-big
		job    func(j *rpc.JobJSON)
		steps  []step
	}{
		{name: "commit, and again only 3 blocks after one that did not land", agg: "B", output: answer,
			job: func(j *rpc.JobJSON) { j.Commits = nil },
			steps: []step{
				{1, committing, []string{"commit"}, 0},
				{3, nil, nil, 0},
				{4, nil, []string{"commit"}, 0},
				{6, nil, nil, 0},
				{7, func(j *rpc.JobJSON, mine []byte) { j.Commits = []rpc.Bytes{mine, nil, nil} }, nil, 1},
				{10, nil, nil, 1},
			}},
		{name: "the timeout fault never commits", agg: "B", output: answer, fault: FaultTimeout,
			steps: []step{{1, committing, nil, 0}, {9, nil, nil, 0}}},
		{name: "a refused push is retried, one that went through is not", agg: "B", output: answer, fail: 2,
			steps: []step{
				{1, committing, []string{"commit"}, 0},
				{2, commitA, nil, 1},
				{3, nil, nil, 2},
				{4, nil, nil, 3},
				{5, nil, nil, 3},
				{6, revealing, nil, 3},
			}},
		{name: "a push that goes through late does not hold up the reveal", agg: "B", output: answer, fail: 1,
			steps: []step{
				{1, committing, []string{"commit"}, 0},
				{2, commitA, nil, 1},
				{10, revealing, []string{"reveal A"}, 2},
			}},
		{name: "a member reveals alone from the individual-reveal height, again 3 blocks later", agg: "B", output: answer,
			steps: []step{
				{1, committing, []string{"commit"}, 0},
				{2, commitA, nil, 1},
				{9, revealing, nil, 1},
				{10, nil, []string{"reveal A"}, 1},
				{12, nil, nil, 1},
				{13, nil, []string{"reveal A"}, 1},
				{15, revealedA, nil, 1},
				{16, nil, nil, 1},
			}},
		{name: "the aggregator waits for the committed members until its window's last block", agg: "A", output: answer,
			stored: []string{"B", "C-wrong", "D"},
			job:    func(j *rpc.JobJSON) { j.Commits = []rpc.Bytes{nil, cmB, cmC} },
			steps: []step{
				{1, committing, []string{"commit"}, 0},
				{2, commitA, nil, 0},
				{7, revealing, nil, 0},
				{8, nil, []string{"reveal A B"}, 0},
				{10, nil, nil, 0},
				{11, nil, []string{"reveal A B"}, 0},
				{14, revealedA, nil, 0},
			}},
		{name: "the aggregator reveals at once when every committed member pushed", agg: "A", output: answer,
			stored: []string{"B", "C"},
			job:    func(j *rpc.JobJSON) { j.Commits = []rpc.Bytes{nil, cmB, cmC} },
			steps: []step{
				{1, committing, []string{"commit"}, 0},
				{2, func(j *rpc.JobJSON, mine []byte) { j.Phase, j.Commits[0] = "revealing", mine }, []string{"reveal A B C"}, 0},
			}},
		{name: "a member that did not commit is not waited for", agg: "A", output: answer,
			stored: []string{"B"},
			job:    func(j *rpc.JobJSON) { j.Commits = []rpc.Bytes{nil, cmB, nil} },
			steps: []step{
				{1, committing, []string{"commit"}, 0},
				{2, func(j *rpc.JobJSON, mine []byte) { j.Phase, j.Commits[0] = "revealing", mine }, []string{"reveal A B"}, 0},
			}},
		{name: "a member that revealed alone is left out of the aggregated reveal", agg: "A", output: answer,
			stored: []string{"B", "C"},
			job: func(j *rpc.JobJSON) {
				j.Commits = []rpc.Bytes{nil, cmB, cmC}
				j.Reveals = []*rpc.RevealJSON{nil, {}, nil}
			},
			steps: []step{
				{1, committing, []string{"commit"}, 0},
				// B is still counted among the committed, so the aggregator
				// waits for it until its window's last block.
				{2, func(j *rpc.JobJSON, mine []byte) { j.Phase, j.Commits[0] = "revealing", mine }, nil, 0},
				{8, nil, []string{"reveal A C"}, 0},
			}},
		{name: "a pushed member beyond the commit list is left out", agg: "A", output: answer,
			stored: []string{"B", "C"},
			job:    func(j *rpc.JobJSON) { j.Commits = []rpc.Bytes{nil, cmB} },
			steps: []step{
				{1, committing, []string{"commit"}, 0},
				{2, func(j *rpc.JobJSON, mine []byte) { j.Phase, j.Commits[0] = "revealing", mine }, []string{"reveal A B"}, 0},
			}},
		{name: "the aggregator not first among the members", agg: "A", output: answer,
			stored: []string{"B", "C"},
			job: func(j *rpc.JobJSON) {
				j.Members[0], j.Members[1] = j.Members[1], j.Members[0] // B, A, C
				j.Commits = []rpc.Bytes{cmB, nil, cmC}
			},
			steps: []step{
				{1, committing, []string{"commit"}, 0},
				{2, func(j *rpc.JobJSON, mine []byte) { j.Phase, j.Commits[1] = "revealing", mine }, []string{"reveal A B C"}, 0},
			}},
		{name: "large results go in several reveals", agg: "A", output: large,
			stored: []string{"B-big"},
			job:    func(j *rpc.JobJSON) { j.Commits = []rpc.Bytes{nil, nil, nil} },
			steps: []step{
				{1, committing, []string{"commit"}, 0},
				{2, func(j *rpc.JobJSON, mine []byte) {
					_, cm := result("B", large)
					j.Phase, j.Commits[0], j.Commits[1] = "revealing", mine, cm
				}, []string{"reveal A", "reveal B"}, 0},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chain, c := newStandIn(t)
			agg := &aggServer{fail: tt.fail}
			as := httptest.NewServer(agg)
			defer as.Close()
			chain.endpoints[rpc.Address(addr[tt.agg])] = as.URL + "/"
			d, err := Open(Config{Home: filepath.Join(t.TempDir(), "d"), Key: keys["A"], RPC: c, Exec: fixed(tt.output),
				Fault: tt.fault, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			d.chainID = 1
			for _, s := range tt.stored {
				var p pushed
				switch s {
				case "C-wrong":
					p, _ = result("C", []byte("no"))
					p.Output = answer // signed "no", pushed "yes": not C's commitment
				case "B-big":
					p, _ = result("B", large)
				default:
					p, _ = result(s, answer)
				}
				m := s[:1]
				if err := d.st.put(pushKey(id, addr[m].Hex()), &p); err != nil {
					t.Fatal(err)
				}
			}
			j := &rpc.JobJSON{ID: id, Kind: "llm", Members: []rpc.Address{rpc.Address(addr["A"]), rpc.Address(addr["B"]), rpc.Address(addr["C"])},
				Aggregator: rpc.Address(addr[tt.agg]), Commits: make([]rpc.Bytes, 3), IndividualReveals: 10}
			if tt.job != nil {
				tt.job(j)
			}
			for _, s := range tt.steps {
				var js jobState
				if _, err := d.st.get(jobKey(id), &js); err != nil {
					t.Fatal(err)
				}
				if s.edit != nil {
					s.edit(j, js.Commitment)
				}
				if err := d.work(context.Background(), j, s.height); err != nil {
					t.Fatalf("height %d: %v", s.height, err)
				}
				got := chain.take(names)
				agg.mu.Lock()
				calls := agg.calls
				agg.mu.Unlock()
				if strings.Join(got, "|") != strings.Join(s.want, "|") || calls != s.pushes {
					t.Fatalf("height %d: sent %q and %d pushes, want %q and %d", s.height, got, calls, s.want, s.pushes)
				}
			}
			agg.mu.Lock()
			defer agg.mu.Unlock()
			for _, p := range agg.got {
				var js jobState
				if _, err := d.st.get(jobKey(id), &js); err != nil {
					t.Fatal(err)
				}
				if want, _ := result("A", tt.output); p.Member != want.Member || p.JobID != id || !bytes.Equal(p.Output, tt.output) ||
					!bytes.Equal(p.Sig, js.Sig) || checkSig(p, addr["A"]) != nil {
					t.Fatalf("pushed %+v", p)
				}
			}
		})
	}
}

// TestPushAccepted: the aggregator's push server keeps a member's signed
// result (the first member's too) and refuses one from a non-member or
// for a job it does not aggregate.
func TestPushAccepted(t *testing.T) {
	chain, c := newStandIn(t)
	keys := map[string]*crypto.PrivateKey{}
	addr := map[string]rpc.Address{}
	for _, n := range []string{"A", "B", "C", "D"} {
		kb := crypto.Keccak256([]byte("daemon-push/" + n))
		k, err := crypto.PrivateKeyFromBytes(kb[:])
		if err != nil {
			t.Fatal(err)
		}
		keys[n], addr[n] = k, rpc.Address(k.Address())
	}
	d := openOn(t, "daemon-push/A", c, executor.Kinds{}, func(cfg *Config) { cfg.Listen = "127.0.0.1:0" })
	for _, tt := range []struct {
		name    string
		members []string
		agg     string
		from    string
		status  int
		size    int // the body padded with JSON whitespace to this many bytes, with a maximal result; 0: unpadded
	}{
		{"a member's push", []string{"A", "B", "C"}, "A", "C", http.StatusOK, 0},
		{"the first member's push", []string{"B", "A", "C"}, "A", "B", http.StatusOK, 0},
		{"not a member", []string{"A", "B", "C"}, "A", "D", http.StatusForbidden, 0},
		{"another aggregator's job", []string{"A", "B", "C"}, "B", "C", http.StatusForbidden, 0},
		// The body limit is a maximal result in JSON with room to spare,
		// MaxResultBytes*2+4096 bytes: a body of exactly that size is read,
		// one byte more is refused before any signature check.
		{"a maximal result at the body limit", []string{"A", "B", "C"}, "A", "C", http.StatusOK, runner.MaxResultBytes*2 + 4096},
		{"one byte over the body limit", []string{"A", "B", "C"}, "A", "C", http.StatusBadRequest, runner.MaxResultBytes*2 + 4097},
	} {
		t.Run(tt.name, func(t *testing.T) {
			j := &rpc.JobJSON{ID: 4, Aggregator: addr[tt.agg]}
			for _, m := range tt.members {
				j.Members = append(j.Members, addr[m])
			}
			chain.mu.Lock()
			chain.job = j
			chain.mu.Unlock()
			out := []byte(tt.name)
			if tt.size > 0 {
				out = bytes.Repeat([]byte(tt.name[:1]), runner.MaxResultBytes) // differs per case
			}
			sig, _ := runner.SignResult(keys[tt.from], 4, runner.StatusOK, 1, out)
			p := pushed{JobID: 4, Member: types.Address(addr[tt.from]).Hex(), Status: runner.StatusOK, Output: out, Usage: 1, Sig: sig}
			b, _ := json.Marshal(p)
			if tt.size > 0 {
				if len(b) > tt.size {
					t.Fatalf("the unpadded body is %d bytes, over %d", len(b), tt.size)
				}
				// Inside the object, so that the decoder must read it all.
				b = append(append([]byte{'{'}, bytes.Repeat([]byte{' '}, tt.size-len(b))...), b[1:]...)
			}
			before := d.stats.PushesReceived.Load()
			resp, err := http.Post(d.URL()+"v1/results", "application/json", bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			var got pushed
			found, err := d.st.get(pushKey(4, p.Member), &got)
			if err != nil {
				t.Fatal(err)
			}
			kept := found && bytes.Equal(got.Output, out)
			if resp.StatusCode != tt.status || kept != (tt.status == http.StatusOK) ||
				d.stats.PushesReceived.Load()-before != map[bool]uint64{true: 1}[kept] {
				t.Fatalf("HTTP %d, kept %v, want HTTP %d", resp.StatusCode, kept, tt.status)
			}
		})
	}
}
