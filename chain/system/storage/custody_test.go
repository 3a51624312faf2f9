package storage

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"
	"lukechampine.com/blake3/bao"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// custodyEnv is a volume (k=2, m=1) with one committed file whose three
// shards the test holds, and a registered relay holding stake.
type custodyEnv struct {
	*env
	owner  types.Address
	id     cbfs.VolumeID
	pid    [32]byte
	mf     *cbfs.Manifest
	shards [][]byte
	key    *crypto.PrivateKey
	relay  types.Address
}

func testKey(t *testing.T, n byte) *crypto.PrivateKey {
	t.Helper()
	var b [32]byte
	b[0], b[31] = 0x6b, n
	k, err := crypto.PrivateKeyFromBytes(b[:])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// newCustodyEnv registers the relay with stake (nil: not registered).
func newCustodyEnv(t *testing.T, stake *big.Int) *custodyEnv {
	e := &custodyEnv{env: newEnv(t), owner: addr(1), pid: [32]byte{7}, key: testKey(t, 1)}
	e.relay = types.Address(e.key.Address())
	e.st.Mint(e.relay, cby(1_000_000))
	e.must(ManagerAddress, e.owner, big.NewInt(1), 1, "create_volume", "logs", uint64(2), uint64(1))
	e.id = cbfs.DeriveVolumeID(e.owner, "logs")
	e.mf = &cbfs.Manifest{Version: cbfs.ManifestVersion, K: 2, M: 1, SegSize: cbfs.MinSegmentSize, Size: 3000}
	seg := cbfs.Segment{Relays: make([]cbfs.RelayID, 3)}
	for j := 0; j < 3; j++ {
		d := make([]byte, e.mf.ShardLen(0))
		for i := range d {
			d[i] = byte(i*7 + j*31 + i>>8)
		}
		e.shards = append(e.shards, d)
		seg.Hashes = append(seg.Hashes, cbfs.HashShard(d))
	}
	e.mf.Segments = []cbfs.Segment{seg}
	e.must(ManagerAddress, e.owner, nil, 1, "commit", e.id[:], e.pid[:], e.mf.Commitment().Bytes())
	if stake != nil {
		e.must(RegistryAddress, e.relay, stake, 1, "register_relay", "127.0.0.1:1", uint64(1<<30))
	}
	return e
}

// receipt is the relay's signed receipt for shard j; edit runs before
// signing.
func (e *custodyEnv) receipt(j int, key *crypto.PrivateKey, edit func(*cbfs.CustodyReceipt)) []byte {
	e.t.Helper()
	rc := &cbfs.CustodyReceipt{Relay: cbfs.RelayID(key.Address()), Volume: e.id, PathID: cbfs.Tag(e.pid), Root: e.mf.Root(), N: 3,
		Hash: e.mf.Segments[0].Hashes[j], Proof: e.mf.Proof(0, j)}
	if edit != nil {
		edit(rc)
	}
	if err := cbfs.SignCustody(key, rc); err != nil {
		e.t.Fatal(err)
	}
	b, err := cbfs.Marshal(rc)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

type challengeEvent struct {
	ID       []byte `cbor:"id"`
	Relay    []byte `cbor:"relay"`
	Offset   uint64 `cbor:"offset"`
	Length   uint64 `cbor:"length"`
	Deadline uint64 `cbor:"deadline"`
}

// challenge puts shard j's receipt on chain at height h.
func (e *custodyEnv) challenge(j int, h uint64) challengeEvent {
	e.t.Helper()
	res, err := Apply(e.st, Call{To: RegistryAddress, From: e.owner, Payload: Payload("challenge", e.receipt(j, e.key, nil)), Height: h, Cycles: 1_000_000})
	if err != nil {
		e.t.Fatalf("challenge: %v", err)
	}
	if res.CyclesUsed != CallCycles+ChallengeCycles {
		e.t.Fatalf("challenge used %d cycles, want %d", res.CyclesUsed, CallCycles+ChallengeCycles)
	}
	var ev challengeEvent
	if err := cbor.Unmarshal(res.Events[0].Data, &ev); err != nil {
		e.t.Fatal(err)
	}
	return ev
}

// slice is the Bao slice of shard j that answers ev.
func (e *custodyEnv) slice(j int, ev challengeEvent) []byte {
	e.t.Helper()
	d := e.shards[j]
	outboard, _ := bao.EncodeBuf(d, cbfs.BaoGroup, true)
	start := ev.Offset / (1024 << cbfs.BaoGroup) * (1024 << cbfs.BaoGroup)
	var out bytes.Buffer
	if err := bao.ExtractSlice(&out, bytes.NewReader(d[start:]), bytes.NewReader(outboard), cbfs.BaoGroup, ev.Offset, ev.Length); err != nil {
		e.t.Fatal(err)
	}
	return out.Bytes()
}

// TestChallengeRefusals: only the volume's owner challenges, with a valid
// receipt of a registered relay for the committed version of the file,
// once per receipt and height; a refused challenge records nothing.
func TestChallengeRefusals(t *testing.T) {
	e := newCustodyEnv(t, MinRelayStake)
	stranger := testKey(t, 2)
	e.st.Mint(types.Address(stranger.Address()), cby(10))
	good := e.receipt(1, e.key, nil)
	unsigned := func() []byte {
		b := e.receipt(1, e.key, nil)
		var rc cbfs.CustodyReceipt
		if err := cbfs.Unmarshal(b, &rc); err != nil {
			t.Fatal(err)
		}
		rc.Sig = make([]byte, 65)
		out, _ := cbfs.Marshal(&rc)
		return out
	}()
	for _, c := range []struct {
		name  string
		from  types.Address
		value *big.Int
		args  []any
		want  string
	}{
		{"a value", e.owner, big.NewInt(1), []any{good}, "takes no value"},
		{"no receipt", e.owner, nil, []any{}, "takes 1 argument"},
		{"not bytes", e.owner, nil, []any{uint64(1)}, "custody receipt"},
		{"not a receipt", e.owner, nil, []any{[]byte{1, 2, 3}}, "custody receipt:"},
		{"bad signature", e.owner, nil, []any{unsigned}, "not signed by relay"},
		{"not the owner", addr(4), nil, []any{good}, "only the owner of volume"},
		{"unknown volume", e.owner, nil, []any{e.receipt(1, e.key, func(r *cbfs.CustodyReceipt) { r.Volume = cbfs.VolumeID{9} })}, "only the owner of volume"},
		{"no commitment", e.owner, nil, []any{e.receipt(1, e.key, func(r *cbfs.CustodyReceipt) { r.PathID = cbfs.Tag{8} })}, "no commitment"},
		{"unregistered relay", e.owner, nil, []any{e.receipt(1, stranger, nil)}, "is not a registered relay"},
	} {
		before := e.st.Snapshot()
		if err := e.call(RegistryAddress, c.from, c.value, 5, "challenge", c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if e.st.Snapshot() != before {
			t.Errorf("%s: state changed", c.name)
		}
	}
	// The challenge method belongs to 0x0B, and only there costs extra.
	res, err := Apply(e.st, Call{To: ManagerAddress, From: e.owner, Payload: Payload("challenge", good), Height: 5, Cycles: 1_000_000})
	if err == nil || !strings.Contains(err.Error(), "unknown method") || res.CyclesUsed != CallCycles {
		t.Errorf("challenge to 0x0A: %v, %d cycles", err, res.CyclesUsed)
	}
	// Exactly enough cycles; one short is refused and charges all.
	for _, c := range []struct {
		cycles uint64
		ok     bool
	}{{CallCycles + ChallengeCycles - 1, false}, {CallCycles + ChallengeCycles, true}} {
		res, err := Apply(e.st, Call{To: RegistryAddress, From: e.owner, Payload: Payload("challenge", good), Height: 6, Cycles: c.cycles})
		want := fmt.Sprintf("relay registry challenge costs %d cycles, the transaction has %d left", CallCycles+ChallengeCycles, c.cycles)
		if (err == nil) != c.ok || (!c.ok && (!errors.Is(err, ErrOutOfCycles) || !strings.Contains(err.Error(), want))) || res.CyclesUsed != c.cycles {
			t.Errorf("challenge with %d cycles: %v, %d used", c.cycles, err, res.CyclesUsed)
		}
	}
	if err := e.call(RegistryAddress, e.owner, nil, 6, "challenge", good); err == nil || !strings.Contains(err.Error(), "already challenged at this height") {
		t.Errorf("the same receipt twice at one height: %v", err)
	}
	e.must(RegistryAddress, e.owner, nil, 7, "challenge", good)
	// A new version of the file: the old receipt no longer counts.
	e.mf.Segments[0].Hashes[0] = cbfs.HashShard([]byte("another shard"))
	e.must(ManagerAddress, e.owner, nil, 8, "commit", e.id[:], e.pid[:], e.mf.Commitment().Bytes())
	if err := e.call(RegistryAddress, e.owner, nil, 9, "challenge", good); err == nil || !strings.Contains(err.Error(), "another version") {
		t.Errorf("a receipt for the old version: %v", err)
	}
}

// TestChallengeRespond: the challenged relay answers with the Bao slice of
// the range the chain picked, up to and including the deadline; anyone
// else, a late answer, a wrong or oversized slice are refused.
func TestChallengeRespond(t *testing.T) {
	e := newCustodyEnv(t, MinRelayStake)
	ev := e.challenge(2, 10)
	if ev.Deadline != 10+ChallengeWindowBlocks || [20]byte(ev.Relay) != e.relay || ev.Length == 0 || ev.Offset+ev.Length > uint64(len(e.shards[2])) {
		t.Fatalf("challenge %+v", ev)
	}
	ch, err := ReadChallenge(e.st, [32]byte(ev.ID))
	if err != nil || ch == nil || ch.Relay != e.relay || ch.Challenger != e.owner || ch.Hash != e.mf.Segments[0].Hashes[2] || ch.Offset != ev.Offset || ch.Length != ev.Length {
		t.Fatalf("challenge record %+v %v", ch, err)
	}
	good := e.slice(2, ev)
	wrong := e.slice(1, ev) // another shard's bytes
	for _, c := range []struct {
		name   string
		from   types.Address
		height uint64
		args   []any
		want   string
	}{
		{"short id", e.relay, 11, []any{ev.ID[:31], good}, "challenge id must be 32 bytes"},
		{"unknown id", e.relay, 11, []any{make([]byte, 32), good}, "no open challenge"},
		{"one argument", e.relay, 11, []any{ev.ID}, "takes 2 argument"},
		{"not the relay", e.owner, 11, []any{ev.ID, good}, "only the challenged relay"},
		{"after the deadline", e.relay, ev.Deadline + 1, []any{ev.ID, good}, "closed at height"},
		{"not bytes", e.relay, 11, []any{ev.ID, uint64(1)}, "slice"},
		{"another shard", e.relay, 11, []any{ev.ID, wrong}, "does not prove"},
		{"at the size bound", e.relay, 11, []any{ev.ID, make([]byte, MaxRespondSlice)}, "does not prove"},
		{"over the size bound", e.relay, 11, []any{ev.ID, make([]byte, MaxRespondSlice+1)}, "at most"},
	} {
		if err := e.call(RegistryAddress, c.from, nil, c.height, "respond", c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// A respond is charged per byte of its slice argument.
	payload := Payload("respond", ev.ID, good)
	sliceArg := len(mustMarshal(good)) // the slice's CBOR item
	res, err := Apply(e.st, Call{To: RegistryAddress, From: e.relay, Payload: payload, Height: ev.Deadline, Cycles: 1_000_000})
	if err != nil || res.CyclesUsed != CallCycles+uint64(sliceArg) {
		t.Fatalf("respond at the deadline: %v, %d cycles, want %d", err, res.CyclesUsed, CallCycles+sliceArg)
	}
	if ch, _ := ReadChallenge(e.st, [32]byte(ev.ID)); ch != nil {
		t.Fatal("an answered challenge stays open")
	}
	if err := e.call(RegistryAddress, addr(5), nil, ev.Deadline+1, "slash", ev.ID); err == nil || !strings.Contains(err.Error(), "no open challenge") {
		t.Fatalf("slash after an answer: %v", err)
	}
}

type slashEvent struct {
	Relay  []byte   `cbor:"relay"`
	Amount *big.Int `cbor:"amount"`
	To     []byte   `cbor:"to"`
}

// TestSlash: an unanswered challenge, after its deadline, moves
// SlashAmount (at most what is left) of the relay's stake from 0x0B to the
// challenger; a relay that falls below MinRelayStake starts exiting once;
// a relay that already withdrew only closes the challenge.
func TestSlash(t *testing.T) {
	type want struct {
		amount, stake *big.Int
		slashed       uint64
		exiting       bool
		exitAt        uint64
	}
	// 1,100 CBY: the first slash leaves exactly the minimum (not exiting);
	// 1,050 CBY: the last slash takes the 50 CBY left.
	for _, initial := range []*big.Int{new(big.Int).Add(MinRelayStake, SlashAmount), new(big.Int).Add(MinRelayStake, cby(50))} {
		e := newCustodyEnv(t, initial)
		stake := new(big.Int).Set(initial)
		var firstExit uint64
		for i := 0; stake.Sign() > 0; i++ {
			h := uint64(100 + 1000*i)
			amount := new(big.Int).Set(SlashAmount)
			if amount.Cmp(stake) > 0 {
				amount.Set(stake)
			}
			stake.Sub(stake, amount)
			w := want{amount: amount, stake: new(big.Int).Set(stake), slashed: uint64(i + 1), exiting: stake.Cmp(MinRelayStake) < 0}
			if w.exiting && firstExit == 0 {
				firstExit = h + ChallengeWindowBlocks + 1
			}
			w.exitAt = firstExit
			ownerBal, regBal := e.st.Balance(e.owner), e.st.Balance(RegistryAddress)
			ev := e.challenge(0, h)
			if err := e.call(RegistryAddress, addr(5), nil, ev.Deadline, "slash", ev.ID); err == nil || !strings.Contains(err.Error(), "may still respond") {
				t.Fatalf("slash at the deadline: %v", err)
			}
			res, err := Apply(e.st, Call{To: RegistryAddress, From: addr(5), Payload: Payload("slash", ev.ID), Height: ev.Deadline + 1, Cycles: 1_000_000})
			if err != nil {
				t.Fatalf("slash %d: %v", i, err)
			}
			var se slashEvent
			if err := cbor.Unmarshal(res.Events[0].Data, &se); err != nil {
				t.Fatal(err)
			}
			if ch, _ := ReadChallenge(e.st, [32]byte(ev.ID)); ch != nil {
				t.Fatal("a slashed challenge stays open")
			}
			r, err := ReadRelay(e.st, e.relay)
			if err != nil || r == nil {
				t.Fatal(err)
			}
			if se.Amount.Cmp(w.amount) != 0 || [20]byte(se.To) != e.owner || [20]byte(se.Relay) != e.relay {
				t.Fatalf("slash %d: event %+v, want amount %s", i, se, w.amount)
			}
			if got := new(big.Int).Sub(e.st.Balance(e.owner), ownerBal); got.Cmp(w.amount) != 0 {
				t.Fatalf("slash %d: challenger got %s, want %s", i, got, w.amount)
			}
			if got := new(big.Int).Sub(regBal, e.st.Balance(RegistryAddress)); got.Cmp(w.amount) != 0 {
				t.Fatalf("slash %d: 0x0B paid %s, want %s", i, got, w.amount)
			}
			if r.Stake.Cmp(w.stake) != 0 || r.Slashed != w.slashed || r.Exiting != w.exiting || r.ExitAt != w.exitAt {
				t.Fatalf("slash %d: relay %+v, want %+v", i, r, w)
			}
		}
	}

	// A relay that withdrew: the challenge closes and nobody is paid.
	e2 := newCustodyEnv(t, MinRelayStake)
	ev := e2.challenge(0, 10)
	e2.must(RegistryAddress, e2.relay, nil, 10, "exit_relay")
	e2.must(RegistryAddress, e2.relay, nil, 10+UnbondBlocks, "withdraw_relay")
	bal := e2.st.Balance(e2.owner)
	e2.must(RegistryAddress, addr(5), nil, 10+UnbondBlocks, "slash", ev.ID)
	if e2.st.Balance(e2.owner).Cmp(bal) != 0 {
		t.Fatal("a withdrawn relay's challenge paid out")
	}
	if ch, _ := ReadChallenge(e2.st, [32]byte(ev.ID)); ch != nil {
		t.Fatal("the challenge stays open")
	}
}
