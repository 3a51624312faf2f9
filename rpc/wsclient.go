package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall"

	"github.com/coder/websocket"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// WSClient is a JSON-RPC connection over a WebSocket, for subscriptions.
// One goroutine reads; calls and subscriptions may be used concurrently.
type WSClient struct {
	conn    *websocket.Conn
	url     string
	mu      sync.Mutex
	next    uint64
	pending map[uint64]*wsPending
	subs    map[string]*Subscription
	err     error // why the connection ended
	done    chan struct{}
}

type wsPending struct {
	sub  bool // a cowboy_subscribe: the reader registers the subscription
	resp chan clientResponse
	made *Subscription
}

// Subscription delivers one cowboy_subscribe's notifications, in order.
type Subscription struct {
	ID string
	ch chan json.RawMessage
	c  *WSClient
}

// subBuffer is how many notifications a Subscription holds before the
// client gives up on it (its reader is too slow).
const subBuffer = 1024

// ErrNoWebSocket wraps a dial failure where the node answered HTTP but did
// not upgrade: an older node; callers fall back to polling.
var ErrNoWebSocket = errors.New("the node does not serve WebSocket JSON-RPC")

// wsURL turns http(s)://host into ws(s)://host.
func wsURL(u string) string {
	if !strings.Contains(u, "://") {
		u = "http://" + u
	}
	switch {
	case strings.HasPrefix(u, "https://"):
		return "wss://" + strings.TrimPrefix(u, "https://")
	case strings.HasPrefix(u, "http://"):
		return "ws://" + strings.TrimPrefix(u, "http://")
	}
	return u
}

// DialWS connects to the node's WebSocket at url (http://, ws:// or a bare
// host:port all work).
func DialWS(ctx context.Context, url string) (*WSClient, error) {
	u := wsURL(url)
	conn, resp, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) {
			return nil, &unreachableError{url: url, err: err}
		}
		if resp != nil {
			return nil, fmt.Errorf("%w at %s (HTTP %s)", ErrNoWebSocket, u, resp.Status)
		}
		return nil, fmt.Errorf("rpc: dial %s: %w", u, err)
	}
	conn.SetReadLimit(maxResponseBytes)
	w := &WSClient{conn: conn, url: url, pending: map[uint64]*wsPending{}, subs: map[string]*Subscription{}, done: make(chan struct{})}
	go w.read()
	return w, nil
}

// Close ends the connection and every subscription.
func (w *WSClient) Close() error {
	err := w.conn.Close(websocket.StatusNormalClosure, "")
	<-w.done
	return err
}

// Err is why the connection ended (nil while it is open).
func (w *WSClient) Err() error {
	select {
	case <-w.done:
		return w.err
	default:
		return nil
	}
}

func (w *WSClient) read() {
	defer close(w.done)
	for {
		_, data, err := w.conn.Read(context.Background())
		if err != nil {
			var ce websocket.CloseError
			switch {
			case errors.As(err, &ce) && ce.Code == websocket.StatusNormalClosure:
				w.err = errors.New("connection closed")
			case errors.As(err, &ce):
				w.err = fmt.Errorf("the node closed the connection: %s (%d)", ce.Reason, ce.Code)
			default:
				w.err = fmt.Errorf("lost the connection to %s: %w", w.url, err)
			}
			w.mu.Lock()
			for _, p := range w.pending {
				close(p.resp)
			}
			for _, s := range w.subs {
				close(s.ch)
			}
			w.pending, w.subs = nil, nil
			w.mu.Unlock()
			return
		}
		var m struct {
			clientResponse
			Method string `json:"method"`
			Params struct {
				Subscription string          `json:"subscription"`
				Result       json.RawMessage `json:"result"`
			} `json:"params"`
		}
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		w.mu.Lock()
		if m.Method == "cowboy_subscription" {
			if s, ok := w.subs[m.Params.Subscription]; ok {
				select {
				case s.ch <- m.Params.Result:
				default: // the subscriber stopped reading: end it
					delete(w.subs, s.ID)
					close(s.ch)
				}
			}
			w.mu.Unlock()
			continue
		}
		var id uint64
		if json.Unmarshal(m.ID, &id) == nil {
			if p, ok := w.pending[id]; ok {
				delete(w.pending, id)
				if p.sub && m.Error == nil {
					var sid string
					if json.Unmarshal(m.Result, &sid) == nil {
						// Registered before the next message is read, so
						// no notification can miss it.
						p.made = &Subscription{ID: sid, ch: make(chan json.RawMessage, subBuffer), c: w}
						w.subs[sid] = p.made
					}
				}
				p.resp <- m.clientResponse
			}
		}
		w.mu.Unlock()
	}
}

func (w *WSClient) call(ctx context.Context, sub bool, method string, params ...any) (*wsPending, clientResponse, error) {
	if params == nil {
		params = []any{}
	}
	w.mu.Lock()
	if w.pending == nil {
		w.mu.Unlock()
		return nil, clientResponse{}, w.err
	}
	w.next++
	id := w.next
	p := &wsPending{sub: sub, resp: make(chan clientResponse, 1)}
	w.pending[id] = p
	w.mu.Unlock()
	body, err := json.Marshal(clientRequest{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return nil, clientResponse{}, fmt.Errorf("rpc: %s: encode params: %w", method, err)
	}
	if err := w.conn.Write(ctx, websocket.MessageText, body); err != nil {
		return nil, clientResponse{}, fmt.Errorf("rpc: %s: %w", method, err)
	}
	select {
	case r, ok := <-p.resp:
		if !ok {
			return nil, clientResponse{}, w.err
		}
		if r.Error != nil {
			return nil, r, r.Error
		}
		return p, r, nil
	case <-ctx.Done():
		return nil, clientResponse{}, ctx.Err()
	}
}

// Call invokes method over the WebSocket, as Client.Call does over HTTP.
func (w *WSClient) Call(ctx context.Context, result any, method string, params ...any) error {
	_, r, err := w.call(ctx, false, method, params...)
	if err != nil {
		return err
	}
	if string(r.Result) == "null" {
		return fmt.Errorf("rpc: %s: %w", method, ErrNotFound)
	}
	if result == nil {
		return nil
	}
	return json.Unmarshal(r.Result, result)
}

// Subscribe sends cowboy_subscribe [kind, args...].
func (w *WSClient) Subscribe(ctx context.Context, kind string, args ...any) (*Subscription, error) {
	p, _, err := w.call(ctx, true, "cowboy_subscribe", append([]any{kind}, args...)...)
	if err != nil {
		return nil, err
	}
	if p.made == nil {
		return nil, fmt.Errorf("rpc: cowboy_subscribe: the answer is not a subscription id")
	}
	return p.made, nil
}

// Next returns the next notification's result; an error when the
// connection ended (Err says why) or ctx is done.
func (s *Subscription) Next(ctx context.Context) (json.RawMessage, error) {
	select {
	case r, ok := <-s.ch:
		if !ok {
			if err := s.c.Err(); err != nil {
				return nil, err
			}
			return nil, errors.New("subscription ended: its notifications were not read fast enough")
		}
		return r, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Unsubscribe ends the subscription.
func (s *Subscription) Unsubscribe(ctx context.Context) error {
	var ok bool
	if err := s.c.Call(ctx, &ok, "cowboy_unsubscribe", s.ID); err != nil {
		return err
	}
	s.c.mu.Lock()
	if _, live := s.c.subs[s.ID]; live {
		delete(s.c.subs, s.ID)
		close(s.ch)
	}
	s.c.mu.Unlock()
	return nil
}

// WaitReceiptWS waits for a transaction's receipt by subscription: one
// message when it is included, no polling. The error wraps ErrNoWebSocket
// when the node does not serve WebSockets.
func (c *Client) WaitReceiptWS(ctx context.Context, h types.Hash) (*ReceiptJSON, error) {
	w, err := DialWS(ctx, c.url)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	s, err := w.Subscribe(ctx, SubReceipt, Hash(h))
	if err != nil {
		return nil, err
	}
	raw, err := s.Next(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("rpc: waiting for receipt of %s: %w", h, ctx.Err())
		}
		return nil, err
	}
	r := new(ReceiptJSON)
	if err := json.Unmarshal(raw, r); err != nil {
		return nil, fmt.Errorf("rpc: decode receipt of %s: %w", h, err)
	}
	return r, nil
}
