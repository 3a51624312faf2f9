//go:build unix

package relay

import (
	"cmp"
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
// bytes); "tls-tcp-rawconn" is the relays' TCP path, TLS records gathered
// under TLS (rawConn); "tcp" the same bytes with no TLS at all, to show
// what TLS adds. Both ends run in this process, so cpu-s is the whole
// cost.
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

	// tcpRun sends the shards over conc TCP connections; wrap makes each
	// end's connection (TLS or not) from the accepted or dialled one, and
	// gather, if set, is called around each shard's writes with the
	// client's connection (rawConn's record gathering).
	tcpRun := func(b *testing.B, server, client func(net.Conn) net.Conn, gather func(c net.Conn, write func() error) error) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				raw, err := ln.Accept()
				if err != nil {
					return
				}
				go func() {
					c := server(raw)
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
			raw, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				b.Fatal(err)
			}
			c := client(raw)
			defer c.Close()
			conns[w] = c
		}
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], shard)
		run(b, func(w int) error {
			c := conns[w]
			write := func() error {
				if _, err := c.Write(n[:]); err != nil {
					return err
				}
				_, err := c.Write(data)
				return err
			}
			var err error
			if gather != nil {
				err = gather(c, write)
			} else {
				err = write()
			}
			if err != nil {
				return err
			}
			var ack [1]byte
			_, err = io.ReadFull(c, ack[:])
			return err
		})
	}
	plain := func(c net.Conn) net.Conn { return c }

	// No TLS: what the kernel's loopback TCP costs alone (the bytes are
	// copied into the socket and out of it), for comparison.
	b.Run("tcp", func(b *testing.B) { tcpRun(b, plain, plain, nil) })

	// TLS 1.3 straight on the TCP connections: one write(2) per 16 KiB
	// record.
	b.Run("tls-tcp", func(b *testing.B) {
		tcpRun(b, func(c net.Conn) net.Conn { return tls.Server(c, stc) },
			func(c net.Conn) net.Conn { return tls.Client(c, ctc) }, nil)
	})

	// TLS 1.3 over rawConn on both ends, records gathered while a shard is
	// written: the relays' bulk path (tcp.go).
	b.Run("tls-tcp-rawconn", func(b *testing.B) {
		tcpRun(b, func(c net.Conn) net.Conn { return tls.Server(newRawConn(c), stc) },
			func(c net.Conn) net.Conn {
				tc := tls.Client(newRawConn(c), ctc)
				tc.Handshake() // before any gathering, as dialTCP does; an error shows at the first write
				return tc
			},
			func(c net.Conn, write func() error) error {
				raw := c.(*tls.Conn).NetConn().(*rawConn)
				raw.startGather()
				return cmp.Or(write(), raw.flush())
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
