package rpc

import (
	"context"
	"errors"
	"math/big"
	"strings"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// ErrNotDevnet is what DevControls wraps on a node that is not a devnet:
// the server answers CodeNotDevnet.
var ErrNotDevnet = errors.New("devnet controls are served only by a devnet (cowboyd devnet); this node is in a validator network, whose blocks come from consensus")

// CodeNotDevnet is the error code of a dev_* method on a node that is not
// a devnet.
const CodeNotDevnet = -32010

// DevControls is what a devnet offers for the dev_* methods
// (docs/devnet.md "Devnet controls"). Optional: a backend without it
// answers -32601. Each method that changes the chain mines the block that
// carries the change and returns its header; a node that is not a devnet
// returns an error wrapping ErrNotDevnet.
type DevControls interface {
	// DevMine makes count blocks now.
	DevMine(count uint64) ([]*types.Header, error)
	// DevSnapshot names the head as a point to revert to.
	DevSnapshot() (*types.Header, error)
	// DevRevert rewinds to a retained block by height, or by hash if hash
	// is not nil.
	DevRevert(height uint64, hash *types.Hash) (*types.Header, error)
	// DevSetBalance sets an account's balance (base units).
	DevSetBalance(addr types.Address, balance *big.Int) (*types.Header, error)
	// DevFaucet mints amount base units to addr.
	DevFaucet(addr types.Address, amount *big.Int) (*types.Header, error)
	// DevSetTime fixes the next block's timestamp (unix seconds).
	DevSetTime(t uint64) (*types.Header, error)
	// DevIncreaseTime moves block time forward by secs.
	DevIncreaseTime(secs uint64) (*types.Header, error)
	// DevImpersonate queues a transaction from `from` without its key and
	// returns its hash.
	DevImpersonate(from types.Address, to *types.Address, value *big.Int, payload []byte) (types.Hash, error)
}

// DevBlockJSON is the block a dev_* method mined or reverted to.
type DevBlockJSON struct {
	Height    Quantity `json:"height"`
	Hash      Hash     `json:"hash"`
	Time      Quantity `json:"time"` // unix seconds
	StateRoot Hash     `json:"stateRoot"`
}

// NewDevBlockJSON converts a header.
func NewDevBlockJSON(h *types.Header) *DevBlockJSON {
	return &DevBlockJSON{Height: Quantity(h.Height), Hash: Hash(h.Hash()), Time: Quantity(h.Time), StateRoot: Hash(h.StateRoot)}
}

func init() {
	for name, m := range map[string]method{
		"dev_mine":         {0, 1, devMine},
		"dev_snapshot":     {0, 0, devSnapshot},
		"dev_revert":       {1, 1, devRevert},
		"dev_setBalance":   {2, 2, devSetBalance},
		"dev_faucet":       {1, 2, devFaucet},
		"dev_setTime":      {1, 1, devSetTime},
		"dev_increaseTime": {1, 1, devIncreaseTime},
		"dev_impersonate":  {2, 2, devImpersonate},
	} {
		methods[name] = m
	}
}

// DefaultFaucet is what dev_faucet grants without an amount: 100 CBY.
var DefaultFaucet = new(big.Int).Mul(big.NewInt(100), big.NewInt(1e18))

func devControls(b Backend, name string) (DevControls, *Error) {
	d, ok := b.(DevControls)
	if !ok {
		return nil, newError(CodeMethodNotFound, "method %s is not served by this node", name)
	}
	return d, nil
}

// devError maps a control's failure: not a devnet, not found, bad input.
func devError(err error) *Error {
	switch {
	case errors.Is(err, ErrNotDevnet):
		return newError(CodeNotDevnet, "%v", err)
	case errors.Is(err, ErrNotFound):
		return newError(CodeNotFound, "%v", err)
	}
	return invalidParams("%v", err)
}

func devHeader(h *types.Header, err error) (any, *Error) {
	if err != nil {
		return nil, devError(err)
	}
	return NewDevBlockJSON(h), nil
}

func devMine(_ context.Context, b Backend, p *params) (any, *Error) {
	d, e := devControls(b, "dev_mine")
	if e != nil {
		return nil, e
	}
	count := Quantity(1)
	if p.has(0) {
		if err := p.decode(0, "count", &count); err != nil {
			return nil, err
		}
	}
	hs, err := d.DevMine(uint64(count))
	if err != nil {
		return nil, devError(err)
	}
	out := make([]*DevBlockJSON, len(hs))
	for i, h := range hs {
		out[i] = NewDevBlockJSON(h)
	}
	return out, nil
}

func devSnapshot(_ context.Context, b Backend, _ *params) (any, *Error) {
	d, e := devControls(b, "dev_snapshot")
	if e != nil {
		return nil, e
	}
	return devHeader(d.DevSnapshot())
}

// devRevert takes a block hash (66 characters) or a height (a quantity).
func devRevert(_ context.Context, b Backend, p *params) (any, *Error) {
	d, e := devControls(b, "dev_revert")
	if e != nil {
		return nil, e
	}
	var s string
	if err := p.decode(0, "block", &s); err != nil {
		return nil, err
	}
	if len(s) == 66 && strings.HasPrefix(s, "0x") {
		h, err := p.hash(0)
		if err != nil {
			return nil, err
		}
		return devHeader(d.DevRevert(0, &h))
	}
	var q Quantity
	if err := p.decode(0, "block", &q); err != nil {
		return nil, invalidParams("invalid params: params[0] (block): %q is neither a block hash (0x and 64 hex digits) nor a height (a hex quantity)", abbrev(s))
	}
	return devHeader(d.DevRevert(uint64(q), nil))
}

func devSetBalance(_ context.Context, b Backend, p *params) (any, *Error) {
	d, e := devControls(b, "dev_setBalance")
	if e != nil {
		return nil, e
	}
	addr, err := p.address(0)
	if err != nil {
		return nil, err
	}
	var v BigQuantity
	if err := p.decode(1, "balance", &v); err != nil {
		return nil, err
	}
	return devHeader(d.DevSetBalance(addr, v.Int()))
}

func devFaucet(_ context.Context, b Backend, p *params) (any, *Error) {
	d, e := devControls(b, "dev_faucet")
	if e != nil {
		return nil, e
	}
	addr, err := p.address(0)
	if err != nil {
		return nil, err
	}
	amount := new(big.Int).Set(DefaultFaucet)
	if p.has(1) {
		var v BigQuantity
		if err := p.decode(1, "amount", &v); err != nil {
			return nil, err
		}
		amount = v.Int()
	}
	return devHeader(d.DevFaucet(addr, amount))
}

func devSetTime(_ context.Context, b Backend, p *params) (any, *Error) {
	d, e := devControls(b, "dev_setTime")
	if e != nil {
		return nil, e
	}
	var t Quantity
	if err := p.decode(0, "time", &t); err != nil {
		return nil, err
	}
	return devHeader(d.DevSetTime(uint64(t)))
}

func devIncreaseTime(_ context.Context, b Backend, p *params) (any, *Error) {
	d, e := devControls(b, "dev_increaseTime")
	if e != nil {
		return nil, e
	}
	var secs Quantity
	if err := p.decode(0, "seconds", &secs); err != nil {
		return nil, err
	}
	return devHeader(d.DevIncreaseTime(uint64(secs)))
}

// ImpersonateArgs is dev_impersonate's transaction: to (absent: an actor
// deployment), value and payload as in cowboy_estimateFees.
type ImpersonateArgs struct {
	To      *Address     `json:"to,omitempty"`
	Value   *BigQuantity `json:"value,omitempty"`
	Payload Bytes        `json:"payload,omitempty"`
}

func devImpersonate(_ context.Context, b Backend, p *params) (any, *Error) {
	d, e := devControls(b, "dev_impersonate")
	if e != nil {
		return nil, e
	}
	from, err := p.address(0)
	if err != nil {
		return nil, err
	}
	var args ImpersonateArgs
	if err := p.object(1, "transaction", &args); err != nil {
		return nil, err
	}
	var to *types.Address
	if args.To != nil {
		a := types.Address(*args.To)
		to = &a
	}
	var value *big.Int
	if args.Value != nil {
		value = args.Value.Int()
	}
	h, herr := d.DevImpersonate(from, to, value, []byte(args.Payload))
	if herr != nil {
		if errors.Is(herr, ErrNotDevnet) {
			return nil, devError(herr)
		}
		return nil, txError(herr)
	}
	return Hash(h), nil
}

// DevImpersonate calls dev_impersonate and returns the transaction hash.
func (c *Client) DevImpersonate(ctx context.Context, from types.Address, args ImpersonateArgs) (types.Hash, error) {
	var out Hash
	err := c.Call(ctx, &out, "dev_impersonate", Address(from), args)
	return types.Hash(out), err
}

// DevMine calls dev_mine.
func (c *Client) DevMine(ctx context.Context, count uint64) ([]*DevBlockJSON, error) {
	var out []*DevBlockJSON
	return out, c.Call(ctx, &out, "dev_mine", Quantity(count))
}

// DevSnapshot calls dev_snapshot.
func (c *Client) DevSnapshot(ctx context.Context) (*DevBlockJSON, error) {
	var out DevBlockJSON
	return &out, c.Call(ctx, &out, "dev_snapshot")
}

// DevRevert calls dev_revert with a block hash ("0x" and 64 hex digits)
// or a height ("0x…" quantity).
func (c *Client) DevRevert(ctx context.Context, block string) (*DevBlockJSON, error) {
	var out DevBlockJSON
	return &out, c.Call(ctx, &out, "dev_revert", block)
}

// DevSetBalance calls dev_setBalance.
func (c *Client) DevSetBalance(ctx context.Context, addr types.Address, balance *big.Int) (*DevBlockJSON, error) {
	var out DevBlockJSON
	return &out, c.Call(ctx, &out, "dev_setBalance", Address(addr), NewBigQuantity(balance))
}

// DevFaucet calls dev_faucet.
func (c *Client) DevFaucet(ctx context.Context, addr types.Address, amount *big.Int) (*DevBlockJSON, error) {
	var out DevBlockJSON
	return &out, c.Call(ctx, &out, "dev_faucet", Address(addr), NewBigQuantity(amount))
}

// DevSetTime calls dev_setTime.
func (c *Client) DevSetTime(ctx context.Context, t uint64) (*DevBlockJSON, error) {
	var out DevBlockJSON
	return &out, c.Call(ctx, &out, "dev_setTime", Quantity(t))
}

// DevIncreaseTime calls dev_increaseTime.
func (c *Client) DevIncreaseTime(ctx context.Context, secs uint64) (*DevBlockJSON, error) {
	var out DevBlockJSON
	return &out, c.Call(ctx, &out, "dev_increaseTime", Quantity(secs))
}
