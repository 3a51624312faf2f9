package modules

import (
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"encoding"
	"encoding/hex"
	"fmt"
	"hash"
	"strings"

	"golang.org/x/crypto/blake2b"
	xsha3 "golang.org/x/crypto/sha3"
	"lukechampine.com/blake3"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// The hashlib module: sha256, sha512, sha3_256 and blake2b as in CPython
// 3.11, plus the chain's hashes keccak256 (legacy Keccak-256, as
// crypto.Keccak256) and blake3 (32-byte BLAKE3, as crypto.Blake3), which
// CPython's hashlib does not have. Each constructor returns a hash object
// with update, digest, hexdigest, copy, name, digest_size and block_size;
// hashlib.new(name, data) picks one by name.
//
// Metering (technical spec §17.3 hash()): meter.CostHashBase per hash object
// created and meter.CostHashPerByte per byte fed to it, by the constructor or
// by update(). digest() and hexdigest() cost only the call.

func init() { register(vm.ModuleDef{Name: "hashlib", Load: loadHashlib}) }

// hashAlgo describes one algorithm of the module.
type hashAlgo struct {
	name       string
	size       int // digest_size in bytes
	block      int // block_size in bytes
	cls        *object.Class
	newHash    func() hash.Hash
	keyedBlake bool // blake2b: digest_size= and key= arguments
}

// hashObject is a hash object (the value sha256() returns).
type hashObject struct {
	algo *hashAlgo
	h    hash.Hash
	size int // digest size (blake2b may be shorter than algo.size)
	id   int64
	// key and fed are kept for keyed blake2b only, whose state the x/crypto
	// implementation cannot marshal: copy() replays the data into a new MAC.
	key, fed []byte
}

// Type implements object.Value.
func (o *hashObject) Type() *object.Class { return o.algo.cls }

// Repr implements object.Value, as CPython prints it (with the
// deterministic identity in place of an address).
func (o *hashObject) Repr(object.Ctx) (string, error) {
	addr := fmt.Sprintf("%#x", o.id)
	if o.algo.cls.Module == "_hashlib" {
		return "<" + o.algo.name + " _hashlib.HASH object @ " + addr + ">", nil
	}
	return "<" + o.algo.cls.Module + "." + o.algo.cls.Name + " object at " + addr + ">", nil
}

// Truth implements object.Value.
func (o *hashObject) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value: identity, as for any object.
func (o *hashObject) Hash(object.Ctx) (int64, error) { return o.id, nil }

// GetAttr implements object.AttrGetter for the data attributes.
func (o *hashObject) GetAttr(c object.Ctx, name string) (object.Value, bool, error) {
	switch name {
	case "name":
		return object.Str(o.algo.name), true, nil
	case "digest_size":
		return object.Int(o.size), true, nil
	case "block_size":
		return object.Int(o.algo.block), true, nil
	}
	return nil, false, nil
}

func (o *hashObject) write(c object.Ctx, b []byte) error {
	if err := object.Charge(c, uint64(len(b))*meter.CostHashPerByte); err != nil {
		return err
	}
	if o.key != nil {
		if err := object.Alloc(c, uint64(len(b))); err != nil {
			return err
		}
		o.fed = append(o.fed, b...)
	}
	o.h.Write(b)
	return nil
}

func (o *hashObject) clone(c object.Ctx) (*hashObject, error) {
	n := &hashObject{algo: o.algo, size: o.size, id: c.NextID(), key: o.key}
	switch h := o.h.(type) {
	case *blake3.Hasher:
		cp := *h
		n.h = &cp
		return n, nil
	}
	if o.key != nil {
		h, err := blake2b.New(o.size, o.key)
		if err != nil {
			return nil, object.Errorf(object.ValueError, "%s", err.Error())
		}
		h.Write(o.fed)
		n.h, n.fed = h, append([]byte(nil), o.fed...)
		return n, nil
	}
	state, err := o.h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return nil, object.Errorf(object.ValueError, "hash copy failed: %s", err.Error())
	}
	if o.algo.keyedBlake {
		h, _ := blake2b.New(o.size, nil)
		n.h = h
	} else {
		n.h = o.algo.newHash()
	}
	if err := n.h.(encoding.BinaryUnmarshaler).UnmarshalBinary(state); err != nil {
		return nil, object.Errorf(object.ValueError, "hash copy failed: %s", err.Error())
	}
	return n, nil
}

// hashData returns the bytes of a data argument with CPython's errors.
func hashData(v object.Value) ([]byte, error) {
	if b, ok := bytesOf(v); ok {
		return b, nil
	}
	if _, ok := v.(object.Str); ok {
		return nil, object.Errorf(object.TypeError, "Strings must be encoded before hashing")
	}
	return nil, object.Errorf(object.TypeError, "object supporting the buffer API required")
}

func loadHashlib(t *vm.Thread) (*vm.Module, error) {
	m := vm.NewModule("hashlib")
	hashCls := nativeClass("_hashlib", "HASH")
	algos := []*hashAlgo{
		{name: "sha256", size: 32, block: 64, cls: hashCls, newHash: sha256.New},
		{name: "sha512", size: 64, block: 128, cls: hashCls, newHash: sha512.New},
		{name: "sha3_256", size: 32, block: 136, cls: hashCls, newHash: func() hash.Hash { return sha3.New256() }},
		{name: "blake2b", size: 64, block: 128, cls: nativeClass("_blake2", "blake2b"), keyedBlake: true},
		{name: "keccak256", size: 32, block: 136, cls: nativeClass("_pvm_hashlib", "keccak256"), newHash: xsha3.NewLegacyKeccak256},
		{name: "blake3", size: 32, block: 64, cls: nativeClass("_pvm_hashlib", "blake3"), newHash: func() hash.Hash { return blake3.New(32, nil) }},
	}
	methodsDone := map[*object.Class]bool{}
	byName := map[string]*hashAlgo{}
	names := make([]object.Value, 0, len(algos))
	for _, a := range algos {
		a := a
		byName[a.name] = a
		names = append(names, object.Str(a.name))
		addFunc(m.Globals, a.name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			return newHashObject(c, a, "openssl_"+a.name, args, kw)
		})
		if !methodsDone[a.cls] {
			addHashMethods(a.cls)
			methodsDone[a.cls] = true
		}
	}
	addFunc(m.Globals, "new", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		var name object.Value
		if len(args) > 0 {
			name, args = args[0], args[1:]
		} else {
			rest := kw[:0:0]
			for _, k := range kw {
				if k.Name == "name" {
					name = k.Value
				} else {
					rest = append(rest, k)
				}
			}
			kw = rest
		}
		if name == nil {
			return nil, object.Errorf(object.TypeError, "new() missing required argument 'name' (pos 1)")
		}
		s, ok := name.(object.Str)
		if !ok {
			return nil, object.Errorf(object.TypeError, "new() argument 'name' must be str, not %s", object.TypeName(name))
		}
		a := byName[strings.ToLower(string(s))]
		if a == nil {
			return nil, object.Errorf(object.ValueError, "unsupported hash type %s", string(s))
		}
		return newHashObject(c, a, "new", args, kw)
	})
	avail := object.NewSet(true)
	for _, n := range names {
		if err := avail.Add(t, n); err != nil {
			return nil, err
		}
	}
	m.Globals.Set("algorithms_guaranteed", avail)
	m.Globals.Set("algorithms_available", avail)
	return m, nil
}

func newHashObject(c object.Ctx, a *hashAlgo, fname string, args []object.Value, kw []object.Kw) (object.Value, error) {
	if len(args) > 1 {
		return nil, object.Errorf(object.TypeError, "%s() takes at most 1 positional argument (%d given)", fname, len(args))
	}
	var data object.Value
	if len(args) == 1 {
		data = args[0]
	}
	size := a.size
	var key []byte
	for _, k := range kw {
		switch {
		case k.Name == "string" && !a.keyedBlake, k.Name == "data" && a.keyedBlake:
			if data != nil {
				return nil, object.Errorf(object.TypeError, "%s() got multiple values for argument '%s'", fname, k.Name)
			}
			data = k.Value
		case k.Name == "usedforsecurity":
		case a.keyedBlake && k.Name == "digest_size":
			n, err := intArg(fname, k.Value)
			if err != nil {
				return nil, err
			}
			if n < 1 || n > 64 {
				return nil, object.Errorf(object.ValueError, "digest_size must be between 1 and 64 bytes")
			}
			size = int(n)
		case a.keyedBlake && k.Name == "key":
			b, err := hashData(k.Value)
			if err != nil {
				return nil, err
			}
			if len(b) > 64 {
				return nil, object.Errorf(object.ValueError, "maximum key length is 64 bytes")
			}
			if len(b) > 0 {
				key = append([]byte(nil), b...)
			}
		case a.keyedBlake && (k.Name == "salt" || k.Name == "person"):
			b, err := hashData(k.Value)
			if err != nil {
				return nil, err
			}
			if len(b) > 0 {
				return nil, object.Errorf(object.ValueError, "PVM: blake2b %s= is not supported", k.Name)
			}
		default:
			return nil, object.Errorf(object.TypeError, "'%s' is an invalid keyword argument for %s()", k.Name, fname)
		}
	}
	if err := object.Charge(c, meter.CostHashBase); err != nil {
		return nil, err
	}
	if err := object.Alloc(c, meter.SizeObject+uint64(a.block)+64); err != nil {
		return nil, err
	}
	o := &hashObject{algo: a, size: size, id: c.NextID(), key: key}
	if a.keyedBlake {
		h, err := blake2b.New(size, key)
		if err != nil {
			return nil, object.Errorf(object.ValueError, "%s", err.Error())
		}
		o.h = h
	} else {
		o.h = a.newHash()
	}
	if data != nil {
		b, err := hashData(data)
		if err != nil {
			return nil, err
		}
		if err := o.write(c, b); err != nil {
			return nil, err
		}
	}
	return o, nil
}

func addHashMethods(k *object.Class) {
	self := func(args []object.Value, name string, n int) (*hashObject, error) {
		o, ok := args[0].(*hashObject)
		if !ok {
			return nil, object.Errorf(object.TypeError, "descriptor '%s' requires a hash object", name)
		}
		if len(args)-1 != n {
			if n == 0 {
				return nil, object.Errorf(object.TypeError, "%s.%s() takes no arguments (%d given)", k.Name, name, len(args)-1)
			}
			return nil, object.Errorf(object.TypeError, "%s.%s() takes exactly one argument (%d given)", k.Name, name, len(args)-1)
		}
		return o, nil
	}
	digest := func(o *hashObject) []byte {
		// Sum appends to a copy of the state: the object stays usable.
		return o.h.Sum(nil)[:o.size]
	}
	addMethod(k, "update", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		o, err := self(args, "update", 1)
		if err != nil {
			return nil, err
		}
		b, err := hashData(args[1])
		if err != nil {
			return nil, err
		}
		return object.None, o.write(c, b)
	})
	addMethod(k, "digest", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		o, err := self(args, "digest", 0)
		if err != nil {
			return nil, err
		}
		return newBytes(c, digest(o))
	})
	addMethod(k, "hexdigest", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		o, err := self(args, "hexdigest", 0)
		if err != nil {
			return nil, err
		}
		return object.NewStr(c, hex.EncodeToString(digest(o)))
	})
	addMethod(k, "copy", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		o, err := self(args, "copy", 0)
		if err != nil {
			return nil, err
		}
		if err := object.Alloc(c, meter.SizeObject+uint64(o.algo.block)+64+uint64(len(o.fed))); err != nil {
			return nil, err
		}
		return o.clone(c)
	})
}
