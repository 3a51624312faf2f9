package pvm

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/object"
)

// HostCall is one pvm_host call as a tracer sees it (cowboy tx trace):
// the function, its arguments and result formatted without running any
// Python (no __repr__ is called, nothing is charged), and what the call
// charged.
type HostCall struct {
	Name   string
	Args   []string
	Result string // "" when the call raised
	Err    string // the exception the call raised, "" if none
	Cycles uint64 // cycles the call charged, its §17.3 cost included
	Cells  uint64
}

// HostCallObserver is an optional capability of a Host: when the Host
// implements it, each pvm_host function reports its call after it
// returns. Observing reads the meter and never charges it, so a traced
// call costs exactly what an untraced one does.
type HostCallObserver interface {
	ObserveHostCall(HostCall)
}

// maxTracedValue bounds one formatted argument or result.
const maxTracedValue = 200

// observed wraps a pvm_host function to report each call to obs.
func observed(name string, obs HostCallObserver, fn func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error)) func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	return func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		m := c.Meter()
		cycles, cells := m.CyclesUsed(), m.CellsUsed()
		v, err := fn(c, args, kw)
		call := HostCall{Name: name, Cycles: m.CyclesUsed() - cycles, Cells: m.CellsUsed() - cells}
		for _, a := range args {
			call.Args = append(call.Args, TraceValue(a))
		}
		for _, k := range kw {
			call.Args = append(call.Args, k.Name+"="+TraceValue(k.Value))
		}
		if err != nil {
			call.Err = cut(err.Error())
		} else {
			call.Result = TraceValue(v)
		}
		obs.ObserveHostCall(call)
		return v, err
	}
}

// TraceValue formats a Python value as repr would for the builtin types
// (None, bool, int, str, bytes, tuple, list, dict) and as <type> for
// anything else, without running Python; cut to 200 bytes.
func TraceValue(v object.Value) string {
	var b strings.Builder
	traceValue(&b, v, 0)
	return cut(b.String())
}

func traceValue(b *strings.Builder, v object.Value, depth int) {
	if b.Len() > maxTracedValue || depth > 8 {
		b.WriteString("…")
		return
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case object.NoneType:
		b.WriteString("None")
	case object.Bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case object.Int:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case *object.BigInt:
		b.WriteString(x.Big().String())
	case object.Str:
		pyQuote(b, string(x), false)
	case object.Bytes:
		b.WriteString("b")
		pyQuote(b, string(x), true)
	case object.Tuple:
		b.WriteString("(")
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			traceValue(b, e, depth+1)
		}
		if len(x) == 1 {
			b.WriteString(",")
		}
		b.WriteString(")")
	case *object.List:
		b.WriteString("[")
		for i, e := range x.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			traceValue(b, e, depth+1)
		}
		b.WriteString("]")
	default:
		b.WriteString("<" + v.Type().Name + ">")
	}
}

// pyQuote writes s as Python's repr writes a str (or, if bytes, a bytes
// object): single quotes unless s holds ' and no ", the usual escapes,
// \xHH for other control bytes and, in bytes, for every non-ASCII byte.
func pyQuote(b *strings.Builder, s string, bytes bool) {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	b.WriteByte(q)
	esc := func(c byte) {
		switch c {
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c == q {
				b.WriteByte('\\')
				b.WriteByte(c)
			} else if c < 0x20 || c == 0x7f || (bytes && c >= 0x80) {
				fmt.Fprintf(b, `\x%02x`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	for i := 0; i < len(s); i++ {
		esc(s[i])
	}
	b.WriteByte(q)
}

func cut(s string) string {
	if len(s) <= maxTracedValue {
		return s
	}
	return s[:maxTracedValue] + "…"
}
