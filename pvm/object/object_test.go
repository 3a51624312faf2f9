package object

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// testCtx is a Ctx without an interpreter: enough for builtin types.
type testCtx struct {
	m    *meter.Meter
	nest int
	id   int64
}

func newCtx() *testCtx {
	return &testCtx{m: meter.New(meter.Limits{Cycles: 1 << 40, MemoryLimit: 1 << 20})}
}

func (c *testCtx) Meter() *meter.Meter { return c.m }
func (c *testCtx) Call(fn Value, args []Value, kw []Kw) (Value, error) {
	if b, ok := fn.(*Builtin); ok {
		return b.Fn(c, args, kw)
	}
	return nil, Errorf(TypeError, "not callable in tests")
}
func (c *testCtx) Nest() error {
	if c.nest >= MaxNativeNesting {
		return Errorf(RecursionError, "maximum recursion depth exceeded")
	}
	c.nest++
	return nil
}
func (c *testCtx) Unnest()       { c.nest-- }
func (c *testCtx) NextID() int64 { c.id++; return c.id }

func excClass(err error) *Class {
	var e *Exception
	if errors.As(err, &e) {
		return e.Value.Class
	}
	return nil
}

func TestIntOverflowCap(t *testing.T) {
	c := newCtx()
	if _, err := Binary(c, OpPow, Int(2), Int(4095)); err != nil {
		t.Fatalf("2**4095 must fit: %v", err)
	}
	if _, err := Binary(c, OpPow, Int(2), Int(4096)); excClass(err) != OverflowError {
		t.Fatalf("2**4096 has 4097 bits: got %v", err)
	}
	big, _ := Binary(c, OpPow, Int(2), Int(4000))
	if _, err := Binary(c, OpMul, big, big); excClass(err) != OverflowError {
		t.Fatalf("product above cap: got %v", err)
	}
	r, err := Binary(c, OpAdd, Int(math.MaxInt64), Int(1))
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := r.Repr(c); s != "9223372036854775808" {
		t.Fatalf("promotion to big: %s", s)
	}
	back, _ := Binary(c, OpSub, r, Int(1))
	if _, ok := back.(Int); !ok {
		t.Fatalf("big results that fit int64 must normalise to Int, got %T", back)
	}
}

func TestFloorDivMod(t *testing.T) {
	c := newCtx()
	cases := [][4]int64{{7, 2, 3, 1}, {-7, 2, -4, 1}, {7, -2, -4, -1}, {-7, -2, 3, -1}}
	for _, k := range cases {
		q, _ := Binary(c, OpFloorDiv, Int(k[0]), Int(k[1]))
		m, _ := Binary(c, OpMod, Int(k[0]), Int(k[1]))
		if q != Int(k[2]) || m != Int(k[3]) {
			t.Errorf("%d divmod %d = %v %v", k[0], k[1], q, m)
		}
	}
}

func TestFloatRepr(t *testing.T) {
	cases := map[float64]string{0.1: "0.1", 1: "1.0", 1e16: "1e+16", 1e-5: "1e-05", 123456789012345.0: "123456789012345.0",
		0.30000000000000004: "0.30000000000000004", 1.5e300: "1.5e+300", 5e-324: "5e-324"}
	if got := FloatRepr(math.Copysign(0, -1)); got != "-0.0" {
		t.Errorf("negative zero: %s", got)
	}
	for f, want := range cases {
		if got := FloatRepr(f); got != want {
			t.Errorf("FloatRepr(%g) = %s, want %s", f, got, want)
		}
	}
}

func TestDictOrderAndEquality(t *testing.T) {
	c := newCtx()
	d := NewDict()
	for _, k := range []Value{Str("z"), Int(3), Str("a"), Int(1)} {
		if err := d.Set(c, k, True); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Set(c, Float(3.0), False); err != nil { // 3.0 == 3: same key
		t.Fatal(err)
	}
	if _, _, err := d.Delete(c, Str("a")); err != nil {
		t.Fatal(err)
	}
	s, _ := d.Repr(c)
	if s != "{'z': True, 3: False, 1: True}" {
		t.Fatalf("order or key equality wrong: %s", s)
	}
	if _, err := HashOf(c, NewListT(c)); err == nil {
		t.Fatal("lists must be unhashable")
	}
}

// NewList in tests ignores the error (the limit is large).
func NewListT(c Ctx) *List { l, _ := NewList(c, nil); return l }

func TestStrHashFixed(t *testing.T) {
	// The hash of a str is part of observable behaviour (hash()), so it is
	// pinned: changing the function changes consensus.
	h, _ := Str("cowboy").Hash(nil)
	if h != 109364404451354963 {
		t.Fatalf("unexpected hash %d", h)
	}
	h2, _ := Str("cowboy").Hash(nil)
	if h != h2 {
		t.Fatal("hash not stable")
	}
}

func TestMemoryLimitBeforeAllocation(t *testing.T) {
	c := newCtx()
	if _, err := Binary(c, OpMul, Str("x"), Int(1<<30)); excClass(err) != MemoryError {
		t.Fatalf("want MemoryError, got %v", err)
	}
	if c.m.MemoryUsed() != 0 {
		t.Fatalf("a refused allocation was recorded: %d", c.m.MemoryUsed())
	}
}

func TestC3(t *testing.T) {
	o := ObjectClass
	mk := func(n string, bases ...*Class) *Class {
		k, err := NewClass(n, "m", bases, NewStrDict())
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	a := mk("A", o)
	b := mk("B", a)
	cc := mk("C", a)
	d := mk("D", b, cc)
	var names string
	for _, k := range d.MRO {
		names += k.Name
	}
	if names != "DBCAobject" {
		t.Fatalf("MRO %s", names)
	}
	if _, err := NewClass("X", "m", []*Class{a, b}, NewStrDict()); excClass(err) != TypeError {
		t.Fatalf("inconsistent MRO must fail, got %v", err)
	}
}

func TestFormatSpec(t *testing.T) {
	c := newCtx()
	cases := []struct {
		v    Value
		spec string
		want string
	}{
		{Int(1234567), ",", "1,234,567"}, {Int(255), "#x", "0xff"}, {Int(-42), "06d", "-00042"},
		{Float(3.14159), ".2f", "3.14"}, {Float(1e20), "g", "1e+20"}, {Float(0.25), ".1%", "25.0%"},
		{Str("ab"), "*^6", "**ab**"}, {Float(2.5), ".0f", "2"}, {Float(1.0), ".2", "1.0"},
	}
	for _, k := range cases {
		got, err := Format(c, k.v, k.spec)
		if err != nil || got != k.want {
			t.Errorf("format(%v, %q) = %q, %v; want %q", k.v, k.spec, got, err, k.want)
		}
	}
}

// TestC3SingleBaseFastPath: the one-base shortcut gives what the C3 merge
// gives, for every builtin class as the base and for chains of classes.
func TestC3SingleBaseFastPath(t *testing.T) {
	bases := append([]*Class{}, SharedClasses()...)
	bases = append(bases, ObjectClass, IntClass, DictClass, ListClass, ExceptionClass, ValueError, StopIteration)
	for i, b := range bases {
		prev := b
		for depth := 0; depth < 3; depth++ {
			k := &Class{Name: fmt.Sprintf("K%d_%d", i, depth), Bases: []*Class{prev}, Dict: NewStrDict()}
			fast, ok1 := c3(k)
			slow, ok2 := c3merge(k)
			if ok1 != ok2 || fmt.Sprint(fast) != fmt.Sprint(slow) {
				t.Fatalf("base %s: fast %v %v, merge %v %v", b.Name, fast, ok1, slow, ok2)
			}
			k.MRO = fast
			prev = k
		}
	}
}
