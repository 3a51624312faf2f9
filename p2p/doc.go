// Package p2p is the node's network: QUIC over TLS 1.3 (quic-go) between
// nodes identified by their secp256k1 node keys, with flooding gossip for
// transactions, blocks and consensus messages, direct sends (votes to the
// next proposer), peer exchange from bootstrap peers, per-peer size caps and
// rate limits, and scoring and bans for peers that send garbage
// [spec: Network Layer, §6.2].
//
// It is I/O only: it knows nothing of what payloads mean, never decodes
// them, and never blocks on the node. Protocol logic (consensus, mempool)
// stays pure in its own packages; node/ moves payloads between them and
// this Host.
//
// # Identity
//
// A node's PeerID is the address of its node key (keccak256 of the 64-byte
// public key, last 20 bytes). secp256k1 is not a TLS 1.3 signature scheme,
// so each Host makes a fresh ed25519 TLS key and a self-signed X.509
// certificate for it carrying one extension (OID 1.3.6.1.4.1.59999.8.1,
// project-private) whose value is
//
//	SEQUENCE { publicKey OCTET STRING,   -- 64 bytes, X||Y of the node key
//	           signature OCTET STRING }  -- 65 bytes r||s||v, low-s
//
// where the signature is the node key's over
// keccak256("cowboy-p2p-tls-v1:" || SubjectPublicKeyInfo DER of the TLS key).
// Both sides require a certificate (ClientAuth RequireAnyClientCert) and
// check it in VerifyPeerCertificate: exactly one certificate, within its
// validity, validly self-signed, the signature recovers the stated key.
// The TLS handshake proves possession of the TLS key, so the peer holds
// the node key. A dial to "0x<id>@ip:port" refuses any other ID during the
// handshake; banned IDs and our own ID are refused there too. ALPN is
// "cowboy-p2p/1"; TLS session tickets are off so every connection
// presents its certificate.
//
// # Streams and frames
//
// Each side sends on unidirectional QUIC streams only: first a control
// stream (Hello, peer exchange), then one stream per topic, opened on first
// use, so a block in flight never delays a vote (votes also get the highest
// stream priority). A peer may open at most 5 streams. On every stream the
// bytes are a sequence of frames:
//
//	frame  = kind:u8  topic:u8  length:u32be  body[length]
//
//	kind 1 Hello         topic 0  version:u16 chain_id:u64 genesis_hash:[32]
//	                              node_id:[20] height:u64 incarnation:[8]
//	                              addr_len:u8 addr
//	kind 2 PexRequest    topic 0  (empty)
//	kind 3 PexResponse   topic 0  count:u8 (≤ 32), count × (id:[20] addr_len:u8 addr)
//	kind 4 Gossip        topic t  payload
//	kind 5 Direct        topic t  payload
//	kind 6 FindNode      topic 0  target:[20]
//	kind 7 Nodes         topic 0  count:u8 (≤ 20), count × (id:[20] record
//	                              observed_len:u8 observed)
//	kind 8 Record        topic 0  record (the sender's own)
//	record = seq:u64 sig:[65] addr_len:u8 addr, sig = the node key's
//	         secp256k1 r‖s‖v over keccak256("cowboy-p2p-record-v1:" ‖ id ‖ seq ‖ addr)
//
// FindNode and Nodes are the Kademlia DHT (dht.go; protocol version 3
// added them); version 4 made every DHT entry a record its node signed
// (record.go): a record that does not verify refuses the frame. Integers are big-endian; addresses are "ip:port" text. Topics are 1 tx,
// 2 block, 3 consensus, 4 vote. The cap on length depends on kind and topic
// only and is checked on the 6-byte header before any body byte is read:
// Hello 334 bytes, PexRequest 0, PexResponse 8,833, and the payload caps of
// Limits (defaults: tx 128 KiB, block 4 MiB, consensus 4 MiB + 64 KiB, vote
// 16 KiB). A body must be consumed exactly: trailing bytes are an error, so
// every accepted frame has one encoding.
//
// # Connection life
//
// After TLS, each side sends Hello on its control stream and reads the
// peer's (the first stream it opened) within Limits.HandshakeTimeout. A
// different version, chain id or genesis hash refuses the peer and bans it
// (it will never match); a Hello naming another ID than the certificate's
// is a bad Hello (version 2 added the incarnation). Each Host draws a
// random 8-byte incarnation when it is made: a connection from a known
// ID with another incarnation than the registered one means the peer
// restarted, so it replaces the old connection at once, which is closed
// (after kill -9 the old one would otherwise linger until QUIC's idle
// timeout). Two connections of one incarnation (both dialled at once) are
// resolved the same way at both ends: the one dialled by the smaller ID
// stays. A node at MaxPeers still completes the Hello exchange with a
// newcomer and sends it a PexResponse before closing, so a full bootstrap
// node still bootstraps; the newcomer backs off from it. Addresses are
// redialled with exponential backoff (Config.ReconnectMin to ReconnectMax,
// ±25% jitter); bootstrap addresses are never forgotten, learned ones after
// 6 failures in a row. The announced address of a peer, given out in peer exchange, is
// the IP its packets come from with the port its Hello names.
//
// Gossip floods: a node sends a new message to every peer, and each peer
// that has not seen its ID (BLAKE3(topic || payload), kept in an LRU of
// Limits.SeenCacheSize) delivers it once and relays it to all its other
// peers. On the topics in Config.HoldRelay (the node uses it for blocks)
// the message is delivered but relayed only when the application has
// checked it and calls Relay; Penalize scores down the sender of a
// message that failed the check. Direct frames are delivered and not
// relayed.
//
// # Misbehaviour
//
// Each connection has token buckets on frames and bytes received. A frame
// that is oversized, undecodable, of unknown kind or topic, a second Hello,
// a stream ending inside a frame, or going over the rate limit closes the
// connection with a QUIC application error code and lowers the peer's score
// (scores are by PeerID and survive reconnection); at Limits.BanScore the
// ID is refused for Limits.BanDuration. Scores recover slowly toward 0.
// Nothing a peer sends can panic the node: the frame decoder is fuzzed
// (FuzzDecodeFrame).
//
// # Goroutines
//
// A Host runs an accept loop and a maintenance loop (dialling, peer
// exchange, pruning); each connection runs one goroutine per incoming
// stream and one writer per lane. Sends never block: each peer lane has a
// bounded queue (Limits.SendQueueLen, SendQueueBytes) and each Subscribe
// channel a bounded buffer; overflow is dropped and counted in Stats.
// Close stops all of them before it returns.
package p2p
