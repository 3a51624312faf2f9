"""Typed results of the client: dataclasses with one attribute per field of
the node's JSON object (docs/rpc.md), quantities as ints.

Each record also reads like the dict it replaced, by its JSON key
(block["basefeeCycle"], .get, `in`), so code written against the dict
results keeps working; .raw is the whole converted object, fields this
version does not name included.
"""

import dataclasses
from dataclasses import dataclass, field
from typing import List, Optional, Union


def _json_key(f):
    """A field's JSON key: metadata "json", else its name in camelCase."""
    if "json" in f.metadata:
        return f.metadata["json"]
    head, *rest = f.name.rstrip("_").split("_")
    return head + "".join(w.capitalize() for w in rest)


class Record:
    """Base of the typed results: build with from_json, read by attribute
    or by JSON key."""

    @classmethod
    def from_json(cls, obj):
        """The record of a converted JSON object (None stays None)."""
        if obj is None:
            return None
        kw = {}
        for f in dataclasses.fields(cls):
            if f.name == "raw":
                continue
            v = obj.get(_json_key(f))
            conv = f.metadata.get("conv")
            kw[f.name] = conv(v) if conv and v is not None else v
        return cls(raw=obj, **kw)

    def __getitem__(self, key):
        return self.raw[key]

    def get(self, key, default=None):
        return self.raw.get(key, default)

    def __contains__(self, key):
        return key in self.raw

    def keys(self):
        return self.raw.keys()


def _receipt(v):
    from .client import Receipt  # client imports this module
    return Receipt(v)


def _list_of(cls):
    return lambda v: [cls.from_json(x) if isinstance(x, dict) else x for x in v]


@dataclass(frozen=True)
class Transaction(Record):
    """A transaction (cowboy_getTransactionByHash); block_* are None while pending."""
    hash: str = None
    from_: str = field(default=None, metadata={"json": "from"})
    to: Optional[str] = None
    value: int = None
    nonce: int = None
    chain_id: int = None
    cycles_limit: int = None
    cells_limit: int = None
    max_fee_per_cycle: int = None
    max_fee_per_cell: int = None
    tip_per_cycle: int = None
    tip_per_cell: int = None
    payload: str = None
    block_hash: Optional[str] = None
    block_number: Optional[int] = None
    transaction_index: Optional[int] = None
    raw: dict = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Block(Record):
    """A block (cowboy_getBlockByNumber/ByHash); transactions are hashes, or
    Transaction records when asked for in full."""
    hash: str = None
    parent_hash: str = None
    height: int = None
    time: int = None
    proposer: str = None
    state_root: str = None
    tx_root: str = None
    receipts_root: str = None
    basefee_cycle: int = None
    basefee_cell: int = None
    cycles_used: int = None
    cells_used: int = None
    status: str = None
    transactions: List[Union[str, Transaction]] = field(default=None, metadata={"conv": _list_of(Transaction)})
    raw: dict = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Basefees(Record):
    """What the next block, at height, charges per Cycle and per Cell."""
    cycle: int = None
    cell: int = None
    height: int = None
    raw: dict = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class FeeEstimate(Record):
    """cowboy_estimateFees: limits, max fees and tips; max_cost in base units."""
    cycles_limit: int = None
    cells_limit: int = None
    max_fee_per_cycle: int = None
    max_fee_per_cell: int = None
    tip_per_cycle: int = None
    tip_per_cell: int = None
    max_cost: int = None
    raw: dict = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class DevBlock(Record):
    """The block a dev_* control mined or reverted to."""
    height: int = None
    hash: str = None
    time: int = None
    state_root: str = None
    raw: dict = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class HostCall(Record):
    """One pvm_host call of a traced handler: args and result as Python
    reprs, or the exception it raised, and what it charged."""
    name: str = None
    args: List[str] = None
    result: Optional[str] = None
    error: Optional[str] = None
    cycles: int = None
    cells: int = None
    raw: dict = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class TraceHandler(Record):
    """One handler run of a traced transaction."""
    from_: str = field(default=None, metadata={"json": "from"})
    to: str = None
    method: str = None
    depth: int = None
    deploy: bool = None
    status: str = None
    cycles_used: int = None
    cells_used: int = None
    error: Optional[str] = None
    traceback: Optional[str] = None
    host_calls: List[HostCall] = field(default=None, metadata={"conv": _list_of(HostCall)})
    raw: dict = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Trace(Record):
    """cowboy_traceTransaction: the committed receipt and each handler."""
    transaction_hash: str = None
    block_hash: str = None
    block_number: int = None
    receipt: dict = field(default=None, metadata={"conv": _receipt})
    handlers: List[TraceHandler] = field(default=None, metadata={"conv": _list_of(TraceHandler)})
    raw: dict = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class StorageEntry(Record):
    """One entry of an actor's storage (cowboy_listActorStorage): key and
    value as bytes, and decoded from CBOR where they are (keys of
    namespace 0, values of namespaces 0 and 1), else None."""
    namespace: int = None
    slot: str = None
    key: bytes = None
    value: bytes = None
    decoded_key: object = None
    decoded_value: object = None
    raw: dict = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class StoragePage(Record):
    """A page of cowboy_listActorStorage: its entries and the cursor of
    the next page (None on the last)."""
    entries: List[StorageEntry] = None
    next: Optional[str] = None
    raw: dict = field(default=None, repr=False, compare=False)
