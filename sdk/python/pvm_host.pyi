"""Type signatures of pvm_host, the low-level actor API the Cowboy node
provides inside the PVM (pvm/hostmodule.go). This file is for editors and
type checkers; actors run against the node's implementation, and
`cowboy actor test DIR` runs them on an in-memory chain with it.

Costs are technical spec v2 §17.3 / §17.4. Addresses are "0x..." str
(EIP-55) in results; arguments accept such a str (any case) or 20 bytes.
Amounts are ints of base units (10**18 per CBY).
"""

from typing import Any, Optional, Sequence, TypedDict

class MessageContext(TypedDict):
    self: str
    sender: str
    origin: str
    value: int
    message_id: bytes
    depth: int

class BlockInfo(TypedDict):
    height: int
    timestamp: int
    chain_id: int
    proposer: str

def storage_get(key: bytes) -> Optional[bytes]:
    """The actor's value for key, or None. 10 cycles + 1 cell per 100 bytes."""

def storage_set(key: bytes, value: bytes) -> None:
    """Write key. 200 cycles + 1 cell per byte of key and value. Raises
    MemoryError past the 1 MiB per-actor quota."""

def storage_delete(key: bytes) -> None:
    """Remove key if present. 200 cycles + 1 cell per key byte."""

def send_message(to: str | bytes, method: str, args: Sequence[Any] = (), value: int = 0) -> bytes:
    """Queue a message, delivered after this handler completes (same block,
    FIFO). Returns its 32-byte id. 500 cycles + 1 cell per payload byte.
    Raises RuntimeError past 1,024 messages per transaction or a full
    mailbox, RecursionError past depth 32."""

def emit_event(name: str, data: Any = None) -> None:
    """Record an event in the receipt. 500 cycles + 5 per byte; 1 cell per 2 bytes."""

def transfer(to: str | bytes, value: int) -> None:
    """Move value base units from this actor now. Raises ValueError if the
    balance is short. 400 cycles."""

def balance(address: str | bytes | None = None) -> int:
    """Balance of address (default: this actor). 10 cycles."""

def context() -> MessageContext:
    """The message being handled. 100 cycles."""

def get_block_info() -> BlockInfo:
    """The current block. 100 cycles."""

def randomness(label: bytes) -> bytes:
    """HKDF(R_n, label): 32 bytes from the block's VRF beacon (§3.4). 100 cycles + 1 per label byte."""

def keccak256(data: bytes) -> bytes:
    """100 cycles + 6 per 32-byte word (a partial word counts whole)."""

def blake3(data: bytes) -> bytes: ...
def sha256(data: bytes) -> bytes:
    """Each: 100 cycles + 1 per byte."""

def verify_signature(digest: bytes, signature: bytes, address: str | bytes) -> bool:
    """True if the 65-byte r||s||y_parity secp256k1 signature over the
    32-byte digest recovers to address. 10,000 cycles."""

def address(value: str | bytes) -> str:
    """The EIP-55 "0x..." form of an address. 112 cycles."""

def cbor_encode(value: Any) -> bytes:
    """Canonical CBOR (RFC 8949 §4.2) of None/bool/int/float/str/bytes/list/tuple/dict. 20 cycles + 1 per byte."""

def cbor_decode(data: bytes) -> Any:
    """The value of one canonical CBOR item. 20 cycles + 1 per byte."""

def set_timer(height: int, handler: str, data: Any = None, gba: str | bytes | None = None) -> int:
    """Schedule self.<handler>(data) at block `height`; returns the timer id.
    1,000 cycles + 1 cell per byte of handler and data's CBOR (§17.3)."""

def set_interval(every_n_blocks: int, handler: str, data: Any = None, gba: str | bytes | None = None) -> int:
    """Schedule self.<handler>(data) every n blocks from now; returns the timer id.
    1,000 cycles + 1 cell per byte of handler and data's CBOR (§17.3)."""

def cancel_timer(timer_id: int) -> int:
    """Cancel one of this actor's timers; returns the deposit refunded. 500 cycles."""

def runner_submit(spec: dict) -> int:
    """Post an off-chain job (cowboy_sdk.runner.submit builds the spec) and
    return its id; max_price moves from this actor into escrow. 10,000
    cycles + 1 cell per byte of the spec's CBOR (§17.2 LlmRequest)."""
