package state

import (
	"encoding/binary"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/statekey"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// StorageQuota is the most bytes (keys plus values) an actor may keep in
// its storage: technical spec §3.2 "Per-actor persistent storage quota:
// 1 MiB (governance-tunable)".
const StorageQuota = 1 << 20

// DedupWindow is how many blocks a delivered message id stays in its
// actor's dedup set: technical spec §12.1 "dedup_window = 10,000 blocks".
const DedupWindow = 10_000

// CodeKey holds an actor's code record: kind 0x02, namespace 0.
func CodeKey(a types.Address) Key { return statekey.Make(statekey.KindActorCode, a, 0, [32]byte{}) }

// metaKey holds an actor's storage accounting: kind 0x02, namespace 1.
func metaKey(a types.Address) Key { return statekey.Make(statekey.KindActorCode, a, 1, [32]byte{}) }

// ActorStorageKey is where the actor's value for key lives in namespace ns:
// kind 0x03, slot keccak256(key). The record holds the key too (see
// EncodeSlot), so a proof shows which key it is for.
func ActorStorageKey(a types.Address, ns byte, key []byte) Key {
	return statekey.Make(statekey.KindActorStorage, a, ns, crypto.Keccak256(key))
}

// dedupKey records that message id was delivered to actor a: kind 0x06.
func dedupKey(a types.Address, id types.Hash) Key {
	return statekey.Make(statekey.KindMessage, a, 0, id)
}

// dedupExpiryKey lists the dedup entries recorded at a height, so they can
// be dropped DedupWindow blocks later: kind 0x06, address zero, namespace 1,
// slot = big-endian height.
func dedupExpiryKey(height uint64) Key {
	var slot [32]byte
	binary.BigEndian.PutUint64(slot[24:], height)
	return statekey.Make(statekey.KindMessage, types.Address{}, 1, slot)
}

// ActorCode is the stored form of a deployed actor: the canonical source
// (§1.2) and its hash. Encoded as the CBOR array [code_hash, source].
type ActorCode struct {
	_        struct{} `cbor:",toarray"`
	CodeHash types.Hash
	Source   []byte
}

// SetCode installs code at a (deployment): the code record, and the
// account's code hash.
func (s *StateDB) SetCode(a types.Address, c *ActorCode) error {
	b, err := types.Marshal(c)
	if err != nil {
		return fmt.Errorf("encode actor code: %w", err)
	}
	s.Set(CodeKey(a), b)
	acc := s.modify(a)
	h := c.CodeHash
	acc.CodeHash = &h
	return nil
}

// Code returns the actor's code record, or nil if a is not an actor.
func (s *StateDB) Code(a types.Address) (*ActorCode, error) {
	if acc := s.load(a); acc == nil || acc.CodeHash == nil {
		return nil, nil
	}
	return DecodeCode(s.Get(CodeKey(a)))
}

// DecodeCode parses a code record.
func DecodeCode(b []byte) (*ActorCode, error) {
	if b == nil {
		return nil, fmt.Errorf("actor code record missing")
	}
	c := new(ActorCode)
	if err := types.Unmarshal(b, c); err != nil {
		return nil, fmt.Errorf("decode actor code: %w", err)
	}
	return c, nil
}

// IsActor reports whether a has code.
func (s *StateDB) IsActor(a types.Address) bool {
	acc := s.load(a)
	return acc != nil && acc.CodeHash != nil
}

// StorageUsed is the bytes (keys plus values) the actor keeps in storage,
// counted against StorageQuota.
func (s *StateDB) StorageUsed(a types.Address) uint64 {
	b := s.Get(metaKey(a))
	if len(b) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

// ErrQuota is returned by SetStorage when the write would take the actor
// past StorageQuota; nothing changes.
type ErrQuota struct {
	Used, Want uint64
}

func (e *ErrQuota) Error() string {
	return fmt.Sprintf("storage quota exceeded: the actor would hold %d bytes, the quota is %d (technical spec §3.2)", e.Want, uint64(StorageQuota))
}

// GetStorage reads the actor's value for key in namespace ns; nil when
// absent.
func (s *StateDB) GetStorage(a types.Address, ns byte, key []byte) []byte {
	rec := s.Get(ActorStorageKey(a, ns, key))
	if rec == nil {
		return nil
	}
	_, v, err := DecodeSlot(rec)
	if err != nil {
		s.fail(fmt.Errorf("actor %s storage: %w", a, err))
		return nil
	}
	return v
}

// SetStorage writes (value non-nil) or deletes (value nil) the actor's
// key in namespace ns, keeping the quota count; over the quota it returns
// *ErrQuota and changes nothing.
func (s *StateDB) SetStorage(a types.Address, ns byte, key, value []byte) error {
	k := ActorStorageKey(a, ns, key)
	used := s.StorageUsed(a)
	if old := s.Get(k); old != nil {
		if _, v, err := DecodeSlot(old); err == nil {
			used -= uint64(len(key) + len(v))
		}
	}
	if value == nil {
		s.Set(k, nil)
	} else {
		used += uint64(len(key) + len(value))
		if used > StorageQuota {
			return &ErrQuota{Used: s.StorageUsed(a), Want: used}
		}
		s.Set(k, EncodeSlot(key, value))
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], used)
	if used == 0 {
		s.Set(metaKey(a), nil)
	} else {
		s.Set(metaKey(a), b[:])
	}
	return nil
}

// EncodeSlot is the stored form of one storage entry: the CBOR array
// [key, value], so a proof of the record shows the key it belongs to.
func EncodeSlot(key, value []byte) []byte {
	b := make([]byte, 0, len(key)+len(value)+12)
	b = types.AppendArrayHeader(b, 2)
	b = types.AppendBytes(b, key)
	return types.AppendBytes(b, value)
}

// DecodeSlot parses a storage entry.
func DecodeSlot(rec []byte) (key, value []byte, err error) {
	var pair struct {
		_     struct{} `cbor:",toarray"`
		Key   []byte
		Value []byte
	}
	if err := types.Unmarshal(rec, &pair); err != nil {
		return nil, nil, fmt.Errorf("decode storage entry: %w", err)
	}
	return pair.Key, pair.Value, nil
}

// Delivered reports whether message id is in actor a's dedup set (§3.3).
func (s *StateDB) Delivered(a types.Address, id types.Hash) bool {
	return s.Get(dedupKey(a, id)) != nil
}

// RecordDeliveries adds the message ids delivered in the block at height
// to their actors' dedup sets (§3.3); list is actor (20 bytes) || id (32
// bytes) repeated. PruneDedup drops them DedupWindow blocks later.
func (s *StateDB) RecordDeliveries(height uint64, list []byte) {
	if len(list) == 0 {
		return
	}
	var h [8]byte
	binary.BigEndian.PutUint64(h[:], height)
	for i := 0; i+52 <= len(list); i += 52 {
		s.Set(dedupKey(types.Address(list[i:i+20]), types.Hash(list[i+20:i+52])), h[:])
	}
	s.Set(dedupExpiryKey(height), append([]byte(nil), list...))
}

// PruneDedup drops the dedup entries recorded DedupWindow blocks before
// height (run at the start of each block).
func (s *StateDB) PruneDedup(height uint64) {
	if height <= DedupWindow {
		return
	}
	ek := dedupExpiryKey(height - DedupWindow)
	list := s.Get(ek)
	if list == nil {
		return
	}
	for i := 0; i+52 <= len(list); i += 52 {
		var a types.Address
		var id types.Hash
		copy(a[:], list[i:i+20])
		copy(id[:], list[i+20:i+52])
		s.Set(dedupKey(a, id), nil)
	}
	s.Set(ek, nil)
}
