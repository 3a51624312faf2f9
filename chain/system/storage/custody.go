package storage

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// Custody challenges (issue 15: "slashing for failed challenges"; §17.6
// lifecycle). A relay's signed custody receipt says it holds a shard of a
// committed file; the volume owner puts it on chain with "challenge", the
// chain picks a range of the shard from the challenge id, and the relay
// must "respond" with the Bao slice of that range within
// ChallengeWindowBlocks. Unanswered, anyone may "slash": SlashAmount of the
// relay's stake goes to the challenger.
const (
	// ChallengeWindowBlocks is how long a relay has to answer: ten
	// minutes of 1 s blocks.
	ChallengeWindowBlocks = 600
	// ChallengeCycles is charged on top of CallCycles for a challenge: a
	// signature recovery (§17.3 verify_signature, 10,000) and a Merkle path.
	ChallengeCycles = 10_000
	// RespondCyclesPerByte is charged per byte of a response's slice (a
	// BLAKE3 over it, as §17.3 hash).
	RespondCyclesPerByte = 1
	// MaxRespondSlice bounds a response: a 1 KiB range rounded out to two
	// 16 KiB Bao groups plus the path.
	MaxRespondSlice = 64 << 10
	nsChallenge     = 2 // 0x0B: challenge id -> Challenge
)

// SlashAmount is what one unanswered challenge costs a relay: 100 CBY,
// a tenth of the minimum stake.
var SlashAmount = new(big.Int).Mul(big.NewInt(100), big.NewInt(1e18))

// Challenge is an open custody challenge.
type Challenge struct {
	Relay      types.Address  `cbor:"1,keyasint"`
	Challenger types.Address  `cbor:"2,keyasint"`
	Volume     cbfs.VolumeID  `cbor:"3,keyasint"`
	PathID     cbfs.Tag       `cbor:"4,keyasint"`
	Hash       cbfs.ShardHash `cbor:"5,keyasint"`
	Offset     uint64         `cbor:"6,keyasint"`
	Length     uint64         `cbor:"7,keyasint"`
	Deadline   uint64         `cbor:"8,keyasint"` // last height a response is accepted
}

func challengeKey(id [32]byte) state.Key { return key(RegistryAddress, nsChallenge, id) }

// ReadChallenge returns an open challenge, or nil.
func ReadChallenge(st *state.StateDB, id [32]byte) (*Challenge, error) {
	b := st.Get(challengeKey(id))
	if len(b) == 0 {
		return nil, nil
	}
	var ch Challenge
	if err := types.Unmarshal(b, &ch); err != nil {
		return nil, fmt.Errorf("storage: challenge record: %w", err)
	}
	return &ch, nil
}

// extraCycles is what a method costs beyond CallCycles.
func extraCycles(to types.Address, method string, args []cbor.RawMessage) uint64 {
	if to != RegistryAddress {
		return 0
	}
	switch method {
	case "challenge":
		return ChallengeCycles
	case "respond":
		if len(args) == 2 {
			return RespondCyclesPerByte * uint64(len(args[1]))
		}
	}
	return 0
}

func challenge(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := noValue(c); err != nil {
		return nil, err
	}
	if err := wantArgs(args, 1, `["challenge", custody_receipt]`); err != nil {
		return nil, err
	}
	raw, err := arg[[]byte](args[0], "custody receipt")
	if err != nil {
		return nil, err
	}
	var rc cbfs.CustodyReceipt
	if err := cbfs.Unmarshal(raw, &rc); err != nil {
		return nil, fmt.Errorf("custody receipt: %w", err)
	}
	if err := rc.Verify(); err != nil {
		return nil, err
	}
	v, err := ReadVolume(st, rc.Volume)
	if err != nil {
		return nil, err
	}
	if v == nil || v.Owner != c.From {
		return nil, fmt.Errorf("only the owner of volume %s challenges its relays", rc.Volume)
	}
	com := ReadCommitment(st, rc.Volume, rc.PathID)
	if com == nil {
		return nil, errors.New("the receipt's file has no commitment in 0x0A")
	}
	parsed, err := cbfs.ParseCommitment(com)
	if err != nil {
		return nil, err
	}
	if parsed.Root != rc.Root || rc.N != parsed.K+parsed.M {
		return nil, errors.New("the receipt is for another version of the file than the one committed")
	}
	relayAddr := types.Address(rc.Relay)
	if r, err := ReadRelay(st, relayAddr); err != nil || r == nil {
		return nil, cmpErr(err, fmt.Errorf("%s is not a registered relay", relayAddr))
	}
	d, err := rc.Digest()
	if err != nil {
		return nil, err
	}
	id := crypto.Keccak256(d[:], epochBytes(c.Height))
	if len(st.Get(challengeKey(id))) != 0 {
		return nil, errors.New("this receipt is already challenged at this height")
	}
	off, n := cbfs.ChallengeRange(id, rc.Proof.ShardLen)
	ch := &Challenge{Relay: relayAddr, Challenger: c.From, Volume: rc.Volume, PathID: rc.PathID, Hash: rc.Hash, Offset: off, Length: n, Deadline: c.Height + ChallengeWindowBlocks}
	st.Set(challengeKey(id), mustMarshal(ch))
	return map[string]any{"id": id[:], "relay": relayAddr[:], "volume": rc.Volume[:], "path_id": rc.PathID[:], "hash": rc.Hash[:], "offset": off, "length": n, "deadline": ch.Deadline}, nil
}

func challengeArg(st *state.StateDB, raw cbor.RawMessage) ([32]byte, *Challenge, error) {
	b, err := bytesN(raw, 32, "challenge id")
	if err != nil {
		return [32]byte{}, nil, err
	}
	id := [32]byte(b)
	ch, err := ReadChallenge(st, id)
	if err != nil || ch == nil {
		return id, nil, cmpErr(err, fmt.Errorf("no open challenge 0x%x", id))
	}
	return id, ch, nil
}

func respond(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := noValue(c); err != nil {
		return nil, err
	}
	if err := wantArgs(args, 2, `["respond", challenge_id, slice]`); err != nil {
		return nil, err
	}
	id, ch, err := challengeArg(st, args[0])
	if err != nil {
		return nil, err
	}
	if c.From != ch.Relay {
		return nil, fmt.Errorf("only the challenged relay %s responds", ch.Relay)
	}
	if c.Height > ch.Deadline {
		return nil, fmt.Errorf("the challenge closed at height %d", ch.Deadline)
	}
	slice, err := arg[[]byte](args[1], "slice")
	if err != nil {
		return nil, err
	}
	if len(slice) > MaxRespondSlice {
		return nil, fmt.Errorf("slice is %d bytes, at most %d", len(slice), MaxRespondSlice)
	}
	if _, ok := cbfs.VerifySlice(slice, ch.Hash, ch.Offset, ch.Length); !ok {
		return nil, errors.New("the slice does not prove the challenged range against the shard hash")
	}
	st.Set(challengeKey(id), nil)
	return map[string]any{"id": id[:], "relay": c.From[:]}, nil
}

func slash(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := noValue(c); err != nil {
		return nil, err
	}
	if err := wantArgs(args, 1, `["slash", challenge_id]`); err != nil {
		return nil, err
	}
	id, ch, err := challengeArg(st, args[0])
	if err != nil {
		return nil, err
	}
	if c.Height <= ch.Deadline {
		return nil, fmt.Errorf("the relay may still respond until height %d", ch.Deadline)
	}
	st.Set(challengeKey(id), nil)
	r, err := ReadRelay(st, ch.Relay)
	if err != nil {
		return nil, err
	}
	amount := new(big.Int)
	if r != nil { // a relay that withdrew is gone: the challenge just closes
		amount.Set(SlashAmount)
		if amount.Cmp(r.Stake) > 0 {
			amount.Set(r.Stake)
		}
		r.Stake.Sub(r.Stake, amount)
		r.Slashed++
		if r.Stake.Cmp(MinRelayStake) < 0 && !r.Exiting {
			r.Exiting, r.ExitAt = true, c.Height // below the minimum: no new placement
		}
		st.Set(relayKey(ch.Relay), mustMarshal(r))
		if err := st.SubBalance(RegistryAddress, amount); err != nil {
			return nil, err
		}
		st.AddBalance(ch.Challenger, amount)
	}
	return map[string]any{"id": id[:], "relay": ch.Relay[:], "amount": amount, "to": ch.Challenger[:]}, nil
}
