"""Unit tests of the cowboy client package (no node needed).

Run: cd sdk/python && /usr/bin/python3 -m unittest discover -s tests -t .
"""

import json
import math
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SDK = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(SDK))
sys.path.insert(0, SDK)

import cowboy  # noqa: E402
from cowboy import cbor  # noqa: E402

# Addresses of the devnet accounts (docs/devnet.md; Hardhat's well-known set).
DEV_ADDRESSES = [
    "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
    "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
    "0x976EA74026E726554dB657fA54763abd0C3a0aa9",
    "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955",
    "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f",
    "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
]


class KeyTest(unittest.TestCase):
    def test_dev_addresses(self):
        for i, want in enumerate(DEV_ADDRESSES):
            self.assertEqual(cowboy.Key.dev(i).address, want, "dev%d" % i)

    def test_dev0_private_key(self):
        self.assertEqual(cowboy.Key.dev(0).private_key_hex,
                         "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")

    def test_from_hex(self):
        # Private key 1's address (docs/rpc.md examples use it).
        k = cowboy.Key.from_hex("0x" + "00" * 31 + "01")
        self.assertEqual(k.address, "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf")
        self.assertRaises(ValueError, cowboy.Key.from_hex, "00" * 32)
        self.assertRaises(ValueError, cowboy.Key.from_hex, "01")

    def test_sign_low_s_and_recover(self):
        n = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
        for i in range(20):
            k = cowboy.Key.generate()
            d = cowboy.keccak256(bytes([i]))
            v, r, s = k.sign_digest(d)
            self.assertIn(v, (0, 1))
            self.assertLessEqual(int.from_bytes(s, "big"), n // 2)
            self.assertEqual(cowboy.recover_address(d, v, r, s), k.address)
            self.assertEqual(k.sign_digest(d), (v, r, s), "RFC 6979: deterministic")

    def test_checksum(self):
        a = DEV_ADDRESSES[0]
        self.assertEqual(cowboy.to_checksum_address(a.lower()), a)
        self.assertEqual(cowboy.address_bytes(a.lower()), bytes.fromhex(a[2:]))
        bad = a[:2] + a[2].swapcase() + a[3:]
        self.assertRaises(ValueError, cowboy.address_bytes, bad)
        self.assertRaises(ValueError, cowboy.address_bytes, "0x12")


class AppendixATest(unittest.TestCase):
    """technical-spec-v2 Appendix A, chain/types/testdata/appendix_a.json."""

    def test_vectors(self):
        with open(os.path.join(REPO, "chain", "types", "testdata", "appendix_a.json")) as f:
            vectors = json.load(f)["vectors"]
        tx = cowboy.Tx(chain_id=1, nonce=0, to=b"\x11" * 20, value=1, cycles_limit=21000, cells_limit=0,
                       max_fee_per_cycle=10, max_fee_per_cell=2, tip_per_cycle=1, tip_per_cell=0)
        for v in vectors:
            if v["name"] == "vector2_signed":
                tx.signature = (0, b"\x01" * 32, b"\x02" * 32)
            self.assertEqual(tx.encode().hex(), v["cbor"], v["name"])
            self.assertEqual(tx.signing_hash().hex(), v["signing_hash"], v["name"])
            self.assertEqual(tx.hash().hex(), v["tx_hash"], v["name"])
            back = cowboy.Tx.decode(bytes.fromhex(v["cbor"]))
            self.assertEqual(back.encode().hex(), v["cbor"])
        self.assertEqual(len(vectors), 2)

    def test_value_bignum_and_null_to(self):
        tx = cowboy.Tx(chain_id=7777, to=None, value=2 ** 64, payload=b"\x80")
        enc = tx.encode()
        # value: tag 2 around 9 bytes 01 00…00.
        self.assertIn(bytes.fromhex("c249010000000000000000"), enc)
        self.assertEqual(enc[:4], bytes.fromhex("8d191e61"))
        self.assertEqual(enc[4:6], bytes.fromhex("00f6"))
        tx.value = 2 ** 64 - 1
        self.assertIn(bytes.fromhex("1bffffffffffffffff"), tx.encode())
        self.assertRaises(ValueError, cowboy.Tx(1, value=2 ** 256).encode)

    def test_sign_and_sender(self):
        k = cowboy.Key.dev(3)
        tx = cowboy.Tx(7777, 5, DEV_ADDRESSES[1], 10 ** 18, 10000, 0, 3, 3, 1, 1).sign(k)
        self.assertEqual(tx.sender(), k.address)
        self.assertEqual(cowboy.Tx.decode(tx.encode()).hash(), tx.hash())


class CBORTest(unittest.TestCase):
    def test_pvm_vectors(self):
        """pvm/cbor's golden vectors (TestVectors checks the Go side)."""
        with open(os.path.join(REPO, "pvm", "cbor", "testdata", "vectors.json")) as f:
            vectors = json.load(f)
        env = {"__builtins__": {"float": float, "bytearray": bytearray, "list": list,
                                "range": range, "dict": dict, "tuple": tuple}}
        for v in vectors:
            value = eval(v["py"], env)
            self.assertEqual(cbor.encode(value).hex(), v["hex"], v["name"])
        self.assertGreater(len(vectors), 50)

    def test_payload_table(self):
        """Payloads whose bytes the Go side produced (see client_test.go)."""
        for method, args, want in PAYLOADS:
            self.assertEqual(cbor.call_payload(method, args).hex(), want, (method, args))

    def test_go_vectors(self):
        """Vectors written by client_test.go from types.CallPayload,
        types.DeployPayload and pvm/cbor.EncodeGo, when run from Go."""
        path = os.environ.get("COWBOY_GO_VECTORS")
        if not path:
            self.skipTest("COWBOY_GO_VECTORS not set (run by go test ./sdk/python/)")
        with open(path) as f:
            vectors = json.load(f)
        for v in vectors["payloads"]:
            value = eval(v["py"], {"__builtins__": {"float": float}})
            if v["kind"] == "call":
                got = cbor.call_payload(value[0], value[1])
            elif v["kind"] == "deploy":
                got = cbor.deploy_payload(value[0], value[1], value[2])
            else:
                got = cbor.encode(value)
            self.assertEqual(got.hex(), v["hex"], v["py"])
        for v in vectors["txs"]:
            k = cowboy.Key.dev(v["dev"])
            f = v["fields"]
            tx = cowboy.Tx(f[0], f[1], v["to"], int(v["value"]), *f[4:10], payload=bytes.fromhex(v["payload"]))
            tx.sign(k)
            self.assertEqual(tx.encode().hex(), v["hex"], "signed tx, RFC 6979 nonce as Go's")
        self.assertTrue(vectors["payloads"] and vectors["txs"])

    def test_float_and_order_differ_from_cbor2(self):
        self.assertEqual(cbor.encode(1.5).hex(), "fb3ff8000000000000")
        self.assertEqual(cbor.encode(float("nan")).hex(), "fb7ff8000000000000")
        # bytewise: "b" (61 62) before "aa" (62 61 61).
        self.assertEqual(cbor.encode({"aa": 1, "b": 2}).hex(), "a2616202626161" + "01")
        self.assertEqual(cbor.decode(cbor.encode({"aa": 1, "b": [1.5, None]})), {"aa": 1, "b": [1.5, None]})
        self.assertTrue(math.isnan(cbor.decode(cbor.encode(float("nan")))))
        self.assertRaises(TypeError, cbor.encode, {1, 2})

    def test_salt_and_address(self):
        self.assertEqual(cowboy.salt_bytes(b""), b"\x00" * 32)
        self.assertEqual(cowboy.salt_bytes("0x01"), b"\x00" * 31 + b"\x01")
        self.assertEqual(cowboy.salt_bytes("v2"), cowboy.keccak256(b"v2"))
        self.assertEqual(cowboy.canonical_source("\ufeffa\r\nb\rc"), b"a\nb\nc")


class ConvertTest(unittest.TestCase):
    def test_quantities_but_not_user_json(self):
        from cowboy.client import _convert
        r = _convert({"status": "0x1", "fee": "0x4e20", "returnData": "0x01", "returnValue": {"nonce": "0x5"},
                      "events": [{"address": "0xab", "name": "E", "data": "0x", "value": "0x10"}],
                      "messages": [{"depth": "0x1", "status": "0x0"}],
                      "tx": {"nonce": "0x2", "value": "0xde0b6b3a7640000", "payload": "0x80"}})
        self.assertEqual(r["status"], 1)
        self.assertEqual(r["fee"], 20000)
        self.assertEqual(r["returnData"], "0x01")
        self.assertEqual(r["returnValue"], {"nonce": "0x5"})
        self.assertEqual(r["events"][0]["value"], "0x10")
        self.assertEqual(r["messages"][0], {"depth": 1, "status": 0})
        self.assertEqual(r["tx"], {"nonce": 2, "value": 10 ** 18, "payload": "0x80"})


class GuardTest(unittest.TestCase):
    def test_unreachable_is_one_line_without_chained_traceback(self):
        with self.assertRaises(cowboy.NodeUnreachable) as cm:
            cowboy.Client("http://127.0.0.1:1").chain_id()
        e = cm.exception
        self.assertIsInstance(e, ConnectionError)
        self.assertNotIn("\n", str(e))
        self.assertIn("cannot reach the node at http://127.0.0.1:1", str(e))
        self.assertIsNone(e.__cause__)
        self.assertTrue(e.__suppress_context__)

    def test_format_cby(self):
        self.assertEqual(cowboy.format_cby(15 * 10 ** 17), "1.5 CBY")
        self.assertEqual(cowboy.format_cby(10000 * (2 ** 64 - 1)), "184,467.44073709551615 CBY")
        self.assertEqual(cowboy.format_cby(0), "0 CBY")

    def test_check_fees(self):
        to = cowboy.Key.dev(1).address
        ok = cowboy.Tx(7777, 0, to, 1, 10000, 0, 3, 3, 1, 1)
        cowboy.check_fees(ok, {"cycle": 1, "cell": 1})
        for fields, name in (((10000, 0, 2 ** 64 - 1, 3, 2 ** 64 - 1, 1), "tip_per_cycle"),
                             ((10000, 0, 101, 3, 1, 1), "max_fee_per_cycle"),
                             ((10000, 0, 3, 3, 1, 500), "tip_per_cell")):
            with self.assertRaises(cowboy.HighFeeError) as cm:
                cowboy.check_fees(cowboy.Tx(7777, 0, to, 1, *fields), {"cycle": 1, "cell": 1})
            self.assertIn(name + "=", str(cm.exception))
            self.assertIn("allow_high_fee=True", str(cm.exception))
        with self.assertRaises(cowboy.HighFeeError) as cm:
            cowboy.check_fees(cowboy.Tx(7777, 0, to, 1, 10000, 0, 2 ** 64 - 1, 3, 2 ** 64 - 1, 1), {"cycle": 1, "cell": 1})
        self.assertIn("184,467.44073709551615 CBY", str(cm.exception))
        self.assertEqual(cm.exception.worst_case, 10000 * (2 ** 64 - 1))


# (method, args, canonical CBOR of [method, args]) from Go:
# (&types.CallPayload{Method: m, Args: cbor.EncodeGo(args)}).Encode().
PAYLOADS = [
    ("increment", [], "8269696e6372656d656e7480"),
    ("get_count", [], "82696765745f636f756e7480"),
]


if __name__ == "__main__":
    unittest.main()
