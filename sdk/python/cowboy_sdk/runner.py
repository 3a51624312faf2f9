"""cowboy_sdk.runner: off-chain compute from an actor (technical spec §5).

    from cowboy_sdk import actor, runner

    @actor
    class Oracle:
        def ask(self, question):
            self.storage["pending"] = runner.submit(
                kind="llm", model="m1", input={"prompt": question},
                trust="majority_vote", committee=3, max_price=10**18,
                callback="on_answer", timeout_blocks=50)

        @runner.continuation
        def on_answer(self, result):    # result.ok / .value / .error / .job_id
            ...

A submodule, so actors that do not use the runner market do not pay to
load it (docs/runners.md).
"""

import pvm_host
from cowboy_sdk import context

# The result verifier (system actor 0x03) delivers job results.
RESULT_VERIFIER = "0x0000000000000000000000000000000000000003"


class Result:
    """A job's result as a continuation gets it.

    ok is True when the committee's result was accepted; value is then the
    result (the parsed JSON document when the job had a result_schema, the
    text otherwise). When the job failed, timed out or found no committee,
    ok is False and error says why. outcome names the payment-table row:
    "success", "runner_fault", "impossible", "actor_fault",
    "external_fault" or "no_committee".
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
            return "Result(job_id=%d, ok=True, value=%r)" % (self.job_id, self.value)
        return "Result(job_id=%d, ok=False, error=%r)" % (self.job_id, self.error)


def submit(kind="llm", model=None, input=None, result_schema=None,
           trust="majority_vote", committee=None, threshold=None,
           max_price=0, max_tokens=None, max_wall_ms=None, timeout_blocks=None, seed=0,
           callback=None, vote_field=None, match_fields=None,
           similarity_bps=None, toolchain_digest=None, tip=None):
    """Post a job and return its id.

    max_price (plus tip) base units move from this actor's balance into
    escrow; what the job does not cost comes back when it settles. The tip
    is paid only on success, on top of the payment, and puts the
    continuation ahead of lower tips in a busy runner lane. committee,
    threshold and timeout_blocks default to the chain's runner parameters. The result arrives
    as a call of `callback` (a method marked @runner.continuation) in a
    later block; a failed or timed-out job arrives there too, with
    result.ok False. Costs 10,000 cycles plus a cell per byte of the spec
    (§17.2 LlmRequest).
    """
    if callback is None:
        raise ValueError("runner.submit needs callback=, the continuation's method name")
    if isinstance(result_schema, dict):
        import json
        result_schema = json.dumps(result_schema, sort_keys=True, separators=(",", ":"))
    spec = {"kind": kind, "input": input, "trust": trust, "max_price": max_price,
            "seed": seed, "callback": callback}
    optional = {"model": model, "result_schema": result_schema, "committee": committee,
                "timeout_blocks": timeout_blocks, "tip": tip,
                "threshold": threshold, "max_tokens": max_tokens, "max_wall_ms": max_wall_ms,
                "vote_field": vote_field,
                "match_fields": match_fields, "similarity_bps": similarity_bps,
                "toolchain_digest": toolchain_digest}
    for k in optional:
        if optional[k] is not None:
            spec[k] = optional[k]
    return pvm_host.runner_submit(spec)


def continuation(fn):
    """Mark fn(self, result) as the method a job's result is delivered to.

    Only the result verifier may call it: a call from anyone else raises
    PermissionError, so nobody can hand the actor a forged result.
    """
    def wrapper(actor_self, raw):
        if context.sender != RESULT_VERIFIER:
            raise PermissionError("a runner continuation is called only by the result verifier " + RESULT_VERIFIER)
        return fn(actor_self, Result(raw))
    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper
