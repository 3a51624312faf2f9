package cluster

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/p2p"
)

// silentRelay is a relay that completes the QUIC handshake, proves its
// identity and accepts streams, but never answers one: a hung process.
// Keep-alives keep its connections open, so a request to it ends only
// when the client gives up on it.
func silentRelay(t *testing.T) RelayInfo {
	t.Helper()
	k, _ := crypto.GenerateKey()
	cert, err := p2p.NewNodeCertificate(k)
	if err != nil {
		t.Fatal(err)
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS13, Certificates: []tls.Certificate{cert}, NextProtos: []string{relay.ALPN}, ClientAuth: tls.RequireAnyClientCert}
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	tr := &quic.Transport{Conn: udp}
	ln, err := tr.Listen(tc, &quic.Config{MaxIdleTimeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); ln.Close(); tr.Close(); udp.Close() })
	go func() {
		for {
			conn, err := ln.Accept(ctx)
			if err != nil {
				return
			}
			go func() {
				for {
					// Read nothing, answer nothing.
					if _, err := conn.AcceptStream(ctx); err != nil {
						return
					}
				}
			}()
		}
	}()
	return RelayInfo{ID: cbfs.RelayID(k.Address()), Addr: udp.LocalAddr().String()}
}

// TestQuorumSkipsSilentRelay is `volume ls`, `volume repair` and `volume
// audit` with one relay of the list that never answers and one that is
// gone. With Tolerate = M the listing returns every file once the others
// have answered; the repair pass's probe cuts the silent relay off (its
// request ends cancelled, not by a timeout: the probe's own cap is an
// hour here) and rebuilds the gone relay's shards elsewhere; an audit
// then finds every shard; and the files read back without either relay.
func TestQuorumSkipsSilentRelay(t *testing.T) {
	tc := newTestCluster(t, 5)
	ctx := context.Background()
	p := cbfs.Params{K: 2, M: 2, SegmentSize: 4096}
	files := map[string][]byte{"a/x": randData(20000), "b": randData(9000), "c/d/e": randData(3000)}
	put := tc.client(t)
	for name, d := range files {
		if _, err := put.Put(ctx, tc.vol, name, p, bytes.NewReader(d), nil); err != nil {
			t.Fatal(err)
		}
	}
	put.Close()
	tc.srvs[3].Close() // gone: its connections close, requests fail at once

	silent := silentRelay(t)
	c, err := New(append(slices.Clone(tc.infos), silent), tc.owner, tc.tok)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Tolerate = int(p.M)
	c.probeWait = time.Hour
	// How the silent relay's first list and first probe request ended.
	listEnded, probeEnded := make(chan error, 1), make(chan error, 1)
	hook := func(ch chan error) func(cbfs.RelayID, error) {
		return func(id cbfs.RelayID, err error) {
			if id == silent.ID {
				select {
				case ch <- err:
				default:
				}
			}
		}
	}
	c.listDone, c.probeDone = hook(listEnded), hook(probeEnded)
	cancelled := func(what string, ended chan error) {
		t.Helper()
		if err := <-ended; !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: the silent relay's request ended with %v, want context.Canceled", what, err)
		}
	}

	ents, err := c.List(ctx, tc.vol)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Path)
	}
	if want := []string{"a/x", "b", "c/d/e"}; !slices.Equal(got, want) {
		t.Fatalf("listed %v, want %v", got, want)
	}
	cancelled("list", listEnded)

	sum, err := c.RepairVolume(ctx, tc.vol, -1)
	if err != nil {
		t.Fatal(err)
	}
	cancelled("repair probe", probeEnded)
	if sum.Files != 3 || sum.Rebuilt == 0 || sum.Lost != 0 || len(sum.Failed) != 0 {
		t.Fatalf("repair pass %+v", sum)
	}
	for name := range files {
		bad, err := c.Audit(ctx, tc.vol, name, 7)
		if err != nil || len(bad) != 0 {
			t.Fatalf("audit %s after repair: %v %v", name, bad, err)
		}
	}

	// Only the four live relays: the files read back whole.
	live := slices.Delete(slices.Clone(tc.infos), 3, 4)
	r, err := New(live, tc.owner, tc.tok)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for name, d := range files {
		var out bytes.Buffer
		if _, err := r.Get(ctx, tc.vol, name, &out, nil); err != nil || !bytes.Equal(out.Bytes(), d) {
			t.Fatalf("get %s after repair: %v", name, err)
		}
	}
}
