package staking

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sync"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/statekey"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// Record namespaces under (statekey.KindSystem, Address); docs/state-layout.md.
const (
	nsSingleton byte = 0 // params, genesis supply, registry index, downtime counts
	nsValidator byte = 1 // one record per registered validator
	nsEpoch     byte = 2 // one validator set per epoch
	nsPunished  byte = 3 // one marker per punished (validator, height, round)
	nsBLSKey    byte = 4 // BLS key -> validator address
)

func key(ns byte, slot [32]byte) state.Key {
	return statekey.Make(statekey.KindSystem, Address, ns, slot)
}

func named(name string) state.Key { return key(nsSingleton, crypto.Keccak256([]byte(name))) }

var (
	paramsKey        = named("params")
	genesisSupplyKey = named("genesis_supply")
	registryKey      = named("registry")
	missesKey        = named("downtime")
)

func validatorKey(a types.Address) state.Key {
	var slot [32]byte
	copy(slot[12:], a[:])
	return key(nsValidator, slot)
}

func epochKey(epoch uint64) state.Key {
	var slot [32]byte
	binary.BigEndian.PutUint64(slot[24:], epoch)
	return key(nsEpoch, slot)
}

func punishedKey(a types.Address, height, round uint64) state.Key {
	var hr [16]byte
	binary.BigEndian.PutUint64(hr[:8], height)
	binary.BigEndian.PutUint64(hr[8:], round)
	return key(nsPunished, crypto.Keccak256(a[:], hr[:]))
}

func blsKeyKey(pk []byte) state.Key { return key(nsBLSKey, crypto.Keccak256(pk)) }

// ErrNotInitialized means the state has no registry: a chain whose genesis
// was written before the registry existed.
var ErrNotInitialized = errors.New("staking: the validator registry is not initialized in this state (genesis without staking records)")

// Params are the registry's consensus parameters, fixed at genesis.
type Params struct {
	_ struct{} `cbor:",toarray"`
	// EpochLength is E: epoch(h) = h / E, and the validator set changes
	// after block (k+1)·E − 1.
	EpochLength uint64
	// UnbondingPeriod is how many blocks after leaving the set an exiting
	// validator's stake stays bonded (and slashable).
	UnbondingPeriod uint64
	// JailPeriod is how many blocks a jailed validator waits before it
	// may unjail.
	JailPeriod uint64
	// DowntimeWindow is W: every W blocks, members that missed more than
	// half of the window's votes are jailed.
	DowntimeWindow uint64
	// MinStake is minimum_validator_stake in base units.
	MinStake *big.Int
	// SlashBps is double_sign_slash in basis points of the stake.
	SlashBps uint64
}

// Validate refuses parameters the rules cannot run with.
func (p Params) Validate() error {
	switch {
	case p.EpochLength == 0:
		return errors.New("staking: epoch_length must be at least 1 block")
	case p.DowntimeWindow == 0:
		return errors.New("staking: downtime_window must be at least 1 block")
	case p.MinStake == nil || p.MinStake.Sign() <= 0:
		return errors.New("staking: min_validator_stake must be positive")
	case p.SlashBps > 10_000:
		return fmt.Errorf("staking: double_sign_slash %d bps exceeds 100%%", p.SlashBps)
	}
	return nil
}

// ReadParams reads the parameters written at genesis.
func ReadParams(st *state.StateDB) (Params, error) {
	var p Params
	raw := st.Get(paramsKey)
	if err := st.Err(); err != nil {
		return p, fmt.Errorf("read staking params: %w", err)
	}
	if raw == nil {
		return p, ErrNotInitialized
	}
	if err := types.Unmarshal(raw, &p); err != nil {
		return p, fmt.Errorf("decode staking params: %w", err)
	}
	return p, nil
}

// ReadGenesisSupply is the total supply right after genesis, the base of
// §8.2's inflation.
func ReadGenesisSupply(st *state.StateDB) (*big.Int, error) {
	raw := st.Get(genesisSupplyKey)
	if err := st.Err(); err != nil {
		return nil, fmt.Errorf("read genesis supply: %w", err)
	}
	if raw == nil {
		return nil, ErrNotInitialized
	}
	return new(big.Int).SetBytes(raw), nil
}

// Validator is a registry record: one per registered validator, from
// register until withdraw.
type Validator struct {
	_ struct{} `cbor:",toarray"`
	// Address is the validator's account: its node key address, which
	// signs registry calls and receives rewards, tips and the stake back.
	Address types.Address
	// BLSPublicKey is the 48-byte compressed key that signs its votes.
	BLSPublicKey []byte
	// Stake is the bonded stake in base units (after slashing).
	Stake *big.Int
	// Active is set while the validator is in the latest epoch set that
	// the registry computed.
	Active bool
	// Exiting is set by exit; the validator leaves the set at the next
	// boundary and its unbonding starts there.
	Exiting bool
	// Jailed is set by downtime or double-sign evidence and cleared by
	// unjail once JailUntil has passed.
	Jailed    bool
	JailUntil uint64
	// UnbondUntil is the height from which withdraw is allowed; 0 until
	// the exit takes effect at a boundary.
	UnbondUntil uint64
	// Registered is the height of the register transaction (0: genesis).
	Registered uint64
}

// Status is the record's state for people: "exiting" (exit requested or
// unbonding), "jailed", "active" (in the latest computed set) or
// "pending" (eligible from the next boundary).
func (v *Validator) Status() string {
	switch {
	case v.Exiting:
		return "exiting"
	case v.Jailed:
		return "jailed"
	case v.Active:
		return "active"
	}
	return "pending"
}

// ReadValidator returns a's record, or nil if a is not registered.
func ReadValidator(st *state.StateDB, a types.Address) (*Validator, error) {
	raw := st.Get(validatorKey(a))
	if err := st.Err(); err != nil {
		return nil, fmt.Errorf("read validator %s: %w", a, err)
	}
	if raw == nil {
		return nil, nil
	}
	v := new(Validator)
	if err := types.Unmarshal(raw, v); err != nil {
		return nil, fmt.Errorf("decode validator %s: %w", a, err)
	}
	return v, nil
}

func writeValidator(st *state.StateDB, v *Validator) error {
	b, err := types.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode validator %s: %w", v.Address, err)
	}
	st.Set(validatorKey(v.Address), b)
	return nil
}

// registry is the sorted list of registered addresses, so that epoch
// transitions visit validators in one order on every node.
func readRegistry(st *state.StateDB) ([]types.Address, error) {
	raw := st.Get(registryKey)
	if err := st.Err(); err != nil {
		return nil, fmt.Errorf("read registry index: %w", err)
	}
	if raw == nil {
		return nil, nil
	}
	var list []types.Address
	if err := types.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("decode registry index: %w", err)
	}
	return list, nil
}

func writeRegistry(st *state.StateDB, list []types.Address) error {
	if len(list) == 0 {
		st.Set(registryKey, nil)
		return nil
	}
	b, err := types.Marshal(list)
	if err != nil {
		return fmt.Errorf("encode registry index: %w", err)
	}
	st.Set(registryKey, b)
	return nil
}

func addToRegistry(st *state.StateDB, a types.Address) error {
	list, err := readRegistry(st)
	if err != nil {
		return err
	}
	i, found := slices.BinarySearchFunc(list, a, cmpAddr)
	if found {
		return fmt.Errorf("registry index already holds %s", a)
	}
	return writeRegistry(st, slices.Insert(list, i, a))
}

func removeFromRegistry(st *state.StateDB, a types.Address) error {
	list, err := readRegistry(st)
	if err != nil {
		return err
	}
	i, found := slices.BinarySearchFunc(list, a, cmpAddr)
	if !found {
		return fmt.Errorf("registry index does not hold %s", a)
	}
	return writeRegistry(st, slices.Delete(list, i, i+1))
}

func cmpAddr(a, b types.Address) int { return bytes.Compare(a[:], b[:]) }

// Validators returns every registry record, ordered by address.
func Validators(st *state.StateDB) ([]*Validator, error) {
	list, err := readRegistry(st)
	if err != nil {
		return nil, err
	}
	out := make([]*Validator, 0, len(list))
	for _, a := range list {
		v, err := ReadValidator(st, a)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, fmt.Errorf("registry index lists %s but it has no record", a)
		}
		out = append(out, v)
	}
	return out, nil
}

// Member is one validator of an epoch's consensus set.
type Member struct {
	Address      types.Address
	BLSPublicKey []byte   // 48 bytes
	Stake        *big.Int // base units, as at the boundary
	Weight       uint64   // consensus weight: whole CBY, Stake / 10^18
}

// EpochSet is the consensus validator set of one epoch and its seed.
type EpochSet struct {
	Epoch   uint64
	Seed    [32]byte
	Members []Member // validator index order
}

// storedSet is EpochSet's record: [epoch, seed, [[address, bls_key,
// stake]…]].
type storedSet struct {
	_       struct{} `cbor:",toarray"`
	Epoch   uint64
	Seed    [32]byte
	Members []storedMember
}

type storedMember struct {
	_            struct{} `cbor:",toarray"`
	Address      types.Address
	BLSPublicKey []byte
	Stake        *big.Int
}

// ReadEpochSet returns the validator set of epoch; it is an error if the
// set is not written (yet): set k+1 appears at the end of block
// (k+1)·E − 1.
func ReadEpochSet(st *state.StateDB, epoch uint64) (*EpochSet, error) {
	raw, err := epochRecord(st, epoch)
	if err != nil {
		return nil, err
	}
	return decodeSet(raw, epoch)
}

func epochRecord(st *state.StateDB, epoch uint64) ([]byte, error) {
	raw := st.Get(epochKey(epoch))
	if err := st.Err(); err != nil {
		return nil, fmt.Errorf("read epoch %d set: %w", epoch, err)
	}
	if raw == nil {
		return nil, fmt.Errorf("staking: no validator set for epoch %d (not reached yet, or no registry in this state)", epoch)
	}
	return raw, nil
}

// setCache holds the last epoch set EndBlock decoded, by its record's
// bytes: every block of an epoch reads the same record, and decoding it is
// most of EndBlock's time. The result is a function of the bytes alone,
// so the cache cannot change what any node computes.
var setCache struct {
	sync.Mutex
	raw []byte
	set *EpochSet
}

// sharedEpochSet is ReadEpochSet for EndBlock: the result may be shared
// with other calls and must not be modified.
func sharedEpochSet(st *state.StateDB, epoch uint64) (*EpochSet, error) {
	raw, err := epochRecord(st, epoch)
	if err != nil {
		return nil, err
	}
	setCache.Lock()
	defer setCache.Unlock()
	if setCache.set != nil && setCache.set.Epoch == epoch && bytes.Equal(setCache.raw, raw) {
		return setCache.set, nil
	}
	s, err := decodeSet(raw, epoch)
	if err != nil {
		return nil, err
	}
	setCache.raw, setCache.set = append(setCache.raw[:0], raw...), s
	return s, nil
}

func decodeSet(raw []byte, epoch uint64) (*EpochSet, error) {
	var s storedSet
	if err := types.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("decode epoch %d set: %w", epoch, err)
	}
	if s.Epoch != epoch {
		return nil, fmt.Errorf("epoch %d set record says epoch %d", epoch, s.Epoch)
	}
	out := &EpochSet{Epoch: s.Epoch, Seed: s.Seed, Members: make([]Member, len(s.Members))}
	for i, m := range s.Members {
		w := new(big.Int).Quo(m.Stake, BaseUnitsPerCBY)
		if !w.IsUint64() {
			return nil, fmt.Errorf("epoch %d member %s: weight %s exceeds 64 bits", epoch, m.Address, w)
		}
		out.Members[i] = Member{Address: m.Address, BLSPublicKey: m.BLSPublicKey, Stake: m.Stake, Weight: w.Uint64()}
	}
	return out, nil
}

func writeEpochSet(st *state.StateDB, s *EpochSet) error {
	rec := storedSet{Epoch: s.Epoch, Seed: s.Seed, Members: make([]storedMember, len(s.Members))}
	for i, m := range s.Members {
		rec.Members[i] = storedMember{Address: m.Address, BLSPublicKey: m.BLSPublicKey, Stake: m.Stake}
	}
	b, err := types.Marshal(&rec)
	if err != nil {
		return fmt.Errorf("encode epoch %d set: %w", s.Epoch, err)
	}
	st.Set(epochKey(s.Epoch), b)
	return nil
}

// Miss is a member's count of missed votes in the current downtime window.
type Miss struct {
	_       struct{} `cbor:",toarray"`
	Address types.Address
	Count   uint64
}

// ReadMisses returns the current window's miss counts, ordered by
// address; members with no miss are absent.
func ReadMisses(st *state.StateDB) ([]Miss, error) {
	raw := st.Get(missesKey)
	if err := st.Err(); err != nil {
		return nil, fmt.Errorf("read downtime counts: %w", err)
	}
	if raw == nil {
		return nil, nil
	}
	var m []Miss
	if err := types.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("decode downtime counts: %w", err)
	}
	return m, nil
}

func writeMisses(st *state.StateDB, m []Miss) error {
	if len(m) == 0 {
		st.Set(missesKey, nil)
		return nil
	}
	b, err := types.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode downtime counts: %w", err)
	}
	st.Set(missesKey, b)
	return nil
}
