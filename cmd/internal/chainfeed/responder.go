package chainfeed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
)

// Send signs and sends a call (with value, may be nil) to a native storage
// actor as key and waits for its receipt; a failed execution is an error.
// cycles is the cycles limit (the node's estimate covers only the
// intrinsic cost of such calls).
func Send(ctx context.Context, c *rpc.Client, key *crypto.PrivateKey, to types.Address, value *big.Int, payload []byte, cycles uint64) (*rpc.ReceiptJSON, error) {
	from := types.Address(key.Address())
	chainID, err := c.ChainID(ctx)
	if err != nil {
		return nil, fmt.Errorf("chain id: %w", err)
	}
	nonce, err := c.Nonce(ctx, from, true)
	if err != nil {
		return nil, fmt.Errorf("nonce: %w", err)
	}
	rf, rt := rpc.Address(from), rpc.Address(to)
	est, err := c.EstimateFees(ctx, rpc.EstimateFeesArgs{From: &rf, To: &rt, Value: rpc.NewBigQuantity(value), Payload: rpc.Bytes(payload)})
	if err != nil {
		return nil, fmt.Errorf("estimate fees: %w", err)
	}
	tx := &types.Tx{ChainID: chainID, Nonce: nonce, To: &to, Value: value, Payload: payload,
		CyclesLimit: max(cycles, uint64(est.CyclesLimit)), CellsLimit: uint64(est.CellsLimit),
		MaxFeePerCycle: uint64(est.MaxFeePerCycle), MaxFeePerCell: uint64(est.MaxFeePerCell),
		TipPerCycle: uint64(est.TipPerCycle), TipPerCell: uint64(est.TipPerCell)}
	tx.Sign(key)
	h, err := c.SendRawTransaction(ctx, tx)
	if err != nil {
		return nil, fmt.Errorf("send: %w", err)
	}
	rc, err := c.WaitReceipt(ctx, h, 0)
	if err != nil {
		return nil, fmt.Errorf("receipt of %s: %w", h, err)
	}
	if rc.Status != 1 {
		return rc, fmt.Errorf("transaction %s failed: %s", h, rc.Error)
	}
	return rc, nil
}

// ChallengeEvent is the data of a Relay Registry "challenge" event.
type ChallengeEvent struct {
	ID       []byte `cbor:"id"`
	Relay    []byte `cbor:"relay"`
	Volume   []byte `cbor:"volume"`
	PathID   []byte `cbor:"path_id"`
	Hash     []byte `cbor:"hash"`
	Offset   uint64 `cbor:"offset"`
	Length   uint64 `cbor:"length"`
	Deadline uint64 `cbor:"deadline"`
}

// Responder answers the on-chain custody challenges aimed at one relay:
// it reads the Relay Registry's "challenge" events and sends "respond"
// with the Bao slice the relay computes, signed by the relay's node key
// (its registry address), so a relay that holds its shards is never
// slashed.
type Responder struct {
	Client *rpc.Client
	Key    *crypto.PrivateKey // the relay's node key
	Server *relay.Server
	Log    *slog.Logger
	next   uint64 // first height not yet read
}

// Step reads the challenges of new blocks and answers this relay's; it
// returns how many it answered. On start it looks back one challenge
// window, the oldest challenge that can still be answered.
func (r *Responder) Step(ctx context.Context) (int, error) {
	head, err := r.Client.BlockNumber(ctx)
	if err != nil {
		return 0, fmt.Errorf("block number: %w", err)
	}
	if r.next == 0 {
		r.next = 1
		if head > storage.ChallengeWindowBlocks {
			r.next = head - storage.ChallengeWindowBlocks
		}
	}
	if head < r.next {
		return 0, nil
	}
	to := min(head, r.next+rpc.MaxLogRange-1)
	addr := rpc.Address(storage.RegistryAddress)
	fb, tb := rpc.BlockAt(r.next), rpc.BlockAt(to)
	var logs []rpc.LogJSON
	if err := r.Client.Call(ctx, &logs, "cowboy_getLogs", rpc.LogFilterJSON{Address: &addr, Name: "challenge", FromBlock: &fb, ToBlock: &tb}); err != nil {
		return 0, fmt.Errorf("get logs %d..%d: %w", r.next, to, err)
	}
	me := r.Key.Address()
	n := 0
	for _, l := range logs {
		if types.Address(l.Address) != storage.RegistryAddress || l.Name != "challenge" {
			continue
		}
		var ev ChallengeEvent
		if err := cbfs.Unmarshal(l.Data, &ev); err != nil || len(ev.Relay) != 20 || len(ev.ID) != 32 || len(ev.Volume) != 32 || len(ev.PathID) != 32 || len(ev.Hash) != 32 {
			return n, fmt.Errorf("challenge event at height %d: malformed", l.BlockNumber)
		}
		if [20]byte(ev.Relay) != me {
			continue
		}
		slice, err := r.Server.AnswerChainChallenge(cbfs.VolumeID(ev.Volume), cbfs.Tag(ev.PathID), cbfs.ShardHash(ev.Hash), ev.Offset, ev.Length)
		if err != nil {
			r.logf("cannot answer challenge 0x%x: %v", ev.ID, err)
			continue
		}
		payload := storage.Payload("respond", ev.ID, slice)
		if _, err := Send(ctx, r.Client, r.Key, storage.RegistryAddress, nil, payload, 50_000+uint64(len(payload))); err != nil {
			// Not retried: a challenge answered meanwhile or expired fails
			// here for good; the deadline is the owner's to enforce.
			r.logf("respond to challenge 0x%x: %v", ev.ID, err)
			continue
		}
		n++
	}
	r.next = to + 1
	return n, nil
}

// Run steps every interval until ctx ends; a failed step is logged and
// retried from the same height.
func (r *Responder) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if n, err := r.Step(ctx); err != nil && !errors.Is(err, context.Canceled) {
			r.logf("answer challenges: %v", err)
		} else if n > 0 {
			r.logf("answered %d custody challenge(s)", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (r *Responder) logf(format string, args ...any) {
	if r.Log != nil {
		r.Log.Info(fmt.Sprintf(format, args...))
	}
}
