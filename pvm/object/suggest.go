package object

// Suggestions for NameError and AttributeError ("Did you mean: 'x'?"),
// following CPython 3.11's Python/suggestions.c so tracebacks match. They
// are computed only when a traceback is formatted, never when the error is
// raised, so code that raises and catches these errors in a loop pays no
// unmetered work.

const (
	suggestMaxCandidates = 750
	suggestMaxString     = 40
	suggestMoveCost      = 2
	suggestCaseCost      = 1
)

func substitutionCost(a, b byte) int {
	if a&31 != b&31 {
		return suggestMoveCost
	}
	if a == b {
		return 0
	}
	if 'A' <= a && a <= 'Z' {
		a += 'a' - 'A'
	}
	if 'A' <= b && b <= 'Z' {
		b += 'a' - 'A'
	}
	if a == b {
		return suggestCaseCost
	}
	return suggestMoveCost
}

func levenshtein(a, b string, maxCost int) int {
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a) == 0 || len(b) == 0 {
		return (len(a) + len(b)) * suggestMoveCost
	}
	if len(a) > suggestMaxString || len(b) > suggestMaxString {
		return maxCost + 1
	}
	if len(b) < len(a) {
		a, b = b, a
	}
	if (len(b)-len(a))*suggestMoveCost > maxCost {
		return maxCost + 1
	}
	buf := make([]int, len(a))
	for i := range buf {
		buf[i] = (i + 1) * suggestMoveCost
	}
	result := 0
	for bi := 0; bi < len(b); bi++ {
		code := b[bi]
		distance := bi * suggestMoveCost
		result = distance
		minimum := int(^uint(0) >> 1)
		for ai := 0; ai < len(a); ai++ {
			substitute := distance + substitutionCost(code, a[ai])
			distance = buf[ai]
			insertDelete := min(result, distance) + suggestMoveCost
			result = min(insertDelete, substitute)
			buf[ai] = result
			if result < minimum {
				minimum = result
			}
		}
		if minimum > maxCost {
			return maxCost + 1
		}
	}
	return result
}

// Suggest returns the candidate closest to name, or "".
func Suggest(name string, candidates []string) string {
	if len(candidates) > suggestMaxCandidates {
		return ""
	}
	best, bestDist := "", int(^uint(0)>>1)
	for _, item := range candidates {
		if item == name {
			continue
		}
		maxDist := (len(name) + len(item) + 3) * suggestMoveCost / 6
		if bestDist-1 < maxDist {
			maxDist = bestDist - 1
		}
		d := levenshtein(name, item, maxDist)
		if d > maxDist {
			continue
		}
		if best == "" || d < bestDist {
			best, bestDist = item, d
		}
	}
	return best
}

// attrCandidates lists the attribute names of v for AttributeError
// suggestions, sorted as dir() is.
func attrCandidates(v Value) []string {
	seen := map[string]bool{}
	var names []string
	add := func(n string, _ Value) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	switch x := v.(type) {
	case *Instance:
		x.Dict.Each(add)
		for _, k := range x.Class.MRO {
			k.Dict.Each(add)
		}
	case *Class:
		for _, k := range x.MRO {
			k.Dict.Each(add)
		}
	case interface{ Namespace() *StrDict }:
		x.Namespace().Each(add)
	default:
		for _, k := range v.Type().MRO {
			k.Dict.Each(add)
		}
	}
	sortStrings(names)
	return names
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// suggestion computes the "Did you mean" hint of an exception, if any.
func suggestion(exc *Instance) string {
	st := exc.Exc
	if st == nil || st.SuggestName == "" {
		return ""
	}
	if st.SuggestObj != nil {
		return Suggest(st.SuggestName, attrCandidates(st.SuggestObj))
	}
	for _, scope := range st.SuggestScopes {
		var names []string
		scope.Each(func(n string, _ Value) { names = append(names, n) })
		if s := Suggest(st.SuggestName, names); s != "" {
			return s
		}
	}
	return ""
}
