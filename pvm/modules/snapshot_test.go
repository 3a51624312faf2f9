package modules

import (
	"bytes"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// snapUses imports each module written in Python and uses it.
var snapUses = map[string]string{
	"collections": "from collections import Counter, deque, OrderedDict, defaultdict, namedtuple\nP = namedtuple('P', 'x y')\nprint(Counter('abca').most_common(1), P(1, 2), deque([1, 2]), OrderedDict(a=1), defaultdict(list)['k'])\n",
	"functools":   "from functools import reduce, partial, lru_cache, wraps, total_ordering\n@lru_cache(maxsize=None)\ndef f(n):\n    return n if n < 2 else f(n - 1) + f(n - 2)\nprint(reduce(lambda a, b: a + b, [1, 2, 3]), partial(max, 1)(2), f(5))\n",
	"itertools":   "import itertools\nprint(list(itertools.permutations([1, 2, 3], 2))[:3], list(itertools.accumulate([1, 2, 3])))\n",
	"enum":        "from enum import Enum, IntEnum, auto\nclass C(Enum):\n    A = 1\n    B = auto()\nclass I(IntEnum):\n    X = 5\nprint(C.A, list(C), I.X + 1, C(2))\n",
	"dataclasses": "from dataclasses import dataclass, field\n@dataclass(order=True)\nclass P:\n    x: int\n    y: list = field(default_factory=list)\nprint(P(1), P(1) < P(2))\n",
	"typing":      "from typing import List, Optional, NamedTuple, Dict\nclass N(NamedTuple):\n    a: int\n    b: str = 'x'\nprint(N(1), Optional[int], List[int])\n",
	"abc":         "from abc import ABC, abstractmethod\nclass A(ABC):\n    @abstractmethod\n    def f(self): ...\ntry:\n    A()\nexcept TypeError as e:\n    print(e)\n",
	"operator":    "import operator\nprint(operator.itemgetter(1)([1, 2]), operator.add(1, 2), operator.attrgetter('real')(3))\n",
	"asyncio":     "import asyncio\nasync def f():\n    return 3\nprint(asyncio.run(f()))\n",
	"all":         "import dataclasses, enum, collections, typing, functools, itertools, abc, operator, asyncio\nprint(len(dir(collections)) > 0)\n",
}

// freshStandard is the standard whitelist with new, empty snapshot stores
// for the modules written in Python.
func freshStandard() *vm.Registry {
	r := Standard()
	for _, name := range pythonModules {
		r.Register(PythonModule(name, func() ([]byte, error) { return pySources.ReadFile("py/" + name + ".py") }))
	}
	return r
}

type snapRun struct {
	out, err           string
	cycles, mem, walks uint64
}

func runSnapUse(t *testing.T, reg *vm.Registry, src string, lim meter.Limits) snapRun {
	t.Helper()
	code, err := compile.File("t.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	m := meter.New(lim)
	th := vm.NewThread(vm.Options{Meter: m, Stdout: &out, Modules: reg})
	defer th.Release()
	r := snapRun{}
	if _, err = th.RunModule(code, "__main__"); err != nil {
		r.err = th.Uncaught(err).Error()
	}
	r.out, r.cycles, r.mem, r.walks = out.String(), m.CyclesUsed(), m.MemoryUsed(), m.Measurements()
	return r
}

// TestPythonModuleSnapshots: every module written in Python imports from
// its snapshot with the output and charges of running it, at ample limits
// and at limits that stop the program during the import.
func TestPythonModuleSnapshots(t *testing.T) {
	for name, src := range snapUses {
		t.Run(name, func(t *testing.T) {
			full := meter.Limits{Cycles: 1 << 32}
			cold := runSnapUse(t, freshStandard(), src, full)
			if cold.err != "" {
				t.Fatalf("cold run: %s", cold.err)
			}
			warm := freshStandard()
			runSnapUse(t, warm, src, full)
			if got := runSnapUse(t, warm, src, full); got != cold {
				t.Fatalf("from snapshots:\n%+v\nrun:\n%+v", got, cold)
			}
			var replays uint64
			for _, n := range pythonModules {
				d, _ := warm.Lookup(n)
				replays += d.SnapshotReplays()
			}
			if replays == 0 {
				t.Errorf("no module came from a snapshot")
			}
			for _, lim := range []meter.Limits{
				{Cycles: cold.cycles / 4}, {Cycles: cold.cycles / 2}, {Cycles: cold.cycles - 1},
				{Cycles: full.Cycles, MemoryLimit: cold.mem / 2},
			} {
				if c, w := runSnapUse(t, freshStandard(), src, lim), runSnapUse(t, warm, src, lim); c != w {
					t.Fatalf("limits %+v: from snapshots:\n%+v\nrun:\n%+v", lim, w, c)
				}
			}
		})
	}
}
