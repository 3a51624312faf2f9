package pvm

import (
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// InlineBlobCap is the largest blob an actor may keep on chain: technical
// spec §7.1 "Inline blob cap is 64 KiB per output". Anything larger must
// live off chain (a CBFS volume) and be referenced by its multihash (§7.2).
const InlineBlobCap = 64 << 10

// Multihash codes (the multicodec table) that get_blob accepts. put_blob
// and blob_hash produce BLAKE3-256; a SHA2-256 multihash names an external
// blob computed elsewhere (IPFS CIDv0), which is never inline.
const (
	multihashSHA256 = 0x12
	multihashBLAKE3 = 0x1e
)

// BlobHash is the multihash put_blob stores data under: 0x1e (BLAKE3),
// length 32, then the 32-byte digest (§7.2: "the on-chain commitment MUST
// be a multihash").
func BlobHash(data []byte) []byte {
	d := crypto.Blake3(data)
	return append([]byte{multihashBLAKE3, 32}, d[:]...)
}

// validMultihash reports whether b is a 34-byte BLAKE3-256 or SHA2-256
// multihash, the two forms an actor may look up.
func validMultihash(b []byte) bool {
	return len(b) == 34 && (b[0] == multihashBLAKE3 || b[0] == multihashSHA256) && b[1] == 32
}

// blobCalls adds put_blob, get_blob, delete_blob and blob_hash to
// pvm_host. Inline blobs are entries of the actor's own storage in
// namespace NSBlob keyed by their multihash, so they count against the
// §3.2 storage quota and revert with the handler like any write.
func blobCalls(def func(string, hostFn)) {
	hashArg := func(c object.Ctx, fn string, args []object.Value, kw []object.Kw) ([]byte, error) {
		a, err := object.UnpackArgs(fn, args, kw, "data")
		if err != nil {
			return nil, err
		}
		data, err := bytesArg(fn, "data", a[0])
		if err != nil {
			return nil, err
		}
		// §17.3 hash: 100 cycles plus 1 per byte.
		if err := c.Meter().Charge(meter.HostHash + meter.HostHashPerByte*uint64(len(data))); err != nil {
			return nil, err
		}
		return data, nil
	}
	mhArg := func(fn string, args []object.Value, kw []object.Kw) ([]byte, error) {
		a, err := object.UnpackArgs(fn, args, kw, "multihash")
		if err != nil {
			return nil, err
		}
		mh, err := bytesArg(fn, "multihash", a[0])
		if err != nil {
			return nil, err
		}
		if !validMultihash(mh) {
			return nil, object.Errorf(object.ValueError, "%s() multihash must be 34 bytes: 0x1e (BLAKE3) or 0x12 (SHA2-256), 0x20, digest", fn)
		}
		return mh, nil
	}
	def("blob_hash", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		data, err := hashArg(c, "blob_hash", args, kw)
		if err != nil {
			return nil, err
		}
		return object.Bytes(BlobHash(data)), nil
	})
	def("put_blob", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		a, err := object.UnpackArgs("put_blob", args, kw, "data")
		if err != nil {
			return nil, err
		}
		data, err := bytesArg("put_blob", "data", a[0])
		if err != nil {
			return nil, err
		}
		if len(data) > InlineBlobCap {
			return nil, object.Errorf(object.ValueError, "put_blob() takes at most %d bytes inline (technical spec §7.1), got %d: store larger data in a CBFS volume and keep its multihash (blob_hash) or commitment", InlineBlobCap, len(data))
		}
		if _, err := hashArg(c, "put_blob", args, kw); err != nil {
			return nil, err
		}
		// Blob commit: 40 cycles per KiB or part of one (CIP-3 §2.2.1, as
		// the spec README's cost decision takes it for what §17.3 omits).
		if err := c.Meter().Charge(meter.CostBlobPerKiB * meter.CeilDiv(uint64(len(data)), 1024)); err != nil {
			return nil, err
		}
		mh := BlobHash(data)
		if err := hostWrite(c, h, NSBlob, mh, data); err != nil {
			return nil, err
		}
		return object.Bytes(mh), nil
	})
	def("get_blob", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		mh, err := mhArg("get_blob", args, kw)
		if err != nil {
			return nil, err
		}
		v, ok, err := hostRead(c, h, NSBlob, mh)
		if err != nil || !ok {
			return object.None, err
		}
		return object.Bytes(v), nil
	})
	def("delete_blob", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		mh, err := mhArg("delete_blob", args, kw)
		if err != nil {
			return nil, err
		}
		return object.None, hostDelete(c, h, NSBlob, mh)
	})
}
