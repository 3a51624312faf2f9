//go:build unix

package relay

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"io"
	"net"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/p2p"
)

// BenchmarkTransport measures the transport alone, the floor under a put:
// the bytes of one 100 MiB put with K=4, M=2 (75 shards of 2 MiB) sent
// over loopback three shards at a time and acknowledged, with nothing
// stored and nothing hashed. "quic" uses quic-go with the relays' flow
// control windows, one stream per shard; "tls-tcp" sends the same bytes
// over TLS 1.3 on three TCP connections, for comparison (the kernel's
// TCP segments on loopback are up to 64 KiB, quic-go's packets 1,452
// bytes). Both ends run in this process, so cpu-s is the whole cost.
//
//	go test -run XXX -bench Transport -benchtime 3x ./cbfs/relay/
func BenchmarkTransport(b *testing.B) {
	const shard, shards, conc = 2 << 20, 75, 3
	key, err := crypto.GenerateKey()
	if err != nil {
		b.Fatal(err)
	}
	cert, err := p2p.NewNodeCertificate(key)
	if err != nil {
		b.Fatal(err)
	}
	stc := &tls.Config{MinVersion: tls.VersionTLS13, Certificates: []tls.Certificate{cert}, NextProtos: []string{ALPN}}
	ctc := &tls.Config{MinVersion: tls.VersionTLS13, InsecureSkipVerify: true, NextProtos: []string{ALPN}} // #nosec: benchmark only
	data := make([]byte, shard)
	for i := range data {
		data[i] = byte(i * 31)
	}
	run := func(b *testing.B, send func(i int) error) {
		b.SetBytes(shard * shards)
		c0 := benchCPU()
		b.ResetTimer()
		for it := 0; it < b.N; it++ {
			var wg sync.WaitGroup
			errs := make(chan error, conc)
			for w := 0; w < conc; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					for i := w; i < shards; i += conc {
						if err := send(w); err != nil {
							errs <- err
							return
						}
					}
				}(w)
			}
			wg.Wait()
			close(errs)
			if err := <-errs; err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		b.ReportMetric((benchCPU()-c0).Seconds()/float64(b.N), "cpu-s")
	}

	b.Run("quic", func(b *testing.B) {
		qc := &quic.Config{
			InitialStreamReceiveWindow: initialStreamWindow, InitialConnectionReceiveWindow: initialConnWindow,
			MaxStreamReceiveWindow: MaxShardBytes + MaxHeaderBytes, MaxConnectionReceiveWindow: 4 * (MaxShardBytes + MaxHeaderBytes),
			MaxIncomingStreams: 100,
		}
		ln, err := quic.ListenAddr("127.0.0.1:0", stc, qc)
		if err != nil {
			b.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				conn, err := ln.Accept(context.Background())
				if err != nil {
					return
				}
				go func() {
					for {
						st, err := conn.AcceptStream(context.Background())
						if err != nil {
							return
						}
						go func() {
							buf := make([]byte, shard)
							_, err := io.ReadFull(st, buf)
							if err == nil { // and the FIN, so the stream is done
								_, err = io.Copy(io.Discard, st)
							}
							if err == nil {
								st.Write([]byte{0})
							}
							st.Close()
						}()
					}
				}()
			}
		}()
		conn, err := quic.DialAddr(context.Background(), ln.Addr().String(), ctc, qc)
		if err != nil {
			b.Fatal(err)
		}
		defer conn.CloseWithError(0, "")
		run(b, func(int) error {
			st, err := conn.OpenStreamSync(context.Background())
			if err != nil {
				return err
			}
			if _, err := st.Write(data); err != nil {
				return err
			}
			st.Close()
			var ack [1]byte
			_, err = io.ReadFull(st, ack[:])
			return err
		})
	})

	b.Run("tls-tcp", func(b *testing.B) {
		ln, err := tls.Listen("tcp", "127.0.0.1:0", stc)
		if err != nil {
			b.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				go func() {
					defer c.Close()
					buf := make([]byte, shard)
					var n [4]byte
					for {
						if _, err := io.ReadFull(c, n[:]); err != nil {
							return
						}
						if _, err := io.ReadFull(c, buf[:binary.BigEndian.Uint32(n[:])]); err != nil {
							return
						}
						if _, err := c.Write([]byte{0}); err != nil {
							return
						}
					}
				}()
			}
		}()
		conns := make([]net.Conn, conc)
		for w := range conns {
			c, err := tls.Dial("tcp", ln.Addr().String(), ctc)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			conns[w] = c
		}
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], shard)
		run(b, func(w int) error {
			c := conns[w]
			if _, err := c.Write(n[:]); err != nil {
				return err
			}
			if _, err := c.Write(data); err != nil {
				return err
			}
			var ack [1]byte
			_, err := io.ReadFull(c, ack[:])
			return err
		})
	})
}

// benchCPU is this process's CPU time (user + system, all threads).
func benchCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
