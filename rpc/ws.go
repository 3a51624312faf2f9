package rpc

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// wsWriteTimeout bounds one write to a WebSocket client; a client that does
// not read for this long is dropped like one whose queue is full.
const wsWriteTimeout = 10 * time.Second

// wsConn is one WebSocket client: a bounded queue of outgoing messages
// written by one goroutine, and the subscriptions it holds.
type wsConn struct {
	c      *websocket.Conn
	out    chan []byte
	ctx    context.Context
	cancel context.CancelFunc
	once   sync.Once
	reason atomic.Pointer[string] // why the server dropped it
	code   websocket.StatusCode   // the close code that goes with reason
	hub    *Hub
	subs   int      // guarded by hub.mu
	after  []func() // run by the reader once the current response is queued
}

// wsKey is the context key of the WebSocket connection a request came on.
type wsKey struct{}

func wsOf(ctx context.Context) *wsConn {
	c, _ := ctx.Value(wsKey{}).(*wsConn)
	return c
}

// send queues msg without blocking; a full queue drops the connection, so
// a slow client never slows the node.
func (c *wsConn) send(msg []byte) {
	if c.ctx.Err() != nil {
		return
	}
	select {
	case c.out <- msg:
	default:
		c.drop(fmt.Sprintf("too slow: %d messages waiting", cap(c.out)))
	}
}

// drop closes the connection from the server's side, once, counting it as
// a slow client.
func (c *wsConn) drop(reason string) {
	c.once.Do(func() {
		c.code = websocket.StatusPolicyViolation
		c.reason.Store(&reason)
		c.hub.dropped.Add(1)
		c.cancel()
	})
}

// stop closes the connection because the node is going away.
func (c *wsConn) stop(reason string) {
	c.once.Do(func() {
		c.code = websocket.StatusGoingAway
		c.reason.Store(&reason)
		c.cancel()
	})
}

// isWebSocket reports whether r asks to upgrade to a WebSocket.
func isWebSocket(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// serveWS speaks JSON-RPC over a WebSocket: every text message is a body as
// over HTTP (a request or a batch), answered in order; cowboy_subscribe
// works only here.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered the HTTP request
	}
	c.SetReadLimit(s.opts.MaxBodyBytes)
	hub := s.opts.Hub
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), clientKey{}, clientIP(r.RemoteAddr)))
	wc := &wsConn{c: c, out: make(chan []byte, s.opts.SubQueue), ctx: ctx, cancel: cancel, hub: hub}
	ctx = context.WithValue(ctx, wsKey{}, wc)
	defer hub.removeConn(wc)
	defer cancel()
	if !hub.join(wc) {
		c.Close(websocket.StatusGoingAway, "the node is stopping")
		return
	}

	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		for {
			select {
			case <-ctx.Done():
				if p := wc.reason.Load(); p != nil {
					c.Close(wc.code, *p)
				} else {
					c.Close(websocket.StatusNormalClosure, "")
				}
				return
			case msg := <-wc.out:
				wctx, wcancel := context.WithTimeout(ctx, wsWriteTimeout)
				err := c.Write(wctx, websocket.MessageText, msg)
				wcancel()
				if err != nil {
					if ctx.Err() == nil {
						wc.drop("write failed: " + err.Error())
					}
					c.CloseNow()
					return
				}
			}
		}
	}()
	for {
		typ, data, err := c.Read(ctx)
		if err != nil {
			break
		}
		var resp []byte
		if typ != websocket.MessageText {
			resp = encodeResponse(errorResponse(nullID, newError(CodeInvalidRequest, "invalid request: send JSON-RPC as text messages")))
		} else {
			resp = s.handleBody(ctx, data)
		}
		if resp != nil {
			wc.send(resp)
		}
		for _, f := range wc.after {
			f()
		}
		wc.after = wc.after[:0]
	}
	cancel()
	<-writerDone
}

// subscribe is cowboy_subscribe: [kind] or [kind, arg]; the result is the
// subscription id that every notification carries.
func subscribe(ctx context.Context, b Backend, p *params) (any, *Error) {
	wc := wsOf(ctx)
	if wc == nil {
		return nil, newError(CodeInvalidRequest, "cowboy_subscribe needs a WebSocket: connect to the same address with ws:// (or wss://)")
	}
	var kind string
	if err := p.decode(0, "kind", &kind); err != nil {
		return nil, err
	}
	sub := &subscription{kind: kind, conn: wc}
	switch kind {
	case SubNewHeads, SubFinalizedHeads, SubPendingTransactions:
		if p.has(1) {
			return nil, invalidParams("invalid params: %s takes no second param", kind)
		}
	case SubLogs:
		if p.has(1) {
			var f struct {
				Address *Address `json:"address,omitempty"`
				Name    string   `json:"name,omitempty"`
			}
			if err := p.object(1, "filter", &f); err != nil {
				return nil, err
			}
			if f.Address != nil {
				a := types.Address(*f.Address)
				sub.filter.Address = &a
			}
			sub.filter.Name = f.Name
		}
	case SubReceipt:
		h, err := p.hash(1)
		if err != nil {
			return nil, err
		}
		sub.tx = h
	case SubTimers, SubJobResults: // sublanes.go
		if err := laneFilter(p, sub); err != nil {
			return nil, err
		}
	default:
		return nil, invalidParams("invalid params: unknown subscription %s: want %q, %q, %q, %q, %q, %q or %q", abbrev(kind),
			SubNewHeads, SubFinalizedHeads, SubLogs, SubPendingTransactions, SubReceipt, SubTimers, SubJobResults)
	}
	id, err := wc.hub.add(sub)
	if err != nil {
		return nil, err
	}
	wc.after = append(wc.after, func() {
		sub.active.Store(true)
		if kind == SubReceipt {
			// Once the answer is queued: the transaction may be in a
			// block already, committed before the subscription was
			// active.
			r, loc, berr := b.Receipt(sub.tx)
			if berr != nil || loc == nil {
				return
			}
			tx, _, berr := b.TransactionByHash(sub.tx)
			if berr != nil {
				return
			}
			if rj, cerr := NewReceiptJSON(r, tx, *loc); cerr == nil {
				wc.hub.deliverReceipt(sub, rj)
			}
		}
	})
	return id, nil
}

// unsubscribe is cowboy_unsubscribe: [id]; true if the subscription existed.
func unsubscribe(ctx context.Context, _ Backend, p *params) (any, *Error) {
	wc := wsOf(ctx)
	if wc == nil {
		return nil, newError(CodeInvalidRequest, "cowboy_unsubscribe needs a WebSocket: subscriptions live on one")
	}
	var id string
	if err := p.decode(0, "subscription", &id); err != nil {
		return nil, err
	}
	return wc.hub.remove(wc, id), nil
}
