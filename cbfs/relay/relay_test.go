package relay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/crypto"
)

type fixture struct {
	srv   *Server
	owner *crypto.PrivateKey
	vol   *cbfs.Volume
	cli   *Client
	tok   []byte
}

func newFixture(t *testing.T, lim Limits) *fixture {
	t.Helper()
	nodeKey, _ := crypto.GenerateKey()
	srv, err := New(Config{Dir: t.TempDir(), Listen: "127.0.0.1:0", Key: nodeKey, Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	owner, _ := crypto.GenerateKey()
	key, _ := cbfs.NewVolumeKey()
	vol := &cbfs.Volume{ID: cbfs.DeriveVolumeID(owner.Address(), "logs"), Key: key}
	cli, err := NewClient(srv.Addr(), srv.ID(), owner)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	tok, err := cbfs.Grant(owner, "logs", nil, cbfs.PermRead|cbfs.PermWrite, uint64(time.Now().Add(time.Hour).Unix()), owner.Address(), [8]byte{})
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cbfs.Marshal(tok)
	return &fixture{srv: srv, owner: owner, vol: vol, cli: cli, tok: tb}
}

// encodeFile makes a real manifest and its shards for path.
func (f *fixture) encodeFile(t *testing.T, path string, data []byte) (*cbfs.Manifest, map[[2]int][]byte) {
	t.Helper()
	return f.encodeFileSeg(t, path, data, cbfs.MinSegmentSize)
}

// encodeFileSeg is encodeFile with segments of seg bytes (shards of about
// seg/2).
func (f *fixture) encodeFileSeg(t *testing.T, path string, data []byte, seg int) (*cbfs.Manifest, map[[2]int][]byte) {
	t.Helper()
	shards := map[[2]int][]byte{}
	var mu sync.Mutex // segments are placed concurrently
	m, err := cbfs.Encode(context.Background(), f.vol, path, cbfs.Params{K: 2, M: 1, SegmentSize: seg}, bytes.NewReader(data), 1,
		func(_ context.Context, e *cbfs.EncodedSegment) ([]cbfs.RelayID, error) {
			mu.Lock()
			defer mu.Unlock()
			for j, s := range e.Shards {
				shards[[2]int{e.Index, j}] = bytes.Clone(s)
			}
			return make([]cbfs.RelayID, len(e.Shards)), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return m, shards
}

func (f *fixture) auth(t *testing.T, path string) Auth {
	tags, err := f.vol.PathTags(path)
	if err != nil {
		t.Fatal(err)
	}
	return Auth{Token: f.tok, Vol: f.vol.ID, Tags: tags}
}

func putReq(a Auth, m *cbfs.Manifest, i, j int) *PutShardReq {
	return &PutShardReq{Auth: a, Hash: m.Segments[i].Hashes[j], Root: m.Root(), N: m.K + m.M, Proof: m.Proof(i, j)}
}

func TestShardRoundTripAndChallenge(t *testing.T) {
	f := newFixture(t, Limits{})
	ctx := context.Background()
	data := bytes.Repeat([]byte("cowboy "), 3000)
	m, shards := f.encodeFile(t, "reports/a.txt", data)
	a := f.auth(t, "reports/a.txt")
	for k, s := range shards {
		if err := f.cli.PutShard(ctx, putReq(a, m, k[0], k[1]), s); err != nil {
			t.Fatal(err)
		}
	}
	sealed, _ := f.vol.SealManifest(m, a.Tags[len(a.Tags)-1])
	if err := f.cli.PutManifest(ctx, a, 0, sealed); err != nil {
		t.Fatal(err)
	}
	got, err := f.cli.GetShard(ctx, a, m.Segments[1].Hashes[2])
	if err != nil || !bytes.Equal(got, shards[[2]int{1, 2}]) {
		t.Fatalf("get shard: %v", err)
	}
	// A shard whose bytes do not match its hash is refused.
	bad := bytes.Clone(shards[[2]int{0, 0}])
	bad[0] ^= 1
	if err := f.cli.PutShard(ctx, putReq(a, m, 0, 0), bad); err == nil {
		t.Fatal("tampered shard stored")
	}
	// A shard with a proof for another position is refused.
	r := putReq(a, m, 0, 1)
	r.Proof = m.Proof(0, 0)
	if err := f.cli.PutShard(ctx, r, shards[[2]int{0, 1}]); err == nil {
		t.Fatal("shard with a wrong proof stored")
	}
	// Challenges: random ranges, proved against the root.
	for _, rg := range [][2]uint64{{0, 1}, {17, 1000}, {1000, 1024}, {uint64(m.ShardLen(0)) - 5, 5}} {
		h := m.Segments[0].Hashes[1]
		resp, slice, err := f.cli.Challenge(ctx, &ChallengeReq{Auth: a, Hash: h, Offset: rg[0], Length: rg[1]})
		if err != nil {
			t.Fatalf("challenge %v: %v", rg, err)
		}
		proven, err := VerifyChallenge(m.Root(), h, rg[0], rg[1], resp, slice)
		if err != nil {
			t.Fatalf("challenge %v: %v", rg, err)
		}
		if !bytes.Equal(proven, shards[[2]int{0, 1}][rg[0]:rg[0]+rg[1]]) {
			t.Fatal("challenge proved the wrong bytes")
		}
		slice[len(slice)-1] ^= 1
		if _, err := VerifyChallenge(m.Root(), h, rg[0], rg[1], resp, slice); err == nil {
			t.Fatal("tampered challenge answer verified")
		}
	}
	ents, err := f.cli.List(ctx, Auth{Token: f.tok, Vol: f.vol.ID})
	if err != nil || len(ents) != 1 {
		t.Fatalf("list: %d %v", len(ents), err)
	}
	if mm, err := f.vol.OpenManifest(ents[0].Sealed, a.Tags[len(a.Tags)-1]); err != nil || mm.Path != "reports/a.txt" {
		t.Fatalf("listed manifest: %v", err)
	}
	st, err := f.cli.Stat(ctx)
	if err != nil || st.Used == 0 || len(st.Volumes) != 1 {
		t.Fatalf("stat: %+v %v", st, err)
	}
	if err := f.cli.Delete(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := f.cli.GetShard(ctx, a, m.Segments[1].Hashes[2]); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
	if st, _ := f.cli.Stat(ctx); st.Used != 0 {
		t.Fatalf("after delete %d bytes still counted", st.Used)
	}
}

// Every token check refuses a shard request on both paths it can take:
// QUIC (the client with SetBulkTCP(false)) and the bulk TCP path the
// client prefers. A refusal leaves the connection usable.
func TestTokensCheckedOnEveryRequest(t *testing.T) {
	for _, tcp := range []bool{false, true} {
		name := "quic"
		if tcp {
			name = "tcp"
		}
		t.Run(name, func(t *testing.T) { testTokensChecked(t, tcp) })
	}
}

func testTokensChecked(t *testing.T, tcp bool) {
	f := newFixture(t, Limits{})
	f.cli.SetBulkTCP(tcp)
	ctx := context.Background()
	m, shards := f.encodeFile(t, "reports/a.txt", []byte("secret"))
	a := f.auth(t, "reports/a.txt")
	if err := f.cli.PutShard(ctx, putReq(a, m, 0, 0), shards[[2]int{0, 0}]); err != nil {
		t.Fatal(err)
	}
	exp := uint64(time.Now().Add(time.Hour).Unix())
	other, _ := crypto.GenerateKey()
	reports, _ := f.vol.PrefixTags("reports/")
	secrets, _ := f.vol.PathTags("secrets/a.txt")
	tokOf := func(tk *cbfs.Token) []byte { b, _ := cbfs.Marshal(tk); return b }
	// Read-write tokens, so that a refused put is refused for the reason
	// its case names and not for lacking write permission.
	rw := cbfs.PermRead | cbfs.PermWrite
	expired, _ := cbfs.Grant(f.owner, "logs", nil, rw, uint64(time.Now().Add(-time.Minute).Unix()), f.owner.Address(), [8]byte{})
	otherVol, _ := cbfs.Grant(f.owner, "other", nil, rw, exp, f.owner.Address(), [8]byte{})
	forged, _ := cbfs.Grant(other, "logs", nil, rw, exp, f.owner.Address(), [8]byte{})
	forged.Owner = f.owner.Address()
	readOnly, _ := cbfs.Grant(f.owner, "logs", reports, cbfs.PermRead, exp, f.owner.Address(), [8]byte{1})
	toRevoke, _ := cbfs.Grant(f.owner, "logs", nil, rw, exp, f.owner.Address(), [8]byte{2})
	forOther, _ := cbfs.Grant(f.owner, "logs", nil, rw, exp, other.Address(), [8]byte{3})
	widened, _ := readOnly.Delegate(f.owner, nil, cbfs.PermRead, exp, f.owner.Address(), [8]byte{4})
	rid, _ := toRevoke.Links[0].ID()
	rev, _ := cbfs.Revoke(f.owner, "logs", rid, exp)
	if err := f.cli.Revoke(ctx, rev); err != nil {
		t.Fatal(err)
	}
	// A stranger's revocation (valid for the stranger's own volume of the
	// same name) does not touch this volume's links.
	roID, _ := readOnly.Links[0].ID()
	strangerRev, _ := cbfs.Revoke(other, "logs", roID, exp)
	if err := f.cli.Revoke(ctx, strangerRev); err != nil {
		t.Fatal(err)
	}
	strangerRev.Owner = f.owner.Address() // and claiming the owner's name fails the signature
	if err := f.cli.Revoke(ctx, strangerRev); !errors.Is(err, ErrDenied) {
		t.Fatalf("forged revocation: %v", err)
	}
	h := m.Segments[0].Hashes[0]
	cases := []struct {
		name string
		auth Auth
		put  bool
	}{
		{"no token get", Auth{Vol: f.vol.ID, Tags: a.Tags}, false},
		{"no token put", Auth{Vol: f.vol.ID, Tags: a.Tags}, true},
		{"garbage token", Auth{Token: []byte{0xff, 0x00}, Vol: f.vol.ID, Tags: a.Tags}, false},
		{"expired get", Auth{Token: tokOf(expired), Vol: f.vol.ID, Tags: a.Tags}, false},
		{"expired put", Auth{Token: tokOf(expired), Vol: f.vol.ID, Tags: a.Tags}, true},
		{"other volume's token get", Auth{Token: tokOf(otherVol), Vol: f.vol.ID, Tags: a.Tags}, false},
		{"other volume's token put", Auth{Token: tokOf(otherVol), Vol: f.vol.ID, Tags: a.Tags}, true},
		{"forged get", Auth{Token: tokOf(forged), Vol: f.vol.ID, Tags: a.Tags}, false},
		{"forged put", Auth{Token: tokOf(forged), Vol: f.vol.ID, Tags: a.Tags}, true},
		{"revoked get", Auth{Token: tokOf(toRevoke), Vol: f.vol.ID, Tags: a.Tags}, false},
		{"revoked put", Auth{Token: tokOf(toRevoke), Vol: f.vol.ID, Tags: a.Tags}, true},
		{"widened delegation", Auth{Token: tokOf(widened), Vol: f.vol.ID, Tags: a.Tags}, false},
		{"held by someone else get", Auth{Token: tokOf(forOther), Vol: f.vol.ID, Tags: a.Tags}, false},
		{"held by someone else put", Auth{Token: tokOf(forOther), Vol: f.vol.ID, Tags: a.Tags}, true},
		{"write with read-only", Auth{Token: tokOf(readOnly), Vol: f.vol.ID, Tags: a.Tags}, true},
		{"read outside prefix", Auth{Token: tokOf(readOnly), Vol: f.vol.ID, Tags: secrets}, false},
		{"lying about the parents", Auth{Token: tokOf(readOnly), Vol: f.vol.ID, Tags: []cbfs.Tag{reports[0], secrets[1]}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := f.srv.TCPReqs.Load()
			var err error
			if c.put {
				err = f.cli.PutShard(ctx, putReq(c.auth, m, 0, 1), shards[[2]int{0, 1}])
			} else {
				_, err = f.cli.GetShard(ctx, c.auth, h)
			}
			if !errors.Is(err, ErrDenied) && !(c.name == "lying about the parents" && errors.Is(err, ErrNotFound)) {
				t.Fatalf("got %v, want denied", err)
			}
			want := before
			if tcp {
				want++
			}
			if n := f.srv.TCPReqs.Load(); n != want {
				t.Fatalf("%d requests over TCP after this one, want %d (tcp %v)", n, want, tcp)
			}
		})
	}
	// The read-only prefix token does read inside its prefix, on the same
	// connection the refusals went over.
	if _, err := f.cli.GetShard(ctx, Auth{Token: tokOf(readOnly), Vol: f.vol.ID, Tags: a.Tags}, h); err != nil {
		t.Fatalf("prefix token inside its prefix: %v", err)
	}
	if _, err := f.cli.GetShard(ctx, a, h); err != nil {
		t.Fatalf("good request after refusals: %v", err)
	}
}

func TestGarbageIsRefusedAndRelayLives(t *testing.T) {
	f := newFixture(t, Limits{})
	ctx := context.Background()
	// Raw UDP garbage at the port.
	ua, _ := net.ResolveUDPAddr("udp", f.srv.Addr())
	u, err := net.DialUDP("udp", nil, ua)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		u.Write(bytes.Repeat([]byte{byte(i), 0xc3, 0x00}, 1+i*3))
	}
	u.Close()
	// Malformed frames over a real QUIC stream.
	frames := [][]byte{
		{99, 0, 0, 0, 0, 0, 0, 0, 0},                  // unknown op
		{1, 0xff, 0xff, 0xff, 0xff},                   // header length over the cap
		{1, 0, 0, 0, 1, 0xa0, 0xff, 0xff, 0xff, 0xff}, // data length over the cap
		{2, 0, 0, 0, 3, 0xff, 0xfe, 0xfd, 0, 0, 0, 0}, // garbage CBOR
		{1, 0, 0}, // truncated
	}
	for _, fr := range frames {
		conn, err := f.cli.connect(ctx)
		if err != nil {
			t.Fatal(err)
		}
		st, err := conn.OpenStreamSync(ctx)
		if err != nil {
			t.Fatal(err)
		}
		st.SetDeadline(time.Now().Add(5 * time.Second))
		st.Write(fr)
		st.Close()
		buf := make([]byte, 256)
		st.Read(buf) // an error answer or a reset; either way no crash
	}
	if f.srv.Refused.Load() == 0 {
		t.Fatal("no request was counted as refused")
	}
	// The relay still serves (the client redials if its connection was closed).
	if _, err := f.cli.Stat(ctx); err != nil {
		t.Fatalf("relay dead after garbage: %v", err)
	}
}

func TestLimits(t *testing.T) {
	f := newFixture(t, Limits{Capacity: 40 << 10, ReqsPerSec: 1, ReqBurst: 20})
	ctx := context.Background()
	m, shards := f.encodeFile(t, "big", bytes.Repeat([]byte{7}, 8*cbfs.MinSegmentSize))
	a := f.auth(t, "big")
	var full, limited bool
	for k, s := range shards {
		err := f.cli.PutShard(ctx, putReq(a, m, k[0], k[1]), s)
		var se *StatusError
		if errors.As(err, &se) && se.Status == StatusFull {
			if bytes.Contains([]byte(se.Msg), []byte("rate")) {
				limited = true
			} else {
				full = true
			}
		}
	}
	if !full {
		t.Fatal("capacity never refused a shard")
	}
	for i := 0; i < 30 && !limited; i++ {
		_, err := f.cli.Stat(ctx)
		var se *StatusError
		limited = errors.As(err, &se) && se.Status == StatusFull
	}
	if !limited {
		t.Fatal("rate limit never refused a request")
	}
	if st := f.srv.stat(); st.Used > 40<<10 {
		t.Fatalf("used %d over capacity", st.Used)
	}
}

// A revocation survives a relay restart; an expired one is dropped on
// start.
func TestRevocationsPersist(t *testing.T) {
	dir := t.TempDir()
	nodeKey, _ := crypto.GenerateKey()
	owner, _ := crypto.GenerateKey()
	start := func() *Server {
		srv, err := New(Config{Dir: dir, Listen: "127.0.0.1:0", Key: nodeKey})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		return srv
	}
	srv := start()
	exp := uint64(time.Now().Add(time.Hour).Unix())
	tok, _ := cbfs.Grant(owner, "logs", nil, cbfs.PermRead, exp, owner.Address(), [8]byte{})
	id, _ := tok.Links[0].ID()
	rev, _ := cbfs.Revoke(owner, "logs", id, exp)
	old, _ := cbfs.Revoke(owner, "logs", [32]byte{1}, uint64(time.Now().Add(-time.Minute).Unix()))
	cli, _ := NewClient(srv.Addr(), srv.ID(), owner)
	for _, r := range []*cbfs.Revocation{rev, old} {
		if err := cli.Revoke(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	cli.Close()
	srv.Close()
	srv = start()
	defer srv.Close()
	vol := cbfs.DeriveVolumeID(owner.Address(), "logs")
	if !srv.isRevoked(vol, id) {
		t.Fatal("revocation lost across a restart")
	}
	if srv.isRevoked(vol, [32]byte{1}) {
		t.Fatal("expired revocation kept")
	}
}

// TestDeleteRemovesShardsWhoseHashStartsWithFF: delete scans a path's shard
// keys by prefix; an upper bound of prefix‖0xff left behind every shard whose
// hash begins with 0xff (1 in 256, so TestShardRoundTripAndChallenge failed
// now and then with bytes "still counted"). The file is re-encrypted until
// one of its shards has such a hash.
func TestDeleteRemovesShardsWhoseHashStartsWithFF(t *testing.T) {
	f := newFixture(t, Limits{})
	ctx := context.Background()
	var (
		m      *cbfs.Manifest
		shards map[[2]int][]byte
		ff     [2]int
		found  bool
	)
	for try := 0; try < 5000 && !found; try++ {
		m, shards = f.encodeFile(t, "ff.bin", []byte(fmt.Sprintf("payload %d", try)))
		for k := range shards {
			if m.Segments[k[0]].Hashes[k[1]][0] == 0xff {
				ff, found = k, true
			}
		}
	}
	if !found {
		t.Fatal("no shard hash starting with 0xff in 5000 encodings")
	}
	a := f.auth(t, "ff.bin")
	for k, s := range shards {
		if err := f.cli.PutShard(ctx, putReq(a, m, k[0], k[1]), s); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.cli.Delete(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := f.cli.GetShard(ctx, a, m.Segments[ff[0]].Hashes[ff[1]]); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the 0xff shard after delete: %v", err)
	}
	if st, _ := f.cli.Stat(ctx); st.Used != 0 {
		t.Fatalf("after delete %d bytes still counted", st.Used)
	}
}

// TestLinkSurvivesDeleteAndRestart links a file's shards under a second
// path, deletes the first path, restarts the relay on the same directory
// (its startup sweep runs), and reads and challenges every shard under
// the new path. Usage counts the shards once again after the delete.
func TestLinkSurvivesDeleteAndRestart(t *testing.T) {
	dir := t.TempDir()
	nodeKey, _ := crypto.GenerateKey()
	f := newFixture(t, Limits{})
	srv, err := New(Config{Dir: dir, Listen: "127.0.0.1:0", Key: nodeKey})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	cli, err := NewClient(srv.Addr(), srv.ID(), f.owner)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m, shards := f.encodeFile(t, "a/old", bytes.Repeat([]byte("link "), 5000))
	from, to := f.auth(t, "a/old"), f.auth(t, "b/new")
	for k, s := range shards {
		if err := cli.PutShard(ctx, putReq(from, m, k[0], k[1]), s); err != nil {
			t.Fatal(err)
		}
	}
	used := srv.stat().Used
	otherVol := f.auth(t, "c")
	otherVol.Vol[0] ^= 1
	refused := []struct {
		name     string
		from, to Auth
	}{
		{"to itself", from, from},
		{"unknown source", f.auth(t, "none"), f.auth(t, "c")},
		{"into another volume", from, otherVol},
	}
	for _, tt := range refused {
		if err := cli.Link(ctx, tt.from, tt.to); err == nil {
			t.Fatalf("%s: link accepted", tt.name)
		}
	}
	if got := srv.stat().Used; got != used {
		t.Fatalf("usage after refused links: %d, want %d", got, used)
	}
	if err := cli.Link(ctx, from, to); err != nil {
		t.Fatal(err)
	}
	if err := cli.Delete(ctx, from); err != nil {
		t.Fatal(err)
	}
	if got := srv.stat().Used; got != used {
		t.Fatalf("usage after link and delete: %d, want %d", got, used)
	}
	cli.Close()
	srv.Close()
	srv, err = New(Config{Dir: dir, Listen: "127.0.0.1:0", Key: nodeKey})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cli, err = NewClient(srv.Addr(), srv.ID(), f.owner)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	for k, s := range shards {
		h := m.Segments[k[0]].Hashes[k[1]]
		got, err := cli.GetShard(ctx, to, h)
		if err != nil || !bytes.Equal(got, s) {
			t.Fatalf("shard %v under the new path: %v", k, err)
		}
		resp, slice, err := cli.Challenge(ctx, &ChallengeReq{Auth: to, Hash: h, Offset: 0, Length: 16})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := VerifyChallenge(m.Root(), h, 0, 16, resp, slice); err != nil {
			t.Fatal(err)
		}
		if _, err := cli.GetShard(ctx, from, h); err == nil {
			t.Fatalf("shard %v still served under the deleted path", k)
		}
	}
}
