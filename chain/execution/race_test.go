package execution

import (
	"sync"
	"testing"
)

// Actor calls on different goroutines (block production and RPC
// simulations) share compiled programs and the builtins; run them together
// under -race.
func TestConcurrentActorCalls(t *testing.T) {
	envs := make([]*actorEnv, 4)
	for i := range envs {
		envs[i] = newActorEnv(t)
	}
	src := atomicActor
	var wg sync.WaitGroup
	for _, e := range envs {
		a := e.mustDeploy(src)
		wg.Add(1)
		go func(e *actorEnv) {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				e.newBlock()
				e.call(a, "bump")
			}
		}(e)
	}
	wg.Wait()
	for _, e := range envs {
		if n := ret(t, e.call(*e.lastActor(), "n")); n != int64(20) {
			t.Fatalf("n = %v", n)
		}
	}
}
