// Package runner holds the off-chain side of the runner marketplace
// (technical spec §5): the daemon a runner operator runs
// (runner/daemon, cmd/cowboy-runner), the executors that do the work
// (runner/executor: LLM over any OpenAI-compatible chat-completions API,
// HTTP fetches with extraction), and llmsim, a small deterministic
// OpenAI-compatible server for tests and the devnet's simulated committee.
// The chain side is chain/system/runner.
package runner
