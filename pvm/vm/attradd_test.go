package vm

import (
	"bytes"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// attrRun is what one run of a program leaves that anyone can see,
// live-heap walks included.
type attrRun struct {
	cycles, cells, walks, walkCycles uint64
	out, err                         string
}

func runAttrPaths(t *testing.T, src string, plain bool, l meter.Limits) attrRun {
	t.Helper()
	code, err := compile.File("attr.py", []byte(src))
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	var out bytes.Buffer
	m := meter.New(l)
	th := NewThread(Options{Meter: m, Stdout: &out})
	defer th.Release()
	th.plainAttrs = plain
	_, err = th.RunModule(code, "__main__")
	r := attrRun{cycles: m.CyclesUsed(), cells: m.CellsUsed(), walks: m.Measurements(), walkCycles: m.MeasurementCycles(), out: out.String()}
	if err != nil {
		r.err = th.Uncaught(err).Error()
	}
	return r
}

// TestAttrAddChargesAlike: STORE_ATTR adding a new attribute through the
// inline cache (attrSite.storeAttr, object.AddInstanceAttr) charges what
// object.SetAttr charges (a dictionary entry, CIP-3 §2.2), and stops at
// the same point with the same cycles used, under every cycles limit from
// 1 to the program's total and under live-heap limits that make the
// charge walk the heap or fail (where the fast path leaves the store to
// SetAttr).
func TestAttrAddChargesAlike(t *testing.T) {
	for _, c := range []struct {
		name, src string
		mems      []uint64 // live-heap limits besides the default; walks under the first
	}{
		{"__init__ adds three", "class P:\n    def __init__(self, i):\n        self.x = i\n        self.y = i * 2\n        self.z = self.x + self.y\nps = [P(i) for i in range(6)]\nprint(sum(p.z for p in ps))\n", nil},
		{"slots, rebind and delete", "class Q:\n    __slots__ = ('a', 'b')\nq = Q()\nq.a = 1\nq.b = 2\nq.a += q.b\ndel q.a\nq.a = 5\nprint(q.a, q.b)\n", nil},
		{"property, __setattr__ and a changed class", "class R:\n    @property\n    def p(self):\n        return 1\n    @p.setter\n    def p(self, v):\n        self.q = v\nclass S:\n    def __setattr__(self, k, v):\n        object.__setattr__(self, k, v * 2)\nr, s = R(), S()\nfor i in range(3):\n    r.p = i\n    s.v = i\n    R.extra = i\n    r.w = i\nprint(r.q, r.w, s.v)\n", nil},
		{"many instances near the heap limit", "class N:\n    def __init__(self, i):\n        self.i = i\n        self.j = [i] * 40\nkeep = []\nfor i in range(16):\n    keep.append(N(i))\n    if i % 3 == 0:\n        keep.pop(0)\nprint(len(keep))\n", []uint64{8000, 7000, 4000}},
		{"attributes cross the heap limit", "class C:\n    pass\nkeep = []\nfor i in range(40):\n    c = C()\n    c.a = 1\n    c.b = 2\n    c.c = 3\n    c.d = 4\n    c.e = 5\n    c.f = 6\n    keep.append(c)\n    if len(keep) > 4:\n        del keep[0]\nprint(len(keep))\n", []uint64{4000, 3000, 2950, 2900, 2850, 2800, 2750, 2700, 2650, 2600, 2550, 2500, 2450, 2400, 2350, 2300, 2250, 2200, 2150, 2100, 2050, 2000, 1950, 1900, 1850, 1800}},
	} {
		t.Run(c.name, func(t *testing.T) { checkAttrPathsAlike(t, c.src, c.mems) })
	}
}

// TestClassAttrCacheChargesAlike: LOAD_ATTR and LOAD_METHOD on a class
// through the inline caches (attrSite.classAttr) charge what
// object.GetAttr charges, under every cycles limit, including after the
// class changes and when the lookup or the call fails, and under live-heap
// limits whose walks run during the calls: a classmethod is called
// through the BoundMethod GetAttr makes, which the walk counts on the
// stack (calling its function in method form instead walks a different
// heap, and this test fails), as is a Go method of a list subclass.
func TestClassAttrCacheChargesAlike(t *testing.T) {
	for _, c := range []struct {
		name, src string
		mems      []uint64 // live-heap limits besides the default
	}{
		{"walks during the calls", "class S:\n    @classmethod\n    def cm(cls, n):\n        return [n] * 30\nclass C(list):\n    pass\nkeep, c = [], C()\nfor i in range(30):\n    keep.append(S.cm(i))\n    c.append(i)\n    if len(keep) > 3:\n        del keep[0]\nprint(len(keep), len(c))\n", []uint64{6000, 5000, 4000, 3000, 2500, 2000}},
		{"classmethod, staticmethod, values", "class S:\n    R = 1\n    @classmethod\n    def cm(cls, a):\n        return a + cls.R\n    @staticmethod\n    def sm(a):\n        return a * 2\n    def f(self):\n        return 3\nclass T(S):\n    pass\nn = 0\nfor i in range(4):\n    for k in (S, T):\n        n += k.cm(i) + k.sm(i) + k.R + k.f(None)\n        m = k.cm\n        n += m(1)\n    S.R = i\nprint(n, dict.fromkeys('ab', 0))\n", nil},
		{"Go methods of a list subclass", "class C(list):\n    pass\nclass D(dict):\n    pass\nc, d = C(), D()\nfor i in range(5):\n    c.append(i)\n    d.setdefault(i, c.pop(0))\n    c.append(d.get(i))\ntry:\n    c.append()\nexcept TypeError as e:\n    print(e)\nprint(c, d)\n", nil},
		{"changes and failures", "class S:\n    x = 1\n    @classmethod\n    def g(cls):\n        return cls.x\nout = []\nfor i in range(3):\n    out.append(S.g())\n    S.x = i\n    S.g = classmethod(lambda cls: -cls.x)\ntry:\n    S.nope()\nexcept AttributeError as e:\n    out.append(str(e))\ndel S.x\ntry:\n    out.append(S.g())\nexcept AttributeError as e:\n    out.append(str(e))\nprint(out, S.__name__)\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) { checkAttrPathsAlike(t, c.src, c.mems) })
	}
}

// checkAttrPathsAlike runs src with the attribute fast paths on and off
// (Thread.plainAttrs) and fails on any difference: with unlimited cycles
// under the default heap limit and each of mems, and under every cycles
// limit from 1 to the total under the default and under mems[0], which
// must make the run walk the live heap (else it tests neither the walk
// nor the fast path after it).
func checkAttrPathsAlike(t *testing.T, src string, mems []uint64) {
	t.Helper()
	for i, mem := range append([]uint64{0}, mems...) {
		l := meter.Limits{Cycles: 1 << 40, Cells: 1 << 20, MemoryLimit: mem}
		fast := runAttrPaths(t, src, false, l)
		if plain := runAttrPaths(t, src, true, l); fast != plain {
			t.Fatalf("memory %d, unlimited cycles: fast %+v, plain %+v", mem, fast, plain)
		}
		if i == 0 && (fast.err != "" || fast.out == "") {
			t.Fatalf("program failed or printed nothing: %+v", fast)
		}
		if i == 1 && (fast.walks == 0 || fast.err != "") {
			t.Fatalf("memory %d: no live-heap walk or a failure: %+v", mem, fast)
		}
		if i > 1 {
			continue // every cycles limit under the default and the first heap limit only
		}
		for limit := uint64(1); limit <= fast.cycles; limit++ {
			l.Cycles = limit
			a, b := runAttrPaths(t, src, false, l), runAttrPaths(t, src, true, l)
			if a != b {
				t.Fatalf("memory %d, cycles limit %d: fast %+v, plain %+v", mem, limit, a, b)
			}
		}
	}
}
