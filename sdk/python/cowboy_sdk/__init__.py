"""cowboy_sdk: the developer-facing actor SDK (CIP-6).

Runs inside the PVM on top of pvm_host, the low-level host API. Two styles
of actor work (innovations-overview §3):

    class Actor:                      # instance attributes persist
        def __init__(self):
            self.counter = 0

    from cowboy_sdk import actor
    @actor
    class Counter:                    # self.storage is the actor's storage
        def __init__(self):
            self.storage["count"] = 0

Keys and values of `storage` are any canonically CBOR-encodable value
(None, bool, int, float, str, bytes, list, tuple, dict). Addresses are
"0x..." strings; amounts are ints of base units (10**18 per CBY).

Timers (technical spec §3.3): set_timer, set_interval and cancel_timer;
the handler named is called with the data as its one argument when the
timer fires, and the actor pays for it (docs/timers.md).

Blobs (technical spec §7): put_blob keeps up to 64 KiB on chain under its
multihash; larger data lives in a CBFS volume, referenced by blob_hash. Off-chain jobs
arrive with the issue that builds them; they are absent rather than faked.
"""

import pvm_host

__all__ = [
    "actor", "address", "storage", "Storage", "context", "Context", "send_message",
    "emit_event", "get_block_info", "balance", "transfer", "keccak256",
    "blake3", "sha256", "verify_signature", "randomness",
    "set_timer", "set_interval", "cancel_timer",
    "put_blob", "get_blob", "delete_blob", "blob_hash",
]


class Storage:
    """The running actor's persistent key/value storage.

    Every read costs 10 cycles plus a cell per 100 bytes, every write 200
    cycles plus a cell per byte (technical spec §17.3, §17.4); an actor may
    hold at most 1 MiB (§3.2).
    """

    def __getitem__(self, key):
        raw = pvm_host.storage_get(pvm_host.cbor_encode(key))
        if raw is None:
            raise KeyError(key)
        return pvm_host.cbor_decode(raw)

    def __setitem__(self, key, value):
        pvm_host.storage_set(pvm_host.cbor_encode(key), pvm_host.cbor_encode(value))

    def __delitem__(self, key):
        k = pvm_host.cbor_encode(key)
        if pvm_host.storage_get(k) is None:
            raise KeyError(key)
        pvm_host.storage_delete(k)

    def __contains__(self, key):
        return pvm_host.storage_get(pvm_host.cbor_encode(key)) is not None

    def get(self, key, default=None):
        raw = pvm_host.storage_get(pvm_host.cbor_encode(key))
        if raw is None:
            return default
        return pvm_host.cbor_decode(raw)

    def set(self, key, value):
        self[key] = value

    def delete(self, key):
        """Remove key if present; unlike `del`, a missing key is not an error."""
        pvm_host.storage_delete(pvm_host.cbor_encode(key))

    def __repr__(self):
        return "<actor storage>"


storage = Storage()


class Context:
    """The message being handled and the block it runs in.

    The first read of a field asks the host (100 cycles, §17.3
    get_block_info); later reads in the same call are free.
    """

    def __init__(self):
        self._msg = None
        self._block = None

    def _m(self):
        if self._msg is None:
            self._msg = pvm_host.context()
        return self._msg

    def _b(self):
        if self._block is None:
            self._block = pvm_host.get_block_info()
        return self._block

    @property
    def sender(self):
        """Who sent this message: the signing account or an actor."""
        return self._m()["sender"]

    @property
    def origin(self):
        """The account that signed the transaction."""
        return self._m()["origin"]

    @property
    def value(self):
        """Base units that came with the message (already in the balance)."""
        return self._m()["value"]

    @property
    def message_id(self):
        """keccak256(sender || nonce || msg_hash), 32 bytes (§3.3)."""
        return self._m()["message_id"]

    @property
    def self_address(self):
        """This actor's address."""
        return self._m()["self"]

    @property
    def depth(self):
        """1 for the transaction's own message, +1 per nested send."""
        return self._m()["depth"]

    @property
    def block_height(self):
        return self._b()["height"]

    @property
    def block_time(self):
        """The block's timestamp in seconds (never a local clock)."""
        return self._b()["timestamp"]

    @property
    def chain_id(self):
        return self._b()["chain_id"]


context = Context()


def actor(cls):
    """Mark cls as the actor class and give it `storage` and `ctx`."""
    cls.__cowboy_actor__ = True
    cls.storage = storage
    cls.ctx = context
    return cls


def address(value):
    """The checksummed "0x..." form of an address given as str (any case)
    or 20 bytes; raises ValueError for anything else. Use it before an
    address becomes a storage key, so one account has one key."""
    return pvm_host.address(value)


def send_message(to, method, *args, value=0):
    """Queue a message to another actor (or this one).

    It is delivered after the current handler completes, in the same block,
    in FIFO order; `value` base units move with it. Returns the message id.
    Costs 500 cycles plus a cell per payload byte.
    """
    return pvm_host.send_message(to, method, args, value)


def emit_event(name, data=None):
    """Record an event in the transaction receipt (cowboy_getLogs finds it)."""
    pvm_host.emit_event(name, data)


def get_block_info():
    """{'height', 'timestamp', 'chain_id', 'proposer'} of the current block."""
    return pvm_host.get_block_info()


def randomness(label):
    """32 random bytes for this block and `label` (bytes or str): HKDF(R_n,
    label) over the block's VRF beacon R_n (technical spec §3.4).

    Every validator computes the same bytes, and nobody knew them before the
    block's proposer was drawn. Use a different label per purpose; the same
    label twice in one block gives the same bytes.
    """
    if isinstance(label, str):
        label = label.encode()
    return pvm_host.randomness(label)


def balance(address=None):
    """Balance in base units of address, or of this actor."""
    return pvm_host.balance(address)


def transfer(to, value):
    """Move value base units from this actor to `to` now (reverts with the handler)."""
    pvm_host.transfer(to, value)


def keccak256(data):
    return pvm_host.keccak256(data)


def blake3(data):
    return pvm_host.blake3(data)


def sha256(data):
    return pvm_host.sha256(data)


def verify_signature(digest, signature, address):
    """True if the 65-byte r||s||y_parity secp256k1 signature over the
    32-byte digest was made by address's key."""
    return pvm_host.verify_signature(digest, signature, address)


def set_timer(height, handler, data=None, gba=None):
    """Run self.<handler>(data) once at block `height` (a future block) and
    return the timer id (technical spec §3.3).

    Costs 1,000 cycles plus a cell per byte of handler and data (§17.3);
    the actor's balance pays a refundable deposit, a burned same-height
    surcharge and the timer basefee. `gba` names a Gas Bidding Agent actor
    (CIP-1 get_gas_bid) or None for the network default bid.
    """
    return pvm_host.set_timer(height, handler, data, gba)


def set_interval(every_n_blocks, handler, data=None, gba=None):
    """Run self.<handler>(data) every `every_n_blocks` blocks, starting that
    many blocks from now, until cancelled; returns the timer id (§3.3)."""
    return pvm_host.set_interval(every_n_blocks, handler, data, gba)


def cancel_timer(timer_id):
    """Cancel one of this actor's timers; returns the deposit refunded
    (0 if it had already run or been cancelled). 500 cycles (§17.3)."""
    return pvm_host.cancel_timer(timer_id)


def put_blob(data):
    """Keep data (at most 64 KiB, §7.1) in this actor's storage and return
    its multihash (BLAKE3-256). Costs a hash, 40 cycles per KiB (blob
    commit) and a storage write with a cell per byte (docs/cbfs.md)."""
    return pvm_host.put_blob(data)


def get_blob(multihash):
    """The bytes put_blob stored under multihash, or None."""
    return pvm_host.get_blob(multihash)


def delete_blob(multihash):
    """Drop an inline blob, freeing its storage quota."""
    pvm_host.delete_blob(multihash)


def blob_hash(data):
    """The multihash of data, without storing it: the reference an actor
    keeps for a blob stored off chain (§7.2)."""
    return pvm_host.blob_hash(data)
