package layers

import (
	"os/exec"
	"strings"
	"testing"
)

// TestForbiddenDeps fails when a package links what its layer must not,
// at any depth (its non-test imports, transitively): the RPC layer and
// the chain's key layout stay free of the Pebble database (a light client
// or a wasm build links them), and the store knows no chain meanings.
func TestForbiddenDeps(t *testing.T) {
	const pebble = "github.com/cockroachdb/pebble"
	for _, tt := range []struct{ pkg, forbidden string }{
		{"rpc", pebble},
		{"chain/statekey", pebble},
		{"chain/state", pebble},
		{"store/verifier", pebble},
		{"store", module + "/chain/"},
	} {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", module+"/"+tt.pkg).Output()
		if err != nil {
			var stderr string
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("go list %s: %v\n%s", tt.pkg, err, stderr)
		}
		deps := strings.Fields(string(out))
		if len(deps) == 0 || deps[len(deps)-1] != module+"/"+tt.pkg {
			t.Fatalf("go list %s found only %v", tt.pkg, deps)
		}
		for _, d := range deps {
			if strings.HasPrefix(d, tt.forbidden) {
				t.Errorf("%s links %s (forbidden: %s…)", tt.pkg, d, tt.forbidden)
				break
			}
		}
	}
}
