package staking

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto/bls"
)

// The registry's methods: a transaction to Address carries the canonical
// CBOR payload [method, args…].
const (
	MethodRegister = "register" // [ "register", bls_pubkey(48), proof_of_possession(96) ], value = stake
	MethodExit     = "exit"     // [ "exit" ]
	MethodWithdraw = "withdraw" // [ "withdraw" ]
	MethodUnjail   = "unjail"   // [ "unjail" ]
	MethodEvidence = "evidence" // [ "evidence", vote_a, vote_b ]
)

// Call is one transaction to the registry.
type Call struct {
	From    types.Address
	Value   *big.Int // moved from From to the registry if the call succeeds
	Payload []byte
	Height  uint64 // the block being executed
	// Cycles is what the transaction has left after its intrinsic cost.
	Cycles uint64
}

// Result is what a successful or failed call used and, on success, the
// event it emitted (address Address, data a CBOR map), for the receipt.
type Result struct {
	CyclesUsed uint64
	Events     []types.Event
}

// Event names, one per method, emitted by a successful call.
var eventNames = map[string]string{
	MethodRegister: "Registered", MethodExit: "Exiting", MethodWithdraw: "Withdrawn",
	MethodUnjail: "Unjailed", MethodEvidence: "Slashed", MethodDeal: "Dealt", MethodComplain: "DealerDisqualified",
	MethodInvalidProposal: "JailedInvalidProposal",
}

// ErrOutOfCycles is returned when the call costs more cycles than the
// transaction has left; all of them are charged.
var ErrOutOfCycles = errors.New("out of cycles")

// Apply executes a registry call. On error the state is exactly as before
// (the caller still charges the fee, like a failed actor call); the
// cycles used are charged either way.
func Apply(st *state.StateDB, c Call) (Result, error) {
	if c.Value == nil {
		c.Value = new(big.Int)
	}
	method, args, err := decodeCall(c.Payload)
	if err != nil {
		return Result{CyclesUsed: min(CallCycles, c.Cycles)}, err
	}
	cost := uint64(CallCycles)
	switch method {
	case MethodRegister:
		cost += BLSVerifyCycles
	case MethodEvidence:
		cost += 2 * BLSVerifyCycles
	case MethodDeal:
		cost += DealCycles
	case MethodComplain:
		cost += ComplainCycles
	case MethodInvalidProposal:
		// A signature check, and a sender recovery per transaction of
		// the payload, bounded by its bytes.
		cost += BLSVerifyCycles + ProposalByteCycles*uint64(len(c.Payload))
	}
	if cost > c.Cycles {
		return Result{CyclesUsed: c.Cycles}, fmt.Errorf("%w: %s costs %d cycles, the transaction has %d left after its intrinsic cost", ErrOutOfCycles, method, cost, c.Cycles)
	}
	res := Result{CyclesUsed: cost}
	p, err := ReadParams(st)
	if err != nil {
		return res, err
	}
	snap := st.Snapshot()
	var data map[string]any
	switch method {
	case MethodRegister:
		data, err = register(st, p, c, args)
	case MethodExit:
		data, err = exit(st, c, args)
	case MethodWithdraw:
		data, err = withdraw(st, c, args)
	case MethodUnjail:
		data, err = unjail(st, c, args)
	case MethodEvidence:
		data, err = evidence(st, p, c, args)
	case MethodDeal:
		data, err = deal(st, p, c, args)
	case MethodComplain:
		data, err = complain(st, p, c, args)
	case MethodInvalidProposal:
		data, err = invalidProposal(st, p, c, args)
	default:
		err = fmt.Errorf("unknown method %q: the validator registry has register, exit, withdraw, unjail, evidence, invalid_proposal, dkg_deal and dkg_complain", method)
	}
	if err == nil {
		err = st.Err()
	}
	if err != nil {
		st.RevertToSnapshot(snap)
		return res, fmt.Errorf("validator registry %s: %w", method, err)
	}
	res.Events = []types.Event{{Address: Address, Name: eventNames[method], Data: mustMarshal(data)}}
	return res, nil
}

// decodeCall splits the canonical CBOR array [method, args…].
func decodeCall(payload []byte) (string, []cbor.RawMessage, error) {
	var items []cbor.RawMessage
	if err := types.Unmarshal(payload, &items); err != nil {
		return "", nil, fmt.Errorf("validator registry payload must be the canonical CBOR array [method, args…]: %w", err)
	}
	if len(items) == 0 {
		return "", nil, errors.New("validator registry payload is an empty array: want [method, args…]")
	}
	if major(items[0]) != 3 {
		return "", nil, errors.New("validator registry payload: the method must be a text string")
	}
	var method string
	if err := types.Unmarshal(items[0], &method); err != nil {
		return "", nil, fmt.Errorf("validator registry payload method: %w", err)
	}
	return method, items[1:], nil
}

func major(b []byte) byte {
	if len(b) == 0 {
		return 0xff
	}
	return b[0] >> 5
}

func wantArgs(args []cbor.RawMessage, n int, form string) error {
	if len(args) != n {
		return fmt.Errorf("takes %d argument(s), got %d: want %s", n, len(args), form)
	}
	return nil
}

func noValue(c Call) error {
	if c.Value.Sign() != 0 {
		return fmt.Errorf("takes no value, got %s base units", c.Value)
	}
	return nil
}

// byteString decodes a CBOR byte string of exactly n bytes.
func byteString(raw cbor.RawMessage, n int, what string) ([]byte, error) {
	var b []byte
	if major(raw) != 2 {
		return nil, fmt.Errorf("%s must be a byte string", what)
	}
	if err := types.Unmarshal(raw, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if len(b) != n {
		return nil, fmt.Errorf("%s is %d bytes, want %d", what, len(b), n)
	}
	return b, nil
}

func uintArg(raw cbor.RawMessage, what string) (uint64, error) {
	var v uint64
	if major(raw) != 0 {
		return 0, fmt.Errorf("%s must be an unsigned integer", what)
	}
	if err := types.Unmarshal(raw, &v); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return v, nil
}

// register is "Register (stake CBY, submit BLS12-381 key) → Activate (next
// epoch boundary)" (v2 "Validator Set"); staking is self-bonded, so the
// sender is the validator.
func register(st *state.StateDB, p Params, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := wantArgs(args, 2, `["register", bls_pubkey(48 bytes), proof_of_possession(96 bytes)]`); err != nil {
		return nil, err
	}
	pkb, err := byteString(args[0], bls.PublicKeySize, "bls_pubkey")
	if err != nil {
		return nil, err
	}
	popb, err := byteString(args[1], bls.SignatureSize, "proof_of_possession")
	if err != nil {
		return nil, err
	}
	if c.Value.Cmp(p.MinStake) < 0 {
		return nil, fmt.Errorf("stake %s (the transaction's value) is below min_validator_stake %s", types.FormatCBY(c.Value), types.FormatCBY(p.MinStake))
	}
	if v, err := ReadValidator(st, c.From); err != nil {
		return nil, err
	} else if v != nil {
		return nil, fmt.Errorf("%s is already registered (status %s); register again only after exit and withdraw", c.From, v.Status())
	}
	if owner := st.Get(blsKeyKey(pkb)); owner != nil {
		return nil, fmt.Errorf("BLS key already registered by %s", types.Address(owner))
	}
	pk, err := bls.PublicKeyFromBytes(pkb)
	if err != nil {
		return nil, fmt.Errorf("bls_pubkey: %w", err)
	}
	pop, err := bls.SignatureFromBytes(popb)
	if err != nil {
		return nil, fmt.Errorf("proof_of_possession: %w", err)
	}
	if !bls.VerifyPossession(pk, pop) {
		return nil, errors.New("proof_of_possession does not verify under bls_pubkey")
	}
	if err := st.SubBalance(c.From, c.Value); err != nil {
		return nil, fmt.Errorf("bond stake: %w", err)
	}
	st.AddBalance(Address, c.Value)
	v := &Validator{Address: c.From, BLSPublicKey: pkb, Stake: new(big.Int).Set(c.Value), Registered: c.Height}
	if err := writeValidator(st, v); err != nil {
		return nil, err
	}
	st.Set(blsKeyKey(pkb), append([]byte(nil), c.From[:]...))
	if err := addToRegistry(st, c.From); err != nil {
		return nil, err
	}
	return map[string]any{"validator": c.From.Hex(), "stake": v.Stake, "bls_pubkey": pkb}, nil
}

// registered is the sender's record, or an error naming the sender.
func registered(st *state.StateDB, a types.Address) (*Validator, error) {
	v, err := ReadValidator(st, a)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, fmt.Errorf("%s is not a registered validator", a)
	}
	return v, nil
}

// ownRecord checks a call that takes no arguments and no value (exit,
// withdraw, unjail: a validator acting on its own record) and reads the
// caller's record.
func ownRecord(st *state.StateDB, c Call, args []cbor.RawMessage, form string) (*Validator, error) {
	if err := wantArgs(args, 0, form); err != nil {
		return nil, err
	}
	if err := noValue(c); err != nil {
		return nil, err
	}
	return registered(st, c.From)
}

// exit is "Exit (signal unbonding)": the validator leaves the set at the
// next boundary and may withdraw unbonding_period blocks after it.
func exit(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	v, err := ownRecord(st, c, args, `["exit"]`)
	if err != nil {
		return nil, err
	}
	if v.Exiting {
		return nil, fmt.Errorf("%s is already exiting", c.From)
	}
	v.Exiting = true
	return map[string]any{"validator": c.From.Hex()}, writeValidator(st, v)
}

// withdraw is "Withdraw (after 7-day unbonding period)": the stake goes
// back to the validator's balance and the record is removed.
func withdraw(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	v, err := ownRecord(st, c, args, `["withdraw"]`)
	if err != nil {
		return nil, err
	}
	switch {
	case !v.Exiting:
		return nil, fmt.Errorf("%s has not exited: send exit first, then withdraw after the unbonding period", c.From)
	case v.UnbondUntil == 0:
		return nil, fmt.Errorf("%s is leaving the set at the next epoch boundary; its unbonding period starts there", c.From)
	case c.Height < v.UnbondUntil:
		return nil, fmt.Errorf("%s is unbonding until block %d (now %d)", c.From, v.UnbondUntil, c.Height)
	}
	if err := st.SubBalance(Address, v.Stake); err != nil {
		return nil, fmt.Errorf("registry balance does not cover the stake: %w", err)
	}
	st.AddBalance(c.From, v.Stake)
	st.Set(validatorKey(c.From), nil)
	st.Set(blsKeyKey(v.BLSPublicKey), nil)
	return map[string]any{"validator": c.From.Hex(), "stake": v.Stake}, removeFromRegistry(st, c.From)
}

// unjail makes a jailed validator eligible again from the next boundary,
// once its jail period is over.
func unjail(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	v, err := ownRecord(st, c, args, `["unjail"]`)
	if err != nil {
		return nil, err
	}
	if !v.Jailed {
		return nil, fmt.Errorf("%s is not jailed", c.From)
	}
	if c.Height < v.JailUntil {
		return nil, fmt.Errorf("%s is jailed until block %d (now %d)", c.From, v.JailUntil, c.Height)
	}
	v.Jailed = false
	return map[string]any{"validator": c.From.Hex()}, writeValidator(st, v)
}

// Vote is one signed consensus vote, as evidence carries it: CBOR
// [height, round, block_hash(32), validator_address(20),
// bls_signature(96)].
type Vote struct {
	_         struct{} `cbor:",toarray"`
	Height    uint64
	Round     uint64
	BlockHash types.Hash
	Validator types.Address
	Signature []byte
}

func decodeVote(raw cbor.RawMessage, what string) (*Vote, error) {
	var items []cbor.RawMessage
	if major(raw) != 4 {
		return nil, fmt.Errorf("%s must be the array [height, round, block_hash, validator_address, bls_signature]", what)
	}
	if err := types.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if len(items) != 5 {
		return nil, fmt.Errorf("%s has %d items, want 5: [height, round, block_hash, validator_address, bls_signature]", what, len(items))
	}
	v := new(Vote)
	var err error
	if v.Height, err = uintArg(items[0], what+" height"); err != nil {
		return nil, err
	}
	if v.Round, err = uintArg(items[1], what+" round"); err != nil {
		return nil, err
	}
	h, err := byteString(items[2], 32, what+" block_hash")
	if err != nil {
		return nil, err
	}
	v.BlockHash = types.Hash(h)
	a, err := byteString(items[3], 20, what+" validator_address")
	if err != nil {
		return nil, err
	}
	v.Validator = types.Address(a)
	if v.Signature, err = byteString(items[4], bls.SignatureSize, what+" bls_signature"); err != nil {
		return nil, err
	}
	return v, nil
}

// evidence is the "Double signing: Jail + slash 1% of stake" row of v2
// "Slashing": two votes by one validator in the same round for different
// blocks, at the same height (a double vote, or proposer equivocation: a
// proposal's signature is its proposer's vote) or at different heights
// (an honest validator votes once per round, docs/consensus.md rule 4),
// sent by anyone. One punishment per validator and round. The slashed
// stake is burned (§8.4: "Slashed stake 100% Burned").
func evidence(st *state.StateDB, p Params, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := wantArgs(args, 2, `["evidence", vote_a, vote_b]`); err != nil {
		return nil, err
	}
	if err := noValue(c); err != nil {
		return nil, err
	}
	a, err := decodeVote(args[0], "vote_a")
	if err != nil {
		return nil, err
	}
	b, err := decodeVote(args[1], "vote_b")
	if err != nil {
		return nil, err
	}
	// ifs, not a switch: gremlins cannot mutate case expressions.
	if a.Validator != b.Validator {
		return nil, fmt.Errorf("the votes are by different validators (%s, %s)", a.Validator, b.Validator)
	}
	if a.Round != b.Round {
		return nil, fmt.Errorf("the votes are in different rounds (%d, %d)", a.Round, b.Round)
	}
	if a.BlockHash == b.BlockHash && a.Height == b.Height {
		return nil, fmt.Errorf("both votes are for block %s at height %d: not a double sign", a.BlockHash, a.Height)
	}
	v, err := ReadValidator(st, a.Validator)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, fmt.Errorf("%s is not a registered validator", a.Validator)
	}
	// Keyed by round alone (height 0, which no vote has: genesis is not
	// voted on), so two pairs of one round are one offence.
	pk := punishedKey(v.Address, 0, a.Round)
	if st.Get(pk) != nil {
		return nil, fmt.Errorf("%s was already punished for round %d", v.Address, a.Round)
	}
	key, err := bls.PublicKeyFromBytes(v.BLSPublicKey)
	if err != nil {
		return nil, fmt.Errorf("registered BLS key of %s: %w", v.Address, err)
	}
	for _, vote := range []*Vote{a, b} {
		sig, err := bls.SignatureFromBytes(vote.Signature)
		if err != nil {
			return nil, fmt.Errorf("signature of the vote for %s: %w", vote.BlockHash, err)
		}
		if !bls.Verify(key, types.VoteMessage(vote.BlockHash, vote.Height, vote.Round), sig) {
			return nil, fmt.Errorf("the vote for %s is not signed by %s's registered BLS key", vote.BlockHash, v.Address)
		}
	}
	slash := new(big.Int).Mul(v.Stake, new(big.Int).SetUint64(p.SlashBps))
	slash.Quo(slash, big.NewInt(10_000))
	if err := st.SubBalance(Address, slash); err != nil {
		return nil, fmt.Errorf("registry balance does not cover the slash: %w", err)
	}
	st.Burn(slash)
	v.Stake.Sub(v.Stake, slash)
	jail(v, c.Height, p)
	st.Set(pk, binary.BigEndian.AppendUint64(nil, c.Height))
	return map[string]any{"validator": v.Address.Hex(), "slashed": slash, "stake": v.Stake, "jail_until": v.JailUntil,
		"height": a.Height, "round": a.Round, "reporter": c.From.Hex()}, writeValidator(st, v)
}

// jail removes v from the next epoch sets until it unjails after
// jail_period blocks; a later jail never shortens an earlier one.
func jail(v *Validator, height uint64, p Params) {
	v.Jailed = true
	v.JailUntil = max(v.JailUntil, height+p.JailPeriod)
}

// Payloads, for clients (the CLI) that build registry transactions.

// RegisterPayload is ["register", bls_pubkey, proof_of_possession].
func RegisterPayload(pk, pop []byte) []byte { return mustMarshal([]any{MethodRegister, pk, pop}) }

// MethodPayload is [method] for exit, withdraw and unjail.
func MethodPayload(method string) []byte { return mustMarshal([]any{method}) }

// EvidencePayload is ["evidence", vote_a, vote_b].
func EvidencePayload(a, b *Vote) []byte { return mustMarshal([]any{MethodEvidence, a, b}) }

func mustMarshal(v any) []byte {
	b, err := types.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("encode registry payload: %v", err)) // strings, bytes and uints cannot fail
	}
	return b
}
