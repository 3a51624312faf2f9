package layers

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// module is this repository's module path.
const module = "github.com/cowboy-chain/cowboy"

// edge is one folder importing a sibling folder, with a package import
// that shows it.
type edge struct{ from, to, example string }

// folderEdges turns package imports into edges between sibling folders:
// for p importing q, the folders just below their deepest common folder.
// A package importing one in its own parent folder (node/devnettest →
// node) is not an edge between siblings and is left out, as are imports
// outside the module.
func folderEdges(imports map[string][]string) map[string]map[string]string {
	g := map[string]map[string]string{}
	for p, qs := range imports {
		pp := strings.Split(p, "/")
		for _, q := range qs {
			qq := strings.Split(q, "/")
			i := 0
			for i < len(pp) && i < len(qq) && pp[i] == qq[i] {
				i++
			}
			if i == len(pp) || i == len(qq) {
				continue // same package, or one folder holds the other
			}
			from, to := strings.Join(pp[:i+1], "/"), strings.Join(qq[:i+1], "/")
			if g[from] == nil {
				g[from] = map[string]string{}
			}
			if _, ok := g[from][to]; !ok {
				g[from][to] = p + " → " + q
			}
		}
	}
	return g
}

// findCycle returns one cycle of the folder graph as its edges, or nil.
// Nodes are visited in sorted order so the report is stable.
func findCycle(g map[string]map[string]string) []edge {
	nodes := make([]string, 0, len(g))
	for n := range g {
		nodes = append(nodes, n)
	}
	slices.Sort(nodes)
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	var cycle []edge
	var visit func(n string) bool
	visit = func(n string) bool {
		color[n] = grey
		stack = append(stack, n)
		next := make([]string, 0, len(g[n]))
		for m := range g[n] {
			next = append(next, m)
		}
		slices.Sort(next)
		for _, m := range next {
			switch color[m] {
			case grey:
				i := slices.Index(stack, m)
				path := append(slices.Clone(stack[i:]), m)
				for j := 0; j+1 < len(path); j++ {
					cycle = append(cycle, edge{path[j], path[j+1], g[path[j]][path[j+1]]})
				}
				return true
			case white:
				if visit(m) {
					return true
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[n] = black
		return false
	}
	for _, n := range nodes {
		if color[n] == white && visit(n) {
			return cycle
		}
	}
	return nil
}

// parseGoList reads `go list -f '{{.ImportPath}} {{join .Imports " "}}'`
// output, keeping only the module's own packages, with paths relative to
// the module.
func parseGoList(out []byte) map[string][]string {
	imports := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	rel := func(s string) (string, bool) {
		if r, ok := strings.CutPrefix(s, module+"/"); ok {
			return r, true
		}
		return "", false
	}
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		p, ok := rel(f[0])
		if !ok {
			continue
		}
		for _, q := range f[1:] {
			if r, ok := rel(q); ok {
				imports[p] = append(imports[p], r)
			}
		}
	}
	return imports
}

// TestFoldersImportDownward fails when two folders import each other,
// directly or around a loop, at any depth (chain ↔ system at the top,
// chain/x ↔ chain/y below). Only the packages' own imports count: a test
// may drive a lower layer through a higher one (sdk/python's tests run a
// devnet).
func TestFoldersImportDownward(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"/...").Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	imports := parseGoList(out)
	if len(imports) < 10 {
		t.Fatalf("go list found only %d packages of %s", len(imports), module)
	}
	if c := findCycle(folderEdges(imports)); c != nil {
		var b strings.Builder
		for _, e := range c {
			fmt.Fprintf(&b, "\n  %s → %s (e.g. %s)", e.from, e.to, e.example)
		}
		t.Fatalf("folders import each other; each folder must import only downward (docs/architecture.md):%s", b.String())
	}
}

// TestFindCycle checks the checker on made-up graphs, including the
// chain ↔ system cycle this test was written against.
func TestFindCycle(t *testing.T) {
	tests := []struct {
		name    string
		imports map[string][]string
		cycle   bool
	}{
		{"downward", map[string][]string{"node": {"chain/execution", "rpc"}, "chain/execution": {"chain/state"}, "rpc": {"chain/types"}}, false},
		{"chain and system", map[string][]string{"chain/execution": {"system/staking"}, "system/staking": {"chain/state"}}, true},
		{"sibling subfolders", map[string][]string{"chain/execution": {"chain/staking"}, "chain/staking/x": {"chain/execution"}}, true},
		{"loop of three", map[string][]string{"a/p": {"b/p"}, "b/p": {"c/p"}, "c/q": {"a/r"}}, true},
		{"child imports parent", map[string][]string{"node/devnettest": {"node"}, "node": {"chain/types"}}, false},
		{"parent imports child", map[string][]string{"pvm": {"pvm/cbor"}, "pvm/cbor": {"crypto"}}, false},
	}
	for _, tt := range tests {
		if got := findCycle(folderEdges(tt.imports)) != nil; got != tt.cycle {
			t.Errorf("%s: cycle %v, want %v", tt.name, got, tt.cycle)
		}
	}
}
