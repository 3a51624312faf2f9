"""End-to-end test of the cowboy client against a running devnet.

client_test.go starts an in-process devnet node and sets COWBOY_RPC; by hand:
    cowboyd devnet &  COWBOY_RPC=http://127.0.0.1:8645 /usr/bin/python3 -m unittest
(run in sdk/python/tests). Without COWBOY_RPC the test is skipped.
"""

import asyncio
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SDK = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(SDK))
sys.path.insert(0, SDK)

import cowboy  # noqa: E402

URL = os.environ.get("COWBOY_RPC")


@unittest.skipUnless(URL, "COWBOY_RPC not set: no devnet to test against")
class DevnetTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = cowboy.Client(URL)
        cls.dev0 = cowboy.Key.dev(0)

    def test_1_reads(self):
        c = self.c
        self.assertEqual(c.chain_id(), 7777)
        self.assertGreaterEqual(c.block_number(), 0)
        g = c.get_block(0)
        self.assertEqual(g["height"], 0)
        self.assertEqual(c.get_block(g["hash"])["hash"], g["hash"])
        self.assertIsNone(c.get_block(10 ** 9))
        self.assertGreater(c.get_balance(self.dev0.address), 0)
        self.assertGreater(c.total_supply(), 0)
        bf = c.basefees()
        self.assertGreater(bf["cycle"], 0)
        self.assertEqual(c.consensus_status()["mode"], "devnet")
        st = c.block_status(0)
        self.assertEqual((st["status"], st["height"], st["hash"]), ("finalized", 0, g["hash"]))
        self.assertEqual(c.block_status(g["hash"])["status"], "finalized")
        v = c.validators()
        self.assertEqual((v["epoch"], v["members"], v["validators"]), (0, [], []))
        self.assertEqual(v["params"]["minValidatorStake"], 1000 * 10 ** 18)
        self.assertEqual(c.validators(0)["params"]["epochLength"], v["params"]["epochLength"])
        self.assertIsNone(c.get_receipt("0x" + "00" * 32))
        self.assertIsNone(c.get_code(cowboy.Key.dev(9).address))

    def test_2_errors(self):
        with self.assertRaises(cowboy.RPCError) as cm:
            self.c.request("eth_blockNumber")
        self.assertEqual(cm.exception.code, -32601)
        # A transaction signed for another chain is rejected with a reason.
        k = cowboy.Key.dev(5)
        tx = cowboy.Tx(1, 0, cowboy.Key.dev(6).address, 1, 10000, 0, 100, 100, 1, 1).sign(k)
        with self.assertRaises(cowboy.RPCError) as cm:
            self.c.send_raw_transaction(tx)
        self.assertEqual(cm.exception.code, -32000)
        self.assertEqual(cm.exception.reason, "wrong_chain_id")
        with self.assertRaises(ConnectionError):
            cowboy.Client("http://127.0.0.1:1").chain_id()

    def test_2b_guards(self):
        c, k = self.c, cowboy.Key.dev(7)
        to = cowboy.Key.dev(8).address
        before = c.get_nonce(k.address)
        with self.assertRaises(cowboy.HighFeeError) as cm:
            c.transfer(k, to, 1, tip_per_cycle=2 ** 64 - 1)
        self.assertIn("184,467", str(cm.exception))
        self.assertEqual(c.get_nonce(k.address), before, "a refused transfer was sent")
        with self.assertLogs("cowboy", "INFO") as logs:
            r = c.transfer(k, to, 1, tip_per_cycle=1000, allow_high_fee=True)
        self.assertTrue(r.ok, r)
        self.assertIn("worst-case fee", "\n".join(logs.output))
        # An account without code is no actor: the node says so.
        with self.assertRaises(cowboy.RPCError) as cm:
            c.query(to, "get_count")
        self.assertEqual(cm.exception.code, -32001)
        self.assertIn("no actor at " + to, cm.exception.message)

    def test_2c_subscriptions(self):
        c, k = self.c, cowboy.Key.dev(6)
        with c.subscriber() as s:
            heads = s.subscribe("newHeads")
            pend = s.subscribe("pendingTransactions")
            h = c.transfer(k, cowboy.Key.dev(5).address, 1, wait=False)
            got = {}
            while len(got) < 2:
                sid, result = s.next()
                got.setdefault(sid, result)
            self.assertEqual(got[pend], h)
            self.assertGreater(int(got[heads]["height"], 16), 0)
            self.assertTrue(s.call("cowboy_unsubscribe", heads))
        # wait_receipt subscribes; a receipt already there comes at once.
        self.assertTrue(c.wait_receipt(h).ok)

    def test_3_transfer(self):
        c = self.c
        fresh = cowboy.Key.generate()
        r = c.transfer(self.dev0, fresh.address, 3 * cowboy.CBY)
        self.assertTrue(r.ok, r)
        self.assertEqual(r["from"], self.dev0.address)
        self.assertEqual(r["to"], fresh.address)
        self.assertGreater(r["fee"], 0)
        self.assertEqual(r["fee"], r["burned"] + r["tip"])
        self.assertEqual(c.get_balance(fresh.address), 3 * cowboy.CBY)
        tx = c.get_transaction(r["transactionHash"])
        self.assertEqual(tx["value"], 3 * cowboy.CBY)
        self.assertEqual(tx["blockNumber"], r["blockNumber"])
        # The fresh key pays its own transfer back.
        r2 = c.transfer(fresh, self.dev0.address, cowboy.CBY, tip_per_cycle=2)
        self.assertTrue(r2.ok)
        self.assertEqual(c.get_transaction(r2["transactionHash"])["tipPerCycle"], 2)
        self.assertEqual(c.get_nonce(fresh.address), 1)
        self.assertEqual(c.get_balance(fresh.address), 2 * cowboy.CBY - r2["fee"])
        # Without waiting: the hash at once, the receipt later.
        h = c.transfer(self.dev0, fresh.address, 5, wait=False)
        self.assertTrue(h.startswith("0x") and len(h) == 66)
        self.assertEqual(c.wait_receipt(h, timeout=10)["transactionHash"], h)
        self.assertEqual(c.get_balance(fresh.address), 2 * cowboy.CBY - r2["fee"] + 5)

    def test_4_counter(self):
        c = self.c
        path = os.path.join(REPO, "examples", "counter_sdk", "main.py")
        with open(path) as f:
            src = f.read()
        addr, r = c.deploy(self.dev0, src, salt="python-client-e2e")
        self.assertTrue(r.ok, r.get("error"))
        self.assertEqual(addr, cowboy.actor_address(self.dev0.address, "python-client-e2e", src))
        code = c.get_code(addr)
        self.assertEqual(code["source"], src)
        self.assertEqual(c.query(addr, "get_count"), 0)
        r = c.call(self.dev0, addr, "increment")
        self.assertTrue(r.ok)
        self.assertEqual(r.return_value, 1)
        r = c.call(cowboy.Key.dev(1), addr, "increment")
        self.assertEqual(r.return_value, 2)
        self.assertEqual(c.query(addr, "get_count"), 2)
        self.assertEqual(c.get_actor_storage(addr, "count"), 2)
        self.assertIsNone(c.get_actor_storage(addr, "nope"))
        entries = c.actor_storage(addr)
        self.assertEqual([(e.namespace, e.decoded_key, e.decoded_value) for e in entries], [(0, "count", 2)])
        self.assertEqual(entries[0].key, cowboy.cbor.encode("count"))
        page = c.list_actor_storage(addr, limit=1)
        self.assertIsNone(page.next)
        self.assertEqual(page.entries, entries)
        many, r = c.deploy(self.dev0, "from cowboy_sdk import actor\n\n\n@actor\nclass Many:\n"
                                      "    def __init__(self):\n        for i in range(5):\n"
                                      "            self.storage[('k', i)] = i * i\n")
        self.assertTrue(r.ok, r.get("error"))
        pages, cursor = [], None
        while True:
            page = c.list_actor_storage(many, cursor, limit=2)
            pages.append(page.entries)
            if page.next is None:
                break
            cursor = page.next
        self.assertEqual([len(p) for p in pages], [2, 2, 1])
        got = sorted((tuple(e.decoded_key), e.decoded_value) for p in pages for e in p)
        self.assertEqual(got, [(("k", i), i * i) for i in range(5)])
        self.assertEqual([e.slot for p in pages for e in p], [e.slot for e in c.actor_storage(many)])
        with self.assertRaises(cowboy.RPCError) as cm:
            c.list_actor_storage(cowboy.Key.dev(5).address)
        self.assertEqual(cm.exception.code, -32001)
        self.assertIn("no actor at", str(cm.exception))
        with self.assertRaises(cowboy.RPCError) as cm:
            c.query(addr, "no_such_method")
        self.assertEqual(cm.exception.reason, "execution_failed")
        # Deploying the same code with the same salt again fails on chain or
        # is refused by the estimate.
        with self.assertRaises((cowboy.RPCError, cowboy.TransactionFailed)):
            c.deploy(self.dev0, src, salt="python-client-e2e")

    def test_5_events_and_logs(self):
        c = self.c
        src = (
            "from cowboy_sdk import actor, emit_event\n\n\n"
            "@actor\n"
            "class Echo:\n"
            "    def __init__(self, greeting):\n"
            "        self.storage['greeting'] = greeting\n\n"
            "    def shout(self, data):\n"
            "        emit_event('Shout', {'greeting': self.storage['greeting'], 'data': data})\n"
            "        return [self.storage['greeting'], data]\n"
        )
        addr, r = c.deploy(self.dev0, src, "hi")
        self.assertTrue(r.ok, r.get("error"))
        value = {"b": 1, "aa": [1.5, None, True], "raw": b"\x00\xff", "big": 2 ** 70, "neg": -(2 ** 70)}
        self.assertEqual(c.query(addr, "shout", value), ["hi", value])
        r = c.call(self.dev0, addr, "shout", value)
        self.assertEqual(r.return_value, ["hi", value])
        self.assertEqual(r.events, [(addr, "Shout", {"greeting": "hi", "data": value})])
        logs = c.get_logs(address=addr, name="Shout")
        self.assertEqual(len(logs), 1)
        self.assertEqual(logs[0]["decoded"], {"greeting": "hi", "data": value})
        self.assertEqual(logs[0]["blockNumber"], r["blockNumber"])
        self.assertEqual(logs[0]["transactionHash"], r["transactionHash"])

    def test_6_typed_results(self):
        c = self.c
        b = c.get_block(0)
        self.assertIsInstance(b, cowboy.Block)
        self.assertEqual((b.height, b.status, b.transactions), (0, "finalized", []))
        self.assertEqual(b["height"], b.height)  # still reads like the dict
        self.assertEqual(b.basefee_cycle, b["basefeeCycle"])
        bf = c.basefees()
        self.assertIsInstance(bf, cowboy.Basefees)
        self.assertGreater(bf.cycle, 0)
        e = c.estimate_fees(self.dev0.address, cowboy.Key.dev(2).address, 1)
        self.assertIsInstance(e, cowboy.FeeEstimate)
        self.assertEqual(e.max_cost, e.cycles_limit * e.max_fee_per_cycle + e.cells_limit * e.max_fee_per_cell)
        r = c.transfer(self.dev0, cowboy.Key.dev(2).address, 7)
        tx = c.get_transaction(r["transactionHash"])
        self.assertIsInstance(tx, cowboy.Transaction)
        self.assertEqual((tx.from_, tx.to, tx.value, tx.block_number), (self.dev0.address, cowboy.Key.dev(2).address, 7,
                                                                        r["blockNumber"]))
        full = c.get_block(r["blockNumber"], full_tx=True)
        self.assertEqual(full.transactions[0].hash, tx.hash)

    def test_7_trace(self):
        c = self.c
        src = (
            "from cowboy_sdk import actor, emit_event\n\n\n"
            "@actor\n"
            "class Picky:\n"
            "    def __init__(self):\n"
            "        self.storage['n'] = 0\n\n"
            "    def take(self, n):\n"
            "        emit_event('Took', n)\n"
            "        if n > 3:\n"
            "            raise ValueError('too many')\n"
            "        self.storage['n'] += n\n"
        )
        addr, _ = c.deploy(self.dev0, src, salt="trace-e2e")
        # The estimate refuses a call that would fail: give every fee field.
        r = c.call(self.dev0, addr, "take", 9, check=False, cycles_limit=200000, cells_limit=5000,
                   max_fee_per_cycle=10, max_fee_per_cell=10, tip_per_cycle=1, tip_per_cell=1)
        self.assertFalse(r.ok)
        t = c.trace_transaction(r["transactionHash"])
        self.assertIsInstance(t, cowboy.Trace)
        self.assertEqual(t.receipt["transactionHash"], r["transactionHash"])
        self.assertEqual(len(t.handlers), 1)
        h = t.handlers[0]
        self.assertEqual((h.method, h.status, h.to), ("take", "failed", addr))
        self.assertEqual(h.cycles_used, r["messages"][0]["cyclesUsed"])  # tracing costs nothing
        self.assertIn('File "main.py", line 12, in take', h.traceback)
        self.assertIn("ValueError: too many", h.error)
        emits = [hc for hc in h.host_calls if hc.name == "emit_event"]
        self.assertEqual(emits[0].args, ["'Took'", "9"])
        self.assertGreater(emits[0].cycles, 0)
        self.assertIsNone(c.trace_transaction("0x" + "00" * 32))

    def test_8_async(self):
        async def main():
            async with cowboy.AsyncClient(URL) as ac:
                n, bal, blk = await asyncio.gather(ac.block_number(), ac.get_balance(self.dev0.address),
                                                   ac.get_block("latest"))
                self.assertEqual(blk.height, n)
                self.assertEqual(bal, self.c.get_balance(self.dev0.address))
                r = await ac.transfer(cowboy.Key.dev(3), cowboy.Key.dev(4).address, 11)
                self.assertTrue(r.ok)
                t = await ac.trace_transaction(r["transactionHash"])
                self.assertEqual(t.handlers, [])
                with self.assertRaises(cowboy.RPCError):
                    await ac.request("eth_blockNumber")
        self.assertTrue(asyncio.iscoroutinefunction(cowboy.AsyncClient.deploy))
        asyncio.run(main())

    def test_9_dev_controls(self):
        c = self.c
        who = cowboy.Key.generate().address
        snap = c.dev_snapshot()
        self.assertIsInstance(snap, cowboy.DevBlock)
        supply = c.total_supply()
        b = c.dev_set_balance(who, 5 * cowboy.CBY)
        self.assertEqual(b.height, snap.height + 1)
        self.assertEqual(c.get_balance(who), 5 * cowboy.CBY)
        c.dev_faucet(who)
        self.assertEqual(c.get_balance(who), 105 * cowboy.CBY)
        self.assertEqual(c.total_supply(), supply + 105 * cowboy.CBY)
        mined = c.dev_mine(2)
        self.assertEqual([m.height for m in mined], [snap.height + 3, snap.height + 4])
        t = c.dev_increase_time(3600)
        self.assertGreaterEqual(t.time, mined[-1].time + 3600)
        self.assertEqual(c.dev_set_time(t.time + 10).time, t.time + 10)
        with self.assertRaises(cowboy.RPCError) as cm:
            c.dev_set_time(1)
        self.assertEqual(cm.exception.code, -32602)
        r = c.dev_impersonate(who, cowboy.Key.dev(2).address, cowboy.CBY)
        self.assertTrue(r.ok, r)
        self.assertEqual(r["from"], who)
        self.assertEqual(c.get_transaction(r["transactionHash"]).from_, who)
        self.assertEqual(c.get_nonce(who), 1)
        back = c.dev_revert(snap)
        self.assertEqual((back.height, back.hash, back.state_root), (snap.height, snap.hash, snap.state_root))
        self.assertEqual(c.get_balance(who), 0)
        self.assertEqual(c.total_supply(), supply)
        self.assertEqual(c.block_number(), snap.height)


if __name__ == "__main__":
    unittest.main()
