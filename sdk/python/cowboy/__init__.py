"""cowboy: a Python client for the Cowboy chain's JSON-RPC API.

    import cowboy
    c = cowboy.Client("http://127.0.0.1:8645")
    dev0 = cowboy.Key.dev(0)
    addr, receipt = c.deploy(dev0, open("main.py").read())
    c.call(dev0, addr, "increment").return_value
    c.query(addr, "get_count")

Depends on the standard library, cbor2, pycryptodomex (Cryptodome) and ecdsa.
"""

from . import cbor
from .client import (DEFAULT_URL, HIGH_FEE_FACTOR, Client, HighFeeError, NodeUnreachable, Receipt, RPCError,
                     TransactionFailed, actor_address, canonical_source, check_fees, format_cby, salt_bytes,
                     worst_case_fee)
from .keys import DEVNET_MNEMONIC, Key, address_bytes, keccak256, recover_address, to_checksum_address
from .tx import Tx

CBY = 10 ** 18  # base units in one CBY

__all__ = ["CBY", "Client", "DEFAULT_URL", "DEVNET_MNEMONIC", "HIGH_FEE_FACTOR", "HighFeeError", "Key",
           "NodeUnreachable", "RPCError", "Receipt", "check_fees", "format_cby", "worst_case_fee",
           "TransactionFailed", "Tx", "actor_address", "address_bytes", "canonical_source", "cbor",
           "keccak256", "recover_address", "salt_bytes", "to_checksum_address"]
