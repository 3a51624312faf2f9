"""Deploy the counter actor, increment it, and read it back.

    cowboyd devnet &
    cd sdk/python && /usr/bin/python3 examples/counter.py [URL]

URL defaults to $COWBOY_RPC or http://127.0.0.1:8645.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import cowboy  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
COUNTER = os.path.join(HERE, "..", "..", "..", "examples", "counter_sdk", "main.py")


def main():
    url = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("COWBOY_RPC", cowboy.DEFAULT_URL)
    client = cowboy.Client(url)
    me = cowboy.Key.dev(0)  # a devnet account: anyone holds its key
    print("chain", client.chain_id(), "at block", client.block_number())
    print(me.address, "has", client.get_balance(me.address) // cowboy.CBY, "CBY (whole)")

    with open(COUNTER) as f:
        source = f.read()
    # A fresh salt each run, so the same code deploys to a new address.
    counter, receipt = client.deploy(me, source, salt=os.urandom(32))
    print("deployed", counter, "in block", receipt["blockNumber"], "fee", receipt["fee"])

    receipt = client.call(me, counter, "increment")
    print("increment ->", receipt.return_value, "cycles", receipt["cyclesUsed"])
    print("get_count =", client.query(counter, "get_count"))
    print("storage['count'] =", client.get_actor_storage(counter, "count"))


if __name__ == "__main__":
    try:
        main()
    except cowboy.NodeUnreachable as e:
        sys.exit("error: %s" % e)
