"""cowboy: a Python client for the Cowboy chain's JSON-RPC API.

    import cowboy
    c = cowboy.Client("http://127.0.0.1:8645")
    dev0 = cowboy.Key.dev(0)
    addr, receipt = c.deploy(dev0, open("main.py").read())
    c.call(dev0, addr, "increment").return_value
    c.query(addr, "get_count")

cowboy.AsyncClient has every Client method as a coroutine. Results are
typed where the node returns an object: Block, Transaction, Basefees,
FeeEstimate, Trace, DevBlock (dataclasses that also read like the JSON
dict, by key).

Depends on the standard library, cbor2, pycryptodomex (Cryptodome) and ecdsa.
"""

from . import cbor
from .aio import AsyncClient
from .client import (DEFAULT_URL, HIGH_FEE_FACTOR, Client, HighFeeError, NodeUnreachable, Receipt, RPCError,
                     TransactionFailed, actor_address, canonical_source, check_fees, format_cby, salt_bytes,
                     worst_case_fee)
from .keys import DEVNET_MNEMONIC, Key, address_bytes, keccak256, recover_address, to_checksum_address
from .tx import Tx
from .types import (Basefees, Block, DevBlock, FeeEstimate, HostCall, Record, StorageEntry, StoragePage, Trace,
                    TraceHandler, Transaction)

CBY = 10 ** 18  # base units in one CBY

__all__ = ["AsyncClient", "Basefees", "Block", "DevBlock", "FeeEstimate", "HostCall", "Record", "StorageEntry",
           "StoragePage", "Trace",
           "TraceHandler", "Transaction", "CBY", "Client", "DEFAULT_URL", "DEVNET_MNEMONIC", "HIGH_FEE_FACTOR", "HighFeeError", "Key",
           "NodeUnreachable", "RPCError", "Receipt", "check_fees", "format_cby", "worst_case_fee",
           "TransactionFailed", "Tx", "actor_address", "address_bytes", "canonical_source", "cbor",
           "keccak256", "recover_address", "salt_bytes", "to_checksum_address"]
