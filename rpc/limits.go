package rpc

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"runtime"
	"sync"
	"time"
	"unicode/utf8"
)

// Simulation budget (issue 16). cowboy_call and cowboy_estimateFees run
// Python on the node's CPU for up to a transaction's cycle limit each; left
// unbounded, 200 clients looping forever slowed a concurrent transfer from
// 1.4 s to 6 s. Simulations therefore run on their own bounded pool of
// workers, with a bounded queue in front of it, and each client (by IP) gets
// a token bucket of simulations per second. What is over budget is refused
// at once with CodeLimitExceeded, never queued without bound.
const (
	// CodeLimitExceeded is a request refused because the client or the node
	// is over a budget; data says which and when to retry.
	CodeLimitExceeded = -32005

	// DefaultSimQueue is how many simulations may wait for a worker.
	DefaultSimQueue = 64
	// DefaultSimRate is each client's sustained simulations per second.
	DefaultSimRate = 20
	// DefaultSimBurst is how many simulations a client may send at once.
	DefaultSimBurst = 40

	// maxClients bounds the rate limiter's table; past it, buckets that
	// have refilled are forgotten.
	maxClients = 10_000
	// MaxErrorMessage is the longest error message the server sends: input
	// echoed in a message is cut, so a 900 KB address cannot come back as
	// a 900 KB error.
	MaxErrorMessage = 320
)

// simulating names the methods that run the PVM for a client.
var simulating = map[string]bool{"cowboy_call": true, "cowboy_estimateFees": true}

// LimitData is the data of a CodeLimitExceeded error.
type LimitData struct {
	Limit        string `json:"limit"`        // "rate" (this client) or "busy" (the node's pool)
	RetryAfterMs uint64 `json:"retryAfterMs"` // when a retry may succeed
}

// simGate is the worker pool plus the per-client rate limit.
type simGate struct {
	slots   chan struct{} // one token per worker
	queue   chan struct{} // one token per waiting request
	rate    float64       // tokens per second
	burst   float64
	now     func() time.Time
	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newSimGate(workers, queue int, rate, burst float64) *simGate {
	return &simGate{slots: make(chan struct{}, workers), queue: make(chan struct{}, queue),
		rate: rate, burst: burst, now: time.Now, buckets: map[string]*bucket{}}
}

// allow takes one token from client's bucket, or says how long until one is
// there.
func (g *simGate) allow(client string) (bool, time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	b, ok := g.buckets[client]
	if !ok {
		if len(g.buckets) >= maxClients {
			g.sweep(now)
		}
		b = &bucket{tokens: g.burst, at: now}
		g.buckets[client] = b
	}
	if el := now.Sub(b.at).Seconds(); el > 0 {
		b.tokens = min(g.burst, b.tokens+el*g.rate)
	}
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / g.rate * float64(time.Second))
}

// sweep forgets the buckets that are full again (they hold no debt), and if
// that is not enough, all of them: a client can at worst get a fresh burst.
func (g *simGate) sweep(now time.Time) {
	for k, b := range g.buckets {
		if b.tokens+now.Sub(b.at).Seconds()*g.rate >= g.burst {
			delete(g.buckets, k)
		}
	}
	if len(g.buckets) >= maxClients {
		clear(g.buckets)
	}
}

// enter admits one simulation for client: rate first, then a worker,
// waiting in the bounded queue. release must be called when it is done.
func (g *simGate) enter(ctx context.Context, client, method string) (release func(), rpcErr *Error) {
	if ok, wait := g.allow(client); !ok {
		return nil, limitError("rate", wait, "rate limit: %s allows %g simulations (cowboy_call, cowboy_estimateFees) per second per client, %g at once; retry in %d ms",
			method, g.rate, g.burst, wait.Milliseconds()+1)
	}
	select {
	case g.slots <- struct{}{}:
		return func() { <-g.slots }, nil
	default:
	}
	select {
	case g.queue <- struct{}{}:
	default:
		return nil, limitError("busy", 100*time.Millisecond, "node busy: all %d simulation workers are running and %d requests wait; retry shortly",
			cap(g.slots), cap(g.queue))
	}
	defer func() { <-g.queue }()
	select {
	case g.slots <- struct{}{}:
		return func() { <-g.slots }, nil
	case <-ctx.Done():
		return nil, newError(CodeInternal, "%s: request cancelled while waiting for a simulation worker", method)
	}
}

func limitError(kind string, wait time.Duration, format string, args ...any) *Error {
	ms := uint64(wait.Milliseconds()) + 1
	data, _ := json.Marshal(LimitData{Limit: kind, RetryAfterMs: ms}) // a flat struct cannot fail
	return &Error{Code: CodeLimitExceeded, Message: fmt.Sprintf(format, args...), Data: data}
}

// defaultSimWorkers leaves at least half the machine to block production.
func defaultSimWorkers() int { return max(1, runtime.NumCPU()/2) }

// clientKey is the context key of the calling client's identity.
type clientKey struct{}

// clientOf is the caller's IP as the server saw it ("" when unknown, which
// is one shared bucket).
func clientOf(ctx context.Context) string {
	s, _ := ctx.Value(clientKey{}).(string)
	return s
}

// clientIP strips the port from a RemoteAddr.
func clientIP(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		return remote
	}
	return host
}

// cutMessage bounds an error message, cutting at a rune boundary and
// saying how much was cut.
func cutMessage(s string) string {
	if len(s) <= MaxErrorMessage {
		return s
	}
	n := MaxErrorMessage
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s… (%d more bytes cut)", s[:n], len(s)-n)
}
