package pvm

import (
	"crypto/sha256"
	"errors"
	"math/big"
	"sync"

	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/pvm/cbor"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// hostFn is one pvm_host function; h is the host of the call running it.
type hostFn = func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error)

// hostBinding is the host (and its tracer) one call's thread works for.
type hostBinding struct {
	h   Host
	obs HostCallObserver
}

// boundHosts maps each thread running an actor call to its hostBinding, so
// that the pvm_host functions, built once per process (hostFuncs), find
// the host of the call they run in. Only Program.Run adds and removes
// entries; nothing iterates the map.
var boundHosts sync.Map // *vm.Thread → *hostBinding

// bindHost makes t's pvm_host functions work for h until the returned
// function is called.
func bindHost(t *vm.Thread, h Host) (unbind func()) {
	obs, _ := h.(HostCallObserver) // a tracer (hosttrace.go)
	boundHosts.Store(t, &hostBinding{h: h, obs: obs})
	return func() { boundHosts.Delete(t) }
}

// hostModule is the whitelist entry of pvm_host: its functions are shared
// by every call and work for the host bindHost bound to the calling
// thread; each call gets its own namespace (a program may rebind names).
func hostModule() vm.ModuleDef {
	return vm.ModuleDef{Name: "pvm_host", Load: func(*vm.Thread) (*vm.Module, error) {
		return &vm.Module{Name: "pvm_host", Globals: hostFuncs().CopyShared()}, nil
	}}
}

// hostFuncs builds the pvm_host namespace once: the low-level actor API
// (issue 6: "Host API in two layers"). Every function charges its
// technical spec §17.3 cost before it asks the host. Addresses are str
// "0x…" (EIP-55) in results and str or 20 bytes in arguments; amounts are
// ints of base units.
var hostFuncs = sync.OnceValue(func() *object.StrDict {
	g := vm.NewModule("pvm_host").Globals
	{
		def := func(name string, fn hostFn) {
			g.Set(name, object.NewBuiltin(name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
				v, _ := boundHosts.Load(c)
				b, ok := v.(*hostBinding)
				if !ok {
					return nil, object.Errorf(object.RuntimeError, "pvm_host.%s() is only available inside an actor call", name)
				}
				if b.obs != nil {
					return observed(name, b.obs, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
						return fn(b.h, c, args, kw)
					})(c, args, kw)
				}
				return fn(b.h, c, args, kw)
			}))
		}
		def("storage_get", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs("storage_get", args, kw, "key")
			if err != nil {
				return nil, err
			}
			key, err := bytesArg("storage_get", "key", a[0])
			if err != nil {
				return nil, err
			}
			v, ok, err := hostRead(c, h, NSStorage, key)
			if err != nil || !ok {
				return object.None, err
			}
			return object.Bytes(v), nil
		})
		def("storage_set", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs("storage_set", args, kw, "key", "value")
			if err != nil {
				return nil, err
			}
			key, err := bytesArg("storage_set", "key", a[0])
			if err != nil {
				return nil, err
			}
			val, err := bytesArg("storage_set", "value", a[1])
			if err != nil {
				return nil, err
			}
			return object.None, hostWrite(c, h, NSStorage, key, val)
		})
		def("storage_delete", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs("storage_delete", args, kw, "key")
			if err != nil {
				return nil, err
			}
			key, err := bytesArg("storage_delete", "key", a[0])
			if err != nil {
				return nil, err
			}
			return object.None, hostDelete(c, h, NSStorage, key)
		})
		def("send_message", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs("send_message", args, kw, "to", "method", "args?", "value?")
			if err != nil {
				return nil, err
			}
			to, err := addressArg("send_message", a[0])
			if err != nil {
				return nil, err
			}
			method, ok := a[1].(object.Str)
			if !ok || method == "" {
				return nil, object.Errorf(object.TypeError, "send_message() method must be a non-empty str")
			}
			var callArgs object.Value = object.Tuple{}
			if a[2] != nil && a[2] != object.None {
				callArgs = a[2]
			}
			switch callArgs.(type) {
			case object.Tuple, *object.List:
			default:
				return nil, object.Errorf(object.TypeError, "send_message() args must be a tuple or list")
			}
			value, err := amountArg("send_message", a[3])
			if err != nil {
				return nil, err
			}
			if err := c.Meter().Charge(meter.HostSendMessage); err != nil {
				return nil, err
			}
			payload, err := cbor.Encode(c, callArgs)
			if err != nil {
				return nil, err
			}
			// The payload crosses into the mailbox: one cell per byte (§17.4).
			if err := c.Meter().ChargeCells(uint64(len(payload)) + uint64(len(method))); err != nil {
				return nil, err
			}
			id, err := h.Send(Message{To: to, Value: value, Method: string(method), Payload: payload})
			if err != nil {
				return nil, hostErr(err)
			}
			return object.Bytes(id[:]), nil
		})
		def("emit_event", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs("emit_event", args, kw, "name", "data?")
			if err != nil {
				return nil, err
			}
			name, ok := a[0].(object.Str)
			if !ok || name == "" {
				return nil, object.Errorf(object.TypeError, "emit_event() name must be a non-empty str")
			}
			var data object.Value = object.None
			if a[1] != nil {
				data = a[1]
			}
			b, err := cbor.Encode(c, data)
			if err != nil {
				return nil, err
			}
			n := uint64(len(b) + len(name))
			if err := c.Meter().Charge(meter.HostEmitEvent + meter.HostEmitEventPerByte*n); err != nil {
				return nil, err
			}
			if err := c.Meter().ChargeCells(meter.CeilDiv(n, meter.HostEventBytesPerCell)); err != nil {
				return nil, err
			}
			return object.None, hostErr(h.Emit(Event{Name: string(name), Data: b}))
		})
		def("transfer", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs("transfer", args, kw, "to", "value")
			if err != nil {
				return nil, err
			}
			to, err := addressArg("transfer", a[0])
			if err != nil {
				return nil, err
			}
			value, err := amountArg("transfer", a[1])
			if err != nil {
				return nil, err
			}
			if err := c.Meter().Charge(meter.HostTransfer); err != nil {
				return nil, err
			}
			return object.None, hostErr(h.Transfer(to, value))
		})
		def("balance", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs("balance", args, kw, "address?")
			if err != nil {
				return nil, err
			}
			who := h.Context().Self
			if a[0] != nil && a[0] != object.None {
				if who, err = addressArg("balance", a[0]); err != nil {
					return nil, err
				}
			}
			if err := c.Meter().Charge(meter.HostBalance); err != nil {
				return nil, err
			}
			b, err := h.Balance(who)
			if err != nil {
				return nil, hostErr(err)
			}
			return object.MakeBigInt(new(big.Int).Set(b))
		})
		def("context", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			if _, err := object.UnpackArgs("context", args, kw); err != nil {
				return nil, err
			}
			if err := c.Meter().Charge(meter.HostBlockInfo); err != nil {
				return nil, err
			}
			mc := h.Context()
			val, err := object.MakeBigInt(new(big.Int).Set(mc.Value))
			if err != nil {
				return nil, err
			}
			return strDict(c, []string{"self", "sender", "origin", "value", "message_id", "depth"},
				addrValue(mc.Self), addrValue(mc.Sender), addrValue(mc.Origin), val, object.Bytes(mc.ID[:]), object.Int(mc.Depth))
		})
		def("get_block_info", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			if _, err := object.UnpackArgs("get_block_info", args, kw); err != nil {
				return nil, err
			}
			if err := c.Meter().Charge(meter.HostBlockInfo); err != nil {
				return nil, err
			}
			bi := h.Block()
			return strDict(c, []string{"height", "timestamp", "chain_id", "proposer"},
				object.MakeInt(int64(bi.Height)), object.MakeInt(int64(bi.Timestamp)), object.MakeInt(int64(bi.ChainID)), addrValue(bi.Proposer))
		})
		// Timers (§3.3): set_timer(height, handler, data=None, gba=None),
		// set_interval(every_n_blocks, handler, data=None, gba=None),
		// cancel_timer(timer_id). Costs are §17.3.
		setTimer := func(name string, interval bool) {
			def(name, func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
				first := "height"
				if interval {
					first = "every_n_blocks"
				}
				a, err := object.UnpackArgs(name, args, kw, first, "handler", "data?", "gba?")
				if err != nil {
					return nil, err
				}
				n, ok := a[0].(object.Int)
				if _, isBool := a[0].(object.Bool); !ok || isBool || n <= 0 {
					return nil, object.Errorf(object.ValueError, "%s() %s must be a positive int", name, first)
				}
				handler, ok := a[1].(object.Str)
				if !ok || handler == "" {
					return nil, object.Errorf(object.TypeError, "%s() handler must be a non-empty str (a method name)", name)
				}
				var data object.Value = object.None
				if a[2] != nil {
					data = a[2]
				}
				var gba *Address
				if a[3] != nil && a[3] != object.None {
					g, err := addressArg(name, a[3])
					if err != nil {
						return nil, err
					}
					gba = &g
				}
				if err := c.Meter().Charge(meter.HostSetTimer); err != nil {
					return nil, err
				}
				payload, err := cbor.Encode(c, data)
				if err != nil {
					return nil, err
				}
				if err := c.Meter().ChargeCells(uint64(len(payload)) + uint64(len(handler))); err != nil {
					return nil, err
				}
				req := TimerRequest{Handler: string(handler), Data: payload, GBA: gba, Height: uint64(n)}
				if interval {
					req.Every = uint64(n)
					req.Height = h.Block().Height + uint64(n)
				}
				id, err := h.SetTimer(req)
				if err != nil {
					return nil, hostErr(err)
				}
				return object.MakeBigInt(new(big.Int).SetUint64(id))
			})
		}
		setTimer("set_timer", false)
		setTimer("set_interval", true)
		def("cancel_timer", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs("cancel_timer", args, kw, "timer_id")
			if err != nil {
				return nil, err
			}
			n, ok := a[0].(object.Int)
			if _, isBool := a[0].(object.Bool); !ok || isBool || n <= 0 {
				return nil, object.Errorf(object.ValueError, "cancel_timer() timer_id must be a positive int")
			}
			if err := c.Meter().Charge(meter.HostCancelTimer); err != nil {
				return nil, err
			}
			refund, err := h.CancelTimer(uint64(n))
			if err != nil {
				return nil, hostErr(err)
			}
			return object.MakeBigInt(refund)
		})
		// randomness(label) is HKDF(R_n, label) (§3.4), charged as a hash of
		// the label (§17.3 hash: 100 + 1 per byte).
		def("randomness", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs("randomness", args, kw, "label")
			if err != nil {
				return nil, err
			}
			label, err := bytesArg("randomness", "label", a[0])
			if err != nil {
				return nil, err
			}
			if err := c.Meter().Charge(meter.HostHash + meter.HostHashPerByte*uint64(len(label))); err != nil {
				return nil, err
			}
			r := crypto.Randomness(h.Block().Beacon, label)
			return object.Bytes(r[:]), nil
		})
		// §17.3 hash(): 100 cycles + 1 per byte, except keccak256 (cost).
		hashFn := func(name string, f func([]byte) [32]byte, cost func(n uint64) uint64) {
			def(name, func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
				a, err := object.UnpackArgs(name, args, kw, "data")
				if err != nil {
					return nil, err
				}
				b, err := bytesArg(name, "data", a[0])
				if err != nil {
					return nil, err
				}
				if err := c.Meter().Charge(cost(uint64(len(b)))); err != nil {
					return nil, err
				}
				d := f(b)
				return object.Bytes(d[:]), nil
			})
		}
		perByte := func(n uint64) uint64 { return meter.HostHash + meter.HostHashPerByte*n }
		hashFn("keccak256", func(b []byte) [32]byte { return crypto.Keccak256(b) }, meter.KeccakCost)
		hashFn("blake3", func(b []byte) [32]byte { return crypto.Blake3(b) }, perByte)
		hashFn("sha256", sha256.Sum256, perByte)
		blobCalls(def)
		def("verify_signature", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs("verify_signature", args, kw, "digest", "signature", "address")
			if err != nil {
				return nil, err
			}
			digest, err := bytesArg("verify_signature", "digest", a[0])
			if err != nil {
				return nil, err
			}
			sig, err := bytesArg("verify_signature", "signature", a[1])
			if err != nil {
				return nil, err
			}
			want, err := addressArg("verify_signature", a[2])
			if err != nil {
				return nil, err
			}
			if len(digest) != 32 || len(sig) != 65 {
				return nil, object.Errorf(object.ValueError, "verify_signature() wants a 32-byte digest and a 65-byte signature r || s || y_parity (got %d and %d bytes)", len(digest), len(sig))
			}
			if err := c.Meter().Charge(meter.HostVerifySignature); err != nil {
				return nil, err
			}
			return object.Bool(verifySecp256k1(digest, sig, want)), nil
		})
		def("address", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs("address", args, kw, "value")
			if err != nil {
				return nil, err
			}
			addr, err := addressArg("address", a[0])
			if err != nil {
				return nil, err
			}
			// The EIP-55 checksum is a keccak256 of the 40 hex digits.
			if err := c.Meter().Charge(meter.KeccakCost(40)); err != nil {
				return nil, err
			}
			return addrValue(addr), nil
		})
		def("cbor_encode", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs("cbor_encode", args, kw, "value")
			if err != nil {
				return nil, err
			}
			b, err := cbor.Encode(c, a[0])
			if err != nil {
				return nil, err
			}
			return object.Bytes(b), nil
		})
		def("cbor_decode", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs("cbor_decode", args, kw, "data")
			if err != nil {
				return nil, err
			}
			b, err := bytesArg("cbor_decode", "data", a[0])
			if err != nil {
				return nil, err
			}
			return cbor.Decode(c, b)
		})
		defJobs(def) // runner.submit (hostjobs.go)
	}
	return g
})

// verifySecp256k1 reports whether sig (r || s || y_parity, low s) over
// digest recovers to the address want.
func verifySecp256k1(digest, sig []byte, want Address) bool {
	var d, r, s [32]byte
	copy(d[:], digest)
	copy(r[:], sig[:32])
	copy(s[:], sig[32:64])
	if sig[64] > 1 {
		return false
	}
	pub, err := crypto.Recover(d, sig[64], r, s)
	if err != nil {
		return false
	}
	return crypto.PubkeyToAddress(pub) == [20]byte(want)
}

// hostRead charges storage_read (10 cycles + ceil(bytes/100) cells,
// §17.3/§17.4) and reads one key.
func hostRead(c object.Ctx, h Host, ns byte, key []byte) ([]byte, bool, error) {
	if err := c.Meter().Charge(meter.HostStorageRead); err != nil {
		return nil, false, err
	}
	v, ok, err := h.StorageGet(ns, key)
	if err != nil {
		return nil, false, hostErr(err)
	}
	if err := c.Meter().ChargeCells(meter.CeilDiv(uint64(len(key)+len(v)), meter.HostStorageReadBytesPerCell)); err != nil {
		return nil, false, err
	}
	if err := object.Alloc(c, uint64(len(v))); err != nil {
		return nil, false, err
	}
	return v, ok, nil
}

// hostWrite charges storage_write (200 cycles + one cell per byte of key
// and value) and writes.
func hostWrite(c object.Ctx, h Host, ns byte, key, val []byte) error {
	if err := c.Meter().Charge(meter.HostStorageWrite); err != nil {
		return err
	}
	if err := c.Meter().ChargeCells(uint64(len(key) + len(val))); err != nil {
		return err
	}
	return hostErr(h.StorageSet(ns, key, val))
}

// hostDelete charges a write of the key alone.
func hostDelete(c object.Ctx, h Host, ns byte, key []byte) error {
	if err := c.Meter().Charge(meter.HostStorageWrite); err != nil {
		return err
	}
	if err := c.Meter().ChargeCells(uint64(len(key))); err != nil {
		return err
	}
	return hostErr(h.StorageDelete(ns, key))
}

// hostErr turns a *HostError into the Python exception it names; other
// errors pass unchanged and abort the call.
func hostErr(err error) error {
	var he *HostError
	if !errors.As(err, &he) {
		return err
	}
	cls := object.RuntimeError
	for _, k := range object.ExceptionClasses {
		if k.Name == he.Type {
			cls = k
			break
		}
	}
	return object.Errorf(cls, "%s", he.Msg)
}

func bytesArg(fn, name string, v object.Value) ([]byte, error) {
	switch x := v.(type) {
	case object.Bytes:
		return []byte(x), nil
	case *object.ByteArray:
		return append([]byte(nil), x.B...), nil
	}
	return nil, object.Errorf(object.TypeError, "%s() %s must be bytes, not %s", fn, name, v.Type().Name)
}

func addressArg(fn string, v object.Value) (Address, error) {
	switch x := v.(type) {
	case object.Str:
		a, err := crypto.ParseAddress(string(x))
		if err != nil {
			return Address{}, object.Errorf(object.ValueError, "%s(): %v", fn, err)
		}
		return a, nil
	case object.Bytes:
		if len(x) == 20 {
			return Address([]byte(x)), nil
		}
	}
	return Address{}, object.Errorf(object.TypeError, "%s() address must be a '0x…' str or 20 bytes", fn)
}

func amountArg(fn string, v object.Value) (*big.Int, error) {
	if v == nil {
		return new(big.Int), nil
	}
	if _, isBool := v.(object.Bool); !isBool {
		switch x := v.(type) {
		case object.Int:
			if x >= 0 {
				return big.NewInt(int64(x)), nil
			}
		case *object.BigInt:
			if b := x.Big(); b.Sign() >= 0 {
				return b, nil
			}
		default:
			return nil, object.Errorf(object.TypeError, "%s() value must be an int of base units", fn)
		}
	}
	return nil, object.Errorf(object.ValueError, "%s() value must be a non-negative int of base units", fn)
}

func addrValue(a Address) object.Value {
	slot := &addrCache[a[19]]
	addrCacheMu.Lock()
	if slot.ok && slot.addr == a {
		v := slot.str
		addrCacheMu.Unlock()
		return v
	}
	addrCacheMu.Unlock()
	v := object.Str(crypto.ChecksumAddress(a))
	addrCacheMu.Lock()
	*slot = addrCacheEntry{addr: a, str: v, ok: true}
	addrCacheMu.Unlock()
	return v
}

// addrCache remembers the EIP-55 spelling of recently seen addresses (an
// actor's context names the same few in every call), one slot per last
// byte: the spelling is a pure function of the address, so what the cache
// holds can never change a result.
var (
	addrCacheMu sync.Mutex
	addrCache   [256]addrCacheEntry
)

type addrCacheEntry struct {
	addr Address
	str  object.Str
	ok   bool
}

func strDict(c object.Ctx, keys []string, vals ...object.Value) (object.Value, error) {
	d := object.NewDict()
	for i, k := range keys {
		if err := d.Set(c, object.Str(k), vals[i]); err != nil {
			return nil, err
		}
	}
	return d, nil
}
