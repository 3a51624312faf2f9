package pvm

import (
	"math/big"

	"github.com/cowboy-chain/cowboy/pvm/cbor"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// JobHost is a Host that can post off-chain jobs (technical spec §5.3
// Post). The chain's handler host implements it; a host without it (a
// read-only call, a test host) makes runner.submit raise RuntimeError.
type JobHost interface {
	// SubmitJob posts a job from the running actor: spec is the canonical
	// CBOR map of the job (chain/system/runner JobSpec); the host takes
	// max_price from the actor's balance into escrow and returns the job
	// id, or a *HostError saying what is wrong with the spec.
	SubmitJob(spec []byte) (uint64, error)
}

// submitJobCycles is §17.2's LlmRequest base cost (10,000 cycles); the
// spec's bytes are its cells ("prompt_size").
const submitJobCycles = 10_000

// defJobs adds runner_submit(spec) to pvm_host.
func defJobs(def func(string, hostFn)) {
	def("runner_submit", func(h Host, c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		a, err := object.UnpackArgs("runner_submit", args, kw, "spec")
		if err != nil {
			return nil, err
		}
		if _, ok := a[0].(*object.Dict); !ok {
			return nil, object.Errorf(object.TypeError, "runner_submit() spec must be a dict")
		}
		jh, ok := h.(JobHost)
		if !ok {
			return nil, object.Errorf(object.RuntimeError, "off-chain jobs cannot be posted from this call (a read-only call or a host without the runner market)")
		}
		if err := c.Meter().Charge(submitJobCycles); err != nil {
			return nil, err
		}
		spec, err := cbor.Encode(c, a[0])
		if err != nil {
			return nil, err
		}
		if err := c.Meter().ChargeCells(uint64(len(spec))); err != nil {
			return nil, err
		}
		id, err := jh.SubmitJob(spec)
		if err != nil {
			return nil, hostErr(err)
		}
		return object.MakeBigInt(new(big.Int).SetUint64(id))
	})
}
