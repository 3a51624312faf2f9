// Package executor does a runner's jobs: LLM chat completions against any
// OpenAI-compatible endpoint, and HTTP fetches with extraction. Each
// returns the output, the usage it reports (tokens, or KiB fetched) and a
// status naming the payment-table row when the job could not be done
// (technical spec "Payment and Failure Handling").
package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
)

// Job is what an executor needs of a job.
type Job struct {
	ID        uint64
	Kind      string // runner.KindLLM or runner.KindHTTP
	Model     string
	Input     json.RawMessage // the job's input as JSON
	MaxTokens uint64
	Seed      uint64
	MaxWall   time.Duration // 0: no bound beyond the executor's own timeouts
}

// Result is an executed job: Status is runner.StatusOK or a fault status
// (the output then says why).
type Result struct {
	Status uint8
	Output []byte
	Usage  uint64
}

func fault(status uint8, format string, a ...any) Result {
	return Result{Status: status, Output: []byte(fmt.Sprintf(format, a...))}
}

// Executor runs jobs.
type Executor interface {
	Execute(ctx context.Context, j Job) Result
}

// Kinds dispatches by job kind; a kind without an executor is an
// external fault (this runner cannot do it).
type Kinds map[string]Executor

// Execute runs j with the executor of its kind.
func (k Kinds) Execute(ctx context.Context, j Job) Result {
	e, ok := k[j.Kind]
	if !ok {
		return fault(runner.StatusExternal, "this runner has no %s executor", j.Kind)
	}
	if j.MaxWall > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, j.MaxWall)
		defer cancel()
	}
	r := e.Execute(ctx, j)
	if j.MaxWall > 0 && ctx.Err() != nil {
		// The job's max wall time was too tight: an impossible job (the
		// payment table pays the progress; here none is known).
		return fault(runner.StatusImpossible, "max wall time of %s exceeded", j.MaxWall)
	}
	if len(r.Output) > runner.MaxResultBytes {
		return fault(runner.StatusImpossible, "the result is %d bytes, over the 64 KiB limit (§5.4)", len(r.Output))
	}
	return r
}

// defaultBackoff is the first wait between attempts when none is set.
const defaultBackoff = 200 * time.Millisecond

// firstBackoff is d, or defaultBackoff when d is not positive.
func firstBackoff(d time.Duration) time.Duration {
	if d <= 0 {
		return defaultBackoff
	}
	return d
}

// retry calls f up to attempts times with exponential backoff from base
// while it reports a retryable failure.
func retry(ctx context.Context, attempts int, base time.Duration, f func() (retryable bool)) {
	d := base
	for n := 1; n <= attempts; n++ {
		if !f() || n == attempts {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(d):
		}
		d *= 2
	}
}
