// Package storage is the chain side of CBFS: the Storage Manager (system
// actor 0x…0A) and the Relay Registry (0x…0B) of technical spec §9, with
// the storage billing of §17.6 (CIP-9). Both are native system actors, as
// the validator registry at 0x…0C is: their rules are plain Go run by
// chain/execution for transactions addressed to them (docs/decisions.md
// "CBFS" says why).
//
// Storage Manager methods (transaction payload: canonical CBOR array
// [method, args…]):
//
//	["create_volume", name, k, m]       value = prepaid rent deposit
//	["commit", volume_id, path_id, commitment(64 bytes)]   owner only
//	["remove", volume_id, path_id]       owner only
//	["top_up", volume_id]                value added to the deposit
//	["close_volume", volume_id]          owner; no files left; deposit refunded
//	["attest", epoch, [[volume_id, bytes], …]]   a registered relay's billing attestation
//	["revoke", volume_id, link_id, expiry]       owner; relays follow the "revoke" events
//	["evict", volume_id]                 anyone, EvictGraceBlocks into arrears; relays drop its data
//
// Relay Registry methods:
//
//	["register_relay", addr, capacity]   value = stake ≥ MinRelayStake
//	["update_relay", addr, capacity]
//	["exit_relay"]                        stops new placement; stake unbonds
//	["withdraw_relay"]                    after UnbondBlocks
//	["challenge", custody_receipt]        volume owner; the relay must respond (custody.go)
//	["respond", challenge_id, slice]      the challenged relay, before the deadline
//	["slash", challenge_id]               anyone, after an unanswered deadline
package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/statekey"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// System actor addresses (§9, docs: spec README "system actor addresses").
var (
	ManagerAddress  = types.Address{19: 0x0a}
	RegistryAddress = types.Address{19: 0x0b}
)

// Handles reports whether a transaction to a is run by this package.
func Handles(a types.Address) bool { return a == ManagerAddress || a == RegistryAddress }

// Parameters. §17.6 fixes the billing formula (used bytes × erasure
// overhead × rate per epoch) but no numbers; these are this project's
// (docs/decisions.md "CBFS"), to be moved under governance.
const (
	// CallCycles is what every call costs beyond the transaction's
	// intrinsic cost.
	CallCycles = 1_000
	// BillingEpochBlocks is the billing period: one hour of 1 s blocks.
	BillingEpochBlocks = 3600
	// RentPerByteEpoch is base units per stored byte (after erasure
	// overhead) per billing epoch: 1 GiB at K=4 M=2 costs about
	// 0.0016 CBY an hour.
	RentPerByteEpoch = 1_000_000
	// UnbondBlocks is how long an exiting relay's stake stays slashable.
	UnbondBlocks = 7 * 24 * 3600
	// EvictGraceBlocks is how long a volume may stay in arrears before
	// anyone may evict it: one day of 1 s blocks (24 billing epochs).
	EvictGraceBlocks = 24 * BillingEpochBlocks
	// MaxAttestEntries bounds one attestation.
	MaxAttestEntries = 256
)

// MinRelayStake is 1,000 CBY.
var MinRelayStake = new(big.Int).Mul(big.NewInt(1000), big.NewInt(1e18))

// Call is one transaction to 0x0A or 0x0B.
type Call struct {
	To      types.Address
	From    types.Address
	Value   *big.Int
	Payload []byte
	Height  uint64
	Cycles  uint64 // left after the intrinsic cost
}

// Result is what a call used and the event it emitted.
type Result struct {
	CyclesUsed uint64
	Events     []types.Event
}

// Record namespaces under (statekey.KindSystem, address).
const (
	nsVolume byte = 1 // 0x0A: volume id -> Volume
	nsFile   byte = 2 // 0x0A: keccak(volume ‖ path id) -> 64-byte commitment
	nsBilled byte = 3 // 0x0A: keccak(volume ‖ epoch) -> bytes already paid for
	nsAttest byte = 4 // 0x0A: keccak(relay ‖ volume ‖ epoch) -> marker
	nsRevoke byte = 5 // 0x0A: keccak(volume ‖ link id) -> u64 expiry
	nsRelay  byte = 1 // 0x0B: relay address -> Relay
	nsIndex  byte = 3 // 0x0B: slot 0: u64 count; slot 1+i: the i-th registered relay's address
)

func key(addr types.Address, ns byte, slot [32]byte) state.Key {
	return statekey.Make(statekey.KindSystem, addr, ns, slot)
}

// Volume is the Storage Manager's record of one volume.
type Volume struct {
	Owner     types.Address `cbor:"1,keyasint"`
	Name      string        `cbor:"2,keyasint"`
	K         uint8         `cbor:"3,keyasint"`
	M         uint8         `cbor:"4,keyasint"`
	Deposit   *big.Int      `cbor:"5,keyasint"` // prepaid rent left, held by 0x0A
	UsedBytes uint64        `cbor:"6,keyasint"` // plaintext bytes of committed files
	Files     uint64        `cbor:"7,keyasint"`
	Created   uint64        `cbor:"8,keyasint"`
	Arrears   bool          `cbor:"9,keyasint"`            // a bill found the deposit short
	ArrearsAt uint64        `cbor:"10,keyasint,omitempty"` // height the arrears began
	Evicted   bool          `cbor:"11,keyasint,omitempty"` // relays dropped its data (evict)
}

// Relay is the Relay Registry's record of one relay.
type Relay struct {
	Stake    *big.Int `cbor:"1,keyasint"`
	Addr     string   `cbor:"2,keyasint"` // ip:port of its QUIC service
	Capacity uint64   `cbor:"3,keyasint"` // bytes offered
	Exiting  bool     `cbor:"4,keyasint"`
	ExitAt   uint64   `cbor:"5,keyasint"` // height of exit_relay
	Earned   *big.Int `cbor:"6,keyasint"` // rent paid to it so far
	Joined   uint64   `cbor:"7,keyasint"`
	Slashed  uint64   `cbor:"8,keyasint,omitempty"` // challenges it failed (custody.go)
	Index    uint64   `cbor:"9,keyasint,omitempty"` // its position in the relay list (ListRelays)
}

func indexKey(i uint64) state.Key {
	var slot [32]byte
	copy(slot[24:], epochBytes(i))
	return key(RegistryAddress, nsIndex, slot)
}

func relayCount(st *state.StateDB) uint64 {
	if b := st.Get(indexKey(0)); len(b) == 8 {
		return binary.BigEndian.Uint64(b)
	}
	return 0
}

// RelayEntry is one registered relay and its record.
type RelayEntry struct {
	Address types.Address
	Relay   *Relay
}

// ListRelays returns every registered relay (exiting ones too: check
// Exiting), in the list's order, which clients read to place shards
// (issue 15: "chosen deterministically from the registry").
func ListRelays(st *state.StateDB) ([]RelayEntry, error) {
	n := relayCount(st)
	out := make([]RelayEntry, 0, n)
	for i := uint64(0); i < n; i++ {
		b := st.Get(indexKey(1 + i))
		if len(b) != 20 {
			return nil, fmt.Errorf("storage: relay list entry %d is missing", i)
		}
		a := types.Address(b)
		r, err := ReadRelay(st, a)
		if err != nil || r == nil {
			return nil, cmpErr(err, fmt.Errorf("storage: relay list entry %d (%s) has no record", i, a))
		}
		out = append(out, RelayEntry{Address: a, Relay: r})
	}
	return out, st.Err()
}

// listAdd appends a to the relay list and returns its position.
func listAdd(st *state.StateDB, a types.Address) uint64 {
	n := relayCount(st)
	st.Set(indexKey(1+n), a[:])
	st.Set(indexKey(0), epochBytes(n+1))
	return n
}

// listRemove takes the relay at position i out of the list, moving the
// last one into its place (and updating that relay's Index).
func listRemove(st *state.StateDB, i uint64) error {
	n := relayCount(st)
	if i >= n {
		return fmt.Errorf("storage: relay list position %d of %d", i, n)
	}
	if last := n - 1; i != last {
		b := st.Get(indexKey(1 + last))
		moved, err := ReadRelay(st, types.Address(b))
		if err != nil || moved == nil {
			return cmpErr(err, errors.New("storage: relay list is inconsistent"))
		}
		moved.Index = i
		st.Set(relayKey(types.Address(b)), mustMarshal(moved))
		st.Set(indexKey(1+i), b)
	}
	st.Set(indexKey(n), nil)
	st.Set(indexKey(0), epochBytes(n-1))
	return nil
}

func volKey(id cbfs.VolumeID) state.Key { return key(ManagerAddress, nsVolume, id) }

func relayKey(a types.Address) state.Key {
	var slot [32]byte
	copy(slot[12:], a[:])
	return key(RegistryAddress, nsRelay, slot)
}

func fileKey(v cbfs.VolumeID, pid [32]byte) state.Key {
	return key(ManagerAddress, nsFile, crypto.Keccak256(v[:], pid[:]))
}

func epochBytes(e uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], e)
	return b[:]
}

func billedKey(v cbfs.VolumeID, epoch uint64) state.Key {
	return key(ManagerAddress, nsBilled, crypto.Keccak256(v[:], epochBytes(epoch)))
}

func attestKey(r types.Address, v cbfs.VolumeID, epoch uint64) state.Key {
	return key(ManagerAddress, nsAttest, crypto.Keccak256(r[:], v[:], epochBytes(epoch)))
}

func mustMarshal(v any) []byte {
	b, err := types.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("storage: encode: %v", err)) // fixed record types cannot fail
	}
	return b
}

// ReadVolume returns a volume's record, or nil if there is none.
func ReadVolume(st *state.StateDB, id cbfs.VolumeID) (*Volume, error) {
	b := st.Get(volKey(id))
	if len(b) == 0 {
		return nil, nil
	}
	var v Volume
	if err := types.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("storage: volume record: %w", err)
	}
	return &v, nil
}

// ReadRelay returns a relay's record, or nil.
func ReadRelay(st *state.StateDB, a types.Address) (*Relay, error) {
	b := st.Get(relayKey(a))
	if len(b) == 0 {
		return nil, nil
	}
	var r Relay
	if err := types.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("storage: relay record: %w", err)
	}
	return &r, nil
}

func revokeKey(v cbfs.VolumeID, link [32]byte) state.Key {
	return key(ManagerAddress, nsRevoke, crypto.Keccak256(v[:], link[:]))
}

// IsRevoked reports whether the owner revoked token link on chain.
func IsRevoked(st *state.StateDB, v cbfs.VolumeID, link [32]byte) bool {
	return len(st.Get(revokeKey(v, link))) != 0
}

// RevokeEvent is the data of a "revoke" event, which relays follow
// (cbfs/relay.FollowRevocations).
type RevokeEvent struct {
	Volume []byte `cbor:"volume"`
	Link   []byte `cbor:"link"`
	Expiry uint64 `cbor:"expiry"`
}

// EvictEvent is the data of an "evict" event: relays drop the volume.
type EvictEvent struct {
	Volume []byte `cbor:"volume"`
}

// ReadCommitment returns the 64-byte commitment of a file, or nil.
func ReadCommitment(st *state.StateDB, v cbfs.VolumeID, pathID [32]byte) []byte {
	b := st.Get(fileKey(v, pathID))
	if len(b) == 0 {
		return nil
	}
	return b
}

// ErrOutOfCycles is returned when the call costs more than is left.
var ErrOutOfCycles = errors.New("out of cycles")

// Apply runs one call. On error the state is as before (the caller still
// charges the fee); the cycles are charged either way.
func Apply(st *state.StateDB, c Call) (Result, error) {
	if c.Value == nil {
		c.Value = new(big.Int)
	}
	if CallCycles > c.Cycles {
		return Result{CyclesUsed: c.Cycles}, fmt.Errorf("%w: a storage call costs %d cycles, the transaction has %d left", ErrOutOfCycles, CallCycles, c.Cycles)
	}
	res := Result{CyclesUsed: CallCycles}
	who := "storage manager"
	if c.To == RegistryAddress {
		who = "relay registry"
	}
	method, args, err := decodeCall(c.Payload)
	if err != nil {
		return res, fmt.Errorf("%s: %w", who, err)
	}
	// x is 0 for most methods; CallCycles alone was checked above.
	x := extraCycles(c.To, method, args)
	if CallCycles+x > c.Cycles {
		return Result{CyclesUsed: c.Cycles}, fmt.Errorf("%w: %s %s costs %d cycles, the transaction has %d left", ErrOutOfCycles, who, method, CallCycles+x, c.Cycles)
	}
	res.CyclesUsed += x
	snap := st.Snapshot()
	var data map[string]any
	switch {
	case c.To == ManagerAddress:
		switch method {
		case "create_volume":
			data, err = createVolume(st, c, args)
		case "commit":
			data, err = commit(st, c, args)
		case "remove":
			data, err = remove(st, c, args)
		case "top_up":
			data, err = topUp(st, c, args)
		case "close_volume":
			data, err = closeVolume(st, c, args)
		case "attest":
			data, err = attest(st, c, args)
		case "revoke":
			data, err = revoke(st, c, args)
		case "evict":
			data, err = evict(st, c, args)
		default:
			err = fmt.Errorf("unknown method %q: the storage manager has create_volume, commit, remove, top_up, close_volume, attest, revoke and evict", method)
		}
	case c.To == RegistryAddress:
		switch method {
		case "register_relay":
			data, err = registerRelay(st, c, args)
		case "update_relay":
			data, err = updateRelay(st, c, args)
		case "exit_relay":
			data, err = exitRelay(st, c, args)
		case "withdraw_relay":
			data, err = withdrawRelay(st, c, args)
		case "challenge":
			data, err = challenge(st, c, args)
		case "respond":
			data, err = respond(st, c, args)
		case "slash":
			data, err = slash(st, c, args)
		default:
			err = fmt.Errorf("unknown method %q: the relay registry has register_relay, update_relay, exit_relay, withdraw_relay, challenge, respond and slash", method)
		}
	default:
		err = fmt.Errorf("%s is not a storage system actor", c.To)
	}
	if err == nil {
		err = st.Err()
	}
	if err != nil {
		st.RevertToSnapshot(snap)
		return res, fmt.Errorf("%s %s: %w", who, method, err)
	}
	res.Events = []types.Event{{Address: c.To, Name: method, Data: mustMarshal(data)}}
	return res, nil
}

// Payload builds a call payload [method, args…] (for clients and tests).
func Payload(method string, args ...any) []byte {
	return mustMarshal(append([]any{method}, args...))
}

func decodeCall(payload []byte) (string, []cbor.RawMessage, error) {
	var items []cbor.RawMessage
	if err := types.Unmarshal(payload, &items); err != nil {
		return "", nil, fmt.Errorf("payload must be the canonical CBOR array [method, args…]: %w", err)
	}
	if len(items) == 0 {
		return "", nil, errors.New("payload is an empty array: want [method, args…]")
	}
	var method string
	if err := types.Unmarshal(items[0], &method); err != nil {
		return "", nil, fmt.Errorf("payload method must be a text string: %w", err)
	}
	return method, items[1:], nil
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

func arg[T any](raw cbor.RawMessage, what string) (T, error) {
	var v T
	if err := types.Unmarshal(raw, &v); err != nil {
		return v, fmt.Errorf("%s: %w", what, err)
	}
	return v, nil
}

func bytesN(raw cbor.RawMessage, n int, what string) ([]byte, error) {
	b, err := arg[[]byte](raw, what)
	if err != nil {
		return nil, err
	}
	if len(b) != n {
		return nil, fmt.Errorf("%s must be %d bytes, got %d", what, n, len(b))
	}
	return b, nil
}

func volumeArg(st *state.StateDB, raw cbor.RawMessage) (cbfs.VolumeID, *Volume, error) {
	b, err := bytesN(raw, 32, "volume id")
	if err != nil {
		return cbfs.VolumeID{}, nil, err
	}
	id := cbfs.VolumeID(b)
	v, err := ReadVolume(st, id)
	if err != nil {
		return id, nil, err
	}
	if v == nil {
		return id, nil, fmt.Errorf("no volume %s", id)
	}
	return id, v, nil
}

func createVolume(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := wantArgs(args, 3, `["create_volume", name, k, m]`); err != nil {
		return nil, err
	}
	name, err := arg[string](args[0], "name")
	if err != nil {
		return nil, err
	}
	if err := cbfs.ValidVolumeName(name); err != nil {
		return nil, err
	}
	k, err := arg[uint64](args[1], "k")
	if err != nil {
		return nil, err
	}
	m, err := arg[uint64](args[2], "m")
	if err != nil {
		return nil, err
	}
	if k < 1 || k+m > cbfs.MaxShards {
		return nil, fmt.Errorf("k=%d m=%d: need k ≥ 1 and k+m ≤ %d", k, m, cbfs.MaxShards)
	}
	id := cbfs.DeriveVolumeID(c.From, name)
	if old, err := ReadVolume(st, id); err != nil || old != nil {
		return nil, cmpErr(err, fmt.Errorf("volume %q of %s exists", name, c.From))
	}
	if err := st.SubBalance(c.From, c.Value); err != nil {
		return nil, err
	}
	st.AddBalance(ManagerAddress, c.Value)
	v := &Volume{Owner: c.From, Name: name, K: uint8(k), M: uint8(m), Deposit: new(big.Int).Set(c.Value), Created: c.Height}
	st.Set(volKey(id), mustMarshal(v))
	return map[string]any{"volume": id[:], "owner": c.From[:], "name": name, "deposit": c.Value}, nil
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func commit(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := noValue(c); err != nil {
		return nil, err
	}
	if err := wantArgs(args, 3, `["commit", volume_id, path_id, commitment]`); err != nil {
		return nil, err
	}
	id, v, err := volumeArg(st, args[0])
	if err != nil {
		return nil, err
	}
	if v.Owner != c.From {
		return nil, fmt.Errorf("only the owner %s commits to volume %s", v.Owner, id)
	}
	if v.Evicted {
		return nil, fmt.Errorf("volume %s was evicted for unpaid rent", id)
	}
	pid, err := bytesN(args[1], 32, "path id")
	if err != nil {
		return nil, err
	}
	cb, err := bytesN(args[2], cbfs.CommitmentSize, "commitment")
	if err != nil {
		return nil, err
	}
	com, err := cbfs.ParseCommitment(cb)
	if err != nil {
		return nil, err
	}
	if com.K != v.K || com.M != v.M || com.Version != cbfs.ManifestVersion {
		return nil, fmt.Errorf("commitment shape k=%d m=%d v%d does not match the volume's k=%d m=%d", com.K, com.M, com.Version, v.K, v.M)
	}
	fk := fileKey(id, [32]byte(pid))
	if old := st.Get(fk); len(old) != 0 {
		prev, _ := cbfs.ParseCommitment(old)
		v.UsedBytes -= min(v.UsedBytes, prev.Size)
	} else {
		v.Files++
	}
	v.UsedBytes += com.Size
	st.Set(fk, cb)
	st.Set(volKey(id), mustMarshal(v))
	return map[string]any{"volume": id[:], "path_id": pid, "root": com.Root[:], "size": com.Size}, nil
}

func remove(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := noValue(c); err != nil {
		return nil, err
	}
	if err := wantArgs(args, 2, `["remove", volume_id, path_id]`); err != nil {
		return nil, err
	}
	id, v, err := volumeArg(st, args[0])
	if err != nil {
		return nil, err
	}
	if v.Owner != c.From {
		return nil, fmt.Errorf("only the owner %s removes files of volume %s", v.Owner, id)
	}
	pid, err := bytesN(args[1], 32, "path id")
	if err != nil {
		return nil, err
	}
	fk := fileKey(id, [32]byte(pid))
	old := st.Get(fk)
	if len(old) == 0 {
		return nil, errors.New("no such file commitment")
	}
	prev, _ := cbfs.ParseCommitment(old)
	v.UsedBytes -= min(v.UsedBytes, prev.Size)
	v.Files--
	st.Set(fk, nil)
	st.Set(volKey(id), mustMarshal(v))
	return map[string]any{"volume": id[:], "path_id": pid}, nil
}

func topUp(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := wantArgs(args, 1, `["top_up", volume_id]`); err != nil {
		return nil, err
	}
	id, v, err := volumeArg(st, args[0])
	if err != nil {
		return nil, err
	}
	if c.Value.Sign() <= 0 {
		return nil, errors.New("top_up needs a value")
	}
	if err := st.SubBalance(c.From, c.Value); err != nil {
		return nil, err
	}
	st.AddBalance(ManagerAddress, c.Value)
	if v.Evicted {
		return nil, fmt.Errorf("volume %s was evicted: its data is gone", id)
	}
	v.Deposit.Add(v.Deposit, c.Value)
	v.Arrears, v.ArrearsAt = false, 0
	st.Set(volKey(id), mustMarshal(v))
	return map[string]any{"volume": id[:], "deposit": v.Deposit}, nil
}

func closeVolume(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := noValue(c); err != nil {
		return nil, err
	}
	if err := wantArgs(args, 1, `["close_volume", volume_id]`); err != nil {
		return nil, err
	}
	id, v, err := volumeArg(st, args[0])
	if err != nil {
		return nil, err
	}
	if v.Owner != c.From {
		return nil, fmt.Errorf("only the owner %s closes volume %s", v.Owner, id)
	}
	if v.Files != 0 {
		return nil, fmt.Errorf("volume %s still has %d file(s): remove them first", id, v.Files)
	}
	if err := st.SubBalance(ManagerAddress, v.Deposit); err != nil {
		return nil, err
	}
	st.AddBalance(c.From, v.Deposit)
	st.Set(volKey(id), nil)
	return map[string]any{"volume": id[:], "refund": v.Deposit}, nil
}

// attest settles rent for a finished billing epoch from one relay's
// attestation (§17.6: used_bytes × erasure_overhead × rate per epoch,
// settled via relay billing attestations). A relay is paid for at most the
// bytes it attests; all relays together for at most the volume's used
// bytes × (K+M)/K in that epoch, so relays cannot bill more than the
// committed files imply; each (relay, volume, epoch) is paid once; a short
// deposit pays what it has and marks the volume in arrears.
func attest(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := noValue(c); err != nil {
		return nil, err
	}
	if err := wantArgs(args, 2, `["attest", epoch, [[volume_id, bytes], …]]`); err != nil {
		return nil, err
	}
	r, err := ReadRelay(st, c.From)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, fmt.Errorf("%s is not a registered relay", c.From)
	}
	epoch, err := arg[uint64](args[0], "epoch")
	if err != nil {
		return nil, err
	}
	if epoch >= c.Height/BillingEpochBlocks {
		return nil, fmt.Errorf("epoch %d has not ended (height %d is in epoch %d)", epoch, c.Height, c.Height/BillingEpochBlocks)
	}
	type entry struct {
		_     struct{} `cbor:",toarray"`
		Vol   []byte
		Bytes uint64
	}
	ents, err := arg[[]entry](args[1], "entries")
	if err != nil {
		return nil, err
	}
	if len(ents) == 0 || len(ents) > MaxAttestEntries {
		return nil, fmt.Errorf("an attestation has 1..%d entries, got %d", MaxAttestEntries, len(ents))
	}
	total := new(big.Int)
	for i, e := range ents {
		if len(e.Vol) != 32 {
			return nil, fmt.Errorf("entry %d: volume id must be 32 bytes", i)
		}
		id := cbfs.VolumeID(e.Vol)
		v, err := ReadVolume(st, id)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue // closed since: nothing to bill
		}
		ak := attestKey(c.From, id, epoch)
		if len(st.Get(ak)) != 0 {
			return nil, fmt.Errorf("entry %d: already attested volume %s for epoch %d", i, id, epoch)
		}
		st.Set(ak, []byte{1})
		bk := billedKey(id, epoch)
		var billed uint64
		if b := st.Get(bk); len(b) == 8 {
			billed = binary.BigEndian.Uint64(b)
		}
		// used × (K+M)/K, rounded up: the stored bytes the commitments imply.
		cap := (v.UsedBytes*uint64(v.K+v.M) + uint64(v.K) - 1) / uint64(v.K)
		pay := min(e.Bytes, cap-min(cap, billed))
		amount := new(big.Int).Mul(new(big.Int).SetUint64(pay), big.NewInt(RentPerByteEpoch))
		if amount.Cmp(v.Deposit) > 0 {
			amount.Set(v.Deposit)
			if !v.Arrears {
				v.Arrears, v.ArrearsAt = true, c.Height
			}
		}
		v.Deposit.Sub(v.Deposit, amount)
		st.Set(bk, epochBytes(billed+pay))
		st.Set(volKey(id), mustMarshal(v))
		total.Add(total, amount)
	}
	if err := st.SubBalance(ManagerAddress, total); err != nil {
		return nil, err
	}
	st.AddBalance(c.From, total)
	r.Earned.Add(r.Earned, total)
	st.Set(relayKey(c.From), mustMarshal(r))
	return map[string]any{"relay": c.From[:], "epoch": epoch, "paid": total}, nil
}

func relayArgs(args []cbor.RawMessage, form string) (string, uint64, error) {
	if err := wantArgs(args, 2, form); err != nil {
		return "", 0, err
	}
	addr, err := arg[string](args[0], "addr")
	if err != nil {
		return "", 0, err
	}
	if len(addr) == 0 || len(addr) > 255 {
		return "", 0, errors.New("addr must be 1..255 bytes (ip:port)")
	}
	capacity, err := arg[uint64](args[1], "capacity")
	if err != nil {
		return "", 0, err
	}
	if capacity == 0 {
		return "", 0, errors.New("capacity must be positive")
	}
	return addr, capacity, nil
}

func registerRelay(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	addr, capacity, err := relayArgs(args, `["register_relay", addr, capacity]`)
	if err != nil {
		return nil, err
	}
	if old, err := ReadRelay(st, c.From); err != nil || old != nil {
		return nil, cmpErr(err, fmt.Errorf("%s is already a relay", c.From))
	}
	if c.Value.Cmp(MinRelayStake) < 0 {
		return nil, fmt.Errorf("stake %s base units is below the minimum %s", c.Value, MinRelayStake)
	}
	if err := st.SubBalance(c.From, c.Value); err != nil {
		return nil, err
	}
	st.AddBalance(RegistryAddress, c.Value)
	r := &Relay{Stake: new(big.Int).Set(c.Value), Addr: addr, Capacity: capacity, Earned: new(big.Int), Joined: c.Height}
	r.Index = listAdd(st, c.From)
	st.Set(relayKey(c.From), mustMarshal(r))
	return map[string]any{"relay": c.From[:], "addr": addr, "capacity": capacity, "stake": c.Value}, nil
}

func updateRelay(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := noValue(c); err != nil {
		return nil, err
	}
	addr, capacity, err := relayArgs(args, `["update_relay", addr, capacity]`)
	if err != nil {
		return nil, err
	}
	r, err := ReadRelay(st, c.From)
	if err != nil || r == nil {
		return nil, cmpErr(err, fmt.Errorf("%s is not a relay", c.From))
	}
	if r.Exiting {
		return nil, errors.New("an exiting relay cannot be updated")
	}
	r.Addr, r.Capacity = addr, capacity
	st.Set(relayKey(c.From), mustMarshal(r))
	return map[string]any{"relay": c.From[:], "addr": addr, "capacity": capacity}, nil
}

func exitRelay(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := noValue(c); err != nil {
		return nil, err
	}
	if err := wantArgs(args, 0, `["exit_relay"]`); err != nil {
		return nil, err
	}
	r, err := ReadRelay(st, c.From)
	if err != nil || r == nil {
		return nil, cmpErr(err, fmt.Errorf("%s is not a relay", c.From))
	}
	if r.Exiting {
		return nil, errors.New("already exiting")
	}
	r.Exiting, r.ExitAt = true, c.Height
	st.Set(relayKey(c.From), mustMarshal(r))
	return map[string]any{"relay": c.From[:], "withdraw_at": c.Height + UnbondBlocks}, nil
}

func withdrawRelay(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := noValue(c); err != nil {
		return nil, err
	}
	if err := wantArgs(args, 0, `["withdraw_relay"]`); err != nil {
		return nil, err
	}
	r, err := ReadRelay(st, c.From)
	if err != nil || r == nil {
		return nil, cmpErr(err, fmt.Errorf("%s is not a relay", c.From))
	}
	if !r.Exiting || c.Height < r.ExitAt+UnbondBlocks {
		return nil, fmt.Errorf("stake unbonds at height %d (exit first)", r.ExitAt+UnbondBlocks)
	}
	if err := st.SubBalance(RegistryAddress, r.Stake); err != nil {
		return nil, err
	}
	st.AddBalance(c.From, r.Stake)
	if err := listRemove(st, r.Index); err != nil {
		return nil, err
	}
	st.Set(relayKey(c.From), nil)
	return map[string]any{"relay": c.From[:], "stake": r.Stake}, nil
}

// revoke records the owner's revocation of a token link (issue 15:
// "revocable on chain (relays learn revocations from the chain)"). The
// event it emits is what relays follow; the record lets anyone check a
// link and makes a second revocation of it an error. expiry is the
// revoked link's expiry, after which relays may forget it.
func revoke(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := noValue(c); err != nil {
		return nil, err
	}
	if err := wantArgs(args, 3, `["revoke", volume_id, link_id, expiry]`); err != nil {
		return nil, err
	}
	id, v, err := volumeArg(st, args[0])
	if err != nil {
		return nil, err
	}
	if v.Owner != c.From {
		return nil, fmt.Errorf("only the owner %s revokes tokens of volume %s", v.Owner, id)
	}
	lb, err := bytesN(args[1], 32, "link id")
	if err != nil {
		return nil, err
	}
	expiry, err := arg[uint64](args[2], "expiry")
	if err != nil {
		return nil, err
	}
	rk := revokeKey(id, [32]byte(lb))
	if len(st.Get(rk)) != 0 {
		return nil, fmt.Errorf("link 0x%x is already revoked", lb)
	}
	st.Set(rk, epochBytes(expiry))
	return map[string]any{"volume": id[:], "link": lb, "expiry": expiry}, nil
}

// evict ends a volume whose rent went unpaid for EvictGraceBlocks (§17.6
// lifecycle: storage is paid for per epoch; unpaid storage is not kept).
// Anyone may call it; the emitted "evict" event tells relays following the
// chain to drop the volume's data. The record stays, marked evicted, so
// its commitments can still be removed and the volume closed.
func evict(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if err := noValue(c); err != nil {
		return nil, err
	}
	if err := wantArgs(args, 1, `["evict", volume_id]`); err != nil {
		return nil, err
	}
	id, v, err := volumeArg(st, args[0])
	if err != nil {
		return nil, err
	}
	if v.Evicted {
		return nil, fmt.Errorf("volume %s is already evicted", id)
	}
	if !v.Arrears {
		return nil, fmt.Errorf("volume %s is not in arrears", id)
	}
	if c.Height < v.ArrearsAt+EvictGraceBlocks {
		return nil, fmt.Errorf("volume %s is in arrears since height %d; it may be evicted from height %d", id, v.ArrearsAt, v.ArrearsAt+EvictGraceBlocks)
	}
	v.Evicted = true
	st.Set(volKey(id), mustMarshal(v))
	return map[string]any{"volume": id[:]}, nil
}
