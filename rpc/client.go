package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// maxResponseBytes bounds what the client reads from a node, so a broken
// or hostile endpoint cannot exhaust memory.
const maxResponseBytes = 64 << 20

// ErrUnreachable is wrapped by every error caused by failing to connect to
// the node, so the CLI can tell "node not running" from a refused call.
var ErrUnreachable = errors.New("cannot reach the node")

// Client calls a Cowboy node's JSON-RPC. It is safe for concurrent use.
type Client struct {
	url  string
	http *http.Client
	id   atomic.Uint64
}

// Dial returns a client for the node at url (e.g. http://127.0.0.1:8645).
// A bare host:port, as cowboyd's --rpc flag takes it, means http://host:port.
// It does not connect until the first call.
func Dial(url string) *Client { return NewClient(url, http.DefaultClient) }

// NewClient is Dial with a chosen http.Client (timeouts, transport).
func NewClient(url string, hc *http.Client) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	if !strings.Contains(url, "://") {
		url = "http://" + url
	}
	return &Client{url: url, http: hc}
}

// URL is the node's address as given to Dial.
func (c *Client) URL() string { return c.url }

type unreachableError struct {
	url string
	err error
}

func (e *unreachableError) Error() string {
	return fmt.Sprintf("cannot reach the node at %s: is `cowboyd devnet` running? (%v)", e.url, e.err)
}
func (e *unreachableError) Unwrap() []error { return []error{ErrUnreachable, e.err} }

type clientRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      uint64 `json:"id"`
	Method  string `json:"method"`
	Params  []any  `json:"params"`
}

type clientResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *Error          `json:"error"`
}

// Call invokes method with params and decodes the result into result (a
// pointer; nil to discard). A JSON null result leaves result untouched and
// returns an error wrapping ErrNotFound. A server error is an *Error.
func (c *Client) Call(ctx context.Context, result any, method string, params ...any) error {
	if params == nil {
		params = []any{}
	}
	id := c.id.Add(1)
	body, err := json.Marshal(clientRequest{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return fmt.Errorf("rpc: %s: encode params: %w", method, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("rpc: %s: %w", method, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) {
			return &unreachableError{url: c.url, err: err}
		}
		return fmt.Errorf("rpc: %s: %w", method, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return fmt.Errorf("rpc: %s: read response: %w", method, err)
	}
	if len(raw) > maxResponseBytes {
		return fmt.Errorf("rpc: %s: response exceeds %d bytes", method, maxResponseBytes)
	}
	if resp.StatusCode != http.StatusOK {
		// The node answers transport refusals (413) with a JSON-RPC error
		// object too; return it as one.
		var r clientResponse
		if json.Unmarshal(raw, &r) == nil && r.Error != nil {
			return r.Error
		}
		return fmt.Errorf("rpc: %s: HTTP %s: %s", method, resp.Status, bytes.TrimSpace(raw[:min(len(raw), 200)]))
	}
	var r clientResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("rpc: %s: decode response: %w", method, err)
	}
	if r.JSONRPC != "2.0" || string(r.ID) != fmt.Sprint(id) {
		return fmt.Errorf("rpc: %s: response is not JSON-RPC 2.0 with id %d", method, id)
	}
	if r.Error != nil {
		return r.Error
	}
	if len(r.Result) == 0 {
		return fmt.Errorf("rpc: %s: response has neither result nor error", method)
	}
	if string(r.Result) == "null" {
		return fmt.Errorf("rpc: %s: %w", method, ErrNotFound)
	}
	if result == nil {
		return nil
	}
	if err := json.Unmarshal(r.Result, result); err != nil {
		return fmt.Errorf("rpc: %s: decode result: %w", method, err)
	}
	return nil
}

// ChainID calls cowboy_chainId.
func (c *Client) ChainID(ctx context.Context) (uint64, error) {
	var q Quantity
	err := c.Call(ctx, &q, "cowboy_chainId")
	return uint64(q), err
}

// BlockNumber calls cowboy_blockNumber: the latest committed height.
func (c *Client) BlockNumber(ctx context.Context) (uint64, error) {
	var q Quantity
	err := c.Call(ctx, &q, "cowboy_blockNumber")
	return uint64(q), err
}

// BlockByNumber calls cowboy_getBlockByNumber. A block that does not exist
// is an error wrapping ErrNotFound.
func (c *Client) BlockByNumber(ctx context.Context, ref BlockRef, fullTx bool) (*BlockJSON, error) {
	b := new(BlockJSON)
	if err := c.Call(ctx, b, "cowboy_getBlockByNumber", ref, fullTx); err != nil {
		return nil, err
	}
	return b, nil
}

// BlockByHash calls cowboy_getBlockByHash; unknown is ErrNotFound.
func (c *Client) BlockByHash(ctx context.Context, h types.Hash, fullTx bool) (*BlockJSON, error) {
	b := new(BlockJSON)
	if err := c.Call(ctx, b, "cowboy_getBlockByHash", Hash(h), fullTx); err != nil {
		return nil, err
	}
	return b, nil
}

// Balance calls cowboy_getBalance: base units at the latest block.
func (c *Client) Balance(ctx context.Context, addr types.Address) (*big.Int, error) {
	var q BigQuantity
	if err := c.Call(ctx, &q, "cowboy_getBalance", Address(addr), "latest"); err != nil {
		return nil, err
	}
	return q.Int(), nil
}

// Nonce calls cowboy_getNonce: the next nonce to use, counting the
// mempool when pending is true.
func (c *Client) Nonce(ctx context.Context, addr types.Address, pending bool) (uint64, error) {
	tag := "latest"
	if pending {
		tag = "pending"
	}
	var q Quantity
	err := c.Call(ctx, &q, "cowboy_getNonce", Address(addr), tag)
	return uint64(q), err
}

// SendRawTransaction calls cowboy_sendRawTransaction with the signed
// transaction's canonical CBOR and returns its hash. A refusal is an *Error
// with Code CodeTxRejected; RejectReason says which rule.
func (c *Client) SendRawTransaction(ctx context.Context, tx *types.Tx) (types.Hash, error) {
	var h Hash
	if err := c.Call(ctx, &h, "cowboy_sendRawTransaction", Bytes(tx.Encode())); err != nil {
		return types.Hash{}, err
	}
	if want := tx.Hash(); types.Hash(h) != want {
		return types.Hash{}, fmt.Errorf("rpc: node answered hash %s for transaction %s", h, want)
	}
	return types.Hash(h), nil
}

// TransactionByHash calls cowboy_getTransactionByHash; unknown is
// ErrNotFound, pending has nil BlockHash.
func (c *Client) TransactionByHash(ctx context.Context, h types.Hash) (*TxJSON, error) {
	t := new(TxJSON)
	if err := c.Call(ctx, t, "cowboy_getTransactionByHash", Hash(h)); err != nil {
		return nil, err
	}
	return t, nil
}

// Receipt calls cowboy_getTransactionReceipt; unknown or still pending is
// ErrNotFound.
func (c *Client) Receipt(ctx context.Context, h types.Hash) (*ReceiptJSON, error) {
	r := new(ReceiptJSON)
	if err := c.Call(ctx, r, "cowboy_getTransactionReceipt", Hash(h)); err != nil {
		return nil, err
	}
	return r, nil
}

// DefaultPollInterval is how often WaitReceipt asks when given no interval.
const DefaultPollInterval = 250 * time.Millisecond

// WaitReceipt polls for the receipt every interval (DefaultPollInterval if
// not positive) until it exists or ctx ends; it is how `cowboy transfer`
// waits for inclusion.
func (c *Client) WaitReceipt(ctx context.Context, h types.Hash, interval time.Duration) (*ReceiptJSON, error) {
	if interval <= 0 {
		interval = DefaultPollInterval
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		r, err := c.Receipt(ctx, h)
		if !errors.Is(err, ErrNotFound) {
			return r, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("rpc: waiting for receipt of %s: %w", h, ctx.Err())
		case <-t.C:
		}
	}
}

// Basefees calls cowboy_basefees: what the next block charges.
func (c *Client) Basefees(ctx context.Context) (*BasefeesJSON, error) {
	b := new(BasefeesJSON)
	if err := c.Call(ctx, b, "cowboy_basefees"); err != nil {
		return nil, err
	}
	return b, nil
}

// EstimateFees calls cowboy_estimateFees.
func (c *Client) EstimateFees(ctx context.Context, args EstimateFeesArgs) (*FeeEstimateJSON, error) {
	e := new(FeeEstimateJSON)
	if err := c.Call(ctx, e, "cowboy_estimateFees", args); err != nil {
		return nil, err
	}
	return e, nil
}

// TotalSupply calls cowboy_totalSupply: base units in existence.
func (c *Client) TotalSupply(ctx context.Context) (*big.Int, error) {
	var q BigQuantity
	if err := c.Call(ctx, &q, "cowboy_totalSupply"); err != nil {
		return nil, err
	}
	return q.Int(), nil
}

// Validators calls cowboy_getValidators: epoch's validator set (nil: the
// latest block's epoch), the registry's records and its parameters.
func (c *Client) Validators(ctx context.Context, epoch *uint64) (*ValidatorsJSON, error) {
	v := new(ValidatorsJSON)
	var err error
	if epoch == nil {
		err = c.Call(ctx, v, "cowboy_getValidators")
	} else {
		err = c.Call(ctx, v, "cowboy_getValidators", Quantity(*epoch))
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}
