package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
)

func outcomeOf(s uint8) string {
	switch s {
	case StatusImpossible:
		return OutcomeImpossible
	case StatusActorFault:
		return OutcomeActor
	case StatusExternal:
		return OutcomeExternal
	}
	return OutcomeSuccess
}

// verify applies the job's verification mode ("LLM Result Verification")
// to the revealed entries (member indexes, in committee order).
//
//   - A quorum (threshold N) reporting the same fault status decides a
//     fault row of the payment table; the others are penalized.
//   - Otherwise the ok results are checked objectively (non-empty, the
//     result_schema when there is one); failures are penalized, not
//     slashed ("Schema violation: reputation penalty, no payment").
//   - none and economic_bond accept their single runner's checked result.
//   - majority_vote groups results by the vote_field's value (or the whole
//     JSON document, or the bytes); structured_match by the match_fields
//     (or the whole document); deterministic by the bytes. The group of N
//     or more is accepted; a checked result outside it is proven dishonest
//     and its runner slashed.
//   - semantic_similarity accepts the result with the most others within
//     similarity_bps of it when those are N or more; results outside are
//     subjective misses, penalized, not slashed.
func verify(j *Job, entries []int) judge {
	n := int(j.Spec.Threshold)
	if len(entries) == 0 {
		return judge{outcome: OutcomeRunner, err: "timeout: no committee member revealed a result before the deadline"}
	}
	var ok []int
	byStatus := map[uint8][]int{}
	for _, i := range entries {
		s := j.Reveals[i].Status
		if s == StatusOK {
			ok = append(ok, i)
		} else {
			byStatus[s] = append(byStatus[s], i)
		}
	}
	for _, s := range []uint8{StatusImpossible, StatusActorFault, StatusExternal} {
		if g := byStatus[s]; len(g) >= n {
			return judge{outcome: outcomeOf(s), err: fmt.Sprintf("%s: %s", outcomeOf(s), clip(j.Reveals[g[0]].Output)),
				winners: g, invalid: without(entries, g)}
		}
	}
	invalid := without(entries, ok) // fault claims without a quorum
	var schema *schemaNode
	if j.Spec.ResultSchema != "" {
		schema, _ = parseSchema(j.Spec.ResultSchema) // checked at posting
	}
	var checked []int
	for _, i := range ok {
		out := j.Reveals[i].Output
		if len(bytes.TrimSpace(out)) == 0 {
			invalid = append(invalid, i)
			continue
		}
		if schema != nil {
			_, v, isJSON := canonicalJSON(out)
			if !isJSON || schema.validate(v, "$") != nil {
				invalid = append(invalid, i)
				continue
			}
		}
		checked = append(checked, i)
	}
	slices.Sort(invalid)
	fail := func(why string) judge {
		return judge{outcome: OutcomeRunner, err: why, invalid: invalid}
	}
	switch j.Spec.Trust {
	case TrustNone, TrustBond:
		if len(checked) == 0 {
			return fail("runner fault: the result failed the objective checks (empty, or not matching result_schema)")
		}
		return judge{outcome: OutcomeSuccess, output: j.Reveals[checked[0]].Output, winners: checked[:1], invalid: invalid}
	case TrustSemantic:
		return semantic(j, checked, invalid, n)
	}
	// Group by key; a result with no key (no vote field) is invalid.
	type group struct {
		key     string
		members []int
	}
	var groups []*group
	var keyed []int
	for _, i := range checked {
		k, err := voteKey(j, j.Reveals[i].Output)
		if err != nil {
			invalid = append(invalid, i)
			continue
		}
		keyed = append(keyed, i)
		gi := slices.IndexFunc(groups, func(g *group) bool { return g.key == k })
		if gi < 0 {
			groups = append(groups, &group{key: k})
			gi = len(groups) - 1
		}
		groups[gi].members = append(groups[gi].members, i)
	}
	slices.Sort(invalid)
	for _, g := range groups {
		if len(g.members) >= n {
			return judge{outcome: OutcomeSuccess, output: j.Reveals[g.members[0]].Output, winners: g.members,
				liars: without(keyed, g.members), invalid: invalid}
		}
	}
	largest := 0
	for _, g := range groups {
		largest = max(largest, len(g.members))
	}
	return judge{outcome: OutcomeRunner, invalid: invalid,
		err: fmt.Sprintf("runner fault: no quorum: %d distinct answer(s), the largest agreed by %d, %d needed", len(groups), largest, n)}
}

// voteKey is what results are compared by in the grouping modes.
func voteKey(j *Job, out []byte) (string, error) {
	switch j.Spec.Trust {
	case TrustExact:
		return string(out), nil
	case TrustMajority:
		canon, v, isJSON := canonicalJSON(out)
		if j.Spec.VoteField == "" {
			if isJSON {
				return string(canon), nil
			}
			return string(bytes.TrimSpace(out)), nil
		}
		obj, ok := v.(map[string]any)
		if !isJSON || !ok {
			return "", errors.New("not a JSON object")
		}
		f, ok := obj[j.Spec.VoteField]
		if !ok {
			return "", fmt.Errorf("no field %q", j.Spec.VoteField)
		}
		b, _ := json.Marshal(f)
		return string(b), nil
	default: // structured_match
		canon, v, isJSON := canonicalJSON(out)
		if !isJSON {
			return "", errors.New("not JSON")
		}
		if len(j.Spec.MatchFields) == 0 {
			return string(canon), nil
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return "", errors.New("not a JSON object")
		}
		vals := make([]any, len(j.Spec.MatchFields))
		for k, f := range j.Spec.MatchFields {
			vals[k] = obj[f] // a missing field compares as null
		}
		b, _ := json.Marshal(vals)
		return string(b), nil
	}
}

func semantic(j *Job, checked, invalid []int, n int) judge {
	words := make([][]string, len(checked))
	for k, i := range checked {
		words[k] = wordSet(j.Reveals[i].Output)
	}
	best, bestK := []int(nil), -1
	for a := range checked {
		var close []int
		for b := range checked {
			if jaccardBps(words[a], words[b]) >= j.Spec.SimilarityBps {
				close = append(close, checked[b])
			}
		}
		if len(close) > len(best) {
			best, bestK = close, a
		}
	}
	if len(best) < n {
		return judge{outcome: OutcomeRunner, invalid: invalid,
			err: fmt.Sprintf("runner fault: no quorum: at most %d result(s) within %d bps similarity, %d needed", len(best), j.Spec.SimilarityBps, n)}
	}
	inv := append(slices.Clone(invalid), without(checked, best)...)
	slices.Sort(inv)
	return judge{outcome: OutcomeSuccess, output: j.Reveals[checked[bestK]].Output, winners: best, invalid: inv}
}

// wordSet is the sorted distinct lower-case words of b (ASCII letters and
// digits; every byte ≥ 0x80 counts as a letter, so UTF-8 words stay whole).
// The stand-in for an embedding model (docs/runners.md says why).
func wordSet(b []byte) []string {
	if len(b) > MaxSimilarityInput {
		b = b[:MaxSimilarityInput]
	}
	// ASCII case folding only: Unicode tables change between Go releases,
	// and every node must reach the same verdict.
	lower := []byte(string(b))
	for i, c := range lower {
		if c >= 'A' && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	f := strings.FieldsFunc(string(lower), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0x80)
	})
	slices.Sort(f)
	return slices.Compact(f)
}

// jaccardBps is |A∩B| / |A∪B| in basis points over sorted sets (two
// empty sets are identical).
func jaccardBps(a, b []string) uint64 {
	inter, i, k := 0, 0, 0
	for i < len(a) && k < len(b) {
		switch c := strings.Compare(a[i], b[k]); {
		case c == 0:
			inter++
			i++
			k++
		case c < 0:
			i++
		default:
			k++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 10_000
	}
	return uint64(inter) * 10_000 / uint64(union)
}

func without(all, drop []int) []int {
	var out []int
	for _, x := range all {
		if !slices.Contains(drop, x) {
			out = append(out, x)
		}
	}
	return out
}

func clip(b []byte) string {
	if len(b) > 200 {
		b = b[:200]
	}
	return strings.ToValidUTF8(string(b), "?")
}

// schemaNode is the JSON Schema subset result_schema supports: type
// (one or a list), properties, required, additionalProperties (bool),
// items, enum, minLength, maxLength, minimum, maximum; $schema, title and
// description are ignored. Anything else is refused at posting, so a
// schema never silently checks less than it says.
type schemaNode struct {
	types     []string
	props     map[string]*schemaNode
	propOrder []string
	required  []string
	noExtra   bool
	items     *schemaNode
	enum      []string // canonical JSON of each allowed value
	minLen    *int
	maxLen    *int
	minimum   *big.Rat
	maximum   *big.Rat
}

func parseSchema(s string) (*schemaNode, error) {
	_, v, ok := canonicalJSON([]byte(s))
	if !ok {
		return nil, errors.New("not a JSON document")
	}
	return schemaFrom(v, "$", 0)
}

func schemaFrom(v any, at string, depth int) (*schemaNode, error) {
	if depth > 8 {
		return nil, fmt.Errorf("%s: nested deeper than 8", at)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: a schema must be an object", at)
	}
	n := &schemaNode{}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		x := m[k]
		switch k {
		case "$schema", "title", "description":
		case "type":
			switch t := x.(type) {
			case string:
				n.types = []string{t}
			case []any:
				for _, e := range t {
					s, ok := e.(string)
					if !ok {
						return nil, fmt.Errorf("%s.type: a list of type names", at)
					}
					n.types = append(n.types, s)
				}
			default:
				return nil, fmt.Errorf("%s.type: a type name or a list", at)
			}
			for _, t := range n.types {
				if !slices.Contains([]string{"object", "array", "string", "number", "integer", "boolean", "null"}, t) {
					return nil, fmt.Errorf("%s.type: unknown type %q", at, t)
				}
			}
		case "properties":
			pm, ok := x.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s.properties: an object", at)
			}
			n.props = map[string]*schemaNode{}
			for pk := range pm {
				n.propOrder = append(n.propOrder, pk)
			}
			slices.Sort(n.propOrder)
			for _, pk := range n.propOrder {
				c, err := schemaFrom(pm[pk], at+"."+pk, depth+1)
				if err != nil {
					return nil, err
				}
				n.props[pk] = c
			}
		case "required":
			l, ok := x.([]any)
			if !ok {
				return nil, fmt.Errorf("%s.required: a list of names", at)
			}
			for _, e := range l {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("%s.required: a list of names", at)
				}
				n.required = append(n.required, s)
			}
		case "additionalProperties":
			b, ok := x.(bool)
			if !ok {
				return nil, fmt.Errorf("%s.additionalProperties: only true or false is supported", at)
			}
			n.noExtra = !b
		case "items":
			c, err := schemaFrom(x, at+"[]", depth+1)
			if err != nil {
				return nil, err
			}
			n.items = c
		case "enum":
			l, ok := x.([]any)
			if !ok {
				return nil, fmt.Errorf("%s.enum: a list", at)
			}
			for _, e := range l {
				b, _ := json.Marshal(e)
				n.enum = append(n.enum, string(b))
			}
		case "minLength", "maxLength":
			num, ok := x.(json.Number)
			i, err := num.Int64()
			if !ok || err != nil || i < 0 {
				return nil, fmt.Errorf("%s.%s: a non-negative integer", at, k)
			}
			iv := int(i)
			if k == "minLength" {
				n.minLen = &iv
			} else {
				n.maxLen = &iv
			}
		case "minimum", "maximum":
			num, ok := x.(json.Number)
			r := ratOf(num)
			if !ok || r == nil {
				return nil, fmt.Errorf("%s.%s: a number", at, k)
			}
			if k == "minimum" {
				n.minimum = r
			} else {
				n.maximum = r
			}
		default:
			return nil, fmt.Errorf("%s: keyword %q is not supported (see docs/runners.md)", at, k)
		}
	}
	return n, nil
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number:
		if _, err := x.Int64(); err == nil || !strings.ContainsAny(string(x), ".eE") {
			return "integer"
		}
		return "number"
	}
	return "unknown"
}

func (n *schemaNode) validate(v any, at string) error {
	if len(n.types) > 0 {
		t := jsonType(v)
		if !slices.Contains(n.types, t) && !(t == "integer" && slices.Contains(n.types, "number")) {
			return fmt.Errorf("%s: %s, want %s", at, t, strings.Join(n.types, " or "))
		}
	}
	if n.enum != nil {
		b, _ := json.Marshal(v)
		if !slices.Contains(n.enum, string(b)) {
			return fmt.Errorf("%s: %s is not in the enum", at, b)
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for _, r := range n.required {
			if _, ok := x[r]; !ok {
				return fmt.Errorf("%s: missing required %q", at, r)
			}
		}
		for _, pk := range n.propOrder {
			if pv, ok := x[pk]; ok {
				if err := n.props[pk].validate(pv, at+"."+pk); err != nil {
					return err
				}
			}
		}
		if n.noExtra {
			for k := range x {
				if _, ok := n.props[k]; !ok {
					return fmt.Errorf("%s: property %q is not allowed", at, k)
				}
			}
		}
	case []any:
		if n.items != nil {
			for i, e := range x {
				if err := n.items.validate(e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	case string:
		l := len([]rune(x))
		if n.minLen != nil && l < *n.minLen || n.maxLen != nil && l > *n.maxLen {
			return fmt.Errorf("%s: string length %d out of bounds", at, l)
		}
	case json.Number:
		r := ratOf(x)
		if r == nil {
			return fmt.Errorf("%s: number %s out of range", at, x)
		}
		if n.minimum != nil && r.Cmp(n.minimum) < 0 || n.maximum != nil && r.Cmp(n.maximum) > 0 {
			return fmt.Errorf("%s: %s out of bounds", at, x)
		}
	}
	return nil
}

// ratOf is a JSON number exactly, or nil when it is malformed or its
// exponent is beyond ±400 (so a hostile "1e999999999" costs nothing).
func ratOf(n json.Number) *big.Rat {
	s := string(n)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e := strings.TrimLeft(s[i+1:], "+-")
		if len(e) > 3 || len(e) == 3 && e > "400" {
			return nil
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil
	}
	return r
}
