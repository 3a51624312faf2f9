// Package runner is the chain side of the runner marketplace (technical
// spec "Off-Chain Compute: The Runner Marketplace", §5, §8.4, §9, §12.2,
// §17.7): the Runner Registry (system actor 0x…01), the Job Dispatcher
// (0x…02), the Result Verifier (0x…03) and the Treasury (0x…08) that
// receives the 1% sink. They are native system actors like the validator
// registry and the storage manager; docs/decisions.md "Runner market" says
// why.
//
// Balances: 0x01 holds every runner's self-bond and every delegation
// (bonded and unbonding); 0x02 holds the escrow of every open job; 0x08
// accumulates the treasury's share. Nothing else moves their money.
//
// Runner Registry methods (transaction payload [method, args…]):
//
//	["register", endpoint, [model…], [domain…], {"per_job","per_token","per_kb"}, max_job_value, commission_bps]  value = self-bond
//	["update", endpoint, [model…], [domain…], rates, max_job_value, commission_bps]  value = added self-bond (may be 0)
//	["delegate", runner]             value = stake delegated (CIP-13)
//	["undelegate", runner, amount]   starts unbonding (UnbondingBlocks)
//	["exit"]                         the runner stops taking jobs; its bond and delegations unbond
//	["withdraw", runner]             releases the caller's matured unbonding stake at runner
//	["publish_model", model_id, name]   value = ModelDeposit (§5.1)
//	["retract_model", model_id]      the publisher gets the deposit back
//
// Job Dispatcher methods:
//
//	["post", spec]   value = max_price escrow; spec is the JobSpec map
//
// Result Verifier methods:
//
//	["commit", job_id, commitment]   commitment = keccak256(output ‖ sig), from a committee member
//	["reveal", job_id, [[member, status, output, usage, sig], …]]
//
// Actors post jobs through the runner.submit host call (PostJob); the
// block's "Resolve Jobs" step (EndBlock, then the deliveries) settles jobs
// whose deadlines passed and hands each result to its actor's continuation
// in a later block.
package runner
