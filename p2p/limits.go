package p2p

import (
	"sync"
	"time"
)

// Limits are the explicit bounds on what a peer can make this node do.
// Zero fields take the value of DefaultLimits, so a Config may set only what
// it changes.
type Limits struct {
	// Payload caps per topic, in bytes, checked on the frame header before
	// the body is read. A bigger frame disconnects the sender.
	MaxTxBytes        int // default 128 KiB (a transaction)
	MaxBlockBytes     int // default 4 MiB (a block)
	MaxConsensusBytes int // default 4 MiB + 64 KiB (a proposal carries a block)
	MaxVoteBytes      int // default 16 KiB (a vote or NEW_VIEW with its QC)

	// Token buckets per connection: frames and body bytes per second
	// received, with their bursts. Going over disconnects the sender and
	// lowers its score. The byte burst is raised to the largest payload cap
	// if smaller, so one maximal block always fits.
	MsgsPerSec  float64 // default 2000 frames/s
	MsgBurst    int     // default 4000 frames
	BytesPerSec float64 // default 32 MiB/s
	ByteBurst   int     // default 64 MiB

	// Outbound queue per peer and lane (control or one topic), in bytes and
	// frames. When full, new frames for that peer are dropped and counted:
	// a slow peer never blocks Publish.
	SendQueueBytes int // default 16 MiB
	SendQueueLen   int // default 1024 frames

	// SubscribeBuffer is the channel capacity of each Subscribe; when the
	// consumer falls behind, messages are dropped and counted.
	SubscribeBuffer int // default 1024 messages

	// SeenCacheSize bounds the LRU of gossip message IDs used to drop
	// duplicates.
	SeenCacheSize int // default 65536 IDs

	// HandshakeTimeout bounds the QUIC/TLS handshake and the Hello exchange.
	HandshakeTimeout time.Duration // default 5 s

	// Scoring. Each misbehaviour subtracts a penalty from the peer's score
	// (which starts at 0 and recovers ScoreRecoveryPerMin points a minute
	// toward 0); at or below BanScore the peer's ID is refused for
	// BanDuration.
	BanScore            int           // default -100
	BanDuration         time.Duration // default 10 min
	ScoreRecoveryPerMin float64       // default 1 point/min
}

// DefaultLimits are sized for the spec's 1 s blocks of at most 4 MiB.
func DefaultLimits() Limits {
	return Limits{
		MaxTxBytes:          128 << 10,
		MaxBlockBytes:       4 << 20,
		MaxConsensusBytes:   4<<20 + 64<<10,
		MaxVoteBytes:        16 << 10,
		MsgsPerSec:          2000,
		MsgBurst:            4000,
		BytesPerSec:         32 << 20,
		ByteBurst:           64 << 20,
		SendQueueBytes:      16 << 20,
		SendQueueLen:        1024,
		SubscribeBuffer:     1024,
		SeenCacheSize:       1 << 16,
		HandshakeTimeout:    5 * time.Second,
		BanScore:            -100,
		BanDuration:         10 * time.Minute,
		ScoreRecoveryPerMin: 1,
	}
}

// withDefaults fills zero fields from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	setInt := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	setF := func(p *float64, v float64) {
		if *p == 0 {
			*p = v
		}
	}
	setD := func(p *time.Duration, v time.Duration) {
		if *p == 0 {
			*p = v
		}
	}
	setInt(&l.MaxTxBytes, d.MaxTxBytes)
	setInt(&l.MaxBlockBytes, d.MaxBlockBytes)
	setInt(&l.MaxConsensusBytes, d.MaxConsensusBytes)
	setInt(&l.MaxVoteBytes, d.MaxVoteBytes)
	setF(&l.MsgsPerSec, d.MsgsPerSec)
	setInt(&l.MsgBurst, d.MsgBurst)
	setF(&l.BytesPerSec, d.BytesPerSec)
	setInt(&l.ByteBurst, d.ByteBurst)
	setInt(&l.SendQueueBytes, d.SendQueueBytes)
	setInt(&l.SendQueueLen, d.SendQueueLen)
	setInt(&l.SubscribeBuffer, d.SubscribeBuffer)
	setInt(&l.SeenCacheSize, d.SeenCacheSize)
	setD(&l.HandshakeTimeout, d.HandshakeTimeout)
	setInt(&l.BanScore, d.BanScore)
	setD(&l.BanDuration, d.BanDuration)
	setF(&l.ScoreRecoveryPerMin, d.ScoreRecoveryPerMin)
	for t := Topic(1); t <= numTopics; t++ {
		if c := l.payloadCap(t); c > l.ByteBurst {
			l.ByteBurst = c
		}
		if c := l.payloadCap(t); c+headerLen > l.SendQueueBytes {
			l.SendQueueBytes = c + headerLen
		}
	}
	return l
}

// tokenBucket is a classic token bucket: rate tokens a second up to burst.
// One per connection direction per unit, used by one reader at a time
// behind its mutex.
type tokenBucket struct {
	mu     sync.Mutex
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
}

func newTokenBucket(rate float64, burst int, now time.Time) *tokenBucket {
	return &tokenBucket{rate: rate, burst: float64(burst), tokens: float64(burst), last: now}
}

// take removes n tokens if there are that many and reports whether it did.
func (b *tokenBucket) take(n float64, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if dt := now.Sub(b.last).Seconds(); dt > 0 {
		b.tokens = min(b.burst, b.tokens+dt*b.rate)
		b.last = now
	}
	if b.tokens < n {
		return false
	}
	b.tokens -= n
	return true
}
