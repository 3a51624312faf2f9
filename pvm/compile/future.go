package compile

import (
	"github.com/cowboy-chain/cowboy/pvm/syntax"
)

// Future statements (Language Reference §7.11.1, "Future statements";
// CPython 3.11's Python/future.c). `from __future__ import name` is a
// directive to the compiler as well as an ordinary import: it must come
// first in the module (after the docstring and other future
// statements), name a feature CPython knows, and one feature changes how
// the module compiles: `annotations` (PEP 563), under which annotations
// are stored as their source text instead of being evaluated. The import
// itself still runs, from the whitelisted `__future__` module.

// futureFeatures is what a module's future statements turned on.
type futureFeatures struct {
	// annotations is PEP 563's CO_FUTURE_ANNOTATIONS.
	annotations bool
	// line is the line of the last future statement at the start of the
	// module (0 when there is none): a later one is refused (compiler_
	// from_import compares the lines, so `from __future__ import a; from
	// __future__ import b` on one line passes).
	line int
}

// futureParse reads the future statements at the start of a module as
// future_parse does: after an optional docstring, a run of statements
// that are all `from __future__ import ...`; the first other statement
// ends the run, and a future statement on a later line than it is an
// error. A future statement later in the file is refused by the
// compiler when it reaches it (futureMisplaced).
func futureParse(body []syntax.Stmt) (futureFeatures, error) {
	var ff futureFeatures
	i := 0
	if docstring(body) != nil {
		i++
	}
	done, prevLine := false, 0
	for ; i < len(body); i++ {
		s := body[i]
		if done && s.Lineno() > prevLine {
			return ff, nil
		}
		prevLine = s.Lineno()
		imp, ok := s.(*syntax.ImportFrom)
		if !ok || imp.Module != "__future__" || imp.Level != 0 {
			done = true
			continue
		}
		if done {
			return ff, syntaxErrorAt(s.Lineno(), futureMisplacedMsg)
		}
		for _, a := range imp.Names {
			switch a.Name {
			case "nested_scopes", "generators", "division", "absolute_import",
				"with_statement", "print_function", "unicode_literals",
				"generator_stop":
				// Mandatory in Python 3: accepted, no effect.
			case "annotations":
				ff.annotations = true
			case "barry_as_FLUFL":
				// PEP 401 swaps `!=` for `<>` in the tokenizer, which
				// the PVM's does not do; refusing is clearer than
				// accepting the directive and ignoring it.
				return ff, syntaxErrorAt(s.Lineno(), "PVM: from __future__ import barry_as_FLUFL is not supported")
			case "braces":
				return ff, syntaxErrorAt(s.Lineno(), "not a chance")
			default:
				return ff, syntaxErrorAt(s.Lineno(), "future feature "+a.Name+" is not defined")
			}
		}
		ff.line = s.Lineno()
	}
	return ff, nil
}

// futureMisplacedMsg is CPython's message for a future statement that is
// not at the start of the module, in a function or class body included.
const futureMisplacedMsg = "from __future__ imports must occur at the beginning of the file"

// annotationBlockError is the error CPython's symbol table raises for an
// annotation under `from __future__ import annotations` that holds an
// expression which cannot be kept as text: the annotation is a block of
// its own there (symtable_visit_annotation), in which yield, await and
// := are refused (symtable_raise_if_annotation_block). A lambda opens
// its own block, so its body is not searched. It returns nil when the
// annotation is fine.
func annotationBlockError(e syntax.Expr) error {
	var found error
	var walk func(e syntax.Expr)
	refuse := func(line int, what string) {
		if found == nil {
			found = syntaxErrorAt(line, "'"+what+"' can not be used within an annotation")
		}
	}
	walk = func(e syntax.Expr) {
		if e == nil || found != nil {
			return
		}
		switch n := e.(type) {
		case *syntax.Yield, *syntax.YieldFrom:
			refuse(e.Lineno(), "yield expression")
		case *syntax.Await:
			refuse(n.Line, "await expression")
		case *syntax.NamedExpr:
			refuse(n.Line, "named expression")
		case *syntax.Lambda:
			// Its defaults are evaluated in the annotation's block.
			if n.Args != nil {
				for _, d := range n.Args.Defaults {
					walk(d)
				}
				for _, d := range n.Args.KwDefaults {
					walk(d)
				}
			}
		case *syntax.BoolOp:
			for _, v := range n.Values {
				walk(v)
			}
		case *syntax.BinOp:
			walk(n.Left)
			walk(n.Right)
		case *syntax.UnaryOp:
			walk(n.Operand)
		case *syntax.IfExp:
			walk(n.Test)
			walk(n.Body)
			walk(n.Orelse)
		case *syntax.Dict:
			for i := range n.Keys {
				walk(n.Keys[i])
				walk(n.Values[i])
			}
		case *syntax.Set:
			walkAll(walk, n.Elts)
		case *syntax.List:
			walkAll(walk, n.Elts)
		case *syntax.Tuple:
			walkAll(walk, n.Elts)
		case *syntax.ListComp:
			walkComp(walk, n.Generators, n.Elt)
		case *syntax.SetComp:
			walkComp(walk, n.Generators, n.Elt)
		case *syntax.GeneratorExp:
			walkComp(walk, n.Generators, n.Elt)
		case *syntax.DictComp:
			walkComp(walk, n.Generators, n.Key, n.Value)
		case *syntax.Compare:
			walk(n.Left)
			walkAll(walk, n.Comparators)
		case *syntax.Call:
			walk(n.Func)
			walkAll(walk, n.Args)
			for _, k := range n.Keywords {
				walk(k.Value)
			}
		case *syntax.JoinedStr:
			walkAll(walk, n.Values)
		case *syntax.FormattedValue:
			walk(n.Value)
			walk(n.FormatSpec)
		case *syntax.Attribute:
			walk(n.Value)
		case *syntax.Subscript:
			walk(n.Value)
			walk(n.Slice)
		case *syntax.Starred:
			walk(n.Value)
		case *syntax.Slice:
			walk(n.Lower)
			walk(n.Upper)
			walk(n.Step)
		}
	}
	walk(e)
	return found
}

func walkAll(walk func(syntax.Expr), list []syntax.Expr) {
	for _, e := range list {
		walk(e)
	}
}

// walkComp searches a comprehension: its clauses, then its elements.
func walkComp(walk func(syntax.Expr), gens []*syntax.Comprehension, elts ...syntax.Expr) {
	for _, g := range gens {
		walk(g.Target)
		walk(g.Iter)
		walkAll(walk, g.Ifs)
	}
	walkAll(walk, elts)
}
