package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"runtime/debug"
	"time"
)

// Default limits, used when Options leaves a field zero.
const (
	DefaultMaxBodyBytes = 1 << 20 // 1 MiB: a 128 KiB transaction in hex is 256 KiB
	DefaultMaxBatch     = 100     // requests in one batch
)

// Options tunes the server; the zero value is usable.
type Options struct {
	MaxBodyBytes int64        // request body cap in bytes; larger bodies get HTTP 413
	MaxBatch     int          // requests per batch; a larger batch is one -32600 error
	Logger       *slog.Logger // where recovered panics and internal errors go; nil: slog.Default()

	// Simulation budget (limits.go): workers running cowboy_call and
	// cowboy_estimateFees (default half the CPUs, at least 1), requests
	// that may wait for one (DefaultSimQueue), and each client's rate in
	// simulations per second with its burst (DefaultSimRate, DefaultSimBurst).
	SimWorkers, SimQueue int
	SimRate, SimBurst    float64

	// Hub feeds WebSocket subscriptions (subs.go); nil: no WebSocket is
	// served (a client falls back to polling). SubQueue is each WebSocket
	// connection's outgoing queue (default DefaultSubQueue); a client that
	// lets it fill is dropped.
	Hub      *Hub
	SubQueue int

	// Observe, when set, is told each method call's duration and whether
	// it failed (the node feeds Prometheus from it); unknown method names
	// are reported as "unknown" so clients cannot grow the label set.
	Observe func(method string, d time.Duration, failed bool)
}

// Server answers JSON-RPC 2.0 over HTTP POST from a Backend. It holds no
// state of its own besides the limits, so one Server serves any number of
// concurrent requests.
type Server struct {
	b    Backend
	opts Options
	log  *slog.Logger
	sim  *simGate
}

// NewServer serves b with opts.
func NewServer(b Backend, opts Options) *Server {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = DefaultMaxBatch
	}
	if opts.SubQueue <= 0 {
		opts.SubQueue = DefaultSubQueue
	}
	if opts.SimWorkers <= 0 {
		opts.SimWorkers = defaultSimWorkers()
	}
	if opts.SimQueue <= 0 {
		opts.SimQueue = DefaultSimQueue
	}
	if opts.SimRate <= 0 {
		opts.SimRate = DefaultSimRate
	}
	if opts.SimBurst < 1 {
		opts.SimBurst = max(DefaultSimBurst, opts.SimRate)
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Server{b: b, opts: opts, log: log, sim: newSimGate(opts.SimWorkers, opts.SimQueue, opts.SimRate, opts.SimBurst)}
}

// request is one JSON-RPC request as received, every member kept raw so
// that a member of the wrong type is reported by name (with the id, when
// the id is sound) instead of as a decoding failure. ID is absent (nil) for
// a notification, "null" when the client sent id: null.
type request struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	ID      json.RawMessage `json:"id"`
}

// response is one JSON-RPC response. Result is kept as raw JSON so that a
// null result is still written ("result": null), as the protocol wants.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

var nullID = json.RawMessage("null")

// ServeHTTP takes POST with a JSON body: one request object or a batch
// (array), or a GET that upgrades to a WebSocket (ws.go). Transport problems are HTTP 4xx; everything else, malformed
// JSON included, is a JSON-RPC response with status 200. A body holding
// only notifications gets 204 and no body.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if isWebSocket(r) && s.opts.Hub != nil {
		s.serveWS(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "JSON-RPC wants POST with Content-Type: application/json", http.StatusMethodNotAllowed)
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			http.Error(w, "JSON-RPC wants Content-Type: application/json", http.StatusUnsupportedMediaType)
			return
		}
	} else {
		http.Error(w, "JSON-RPC wants Content-Type: application/json", http.StatusUnsupportedMediaType)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			// Still a JSON-RPC error object, so a client that reads
			// only those can tell the user what happened (issue 16).
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			_, _ = w.Write(encodeResponse(errorResponse(nullID, newError(CodeInvalidRequest,
				"request body exceeds the node's limit of %d bytes", s.opts.MaxBodyBytes))))
			return
		}
		http.Error(w, "read request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	out := s.handleBody(context.WithValue(r.Context(), clientKey{}, clientIP(r.RemoteAddr)), body)
	if out == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out) // the client hung up; nothing to do
}

// handleBody answers a whole body; nil means "no response" (notifications
// only).
func (s *Server) handleBody(ctx context.Context, body []byte) []byte {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		batch, ok := splitBatchFast(body)
		if !ok {
			if err := json.Unmarshal(body, &batch); err != nil {
				return encodeResponse(errorResponse(nullID, newError(CodeParseError, "parse error: %v", err)))
			}
		}
		if len(batch) == 0 {
			return encodeResponse(errorResponse(nullID, newError(CodeInvalidRequest, "invalid request: empty batch")))
		}
		if len(batch) > s.opts.MaxBatch {
			return encodeResponse(errorResponse(nullID, newError(CodeInvalidRequest,
				"invalid request: batch of %d requests exceeds the limit of %d", len(batch), s.opts.MaxBatch)))
		}
		var out [][]byte
		for _, resp := range s.handleBatch(ctx, batch) {
			if resp != nil {
				out = append(out, encodeResponse(resp))
			}
		}
		if len(out) == 0 {
			return nil
		}
		return append(append([]byte{'['}, bytes.Join(out, []byte{','})...), ']')
	}
	if !json.Valid(body) {
		var v any
		err := json.Unmarshal(body, &v)
		return encodeResponse(errorResponse(nullID, newError(CodeParseError, "parse error: %v", err)))
	}
	resp := s.handleOne(ctx, body)
	if resp == nil {
		return nil
	}
	return encodeResponse(resp)
}

// handleOne answers one request object (already known to be valid JSON);
// nil for a notification.
func (s *Server) handleOne(ctx context.Context, raw json.RawMessage) *response {
	c, resp := parseCall(raw)
	if c == nil {
		return resp
	}
	result, rpcErr := s.call(ctx, c.method, c.params)
	return c.answer(result, rpcErr)
}

// parsedCall is a request that passed the envelope checks: the method is
// still to be run.
type parsedCall struct {
	id           json.RawMessage // nullID for a notification
	notification bool
	method       string
	params       json.RawMessage
}

// parseCall checks one request object's envelope (already known to be
// valid JSON). A request refused here gets resp and a nil call.
func parseCall(raw json.RawMessage) (c *parsedCall, resp *response) {
	if c, ok := parseCallFast(raw); ok {
		return c, nil
	}
	return parseCallJSON(raw)
}

// parseCallJSON is parseCall through encoding/json, for every shape.
func parseCallJSON(raw json.RawMessage) (c *parsedCall, resp *response) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, errorResponse(nullID, newError(CodeInvalidRequest, "invalid request: want a JSON object"))
	}
	var req request
	if err := json.Unmarshal(trimmed, &req); err != nil {
		return nil, errorResponse(nullID, newError(CodeInvalidRequest, "invalid request: %v", err))
	}
	id := req.ID
	if id != nil && !validID(id) {
		return nil, errorResponse(nullID, newError(CodeInvalidRequest, "invalid request: id must be a string, a number or null, of at most %d bytes", maxIDBytes))
	}
	notification := id == nil
	if notification {
		id = nullID
	}
	if string(bytes.TrimSpace(req.JSONRPC)) != `"2.0"` {
		return nil, errorResponse(id, newError(CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`))
	}
	var method string
	if err := json.Unmarshal(req.Method, &method); err != nil || method == "" {
		return nil, errorResponse(id, newError(CodeInvalidRequest, `invalid request: "method" must be a non-empty string`))
	}
	return &parsedCall{id: id, notification: notification, method: method, params: req.Params}, nil
}

// answer is the response to c given its outcome; nil for a notification.
func (c *parsedCall) answer(result json.RawMessage, rpcErr *Error) *response {
	if c.notification {
		return nil
	}
	if rpcErr != nil {
		return errorResponse(c.id, rpcErr)
	}
	return &response{JSONRPC: "2.0", ID: c.id, Result: result}
}

// call runs one method and turns a panic into -32603, so no input can take
// the server down.
func (s *Server) call(ctx context.Context, method string, rawParams json.RawMessage) (result json.RawMessage, rpcErr *Error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("rpc: panic in method", "method", method, "panic", p, "stack", string(debug.Stack()))
			result, rpcErr = nil, newError(CodeInternal, "internal error in %s", method)
		}
	}()
	m, ok := methods[method]
	if !ok {
		if s.opts.Observe != nil {
			s.opts.Observe("unknown", 0, true)
		}
		return nil, newError(CodeMethodNotFound, "method %s not found", abbrev(method))
	}
	if s.opts.Observe != nil {
		start := time.Now()
		defer func() { s.opts.Observe(method, time.Since(start), rpcErr != nil) }()
	}
	p, err := parseParams(method, rawParams, m.minParams, m.maxParams)
	if err != nil {
		return nil, err
	}
	if simulating[method] {
		release, lerr := s.sim.enter(ctx, clientOf(ctx), method)
		if lerr != nil {
			return nil, lerr
		}
		defer release()
	}
	v, err := m.call(ctx, s.b, p)
	if err != nil {
		if err.Code == CodeInternal {
			s.log.Warn("rpc: internal error", "method", method, "err", err.Message)
		}
		return nil, err
	}
	return s.encodeResult(method, v)
}

// maxIDBytes bounds a request id: the response repeats it, and a client
// has no reason for an id longer than a hash.
const maxIDBytes = 128

// validID: the spec allows a string, a number or null (of at most
// maxIDBytes).
func validID(id json.RawMessage) bool {
	t := bytes.TrimSpace(id)
	if len(t) == 0 || len(t) > maxIDBytes {
		return false
	}
	switch c := t[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return true
	default:
		return string(t) == "null"
	}
}

// errorResponse answers with e, its message cut to MaxErrorMessage bytes
// (messages quote the input they refuse).
func errorResponse(id json.RawMessage, e *Error) *response {
	if len(e.Message) > MaxErrorMessage {
		e = &Error{Code: e.Code, Message: cutMessage(e.Message), Data: e.Data}
	}
	return &response{JSONRPC: "2.0", ID: id, Error: e}
}

func encodeResponse(r *response) []byte {
	if r.Error == nil {
		if b, ok := encodeResultFast(r.ID, r.Result); ok {
			return b
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		// Only a broken id could get here; answer without it.
		b, _ = json.Marshal(errorResponse(nullID, newError(CodeInternal, "internal error: encode response: %v", err)))
	}
	return b
}
