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

Off-chain jobs (technical spec §5): runner.submit(...) posts an LLM or
HTTP job to the runner market and @runner.continuation marks the method
its result is delivered to, in a later block (docs/runners.md).
"""

import pvm_host

__all__ = [
    "actor", "address", "storage", "Storage", "context", "Context", "send_message",
    "emit_event", "get_block_info", "balance", "transfer", "keccak256",
    "blake3", "sha256", "verify_signature", "randomness",
    "set_timer", "set_interval", "cancel_timer",
    "runner", "RunnerResult",
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


# The result verifier (system actor 0x03) delivers job results.
RESULT_VERIFIER = "0x0000000000000000000000000000000000000003"


class RunnerResult:
    """A job's result as a continuation gets it.

    ok is True when the committee's result was accepted; value is then the
    result (the parsed JSON document when the job had a result_schema, the
    text otherwise). When the job failed, timed out or found no committee,
    ok is False and error says why; outcome names the payment-table row
    ("success", "runner_fault", "impossible", "actor_fault",
    "external_fault", "no_committee").
    """

    def __init__(self, raw):
        self.job_id = raw["job_id"]
        self.ok = raw["ok"]
        self.outcome = raw["outcome"]
        self.error = raw["error"]
        self.value = None
        if self.ok:
            out = raw["output"]
            if raw["json"]:
                import json
                out = json.loads(out)
            self.value = out

    def __repr__(self):
        if self.ok:
            return "RunnerResult(job_id=%d, ok=True, value=%r)" % (self.job_id, self.value)
        return "RunnerResult(job_id=%d, ok=False, error=%r)" % (self.job_id, self.error)


class _Runner:
    """Off-chain compute (technical spec §5): `runner.submit` and
    `@runner.continuation`."""

    def submit(self, kind="llm", model=None, input=None, result_schema=None,
               trust="majority_vote", committee=None, threshold=None,
               max_price=0, max_tokens=None, timeout_blocks=50, seed=0,
               callback=None, vote_field=None, match_fields=None,
               similarity_bps=None, toolchain_digest=None):
        """Post a job and return its id.

        max_price base units move from this actor's balance into escrow;
        what the job does not cost comes back with the result. The result
        arrives as a call of `callback` (a method marked
        @runner.continuation) in a later block; a failed or timed-out job
        arrives there too, with result.ok False. Costs 10,000 cycles plus
        a cell per byte of the spec (§17.2 LlmRequest).
        """
        if callback is None:
            raise ValueError("runner.submit needs callback=, the continuation's method name")
        if isinstance(result_schema, dict):
            import json
            result_schema = json.dumps(result_schema, sort_keys=True, separators=(",", ":"))
        spec = {"kind": kind, "input": input, "trust": trust, "max_price": max_price,
                "timeout_blocks": timeout_blocks, "seed": seed, "callback": callback}
        optional = {"model": model, "result_schema": result_schema, "committee": committee,
                    "threshold": threshold, "max_tokens": max_tokens, "vote_field": vote_field,
                    "match_fields": match_fields, "similarity_bps": similarity_bps,
                    "toolchain_digest": toolchain_digest}
        for k in optional:
            if optional[k] is not None:
                spec[k] = optional[k]
        return pvm_host.runner_submit(spec)

    def continuation(self, fn):
        """Mark fn(self, result) as the method a job's result is delivered
        to. Only the result verifier may call it: a call from anyone else
        raises PermissionError, so nobody can forge a result."""
        def continuation(actor_self, raw):
            if context.sender != RESULT_VERIFIER:
                raise PermissionError("a runner continuation is called only by the result verifier " + RESULT_VERIFIER)
            return fn(actor_self, RunnerResult(raw))
        continuation.__name__ = fn.__name__
        continuation.__doc__ = fn.__doc__
        return continuation


runner = _Runner()
