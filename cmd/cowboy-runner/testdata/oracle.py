"""Oracle: asks the runner market a question and keeps the answers.

docs/runners.md deploys it; cmd/cowboy-runner's end-to-end test too.
"""
from cowboy_sdk import actor, runner


@actor
class Oracle:
    def __init__(self):
        self.storage["answers"] = []

    def ask(self, question, model, price):
        job = runner.submit(kind="llm", model=model, input={"prompt": question},
                            trust="majority_vote", committee=3, max_price=price,
                            callback="on_answer", timeout_blocks=12, seed=7)
        self.storage["pending"] = job
        return job

    def fetch(self, url, path, price):
        """An HTTP job: every member fetches url and extracts path; the
        bytes must match (deterministic)."""
        return runner.submit(kind="http", input={"url": url, "jsonpath": path},
                             trust="deterministic", committee=3, max_price=price,
                             callback="on_answer", timeout_blocks=12)

    @runner.continuation
    def on_answer(self, result):
        self.storage["answers"] = self.storage["answers"] + [
            {"job": result.job_id, "ok": result.ok, "value": result.value, "error": result.error}]

    def answers(self):
        return self.storage["answers"]
