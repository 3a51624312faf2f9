package runner

import (
	"slices"
	"strings"
	"testing"
)

// TestModes runs verify over the results of a committee in every
// verification mode.
func TestModes(t *testing.T) {
	ok := func(s string) *Reveal { return &Reveal{Status: StatusOK, Output: []byte(s)} }
	schema := `{"type":"object","required":["label","score"],"properties":{"label":{"type":"string","enum":["pos","neg"]},"score":{"type":"integer","minimum":0,"maximum":100}}}`
	for _, tc := range []struct {
		name    string
		spec    JobSpec
		reveals []*Reveal
		outcome string
		output  string
		winners []int
		liars   []int
		invalid []int
	}{
		{"none accepts its runner", JobSpec{Trust: TrustNone, Threshold: 1}, []*Reveal{ok("anything")}, OutcomeSuccess, "anything", []int{0}, nil, nil},
		{"none refuses empty output", JobSpec{Trust: TrustNone, Threshold: 1}, []*Reveal{ok("  ")}, OutcomeRunner, "", nil, nil, []int{0}},
		{"economic_bond checks the schema", JobSpec{Trust: TrustBond, Threshold: 1, ResultSchema: schema}, []*Reveal{ok(`{"label":"pos","score":101}`)}, OutcomeRunner, "", nil, nil, []int{0}},
		{"economic_bond accepts a valid result", JobSpec{Trust: TrustBond, Threshold: 1, ResultSchema: schema}, []*Reveal{ok(`{"label":"pos","score":99}`)}, OutcomeSuccess, `{"label":"pos","score":99}`, []int{0}, nil, nil},
		{"majority_vote by whole JSON", JobSpec{Trust: TrustMajority, Threshold: 2}, []*Reveal{ok(`{"a": 1, "b": 2}`), ok(`{"b":2,"a":1}`), ok(`{"a":2}`)}, OutcomeSuccess, `{"a": 1, "b": 2}`, []int{0, 1}, []int{2}, nil},
		{"majority_vote by field", JobSpec{Trust: TrustMajority, Threshold: 2, VoteField: "label"}, []*Reveal{ok(`{"label":"pos","why":"x"}`), ok(`{"label":"neg"}`), ok(`{"label":"pos","why":"y"}`)}, OutcomeSuccess, `{"label":"pos","why":"x"}`, []int{0, 2}, []int{1}, nil},
		{"majority_vote: missing field is invalid", JobSpec{Trust: TrustMajority, Threshold: 2, VoteField: "label"}, []*Reveal{ok(`{"label":"pos"}`), ok(`plain text`), ok(`{"label":"pos"}`)}, OutcomeSuccess, `{"label":"pos"}`, []int{0, 2}, nil, []int{1}},
		{"majority_vote on text", JobSpec{Trust: TrustMajority, Threshold: 2}, []*Reveal{ok("yes\n"), ok("yes"), ok("no")}, OutcomeSuccess, "yes\n", []int{0, 1}, []int{2}, nil},
		{"majority_vote without quorum", JobSpec{Trust: TrustMajority, Threshold: 2}, []*Reveal{ok("a"), ok("b"), ok("c")}, OutcomeRunner, "", nil, nil, nil},
		{"structured_match by fields", JobSpec{Trust: TrustStructured, Threshold: 2, ResultSchema: schema, MatchFields: []string{"label"}}, []*Reveal{ok(`{"label":"pos","score":80}`), ok(`{"label":"pos","score":75}`), ok(`{"label":"neg","score":75}`)}, OutcomeSuccess, `{"label":"pos","score":80}`, []int{0, 1}, []int{2}, nil},
		{"structured_match: schema violation is not a lie", JobSpec{Trust: TrustStructured, Threshold: 2, ResultSchema: schema}, []*Reveal{ok(`{"label":"pos","score":80}`), ok(`{"label":"maybe","score":80}`), ok(`{"score":80,"label":"pos"}`)}, OutcomeSuccess, `{"label":"pos","score":80}`, []int{0, 2}, nil, []int{1}},
		{"deterministic needs the same bytes", JobSpec{Trust: TrustExact, Threshold: 2}, []*Reveal{ok(`{"a":1}`), ok(`{"a": 1}`), ok(`{"a":1}`)}, OutcomeSuccess, `{"a":1}`, []int{0, 2}, []int{1}, nil},
		{"semantic_similarity clusters paraphrases", JobSpec{Trust: TrustSemantic, Threshold: 2, SimilarityBps: 5_000}, []*Reveal{ok("The sky is blue on a clear day."), ok("On a clear day the sky is blue!"), ok("Bananas are yellow.")}, OutcomeSuccess, "The sky is blue on a clear day.", []int{0, 1}, nil, []int{2}},
		{"semantic_similarity without quorum", JobSpec{Trust: TrustSemantic, Threshold: 2, SimilarityBps: 9_000}, []*Reveal{ok("the sky is blue"), ok("the sea is green"), ok("")}, OutcomeRunner, "", nil, nil, []int{2}},
		{"fault quorum decides", JobSpec{Trust: TrustMajority, Threshold: 2}, []*Reveal{{Status: StatusExternal, Output: []byte("API down")}, ok("yes"), {Status: StatusExternal, Output: []byte("503")}}, OutcomeExternal, "", []int{0, 2}, nil, []int{1}},
		{"a lone fault claim is penalized", JobSpec{Trust: TrustMajority, Threshold: 2}, []*Reveal{{Status: StatusImpossible}, ok("yes"), ok("yes")}, OutcomeSuccess, "yes", []int{1, 2}, nil, []int{0}},
		{"silent members are not judged here", JobSpec{Trust: TrustMajority, Threshold: 2}, []*Reveal{ok("yes"), nil, ok("yes")}, OutcomeSuccess, "yes", []int{0, 2}, nil, nil},
		{"nobody revealed", JobSpec{Trust: TrustMajority, Threshold: 2}, []*Reveal{nil, nil, nil}, OutcomeRunner, "", nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := &Job{Spec: tc.spec, Reveals: tc.reveals}
			var entries []int
			for i, r := range tc.reveals {
				if r != nil {
					entries = append(entries, i)
				}
			}
			v := verify(j, entries)
			if v.outcome != tc.outcome || string(v.output) != tc.output {
				t.Fatalf("outcome %q output %q (%s), want %q %q", v.outcome, v.output, v.err, tc.outcome, tc.output)
			}
			if !slices.Equal(v.winners, tc.winners) || !slices.Equal(v.liars, tc.liars) || !slices.Equal(v.invalid, tc.invalid) {
				t.Fatalf("winners %v liars %v invalid %v, want %v %v %v", v.winners, v.liars, v.invalid, tc.winners, tc.liars, tc.invalid)
			}
			if v.outcome != OutcomeSuccess && v.err == "" {
				t.Fatal("a failed verification has no error")
			}
		})
	}
}

func TestSchemaSubset(t *testing.T) {
	for _, tc := range []struct{ schema, doc, want string }{
		{`{"type":"array","items":{"type":"string","maxLength":3}}`, `["abc","de"]`, ""},
		{`{"type":"array","items":{"type":"string","maxLength":3}}`, `["abcd"]`, "length"},
		{`{"type":"object","additionalProperties":false,"properties":{"a":{"type":"null"}}}`, `{"a":null,"b":1}`, "not allowed"},
		{`{"type":"number","minimum":0.5}`, `0.25`, "out of bounds"},
		{`{"type":"number","maximum":1}`, `1e999999999`, "out of range"},
		{`{"type":["integer","null"]}`, `null`, ""},
		{`{"type":"integer"}`, `1.5`, "want integer"},
		{`{"pattern":"^a"}`, `"a"`, "not supported"},
		{`{"type":"strange"}`, `1`, "unknown type"},
	} {
		s, err := parseSchema(tc.schema)
		if err != nil {
			if tc.want == "" || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: parse: %v", tc.schema, err)
			}
			continue
		}
		_, v, _ := canonicalJSON([]byte(tc.doc))
		err = s.validate(v, "$")
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s on %s: %v, want %q", tc.schema, tc.doc, err, tc.want)
		}
	}
}
