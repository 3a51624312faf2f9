package node

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/store"
)

// Devnet controls (docs/devnet.md "Devnet controls"): what anvil and
// solana-test-validator give a developer, on the single-validator devnet
// only. A node in a validator network refuses every one with
// rpc.ErrNotDevnet: its blocks come from consensus, and rewriting its
// history or balances would fork it from the others.
//
// Every change goes through a block the control mines, so the chain's
// history stays the record of what happened: set-balance and the faucet
// change the state before the block's transactions run, the clock
// controls move the timestamp of the blocks mined after them, and revert
// rewinds the store (store.RevertTo) to a retained height.

// devState is the devnet's clock offset, guarded by prodMu (every block
// is made under it). The offset is stored with each block made while it
// is not zero (devClockKey), and loaded with the head (loadDevClock), so a
// restart continues the devnet's clock where it was, and dev_revert takes
// it back to what it was at the block reverted to, as it does the state.
type devState struct {
	offset int64 // seconds added to the wall clock for block timestamps
	// next, if not zero, is the exact timestamp of the next block
	// (dev_setTime); after it blocks continue from it on the clock.
	next uint64
}

var _ rpc.DevControls = (*Node)(nil)

// MaxDevMine bounds dev_mine's count: each block is a synced commit.
const MaxDevMine = 10_000

// MaxFaucet bounds one dev_faucet grant: 1,000,000 CBY in base units.
var MaxFaucet = new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(1e18))

// blockTime is the timestamp of the block being made: the wall clock plus
// the devnet's offset, or the time dev_setTime fixed. The caller holds
// prodMu; ProduceBlock never lets it go below the parent's.
func (n *Node) blockTime() uint64 {
	now := n.cfg.Now().Unix() + n.dev.offset
	if n.dev.next != 0 {
		t := n.dev.next
		n.dev.offset += int64(t) - now // later blocks continue from t
		n.dev.next = 0
		return t
	}
	if now < 0 {
		return 0
	}
	return uint64(now)
}

// devClockRecord is the raw write that stores the clock offset with
// block height, if any (see devState). The caller holds prodMu.
func (n *Node) devClockRecord(height uint64) []store.RawWrite {
	if n.dev.offset == 0 {
		return nil
	}
	return []store.RawWrite{{Key: devClockKey(height), Value: binary.BigEndian.AppendUint64(nil, uint64(n.dev.offset))}}
}

// loadDevClock sets the clock offset to the one stored with block height
// (zero if none: a validator network's nodes never store one).
func (n *Node) loadDevClock(height uint64) error {
	n.dev = devState{}
	raw, err := n.db.GetRaw(devClockKey(height))
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("devnet clock of block %d: %w", height, err)
	}
	if len(raw) != 8 {
		return fmt.Errorf("devnet clock of block %d: record of %d bytes, want 8", height, len(raw))
	}
	n.dev.offset = int64(binary.BigEndian.Uint64(raw))
	return nil
}

func (n *Node) devOnly(what string) error {
	if n.net != nil {
		return fmt.Errorf("%s: %w", what, rpc.ErrNotDevnet)
	}
	return nil
}

// DevMine makes count blocks now, with whatever the mempool holds.
func (n *Node) DevMine(count uint64) ([]*types.Header, error) {
	if err := n.devOnly("dev_mine"); err != nil {
		return nil, err
	}
	if count == 0 || count > MaxDevMine {
		return nil, fmt.Errorf("dev_mine: count %d: must be 1 to %d", count, MaxDevMine)
	}
	out := make([]*types.Header, 0, count)
	for i := uint64(0); i < count; i++ {
		b, err := n.ProduceBlock()
		if err != nil {
			return out, fmt.Errorf("dev_mine: block %d of %d: %w", i+1, count, err)
		}
		out = append(out, b.Header)
	}
	return out, nil
}

// DevSnapshot names the head as a point to revert to. A snapshot costs
// nothing: the store keeps the last RetainHeights heights (their undo
// logs), so any of them can be reverted to by height or hash.
func (n *Node) DevSnapshot() (*types.Header, error) {
	if err := n.devOnly("dev_snapshot"); err != nil {
		return nil, err
	}
	return n.Head(), nil
}

// DevRevert rewinds the chain to a retained block, given by height or (if
// hash is not nil) by hash: the store, the head, and the blocks above it,
// in one atomic commit that survives a restart. The blocks' transactions
// are gone; pending transactions stay in the mempool (those whose nonce is
// now too high wait, as any gapped transaction does).
func (n *Node) DevRevert(height uint64, hash *types.Hash) (*types.Header, error) {
	if err := n.devOnly("dev_revert"); err != nil {
		return nil, err
	}
	n.prodMu.Lock()
	defer n.prodMu.Unlock()
	if hash != nil {
		b, err := n.blockByHash(*hash)
		if err != nil {
			return nil, fmt.Errorf("dev_revert: %w", err)
		}
		height = b.Header.Height
	}
	head := n.Head()
	if height > head.Height {
		return nil, fmt.Errorf("dev_revert: block %d is above the head %d: %w", height, head.Height, rpc.ErrNotFound)
	}
	var raw []store.RawWrite
	for h := height + 1; h <= head.Height; h++ {
		bh, err := n.db.GetRaw(heightKey(h))
		if err != nil {
			return nil, fmt.Errorf("dev_revert: block %d: %w", h, err)
		}
		raw = append(raw, store.RawWrite{Key: heightKey(h)}, store.RawWrite{Key: blockKey(types.Hash(bh))}, store.RawWrite{Key: devSetKey(h)}, store.RawWrite{Key: devClockKey(h)})
	}
	if _, err := n.db.RevertTo(height, raw); err != nil {
		if errors.Is(err, store.ErrNotRetained) {
			return nil, fmt.Errorf("dev_revert: block %d is older than the retained heights (cowboyd devnet --retain-heights keeps more): %w", height, err)
		}
		return nil, fmt.Errorf("dev_revert: %w", err)
	}
	// Nothing cached may outlive the blocks it came from.
	n.cache.reset()
	n.recent.reset()
	n.payloads.prune(^uint64(0))
	if err := n.loadHead(); err != nil {
		return nil, fmt.Errorf("dev_revert: %w", err)
	}
	n.pool.Prune(n.newState())
	n.log.Info("devnet reverted", "height", height, "from", head.Height)
	return n.Head(), nil
}

// DevSetBalance mines a block that first sets addr's balance, minting or
// burning the difference so the total supply stays the sum of balances.
func (n *Node) DevSetBalance(addr types.Address, balance *big.Int) (*types.Header, error) {
	if err := n.devOnly("dev_setBalance"); err != nil {
		return nil, err
	}
	if balance.Sign() < 0 {
		return nil, errors.New("dev_setBalance: a balance cannot be negative")
	}
	return n.mineWith(devOp{Kind: "set", Addr: addr[:], Amount: balance.Bytes()})
}

// DevFaucet mines a block that first mints amount to addr (at most
// MaxFaucet per call).
func (n *Node) DevFaucet(addr types.Address, amount *big.Int) (*types.Header, error) {
	if err := n.devOnly("dev_faucet"); err != nil {
		return nil, err
	}
	if amount.Sign() <= 0 || amount.Cmp(MaxFaucet) > 0 {
		return nil, fmt.Errorf("dev_faucet: amount %s: must be more than 0 and at most %s base units (1,000,000 CBY)", amount, MaxFaucet)
	}
	return n.mineWith(devOp{Kind: "mint", Addr: addr[:], Amount: amount.Bytes()})
}

// devOp is a devnet control's change to the state before a block's
// transactions: "set" a balance or "mint" to an account. It is stored
// with the block (devSetKey) as the CBOR map of its fields, so a trace
// replays the block exactly.
type devOp struct {
	Kind   string `cbor:"kind"`
	Addr   []byte `cbor:"addr"`
	Amount []byte `cbor:"amount"` // big-endian base units
}

func (op devOp) apply(st *state.StateDB) error {
	if len(op.Addr) != len(types.Address{}) {
		return fmt.Errorf("devnet change: address of %d bytes", len(op.Addr))
	}
	addr, v := types.Address(op.Addr), new(big.Int).SetBytes(op.Amount)
	switch op.Kind {
	case "mint":
		st.Mint(addr, v)
	case "set":
		switch d := new(big.Int).Sub(v, st.Balance(addr)); d.Sign() {
		case 1:
			st.Mint(addr, d)
		case -1:
			d.Neg(d)
			if err := st.SubBalance(addr, d); err != nil {
				return err
			}
			st.Burn(d)
		}
	default:
		return fmt.Errorf("devnet change: unknown kind %q", op.Kind)
	}
	return nil
}

// mineWith mines one block whose state change op runs first, recorded in
// the same commit.
func (n *Node) mineWith(op devOp) (*types.Header, error) {
	n.prodMu.Lock()
	defer n.prodMu.Unlock()
	b, err := n.produceLocked(func(st *state.StateDB, height uint64) ([]store.RawWrite, error) {
		if err := op.apply(st); err != nil {
			return nil, err
		}
		rec, err := types.Marshal(op)
		if err != nil {
			return nil, fmt.Errorf("encode devnet change: %w", err)
		}
		return []store.RawWrite{{Key: devSetKey(height), Value: rec}}, nil
	})
	if err != nil {
		return nil, err
	}
	return b.Header, nil
}

// devOpOf reads the devnet change made before block h, if any.
func (n *Node) devOpOf(h uint64) (*devOp, error) {
	raw, err := n.db.GetRaw(devSetKey(h))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var op devOp
	if err := types.Unmarshal(raw, &op); err != nil {
		return nil, fmt.Errorf("devnet change of block %d: %w", h, err)
	}
	return &op, nil
}

// DevSetTime makes t the timestamp of the next block and mines it; later
// blocks continue from t on the clock. Block time never goes backwards
// (§4 headers): a t below the head's time is refused.
func (n *Node) DevSetTime(t uint64) (*types.Header, error) {
	if err := n.devOnly("dev_setTime"); err != nil {
		return nil, err
	}
	n.prodMu.Lock()
	defer n.prodMu.Unlock()
	if head := n.Head(); t < head.Time {
		return nil, fmt.Errorf("dev_setTime: %d is before the head's time %d: block time never goes backwards", t, head.Time)
	}
	clock := n.dev
	n.dev.next = t
	b, err := n.produceLocked(nil)
	if err != nil {
		n.dev = clock
		return nil, fmt.Errorf("dev_setTime: %w", err)
	}
	return b.Header, nil
}

// DevIncreaseTime moves the devnet's clock forward by secs and mines a
// block with the new time.
func (n *Node) DevIncreaseTime(secs uint64) (*types.Header, error) {
	if err := n.devOnly("dev_increaseTime"); err != nil {
		return nil, err
	}
	const maxIncrease = 100 * 365 * 24 * 3600
	if secs == 0 || secs > maxIncrease {
		return nil, fmt.Errorf("dev_increaseTime: %d seconds: must be 1 to %d (100 years)", secs, maxIncrease)
	}
	n.prodMu.Lock()
	defer n.prodMu.Unlock()
	clock := n.dev
	n.dev.offset += int64(secs)
	b, err := n.produceLocked(nil)
	if err != nil {
		n.dev = clock
		return nil, fmt.Errorf("dev_increaseTime: %w", err)
	}
	return b.Header, nil
}

func (c *stateCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = map[state.Key][]byte{}
}

func (r *recentTxs) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byHash, r.blocks, r.count = nil, nil, 0
}
