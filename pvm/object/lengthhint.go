package object

import "unicode/utf8"

// Built-in iterators answer __length_hint__ with the number of items left,
// as CPython's list/tuple/str/bytes/range/dict/set iterators do, so that
// operator.length_hint(iter(x)) agrees with CPython (found by difftest).
func init() {
	IteratorClass.Dict.Set("__length_hint__", &Builtin{Name: "__length_hint__", Method: true, Fn: func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if len(args) != 1 || len(kw) != 0 {
			return nil, Errorf(TypeError, "__length_hint__() takes no arguments (%d given)", len(args)-1+len(kw))
		}
		n, ok := iterLeft(args[0])
		if !ok {
			return NotImplemented, nil
		}
		return MakeInt(int64(n)), nil
	}})
}

// iterLeft is how many items a built-in iterator still yields; ok is false
// for iterators that cannot tell (iter(callable, sentinel), __getitem__).
func iterLeft(v Value) (int, bool) {
	switch it := v.(type) {
	case *seqIter:
		n := 0
		switch s := it.seq.(type) {
		case *List:
			n = len(s.Elems) - it.i
		case Tuple:
			n = len(s) - it.i
		case Str:
			if it.i < len(s) {
				n = utf8.RuneCountInString(string(s[it.i:]))
			}
		case Bytes:
			n = len(s) - it.i
		case *ByteArray:
			n = len(s.B) - it.i
		}
		return max(n, 0), true
	case *rangeIter:
		return max(it.left, 0), true
	case *nsIter:
		return it.left(), true
	case *hashIter:
		if it.ht.version != it.version {
			return 0, true
		}
		n := 0
		for _, e := range it.ht.entries[min(it.pos, len(it.ht.entries)):] {
			if !e.dead() {
				n++
			}
		}
		return n, true
	}
	return 0, false
}
