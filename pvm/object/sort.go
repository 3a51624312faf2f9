package object

import (
	"math/bits"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// SortValues sorts elems in place with Python's semantics: stable, by key
// when given, descending when reverse is true, comparing with __lt__. It is a
// merge sort written here (not Go's sort package) so that the sequence of
// comparisons, and therefore the cycles charged to user __lt__ methods, is
// fixed by this code alone. The surcharge is n*ceil(log2 n) per-element units.
//
// When every key is an int, or every key is a str, comparisons run no
// Python code and charge nothing, and a stable sort's result is unique
// (ties keep their original order), so those keys are sorted unboxed, in a
// contiguous array, by the same merge sort that also skips merging halves
// already in order. Every other case runs the reference merge sort, whose
// comparisons are charged and may call __lt__.
func SortValues(c Ctx, elems []Value, key, reverse Value) error {
	n := len(elems)
	if n < 2 {
		return nil
	}
	if err := Charge(c, uint64(n)*uint64(bits.Len(uint(n)))*meter.CostPerElem); err != nil {
		return err
	}
	keys := elems
	if key != nil && key != None {
		keys = make([]Value, n)
		for i, e := range elems {
			k, err := c.Call(key, []Value{e}, nil)
			if err != nil {
				return err
			}
			keys[i] = k
		}
	}
	rev := false
	if reverse != nil {
		r, err := Truth(c, reverse)
		if err != nil {
			return err
		}
		rev = r
	}
	switch keys[0].(type) {
	case Int:
		if done := sortedRun[Int](elems, keys, rev); done {
			return nil
		}
		if items, ok := intKeys(keys); ok {
			permute(elems, sortKeyed(items, rev))
			return nil
		}
	case Str:
		if done := sortedRun[Str](elems, keys, rev); done {
			return nil
		}
		if items, ok := strKeys(keys); ok {
			permute(elems, sortKeyed(items, rev))
			return nil
		}
	}
	items := make([]sortItem, n)
	for i, k := range keys {
		items[i] = sortItem{key: k, i: i}
	}
	if rev {
		// Python reverses, sorts stably, and reverses again so that equal
		// elements keep their original order.
		reverseSlice(items)
	}
	s := sorter{c: c}
	s.mergeSort(items, make([]sortItem, n))
	if s.err != nil {
		return s.err
	}
	if rev {
		reverseSlice(items)
	}
	// elems is read only now: a __lt__ that stored into the list being
	// sorted is seen, as it always has been.
	out := make([]Value, n)
	for i, it := range items {
		out[i] = elems[it.i]
	}
	copy(elems, out)
	return nil
}

func lessThan(c Ctx, a, b Value) (bool, error) {
	if x, ok := a.(Int); ok {
		if y, ok := b.(Int); ok {
			return x < y, nil
		}
	}
	if x, ok := a.(Str); ok {
		if y, ok := b.(Str); ok {
			return x < y, nil
		}
	}
	r, err := Compare(c, OpLt, a, b)
	if err != nil {
		return false, err
	}
	return Truth(c, r)
}

// sortItem is a key with the position of its element.
type sortItem struct {
	key Value
	i   int
}

// sorter runs the reference merge sort. After a comparison fails, later
// comparisons are not made (they report false) and err holds the failure.
type sorter struct {
	c   Ctx
	err error
}

func (s *sorter) less(x, y Value) bool {
	if s.err != nil {
		return false
	}
	r, err := lessThan(s.c, x, y)
	if err != nil {
		s.err = err
	}
	return r
}

// mergeSort is a stable top-down merge sort with insertion sort below nine
// elements. Its sequence of comparisons is part of the cycle schedule: do
// not change it.
func (s *sorter) mergeSort(a, tmp []sortItem) {
	if len(a) <= 1 {
		return
	}
	if len(a) <= 8 {
		for i := 1; i < len(a); i++ {
			for j := i; j > 0 && s.less(a[j].key, a[j-1].key); j-- {
				a[j], a[j-1] = a[j-1], a[j]
			}
		}
		return
	}
	m := len(a) / 2
	s.mergeSort(a[:m], tmp[:m])
	s.mergeSort(a[m:], tmp[m:])
	copy(tmp, a)
	i, j, k := 0, m, 0
	for i < m && j < len(a) {
		if s.less(tmp[j].key, tmp[i].key) {
			a[k] = tmp[j]
			j++
		} else {
			a[k] = tmp[i]
			i++
		}
		k++
	}
	k += copy(a[k:], tmp[i:m])
	copy(a[k:], tmp[j:])
}

// sortedRun handles keys that are all of type K (int or str) and already
// in order: non-decreasing keys need nothing for an ascending sort, and
// strictly decreasing ones only a reversal (likewise the other way round
// for reverse); with no equal keys, the reversal is the stable order. It
// reports whether elems is sorted; on false nothing was changed.
func sortedRun[K Int | Str](elems, keys []Value, rev bool) bool {
	prev, ok := keys[0].(K)
	if !ok {
		return false
	}
	up, down, strictUp, strictDown := true, true, true, true
	for _, v := range keys[1:] {
		x, ok := v.(K)
		if !ok {
			return false
		}
		switch {
		case x < prev:
			up, strictUp = false, false
		case prev < x:
			down, strictDown = false, false
		default:
			strictUp, strictDown = false, false
		}
		if !up && !down {
			return false
		}
		prev = x
	}
	if (!rev && up) || (rev && down) {
		return true
	}
	if (!rev && strictDown) || (rev && strictUp) {
		reverseSlice(elems)
		return true
	}
	return false
}

// keyed is an unboxed int or str key with the position of its element.
type keyed[K int64 | string] struct {
	k K
	i int
}

func intKeys(keys []Value) ([]keyed[int64], bool) {
	items := make([]keyed[int64], len(keys))
	for i, v := range keys {
		x, ok := v.(Int)
		if !ok {
			return nil, false
		}
		items[i] = keyed[int64]{int64(x), i}
	}
	return items, true
}

func strKeys(keys []Value) ([]keyed[string], bool) {
	items := make([]keyed[string], len(keys))
	for i, v := range keys {
		x, ok := v.(Str)
		if !ok {
			return nil, false
		}
		items[i] = keyed[string]{string(x), i}
	}
	return items, true
}

// sortKeyed sorts items stably, descending when rev (equal keys keep their
// order either way), and returns them.
func sortKeyed[K int64 | string](items []keyed[K], rev bool) []keyed[K] {
	if rev {
		reverseSlice(items)
	}
	mergeKeyed(items, make([]keyed[K], len(items)))
	if rev {
		reverseSlice(items)
	}
	return items
}

// mergeKeyed is mergeSort for keys whose comparison has no effects: the
// result of a stable sort does not depend on which comparisons it makes,
// so halves already in order are not merged.
func mergeKeyed[K int64 | string](a, tmp []keyed[K]) {
	if len(a) <= 8 {
		for i := 1; i < len(a); i++ {
			for j := i; j > 0 && a[j].k < a[j-1].k; j-- {
				a[j], a[j-1] = a[j-1], a[j]
			}
		}
		return
	}
	m := len(a) / 2
	mergeKeyed(a[:m], tmp[:m])
	mergeKeyed(a[m:], tmp[m:])
	if !(a[m].k < a[m-1].k) {
		return
	}
	copy(tmp, a)
	i, j, k := 0, m, 0
	for i < m && j < len(a) {
		if tmp[j].k < tmp[i].k {
			a[k] = tmp[j]
			j++
		} else {
			a[k] = tmp[i]
			i++
		}
		k++
	}
	k += copy(a[k:], tmp[i:m])
	copy(a[k:], tmp[j:])
}

// permute reorders elems in place so that elems[j] becomes the element
// that was at sorted[j].i, following the permutation's cycles (sorted's
// positions are overwritten as visited marks).
func permute[K int64 | string](elems []Value, sorted []keyed[K]) {
	for start := range sorted {
		if sorted[start].i < 0 || sorted[start].i == start {
			continue
		}
		first := elems[start]
		j := start
		for {
			from := sorted[j].i
			sorted[j].i = -1
			if from == start {
				elems[j] = first
				break
			}
			elems[j] = elems[from]
			j = from
		}
	}
}

func reverseSlice[T any](s []T) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}
