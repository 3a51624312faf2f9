# An event log with topics, filters and paging (like contract events).
import json
from itertools import islice

events = []


def emit(block, topic, **data):
    events.append({"block": block, "idx": len(events), "topic": topic, "data": data})


for b in range(1, 8):
    emit(b, "Transfer", src=f"u{b}", dst=f"u{b + 1}", amount=b * 10)
    if b % 2:
        emit(b, "Approval", owner=f"u{b}", spender="dex", amount=100)
    if b == 5:
        emit(b, "Paused", by="admin")


def query(topic=None, from_block=0, to_block=None, where=None):
    for e in events:
        if topic and e["topic"] != topic:
            continue
        if e["block"] < from_block or (to_block is not None and e["block"] > to_block):
            continue
        if where and not all(e["data"].get(k) == v for k, v in where.items()):
            continue
        yield e


def page(it, size, n):
    return list(islice(it, size * n, size * (n + 1)))


print(len(events), [e["idx"] for e in query("Approval")])
print([e["data"]["amount"] for e in query("Transfer", 3, 5)])
print(list(query(where={"spender": "dex", "owner": "u3"}))[0]["idx"])
for n in range(3):
    print(n, [(e["block"], e["topic"][0]) for e in page(query(), 4, n)])
print(json.dumps(events[9], sort_keys=True))
print(sum(e["data"].get("amount", 0) for e in query("Transfer")), {e["topic"] for e in events} == {"Transfer", "Approval", "Paused"})
