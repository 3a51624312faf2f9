package main

import (
	"bytes"
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/cluster"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// Custody receipts from an audit, taken to the chain: a relay that holds
// the shard answers the challenge with its Bao slice; a wrong answer is
// refused; an unanswered challenge is slashed after the deadline, the
// amount going to the owner; receipts that are forged, from a stranger or
// for an uncommitted file are refused and change nothing.
func TestCustodyChallengeAndSlash(t *testing.T) {
	ctx := context.Background()
	var srvs []*relay.Server
	var infos []cluster.RelayInfo
	for i := 0; i < 3; i++ {
		k, _ := crypto.GenerateKey()
		srv, err := relay.New(relay.Config{Dir: t.TempDir(), Listen: "127.0.0.1:0", Key: k})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		srvs = append(srvs, srv)
		infos = append(infos, cluster.RelayInfo{ID: srv.ID(), Addr: srv.Addr()})
	}
	ownerKey, _ := crypto.GenerateKey()
	owner := types.Address(ownerKey.Address())
	key, _ := cbfs.NewVolumeKey()
	vol := &cbfs.Volume{ID: cbfs.DeriveVolumeID(owner, "logs"), Key: key}
	tok, _ := cbfs.Grant(ownerKey, "logs", nil, cbfs.PermRead|cbfs.PermWrite, uint64(time.Now().Add(time.Hour).Unix()), owner, [8]byte{})
	cl, err := cluster.New(infos, ownerKey, tok)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	data := bytes.Repeat([]byte("custody "), 40_000) // 320 KB: several Bao groups per shard
	m, err := cl.Put(ctx, vol, "a.log", cbfs.Params{K: 2, M: 1, SegmentSize: cbfs.MinSegmentSize}, bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	bad, receipts, err := cl.AuditReceipts(ctx, vol, "a.log", 7)
	if err != nil || len(bad) != 0 || len(receipts) != len(m.Segments)*3 {
		t.Fatalf("audit: %v bad %v, %d receipts", err, bad, len(receipts))
	}

	st := state.New(memReader{})
	st.Mint(owner, cby(10))
	stranger := types.Address{0x55}
	st.Mint(stranger, cby(10))
	apply := func(to, from types.Address, height uint64, method string, args ...any) (storage.Result, error) {
		return storage.Apply(st, storage.Call{To: to, From: from, Value: new(big.Int), Payload: storage.Payload(method, args...), Height: height, Cycles: 1_000_000})
	}
	must := func(to, from types.Address, height uint64, method string, args ...any) storage.Result {
		t.Helper()
		res, err := apply(to, from, height, method, args...)
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		return res
	}
	if _, err := storage.Apply(st, storage.Call{To: storage.ManagerAddress, From: owner, Value: cby(1), Payload: storage.Payload("create_volume", "logs", uint64(2), uint64(1)), Height: 1, Cycles: 1_000_000}); err != nil {
		t.Fatal(err)
	}
	for _, s := range srvs {
		a := types.Address(s.ID())
		st.Mint(a, cby(2000))
		if _, err := storage.Apply(st, storage.Call{To: storage.RegistryAddress, From: a, Value: cby(1000), Payload: storage.Payload("register_relay", s.Addr(), uint64(1<<30)), Height: 1, Cycles: 1_000_000}); err != nil {
			t.Fatal(err)
		}
	}
	enc := func(r *cbfs.CustodyReceipt) []byte {
		b, err := cbfs.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tags, _ := vol.PathTags("a.log")
	pid := tags[len(tags)-1]
	rc := receipts[0]
	// Not committed yet: refused.
	if _, err := apply(storage.RegistryAddress, owner, 2, "challenge", enc(rc)); err == nil || !strings.Contains(err.Error(), "no commitment") {
		t.Fatalf("challenge of an uncommitted file: %v", err)
	}
	must(storage.ManagerAddress, owner, 2, "commit", vol.ID[:], pid[:], m.Commitment().Bytes())
	forged := *rc
	forged.Sig = bytes.Clone(rc.Sig)
	forged.Sig[3] ^= 1
	other := *rc
	other.Hash[0] ^= 1 // the signature no longer covers it
	for _, c := range []struct {
		from types.Address
		r    []byte
		want string
	}{
		{stranger, enc(rc), "only the owner"},
		{owner, enc(&forged), "not signed by relay"},
		{owner, enc(&other), "not signed by relay"},
		{owner, []byte{0xa0}, "custody receipt"},
	} {
		if _, err := apply(storage.RegistryAddress, c.from, 3, "challenge", c.r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("challenge: %v, want %q", err, c.want)
		}
	}

	// A challenge the relay answers.
	type opened struct {
		id             []byte
		offset, length uint64
		deadline       uint64
	}
	open := func(r *cbfs.CustodyReceipt, height uint64) opened {
		t.Helper()
		res := must(storage.RegistryAddress, owner, height, "challenge", enc(r))
		var ev struct {
			ID       []byte `cbor:"id"`
			Offset   uint64 `cbor:"offset"`
			Length   uint64 `cbor:"length"`
			Deadline uint64 `cbor:"deadline"`
		}
		if err := cbfs.Unmarshal(res.Events[0].Data, &ev); err != nil {
			t.Fatal(err)
		}
		if res.CyclesUsed != storage.CallCycles+storage.ChallengeCycles {
			t.Errorf("challenge used %d cycles", res.CyclesUsed)
		}
		return opened{ev.ID, ev.Offset, ev.Length, ev.Deadline}
	}
	srvOf := func(id cbfs.RelayID) *relay.Server {
		for _, s := range srvs {
			if s.ID() == id {
				return s
			}
		}
		t.Fatal("no such relay")
		return nil
	}
	ch := open(rc, 10)
	if ch.length == 0 || ch.deadline != 10+storage.ChallengeWindowBlocks {
		t.Fatalf("challenge %+v", ch)
	}
	slice, err := srvOf(rc.Relay).AnswerChainChallenge(rc.Volume, rc.PathID, rc.Hash, ch.offset, ch.length)
	if err != nil {
		t.Fatal(err)
	}
	relayAddr := types.Address(rc.Relay)
	tampered := bytes.Clone(slice)
	tampered[len(tampered)-1] ^= 1
	if _, err := apply(storage.RegistryAddress, relayAddr, 11, "respond", ch.id, tampered); err == nil {
		t.Fatal("a tampered slice answered the challenge")
	}
	if _, err := apply(storage.RegistryAddress, stranger, 11, "respond", ch.id, slice); err == nil {
		t.Fatal("a stranger answered for the relay")
	}
	must(storage.RegistryAddress, relayAddr, 11, "respond", ch.id, slice)
	if c, _ := storage.ReadChallenge(st, [32]byte(ch.id)); c != nil {
		t.Fatal("an answered challenge stays open")
	}
	if _, err := apply(storage.RegistryAddress, owner, ch.deadline+1, "slash", ch.id); err == nil {
		t.Fatal("an answered challenge was slashed")
	}

	// A challenge the relay leaves unanswered.
	rc2 := receipts[1]
	ch2 := open(rc2, 20)
	before := st.Balance(owner)
	if _, err := apply(storage.RegistryAddress, stranger, ch2.deadline, "slash", ch2.id); err == nil {
		t.Fatal("slashed before the deadline")
	}
	if _, err := apply(storage.RegistryAddress, types.Address(rc2.Relay), ch2.deadline+1, "respond", ch2.id, slice); err == nil {
		t.Fatal("answered after the deadline")
	}
	must(storage.RegistryAddress, stranger, ch2.deadline+1, "slash", ch2.id)
	r, _ := storage.ReadRelay(st, types.Address(rc2.Relay))
	if want := new(big.Int).Sub(cby(1000), storage.SlashAmount); r.Stake.Cmp(want) != 0 || r.Slashed != 1 || !r.Exiting {
		t.Fatalf("relay after slash: stake %s slashed %d exiting %v", r.Stake, r.Slashed, r.Exiting)
	}
	if got := new(big.Int).Sub(st.Balance(owner), before); got.Cmp(storage.SlashAmount) != 0 {
		t.Fatalf("the challenger got %s, want %s", got, storage.SlashAmount)
	}
	if _, err := apply(storage.RegistryAddress, stranger, ch2.deadline+2, "slash", ch2.id); err == nil {
		t.Fatal("slashed twice")
	}
}

func cby(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

type memReader map[state.Key][]byte

func (m memReader) GetState(k state.Key) ([]byte, error) { return m[k], nil }
