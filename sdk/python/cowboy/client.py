"""JSON-RPC 2.0 client for a Cowboy node (docs/rpc.md)."""

import itertools
import json
import logging
import time
import unicodedata
import urllib.error
import urllib.request

from . import cbor
from .keys import address_bytes, keccak256, to_checksum_address
from .tx import Tx
from .types import Basefees, Block, DevBlock, FeeEstimate, StorageEntry, StoragePage, Trace, Transaction
from .ws import Closed, NoWebSocket, Subscriber

DEFAULT_URL = "http://127.0.0.1:8645"

# Fields of RPC objects that are quantities ("0x…" hex), returned as int.
_QUANTITIES = frozenset("""
height time basefeeCycle basefeeCell cyclesUsed cellsUsed chainId nonce value
cyclesLimit cellsLimit maxFeePerCycle maxFeePerCell tipPerCycle tipPerCell
yParity blockNumber transactionIndex status fee burned tip cycle cell maxCost
logIndex depth finalizedHeight round peers validator balance epoch index
weight stake jailUntil unbondUntil missed registeredAt epochLength
minValidatorStake unbondingPeriod jailPeriod downtimeWindow doubleSignSlashBps cycles cells
""".split())


class RPCError(Exception):
    """An error answer from the node: code, message, data, and reason (the
    stable rejection code of a -32000 answer, e.g. "nonce_too_low")."""

    def __init__(self, code, message, data=None):
        super().__init__("%s (code %d%s)" % (message, code, ", reason %s" % data["reason"]
                                            if isinstance(data, dict) and "reason" in data else ""))
        self.code = code
        self.message = message
        self.data = data
        self.reason = data.get("reason") if isinstance(data, dict) else None


class NodeUnreachable(ConnectionError):
    """The node does not answer at its URL. The message is one line saying
    which URL and what to do; the urllib exception is not chained, so an
    uncaught one prints a short traceback ending in that line."""


class HighFeeError(ValueError):
    """A max fee or tip more than HIGH_FEE_FACTOR times the current basefee,
    refused before signing unless allow_high_fee=True. .worst_case is what
    the fees could cost in base units (cycles_limit × max_fee_per_cycle +
    cells_limit × max_fee_per_cell)."""

    def __init__(self, message, worst_case):
        super().__init__(message)
        self.worst_case = worst_case


# How far above the current basefee a max fee or tip may go before send()
# wants allow_high_fee=True (the CLI's --yes): the node's own estimate is
# 2 × basefee + 1, and a mistyped tip of 2**64 - 1 once paid 184,467 CBY.
HIGH_FEE_FACTOR = 100

log = logging.getLogger("cowboy")


def format_cby(base_units):
    """base units as CBY text without rounding: 1500000000000000000 -> "1.5 CBY"."""
    whole, frac = divmod(int(base_units), 10 ** 18)
    text = "{:,}".format(whole)
    if frac:
        text += "." + ("%018d" % frac).rstrip("0")
    return text + " CBY"


def worst_case_fee(tx):
    """The most a transaction's fees can cost, in base units (value excluded)."""
    return tx.cycles_limit * tx.max_fee_per_cycle + tx.cells_limit * tx.max_fee_per_cell


def check_fees(tx, basefees):
    """Raise HighFeeError if a max fee or tip of tx is more than
    HIGH_FEE_FACTOR × the basefee of its meter ({"cycle", "cell"})."""
    for field, unit in (("tip_per_cycle", "cycle"), ("tip_per_cell", "cell"),
                        ("max_fee_per_cycle", "cycle"), ("max_fee_per_cell", "cell")):
        v, base = getattr(tx, field), basefees[unit]
        if v > HIGH_FEE_FACTOR * max(base, 1):
            w = worst_case_fee(tx)
            raise HighFeeError("%s=%d base units per %s is more than %d× the current basefee (%d): the fees could cost "
                               "up to %s; pass allow_high_fee=True if you mean it"
                               % (field, v, unit.capitalize(), HIGH_FEE_FACTOR, base, format_cby(w)), w)


class TransactionFailed(Exception):
    """An included transaction whose execution failed; .receipt has it."""

    def __init__(self, receipt):
        super().__init__("transaction %s failed in block %d: %s" % (
            receipt["transactionHash"], receipt["blockNumber"], receipt["error"]))
        self.receipt = receipt


class Receipt(dict):
    """A receipt as the node returns it (quantities as ints), plus:
    ok (status == 1), return_value (returnData decoded from CBOR),
    contract_address (for a deployment)."""

    @property
    def ok(self):
        return self.get("status") == 1

    @property
    def return_value(self):
        return cbor.decode(_unhex(self.get("returnData") or "0x"))

    @property
    def contract_address(self):
        return self.get("contractAddress")

    @property
    def events(self):
        """[(address, name, decoded data)] of the events the transaction emitted."""
        return [(e["address"], e["name"], cbor.decode(_unhex(e["data"]))) for e in self.get("events") or []]


def _unhex(s):
    return bytes.fromhex(s[2:]) if s.startswith("0x") else bytes.fromhex(s)


def _hex(b):
    return "0x" + bytes(b).hex()


def _qty(n):
    n = int(n)
    if n < 0:
        raise ValueError("quantity %d is negative" % n)
    return hex(n)


def _addr(a):
    return to_checksum_address(address_bytes(a))


def _block(b):
    if b in ("latest", "earliest", "pending"):
        return b
    return _qty(b)


def _convert(v, key=None):
    if isinstance(v, dict):
        # Events and logs carry their data as JSON in "value", calls their
        # return value in "returnValue": user data, left as the node sent it.
        event = "name" in v and "data" in v
        return {k: x if k in ("returnValue", "json") or (event and k == "value") else _convert(x, k)
                for k, x in v.items()}
    if isinstance(v, list):
        return [_convert(x) for x in v]
    if key in _QUANTITIES and isinstance(v, str) and v.startswith("0x"):
        return int(v, 16)
    return v


def salt_bytes(salt):
    """32-byte salt: bytes (left-padded), "0x…" hex (left-padded), other text
    (its keccak256), or an int; b"" / None is all zeros (the CLI's rules)."""
    if salt is None:
        salt = b""
    if isinstance(salt, int):
        salt = salt.to_bytes(32, "big")
    if isinstance(salt, str):
        if salt.startswith("0x"):
            salt = bytes.fromhex(salt[2:])
        else:
            return keccak256(salt.encode())
    salt = bytes(salt)
    if len(salt) > 32:
        raise ValueError("salt is %d bytes, at most 32" % len(salt))
    return salt.rjust(32, b"\x00")


def canonical_source(src):
    """The form of actor source the chain hashes and stores (§1.2)."""
    if isinstance(src, bytes):
        src = src.decode("utf-8")
    if src.startswith("\ufeff"):
        src = src[1:]
    src = src.replace("\r\n", "\n").replace("\r", "\n")
    return unicodedata.normalize("NFC", src).encode("utf-8")


def actor_address(creator, salt, source):
    """last_20_bytes(keccak256(creator || salt || keccak256(canonical source)))."""
    h = keccak256(address_bytes(creator), salt_bytes(salt), keccak256(canonical_source(source)))
    return to_checksum_address(h[12:])


class Client:
    """A Cowboy node's JSON-RPC API. Quantities come back as ints, byte
    strings as "0x…" hex, addresses checksummed; a null result is None."""

    def __init__(self, url=DEFAULT_URL, timeout=30.0):
        if "://" not in url:
            url = "http://" + url
        self.url = url
        self.timeout = timeout
        self._ids = itertools.count(1)
        self._chain_id = None

    # -- transport -----------------------------------------------------

    def request(self, method, *params):
        """Call any method; the raw JSON result (no conversion)."""
        body = json.dumps({"jsonrpc": "2.0", "id": next(self._ids), "method": method,
                           "params": list(params)}).encode()
        req = urllib.request.Request(self.url, data=body, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                answer = json.loads(resp.read())
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:  # the node answers a 413 with a JSON-RPC error object too
                err = json.loads(raw)["error"]
                raise RPCError(err.get("code", 0), err.get("message", ""), err.get("data")) from None
            except (ValueError, KeyError, TypeError):
                pass
            raise RPCError(-32603, "HTTP %d from %s: %s" % (e.code, self.url, raw[:200])) from None
        except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
            reason = getattr(e, "reason", e)
            raise NodeUnreachable("cannot reach the node at %s (%s): start one with `cowboyd devnet`, or pass "
                                  "its URL to cowboy.Client" % (self.url, reason)) from None
        if "error" in answer and answer["error"] is not None:
            err = answer["error"]
            raise RPCError(err.get("code", 0), err.get("message", ""), err.get("data"))
        return answer.get("result")

    def _call(self, method, *params):
        return _convert(self.request(method, *params))

    # -- methods (docs/rpc.md) -----------------------------------------

    def chain_id(self):
        if self._chain_id is None:
            self._chain_id = int(self.request("cowboy_chainId"), 16)
        return self._chain_id

    def block_number(self):
        return int(self.request("cowboy_blockNumber"), 16)

    def get_block(self, block="latest", full_tx=False):
        """Block by height, "latest"/"earliest", or by 0x hash (66 chars): a
        Block, or None if there is none."""
        if isinstance(block, str) and block.startswith("0x") and len(block) == 66:
            return Block.from_json(self._call("cowboy_getBlockByHash", block, full_tx))
        return Block.from_json(self._call("cowboy_getBlockByNumber", _block(block), full_tx))

    def get_balance(self, address):
        return int(self.request("cowboy_getBalance", _addr(address), "latest"), 16)

    def get_nonce(self, address, pending=True):
        return int(self.request("cowboy_getNonce", _addr(address), "pending" if pending else "latest"), 16)

    def send_raw_transaction(self, raw):
        """Send signed transaction bytes (or a Tx); returns the 0x hash."""
        if isinstance(raw, Tx):
            raw = raw.encode()
        return self.request("cowboy_sendRawTransaction", _hex(raw))

    def get_transaction(self, tx_hash):
        """A Transaction (committed or pending), or None."""
        return Transaction.from_json(self._call("cowboy_getTransactionByHash", tx_hash))

    def get_receipt(self, tx_hash):
        r = self._call("cowboy_getTransactionReceipt", tx_hash)
        return None if r is None else Receipt(r)

    def subscriber(self, timeout=None):
        """A WebSocket connection to the node for subscriptions (use as a
        context manager): .subscribe(kind, *args) returns the id, .next()
        the next (id, result); kinds as in docs/rpc.md ("newHeads",
        "finalizedHeads", "logs", "pendingTransactions",
        "transactionReceipt")."""
        try:
            return Subscriber(self.url, timeout=timeout or self.timeout)
        except ConnectionRefusedError as e:
            raise NodeUnreachable("cannot reach the node at %s (%s): start one with `cowboyd devnet`, or pass "
                                  "its URL to cowboy.Client" % (self.url, e)) from None

    def wait_receipt(self, tx_hash, timeout=30.0, poll=0.1):
        """Wait for the receipt by subscription (one message when the
        transaction is included); polls every poll seconds only if the node
        serves no WebSocket. TimeoutError after timeout seconds;
        ConnectionError naming the transaction if the node goes away."""
        try:
            sub = self.subscriber(timeout=timeout)
        except NoWebSocket:
            return self._poll_receipt(tx_hash, timeout, poll)
        with sub:
            try:
                sub.subscribe("transactionReceipt", tx_hash)
                _, r = sub.next()
            except TimeoutError:
                raise TimeoutError("transaction %s has no receipt after %ss; it may still be included"
                                   % (tx_hash, timeout)) from None
            except (Closed, OSError) as e:
                raise ConnectionError("lost the node at %s while waiting for the receipt of transaction %s (%s); it was "
                                      "accepted and may still be included: check later with get_receipt(%r), and if "
                                      "the node does not know it, send it again with the same nonce"
                                      % (self.url, tx_hash, e, tx_hash)) from None
        return Receipt(_convert(r))

    def _poll_receipt(self, tx_hash, timeout, poll):
        deadline = time.monotonic() + timeout
        while True:
            r = self.get_receipt(tx_hash)
            if r is not None:
                return r
            if time.monotonic() >= deadline:
                raise TimeoutError("transaction %s has no receipt after %ss; it may still be included"
                                   % (tx_hash, timeout))
            time.sleep(poll)

    def basefees(self):
        """Basefees (cycle, cell) of the next block, at height."""
        return Basefees.from_json(self._call("cowboy_basefees"))

    def estimate_fees(self, from_=None, to=None, value=0, payload=b""):
        """Limits, max fees and tips for a transaction (cowboy_estimateFees)."""
        args = {}
        if from_ is not None:
            args["from"] = _addr(from_)
        if to is not None:
            args["to"] = _addr(to)
        if value:
            args["value"] = _qty(value)
        if payload:
            args["payload"] = _hex(payload)
        return FeeEstimate.from_json(self._call("cowboy_estimateFees", args))

    def total_supply(self):
        return int(self.request("cowboy_totalSupply"), 16)

    def get_code(self, address):
        """{"address", "codeHash", "source"} or None."""
        return self._call("cowboy_getCode", _addr(address))

    def get_actor_storage(self, address, key, namespace=0, raw_key=False):
        """One storage entry. key is encoded as canonical CBOR (how
        self.storage[k] keys entries) unless raw_key; returns the decoded
        value, or None when absent."""
        k = bytes(key) if raw_key else cbor.encode(key)
        r = self.request("cowboy_getActorStorage", _addr(address), _hex(k), _qty(namespace))
        v = r.get("value")
        return None if v is None else cbor.decode(_unhex(v))

    def list_actor_storage(self, address, cursor=None, limit=None):
        """One page of the actor's storage, in (namespace, slot) order: a
        StoragePage whose .next, passed as cursor, gives the next page
        (None on the last). limit: at most that many entries (the node's
        default 100, at most 1000). No actor at address: RPCError -32001."""
        r = self.request("cowboy_listActorStorage", _addr(address), cursor,
                         None if limit is None else _qty(limit))
        entries = []
        for e in r["entries"]:
            key, value = _unhex(e["key"]), _unhex(e["value"])
            entries.append(StorageEntry(
                namespace=int(e["namespace"], 16), slot=e["slot"], key=key, value=value,
                decoded_key=cbor.decode(key) if "keyJson" in e else None,
                decoded_value=cbor.decode(value) if "json" in e else None, raw=e))
        return StoragePage(entries=entries, next=r.get("next"), raw=r)

    def actor_storage(self, address, page_size=1000):
        """Every entry of the actor's storage (list_actor_storage, page by page)."""
        out, cursor = [], None
        while True:
            page = self.list_actor_storage(address, cursor, page_size)
            out.extend(page.entries)
            if page.next is None:
                return out
            cursor = page.next

    def call_raw(self, to=None, data=b"", from_=None, value=0, cycles_limit=None, cells_limit=None):
        """cowboy_call with a raw call or deploy payload; the result object."""
        args = {"data": _hex(data)}
        if to is not None:
            args["to"] = _addr(to)
        if from_ is not None:
            args["from"] = _addr(from_)
        if value:
            args["value"] = _qty(value)
        if cycles_limit is not None:
            args["cyclesLimit"] = _qty(cycles_limit)
        if cells_limit is not None:
            args["cellsLimit"] = _qty(cells_limit)
        return Receipt(self._call("cowboy_call", args))

    def get_logs(self, address=None, name=None, from_block=None, to_block=None):
        """Committed events; each log gains "decoded" (its data from CBOR)."""
        f = {}
        if address is not None:
            f["address"] = _addr(address)
        if name is not None:
            f["name"] = name
        if from_block is not None:
            f["fromBlock"] = _block(from_block)
        if to_block is not None:
            f["toBlock"] = _block(to_block)
        logs = self._call("cowboy_getLogs", f)
        for log in logs:
            log["decoded"] = cbor.decode(_unhex(log["data"]))
        return logs

    def consensus_status(self):
        return self._call("cowboy_consensusStatus")

    def validators(self, epoch=None):
        """cowboy_getValidators: the validator set of epoch (default: the
        latest block's) as {"height", "epoch", "seed", "members",
        "validators", "params"}; members are {"index", "address",
        "blsPublicKey", "stake", "weight"}, validators the registry's
        records with "status" pending, active, exiting or jailed. Amounts
        and heights are ints."""
        if epoch is None:
            return self._call("cowboy_getValidators")
        return self._call("cowboy_getValidators", _qty(epoch))

    def block_status(self, block):
        """cowboy_getBlockStatus: block is a height (int) or a chain or
        consensus block hash ("0x" + 64 hex digits). Returns {"hash",
        "consensusHash", "height", "round", "status"}, status one of
        "proposed", "committed", "finalized"."""
        if isinstance(block, int):
            block = hex(block)
        return self._call("cowboy_getBlockStatus", block)

    def trace_transaction(self, tx_hash):
        """cowboy_traceTransaction: a Trace of a committed transaction (its
        receipt and every handler with its pvm_host calls and traceback),
        or None for an unknown or pending one. RPCError -32001 when its
        block's parent state is no longer retained."""
        return Trace.from_json(self._call("cowboy_traceTransaction", tx_hash))

    # -- devnet controls (docs/devnet.md; RPCError -32010 elsewhere) ---

    def dev_mine(self, count=1):
        """Mine count blocks now; [DevBlock]."""
        return [DevBlock.from_json(b) for b in self._call("dev_mine", _qty(count))]

    def dev_snapshot(self):
        """The head as a DevBlock, to revert to with dev_revert."""
        return DevBlock.from_json(self._call("dev_snapshot"))

    def dev_revert(self, block):
        """Rewind to a retained block: a height (int), a "0x…" block hash, or
        a DevBlock from dev_snapshot. Returns the block reverted to."""
        if isinstance(block, DevBlock):
            block = block.hash
        if isinstance(block, int):
            block = _qty(block)
        return DevBlock.from_json(self._call("dev_revert", block))

    def dev_set_balance(self, address, balance):
        """Mine a block that sets address's balance (base units)."""
        return DevBlock.from_json(self._call("dev_setBalance", _addr(address), _qty(balance)))

    def dev_faucet(self, address, amount=None):
        """Mine a block that mints amount base units (default 100 CBY) to address."""
        if amount is None:
            return DevBlock.from_json(self._call("dev_faucet", _addr(address)))
        return DevBlock.from_json(self._call("dev_faucet", _addr(address), _qty(amount)))

    def dev_set_time(self, unix_seconds):
        """Mine a block with this timestamp; later blocks continue from it."""
        return DevBlock.from_json(self._call("dev_setTime", _qty(unix_seconds)))

    def dev_increase_time(self, seconds):
        """Move block time forward by seconds and mine a block."""
        return DevBlock.from_json(self._call("dev_increaseTime", _qty(seconds)))

    def dev_impersonate(self, from_, to=None, value=0, payload=b"", wait=True, timeout=30.0):
        """Send a transaction as from_ without its key (devnet only): a
        transfer, a call payload (cbor.call_payload) to an actor, or with
        to=None a deployment. Returns the receipt (the hash if not wait)."""
        args = {}
        if to is not None:
            args["to"] = _addr(to)
        if value:
            args["value"] = _qty(value)
        if payload:
            args["payload"] = _hex(payload)
        h = self.request("dev_impersonate", _addr(from_), args)
        return self.wait_receipt(h, timeout) if wait else h

    # -- high level ----------------------------------------------------

    def send(self, key, to, value=0, payload=b"", wait=True, timeout=30.0, nonce=None, allow_high_fee=False, **fees):
        """Sign and send a transaction from key, with the chain id from the
        node, the pending nonce, and limits/fees from cowboy_estimateFees
        (any of cycles_limit, cells_limit, max_fee_per_cycle, max_fee_per_cell,
        tip_per_cycle, tip_per_cell overrides the estimate). Returns the
        receipt (or the hash if not wait). A max fee or tip more than
        HIGH_FEE_FACTOR × the basefee raises HighFeeError before signing
        unless allow_high_fee; the worst-case fee is logged (logger
        "cowboy", INFO) before every signature."""
        unknown = set(fees) - set(Tx.FIELDS[4:10])
        if unknown:
            raise TypeError("unknown fee fields: %s" % ", ".join(sorted(unknown)))
        if nonce is None:
            nonce = self.get_nonce(key.address, pending=True)
        est = {}
        if len(fees) < 6:
            e = self.estimate_fees(key.address, to, value, payload)
            est = {"cycles_limit": e["cyclesLimit"], "cells_limit": e["cellsLimit"],
                   "max_fee_per_cycle": e["maxFeePerCycle"], "max_fee_per_cell": e["maxFeePerCell"],
                   "tip_per_cycle": e["tipPerCycle"], "tip_per_cell": e["tipPerCell"]}
        # As the CLI: a tip given alone moves the max fee with it; a max fee
        # given alone caps the tip.
        for unit in ("cycle", "cell"):
            tip, mx = "tip_per_" + unit, "max_fee_per_" + unit
            if tip in fees and mx not in fees and est:
                est[mx] = est[mx] - min(est[tip], est[mx]) + fees[tip]
            if mx in fees and tip not in fees and est:
                est[tip] = min(est[tip], fees[mx])
        est.update(fees)
        tx = Tx(self.chain_id(), nonce, to, value, payload=payload, **est)
        if not allow_high_fee:
            check_fees(tx, self.basefees())
        log.info("signing: worst-case fee %s (%d cycles x %d + %d cells x %d base units)", format_cby(worst_case_fee(tx)),
                 tx.cycles_limit, tx.max_fee_per_cycle, tx.cells_limit, tx.max_fee_per_cell)
        tx.sign(key)
        h = self.send_raw_transaction(tx)
        if not wait:
            return h
        return self.wait_receipt(h, timeout)

    def transfer(self, key, to, value, **kw):
        """Send value base units from key to `to`; the receipt."""
        return self.send(key, to, value, b"", **kw)

    def deploy(self, key, source, *args, salt=b"", value=0, check=True, **kw):
        """Deploy actor source (str, bytes, or a path-like to a .py file) with
        __init__ args; returns (address, receipt), or (address, hash) with
        wait=False. Raises TransactionFailed
        if the deployment failed (unless check=False)."""
        if hasattr(source, "__fspath__"):
            with open(source, "rb") as f:
                source = f.read()
        s = salt_bytes(salt)
        payload = cbor.deploy_payload(source, s, args)
        r = self.send(key, None, value, payload, **kw)
        if not kw.get("wait", True):
            return actor_address(key.address, s, source), r  # r is the hash
        if check and not r.ok:
            raise TransactionFailed(r)
        addr = r.contract_address or actor_address(key.address, s, source)
        return addr, r

    def call(self, key, actor, method, *args, value=0, check=True, **kw):
        """Call method(*args) on actor in a signed transaction; the receipt
        (receipt.return_value is the decoded return value). Raises
        TransactionFailed if the call failed (unless check=False)."""
        r = self.send(key, actor, value, cbor.call_payload(method, args), **kw)
        if check and kw.get("wait", True) and not r.ok:
            raise TransactionFailed(r)
        return r

    def query(self, actor, method, *args, from_=None, value=0):
        """Run method(*args) read-only (cowboy_call): the decoded return
        value. A failing call raises RPCError with code -32000, reason
        "execution_failed" and the Python exception as message."""
        r = self.call_raw(actor, cbor.call_payload(method, args), from_=from_, value=value)
        if not r.ok:
            raise RPCError(-32000, r.get("error", "call failed"), {"reason": "execution_failed", "result": r})
        return r.return_value
