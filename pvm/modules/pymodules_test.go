package modules_test

import (
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// TestPythonModulesImport imports every module written in Python: each
// compiles, runs its body under the meter (so an import costs more than
// the flat import price) and imports again from the cache.
func TestPythonModulesImport(t *testing.T) {
	_, base := mustRun(t, "x = None\n")
	for _, name := range []string{"collections", "functools", "itertools", "enum", "dataclasses", "typing", "abc", "operator", "asyncio"} {
		_, c := mustRun(t, "import "+name+"\nimport "+name+"\n")
		if c-base <= meter.CostImportFirst {
			t.Errorf("import %s cost %d cycles: the module body is not metered", name, c-base)
		}
	}
}

// TestPythonModulesCost shows module functions cost in proportion to the
// work they do, like user code.
func TestPythonModulesCost(t *testing.T) {
	proportional(t, "from collections import Counter\nc = Counter(range(N))\n", 50)
	proportional(t, "from itertools import islice, count\nx = list(islice(count(), N))\n", 50)
	proportional(t, "from functools import reduce\nx = reduce(lambda a, b: a + b, range(N), 0)\n", 50)
	proportional(t, "from collections import deque\nd = deque()\nfor i in range(N):\n    d.append(i)\n", 50)
}
