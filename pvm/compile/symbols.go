package compile

import (
	"fmt"

	"github.com/cowboy-chain/cowboy/pvm/syntax"
)

// symbols is pass one: it walks the tree, creates a scope for the module
// and for every function, lambda, comprehension and class body, and records
// which names each binds, uses or declares global/nonlocal.
type symbols struct {
	scopes map[any]*scope
	cur    *scope
	err    error
	// compVars are each comprehension scope's iteration variables, and
	// inCompIter counts the comprehension iterables being walked: CPython
	// refuses an assignment expression that rebinds the former or sits in
	// the latter (symtable.c).
	compVars   map[*scope]map[string]bool
	inCompIter int
	// future is what the module's future statements turned on: under
	// `annotations` an annotation is text, never evaluated, so its
	// names are not uses (future.go).
	future futureFeatures
}

// fail records the first error only: the walk goes on to its end (its
// callers have no error returns), and CPython too reports the first.
func (s *symbols) fail(line int, msg string) {
	if s.err == nil {
		s.err = syntaxErrorAt(line, msg)
	}
}

// push opens a scope for node, which the code generator looks up again
// by the same node.
func (s *symbols) push(kind scopeKind, name string, node any) *scope {
	sc := newScope(kind, name, s.cur)
	s.scopes[node] = sc
	s.cur = sc
	return sc
}

// pop returns to the enclosing scope.
func (s *symbols) pop() { s.cur = s.cur.parent }

// stmts walks a statement list.
func (s *symbols) stmts(list []syntax.Stmt) {
	for _, st := range list {
		s.stmt(st)
	}
}

// args walks a def's or lambda's default values, which are evaluated in
// the enclosing scope when the def runs (§8.7), before the new scope is
// pushed.
func (s *symbols) args(a *syntax.Arguments) {
	if a == nil {
		return
	}
	for _, d := range a.Defaults {
		s.expr(d)
	}
	for _, d := range a.KwDefaults {
		if d != nil {
			s.expr(d)
		}
	}
}

// futureArgAnnotations refuses, under `from __future__ import
// annotations`, a parameter or return annotation that cannot be kept as
// text (annotationBlockError), as CPython's symbol table does.
func (s *symbols) futureArgAnnotations(n *syntax.FunctionDef) {
	if !s.future.annotations || s.err != nil {
		return
	}
	var anns []syntax.Expr
	if a := n.Args; a != nil {
		for _, group := range [][]*syntax.Arg{a.PosOnlyArgs, a.Args, {a.VarArg}, a.KwOnlyArgs, {a.KwArg}} {
			for _, p := range group {
				if p != nil && p.Annotation != nil {
					anns = append(anns, p.Annotation)
				}
			}
		}
	}
	if n.Returns != nil {
		anns = append(anns, n.Returns)
	}
	for _, e := range anns {
		if err := annotationBlockError(e); err != nil {
			s.err = err
			return
		}
	}
}

// annotations walks a def's parameter and return annotations, which are
// evaluated after the defaults, in the enclosing scope, into the
// function's __annotations__ (§8.7; compiler.annotations).
func (s *symbols) annotations(a *syntax.Arguments, returns syntax.Expr) {
	for _, p := range annotated(a) {
		s.expr(p.Annotation)
	}
	if returns != nil {
		s.expr(returns)
	}
}

// annotated are a's annotated parameters in CPython 3.11's order for
// __annotations__ (compiler_visit_annotations): the positional ones
// before the positional-only ones, then *args, the keyword-only ones
// and **kwargs.
func annotated(a *syntax.Arguments) []*syntax.Arg {
	if a == nil {
		return nil
	}
	var out []*syntax.Arg
	add := func(ps ...*syntax.Arg) {
		for _, p := range ps {
			if p != nil && p.Annotation != nil {
				out = append(out, p)
			}
		}
	}
	add(a.Args...)
	add(a.PosOnlyArgs...)
	add(a.VarArg)
	add(a.KwOnlyArgs...)
	add(a.KwArg)
	return out
}

// params binds the parameters in sc, in slot order (scope.params), with
// CPython's error for a name given twice.
func (s *symbols) params(sc *scope, a *syntax.Arguments) {
	if a == nil {
		return
	}
	add := func(p *syntax.Arg) {
		// Parameters are mangled (the message names the name as
		// written, as CPython's does).
		name := sc.mangle(p.Arg)
		if contains(sc.params, name) {
			s.fail(p.Line, "duplicate argument '"+p.Arg+"' in function definition")
		}
		sc.params = append(sc.params, name)
		sc.def(p.Arg)
	}
	for _, p := range a.PosOnlyArgs {
		add(p)
	}
	for _, p := range a.Args {
		add(p)
	}
	for _, p := range a.KwOnlyArgs {
		add(p)
	}
	if a.VarArg != nil {
		add(a.VarArg)
	}
	if a.KwArg != nil {
		add(a.KwArg)
	}
}

// stmt records what one statement binds and uses, and descends into the
// scopes it opens. The order of the walk matters only for scope.order
// (slot numbering) and for the declared-after-use checks of global and
// nonlocal.
func (s *symbols) stmt(st syntax.Stmt) {
	switch n := st.(type) {
	case *syntax.FunctionDef:
		// Decorators and defaults belong to the enclosing scope, the
		// name is bound there, and the body gets a scope of its own.
		for _, d := range n.DecoratorList {
			s.expr(d)
		}
		s.args(n.Args)
		if s.future.annotations {
			// PEP 563: kept as text, never evaluated (future.go).
			s.futureArgAnnotations(n)
		} else {
			s.annotations(n.Args, n.Returns)
		}
		s.cur.def(n.Name)
		sc := s.push(functionScope, n.Name, n)
		sc.coroutine = n.IsAsync
		s.params(sc, n.Args)
		s.stmts(n.Body)
		s.pop()
	case *syntax.ClassDef:
		// Decorators, bases and keywords are evaluated in the enclosing
		// scope; the body is a scope of its own (classScope), whose names
		// the methods inside do not see (lookupEnclosing).
		for _, d := range n.DecoratorList {
			s.expr(d)
		}
		for _, b := range n.Bases {
			s.expr(b)
		}
		for _, k := range n.Keywords {
			s.expr(k.Value)
		}
		s.cur.def(n.Name)
		s.push(classScope, n.Name, n)
		s.stmts(n.Body)
		s.pop()
	case *syntax.Return:
		if s.cur.kind != functionScope {
			s.fail(n.Line, "'return' outside function")
		}
		if n.Value != nil {
			s.expr(n.Value)
		}
	case *syntax.Delete:
		for _, t := range n.Targets {
			s.target(t)
		}
	case *syntax.Assign:
		s.expr(n.Value)
		for _, t := range n.Targets {
			s.target(t)
		}
	case *syntax.AugAssign:
		// `x += v` reads x before binding it, so x is local (and
		// unbound if never assigned before, UnboundLocalError) in a
		// function, as in CPython.
		s.expr(n.Value)
		if nm, ok := n.Target.(*syntax.Name); ok {
			s.cur.use(nm.Id)
		}
		s.target(n.Target)
	case *syntax.AnnAssign:
		// An annotation alone still makes a name local to a function
		// (§7.2.2). Without a value, an attribute or subscript target's
		// object (and index) are still evaluated, as CPython does. At
		// module level and in a class body the annotation is evaluated
		// (into __annotations__ for a simple name), so the names in it
		// are uses; in a function it never is.
		if nm, ok := n.Target.(*syntax.Name); ok && n.Simple {
			// CPython refuses annotating a name declared global or
			// nonlocal, except at module level.
			name := s.cur.mangle(nm.Id)
			if s.cur.kind != moduleScope && (s.cur.globals[name] || s.cur.nonlocals[name]) {
				kind := "global"
				if s.cur.nonlocals[name] {
					kind = "nonlocal"
				}
				s.fail(n.Line, "annotated name '"+nm.Id+"' can't be "+kind)
			}
			s.cur.annotated[name] = true
		}
		if n.Value != nil {
			s.expr(n.Value)
			s.target(n.Target)
		} else {
			switch t := n.Target.(type) {
			case *syntax.Name:
				// Only a simple name is bound by its annotation alone
				// (CPython's DEF_LOCAL); `(x): int` binds nothing.
				if s.cur.kind == functionScope && n.Simple {
					s.cur.def(t.Id)
				}
			case *syntax.Attribute:
				s.expr(t.Value)
			case *syntax.Subscript:
				s.expr(t.Value)
				s.expr(t.Slice)
			}
		}
		if s.future.annotations {
			// PEP 563: the annotation is a block of its own in CPython's
			// symbol table, in any scope.
			if err := annotationBlockError(n.Annotation); err != nil && s.err == nil {
				s.err = err
			}
		} else if s.cur.kind == classScope || s.cur.kind == moduleScope {
			s.expr(n.Annotation)
		}
	case *syntax.For:
		if n.IsAsync {
			s.needAsync(n.Line, "'async for'")
		}
		s.expr(n.Iter)
		s.target(n.Target)
		s.stmts(n.Body)
		s.stmts(n.Orelse)
	case *syntax.While:
		s.expr(n.Test)
		s.stmts(n.Body)
		s.stmts(n.Orelse)
	case *syntax.If:
		s.expr(n.Test)
		s.stmts(n.Body)
		s.stmts(n.Orelse)
	case *syntax.With:
		if n.IsAsync {
			s.needAsync(n.Line, "'async with'")
		}
		for _, it := range n.Items {
			s.expr(it.ContextExpr)
			if it.OptionalVars != nil {
				s.target(it.OptionalVars)
			}
		}
		s.stmts(n.Body)
	case *syntax.Match:
		s.expr(n.Subject)
		for _, c := range n.Cases {
			s.pattern(c.Pattern)
			if c.Guard != nil {
				s.expr(c.Guard)
			}
			s.stmts(c.Body)
		}
	case *syntax.Raise:
		if n.Exc != nil {
			s.expr(n.Exc)
		}
		if n.Cause != nil {
			s.expr(n.Cause)
		}
	case *syntax.Try:
		s.stmts(n.Body)
		for _, h := range n.Handlers {
			if h.Type != nil {
				s.expr(h.Type)
			}
			if h.Name != "" {
				s.cur.def(h.Name)
			}
			s.stmts(h.Body)
		}
		s.stmts(n.Orelse)
		s.stmts(n.Finalbody)
	case *syntax.Assert:
		s.expr(n.Test)
		if n.Msg != nil {
			s.expr(n.Msg)
		}
	case *syntax.Import:
		for _, a := range n.Names {
			name := a.Asname
			if name == "" {
				name = firstComponent(a.Name)
			}
			s.cur.def(name)
		}
	case *syntax.ImportFrom:
		for _, a := range n.Names {
			if a.Name == "*" {
				if s.cur.kind != moduleScope {
					s.fail(n.Line, "import * only allowed at module level")
				}
				continue
			}
			name := a.Asname
			if name == "" {
				name = a.Name
			}
			s.cur.def(name)
		}
	case *syntax.Global:
		// A global or nonlocal declaration must come before any use,
		// assignment or annotation of the name in the scope, and cannot
		// name a parameter (§7.12, §7.13).
		for _, written := range n.Names {
			name := s.cur.mangle(written)
			if msg := s.cur.declError(name, written, "global"); msg != "" {
				s.fail(n.Line, msg)
			}
			s.cur.note(name)
			s.cur.globals[name] = true
		}
	case *syntax.Nonlocal:
		if s.cur.kind == moduleScope {
			s.fail(n.Line, "nonlocal declaration not allowed at module level")
		}
		for _, written := range n.Names {
			name := s.cur.mangle(written)
			if msg := s.cur.declError(name, written, "nonlocal"); msg != "" {
				s.fail(n.Line, msg)
			}
			s.cur.note(name)
			s.cur.nonlocals[name] = true
			if _, ok := s.cur.nonlocalLine[name]; !ok {
				s.cur.nonlocalLine[name] = n.Line
			}
		}
	case *syntax.ExprStmt:
		s.expr(n.Value)
	case *syntax.Pass, *syntax.Break, *syntax.Continue:
	}
}

// firstComponent is the name `import a.b.c` binds: a.
func firstComponent(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] == '.' {
			return name[:i]
		}
	}
	return name
}

// targetNames collects the names a for-target binds in sc (mangled):
// a comprehension's iteration variables, which an assignment expression
// inside it may not rebind.
func targetNames(sc *scope, t syntax.Expr, into map[string]bool) {
	switch n := t.(type) {
	case *syntax.Name:
		into[sc.mangle(n.Id)] = true
	case *syntax.Tuple:
		for _, e := range n.Elts {
			targetNames(sc, e, into)
		}
	case *syntax.List:
		for _, e := range n.Elts {
			targetNames(sc, e, into)
		}
	case *syntax.Starred:
		targetNames(sc, n.Value, into)
	}
}

// target records an assignment target: names are bound, while an
// attribute's object or a subscript's object and key are only read.
func (s *symbols) target(t syntax.Expr) {
	switch n := t.(type) {
	case *syntax.Name:
		s.cur.def(n.Id)
	case *syntax.Tuple:
		for _, e := range n.Elts {
			s.target(e)
		}
	case *syntax.List:
		for _, e := range n.Elts {
			s.target(e)
		}
	case *syntax.Starred:
		s.target(n.Value)
	case *syntax.Attribute:
		s.expr(n.Value)
	case *syntax.Subscript:
		s.expr(n.Value)
		s.expr(n.Slice)
	default:
		s.expr(t)
	}
}

// pattern records a match pattern: capture names (including *rest and
// **rest) are bound; value patterns and class names are read.
func (s *symbols) pattern(p syntax.Pattern) {
	switch n := p.(type) {
	case *syntax.MatchValue:
		s.expr(n.Value)
	case *syntax.MatchSequence:
		for _, q := range n.Patterns {
			s.pattern(q)
		}
	case *syntax.MatchMapping:
		for _, k := range n.Keys {
			s.expr(k)
		}
		for _, q := range n.Patterns {
			s.pattern(q)
		}
		if n.Rest != "" {
			s.cur.def(n.Rest)
		}
	case *syntax.MatchClass:
		s.expr(n.Cls)
		for _, q := range n.Patterns {
			s.pattern(q)
		}
		for _, q := range n.KwdPatterns {
			s.pattern(q)
		}
	case *syntax.MatchStar:
		if n.Name != "" {
			s.cur.def(n.Name)
		}
	case *syntax.MatchAs:
		if n.Pattern != nil {
			s.pattern(n.Pattern)
		}
		if n.Name != "" {
			s.cur.def(n.Name)
		}
	case *syntax.MatchOr:
		for _, q := range n.Patterns {
			s.pattern(q)
		}
	}
}

// useClassCell makes __class__ available to the function scope sc for
// zero-argument super(): the nearest enclosing class body provides it as a
// cell, every scope in between passes it through as a free variable.
func (s *symbols) useClassCell(sc *scope) {
	var class *scope
	for p := sc; p != nil; p = p.parent {
		if p.kind == classScope {
			class = p
			break
		}
	}
	if class == nil {
		return // not inside a class: super() fails at run time as in Python
	}
	class.needsClassCell = true
	for p := sc; p != class; p = p.parent {
		if p.kind == functionScope {
			p.usesClassCell = true
		}
	}
}

// comprehension opens the function scope of a comprehension or generator
// expression (§6.2.4), whose only parameter ".0" is the first iterable's
// iterator, evaluated outside. Its other iterables, targets, conditions
// and element are inside. CPython forbids an assignment expression in
// any iterable; inCompIter tracks that.
func (s *symbols) comprehension(node any, gens []*syntax.Comprehension, elts ...syntax.Expr) {
	if len(gens) == 0 {
		return
	}
	// The first iterable is evaluated in the enclosing scope.
	s.inCompIter++
	s.expr(gens[0].Iter)
	s.inCompIter--
	sc := s.push(functionScope, "<comp>", node)
	switch node.(type) {
	case *syntax.SetComp:
		sc.compKind = "set comprehension"
	case *syntax.DictComp:
		sc.compKind = "dict comprehension"
	case *syntax.GeneratorExp:
		sc.compKind = "generator expression"
	default:
		sc.compKind = "list comprehension"
	}
	sc.params = []string{".0"}
	sc.def(".0")
	vars := map[string]bool{}
	for _, g := range gens {
		targetNames(sc, g.Target, vars)
	}
	if s.compVars == nil {
		s.compVars = map[*scope]map[string]bool{}
	}
	s.compVars[sc] = vars
	for i, g := range gens {
		if i > 0 {
			s.inCompIter++
			s.expr(g.Iter)
			s.inCompIter--
		}
		s.target(g.Target)
		for _, c := range g.Ifs {
			s.expr(c)
		}
	}
	for _, e := range elts {
		s.expr(e)
	}
	s.pop()
}

// expr records the names an expression reads, the scopes its lambdas
// and comprehensions open, and the bindings of its assignment
// expressions.
func (s *symbols) expr(e syntax.Expr) {
	switch n := e.(type) {
	case *syntax.Name:
		// A function that mentions super or __class__ may need the
		// class cell (addClassCells, compiler.isZeroArgSuper).
		s.cur.use(n.Id)
		if (n.Id == "super" || n.Id == "__class__") && s.cur.kind == functionScope {
			s.useClassCell(s.cur)
		}
	case *syntax.BoolOp:
		for _, v := range n.Values {
			s.expr(v)
		}
	case *syntax.NamedExpr:
		s.expr(n.Value)
		if s.inCompIter > 0 {
			s.fail(n.Line, "assignment expression cannot be used in a comprehension iterable expression")
		}
		// The target binds in the nearest enclosing non-comprehension
		// scope (§6.12, PEP 572): the comprehensions in between declare
		// it nonlocal (or global, at module level) so their stores reach
		// that binding.
		// CPython looks the iteration variables up by the name as
		// written, though it recorded them mangled: in a class a private
		// walrus target never conflicts (it rebinds the variable, which
		// becomes the enclosing function's), and so the PVM too.
		sc := s.cur
		for sc.name == "<comp>" && sc.parent != nil {
			if nm, ok := n.Target.(*syntax.Name); ok && s.compVars[sc][nm.Id] {
				s.fail(n.Line, fmt.Sprintf("assignment expression cannot rebind comprehension iteration variable '%s'", nm.Id))
			}
			sc = sc.parent
		}
		if sc != s.cur && sc.kind == classScope {
			s.fail(n.Line, "assignment expression within a comprehension cannot be used in a class body")
		}
		if nm, ok := n.Target.(*syntax.Name); ok {
			if sc != s.cur {
				sc.def(nm.Id)
				// note first: it skips a name already declared, and
				// the name must enter the comprehension's order to be
				// resolved at all (else it fell back to a global, and
				// a function's walrus target stayed unbound). A name
				// the function declares global stays global, as in
				// CPython.
				name := s.cur.mangle(nm.Id)
				s.cur.note(name)
				if sc.kind == functionScope && !sc.globals[name] {
					s.cur.nonlocals[name] = true
				} else {
					s.cur.globals[name] = true
				}
			} else {
				s.cur.def(nm.Id)
			}
		}
	case *syntax.BinOp:
		s.expr(n.Left)
		s.expr(n.Right)
	case *syntax.UnaryOp:
		s.expr(n.Operand)
	case *syntax.Lambda:
		// As a def: defaults outside, parameters and body inside.
		s.args(n.Args)
		sc := s.push(functionScope, "<lambda>", n)
		s.params(sc, n.Args)
		s.expr(n.Body)
		s.pop()
	case *syntax.IfExp:
		s.expr(n.Test)
		s.expr(n.Body)
		s.expr(n.Orelse)
	case *syntax.Dict:
		for i, k := range n.Keys {
			if k != nil {
				s.expr(k)
			}
			s.expr(n.Values[i])
		}
	case *syntax.Set:
		for _, x := range n.Elts {
			s.expr(x)
		}
	case *syntax.ListComp:
		s.comprehension(n, n.Generators, n.Elt)
	case *syntax.SetComp:
		s.comprehension(n, n.Generators, n.Elt)
	case *syntax.DictComp:
		s.comprehension(n, n.Generators, n.Key, n.Value)
	case *syntax.GeneratorExp:
		// A generator expression's function is a generator; one that
		// awaits would be an asynchronous generator, which the PVM does
		// not run.
		s.comprehension(n, n.Generators, n.Elt)
		if sc := s.scopes[n]; sc != nil {
			sc.generator = true
			if sc.coroutine {
				s.fail(n.Line, "PVM: asynchronous generator expressions (await inside a generator expression) are not supported")
			}
		}
	case *syntax.Await:
		s.needAsync(n.Line, "'await'")
		s.expr(n.Value)
	case *syntax.Yield:
		s.markGenerator(n.Line)
		if n.Value != nil {
			s.expr(n.Value)
		}
	case *syntax.YieldFrom:
		s.markGenerator(n.Line)
		s.expr(n.Value)
	case *syntax.Compare:
		s.expr(n.Left)
		for _, c := range n.Comparators {
			s.expr(c)
		}
	case *syntax.Call:
		s.expr(n.Func)
		for _, a := range n.Args {
			s.expr(a)
		}
		for _, k := range n.Keywords {
			s.expr(k.Value)
		}
	case *syntax.FormattedValue:
		s.expr(n.Value)
		if n.FormatSpec != nil {
			s.expr(n.FormatSpec)
		}
	case *syntax.JoinedStr:
		for _, v := range n.Values {
			s.expr(v)
		}
	case *syntax.Constant:
	case *syntax.Attribute:
		s.expr(n.Value)
	case *syntax.Subscript:
		s.expr(n.Value)
		s.expr(n.Slice)
	case *syntax.Starred:
		s.expr(n.Value)
	case *syntax.List:
		for _, x := range n.Elts {
			s.expr(x)
		}
	case *syntax.Tuple:
		for _, x := range n.Elts {
			s.expr(x)
		}
	case *syntax.Slice:
		for _, x := range []syntax.Expr{n.Lower, n.Upper, n.Step} {
			if x != nil {
				s.expr(x)
			}
		}
	}
}

// markGenerator makes the current function a generator, with CPython's
// error for a yield outside a function or inside a comprehension (named
// by its kind, as CPython does). A yield
// in an async def (an asynchronous generator) is refused: the PVM runs
// coroutines but not async generators.
func (s *symbols) markGenerator(line int) {
	if s.cur.kind != functionScope {
		s.fail(line, "'yield' outside function")
		return
	}
	if s.cur.name == "<comp>" {
		s.fail(line, "'yield' inside "+s.cur.compKind)
		return
	}
	if s.cur.coroutine {
		s.fail(line, "PVM: asynchronous generators (yield inside async def) are not supported")
		return
	}
	s.cur.generator = true
}

// needAsync checks that what (await, async for, async with) is in an async
// def, with CPython's messages. await may also be in a comprehension in an
// async def; `async for` inside a comprehension (an asynchronous
// comprehension) is refused.
func (s *symbols) needAsync(line int, what string) {
	// A comprehension directly inside an async def may await: it becomes
	// a coroutine its caller awaits (PEP 530), as every comprehension
	// between them does.
	outer := s.cur
	for outer.name == "<comp>" && outer.parent != nil && !outer.coroutine {
		outer = outer.parent
	}
	if outer != s.cur && outer.kind == functionScope && outer.coroutine && what == "'await'" {
		for sc := s.cur; sc != outer; sc = sc.parent {
			sc.coroutine = true
		}
		return
	}
	switch {
	case s.cur.kind == functionScope && s.cur.coroutine:
	case s.cur.name == "<comp>":
		s.fail(line, "PVM: "+what+" inside a comprehension is not supported")
	case s.cur.kind != functionScope:
		s.fail(line, what+" outside function")
	default:
		s.fail(line, what+" outside async function")
	}
}
