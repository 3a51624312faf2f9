package compile

import (
	"errors"

	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/syntax"
)

// MaxNesting bounds the depth of nested expressions and statements the
// compiler accepts, so hostile source cannot exhaust the Go stack: the
// compiler recurses once per level (compiler.nest). The parser has its
// own, larger bound on its recursion for the same reason.
const MaxNesting = 200

// SyntaxError is a compile-time error with its line, reported to Python
// code and users as SyntaxError.
type SyntaxError struct {
	Filename string
	Line     int
	Msg      string
	// Kind is the exception class CPython raises: "SyntaxError",
	// "IndentationError" or "TabError".
	Kind string
}

// Error renders the error as the last lines of CPython's report of a
// compile error: the file and line, then the class and message.
func (e *SyntaxError) Error() string {
	kind := e.Kind
	if kind == "" {
		kind = "SyntaxError"
	}
	return "  File \"" + e.Filename + "\", line " + itoa(e.Line) + "\n" + kind + ": " + e.Msg
}

// syntaxErrorAt is a SyntaxError without its file, which Module fills in
// (withFile) on the way out: the passes do not carry the file name.
func syntaxErrorAt(line int, msg string) error { return &SyntaxError{Line: line, Msg: msg} }

// itoa formats a line number for Error.
func itoa(i int) string {
	s, _ := object.Int(i).Repr(nil)
	return s
}

// fblockKind is the kind of a statically nested block that a break,
// continue or return must leave: CPython's fblockinfo (Python/compile.c).
// The bytecode has no "unwind to the loop" instruction; instead unwindTo
// emits, for each block left, the code that block's normal exit would
// run (pop a for loop's iterator, POP_BLOCK, run a finally body, call
// __exit__, clear an except clause's name).
type fblockKind uint8

const (
	fbWhile fblockKind = iota
	fbFor
	fbTryExcept      // inside try body with SETUP_EXCEPT active
	fbTryFinally     // inside try body with SETUP_FINALLY active
	fbFinallyHandler // inside the exceptional copy of a finally body
	fbWith           // inside a with body
	fbHandler        // inside an except clause body
	fbAsyncWith      // inside an async with body
)

// fblock is one entry of the compiler's block stack.
type fblock struct {
	kind      fblockKind
	cont, brk *label        // loops
	final     []syntax.Stmt // fbTryFinally: compiled again at each early exit
	excName   string        // fbHandler: the "as" name to clear
}

// compiler is pass two: code generation for one code object at a time.
// Entering a nested def, lambda, class or comprehension saves sc, b and
// fblocks, compiles the inner code with its own, and restores them:
// break and continue never cross a function boundary.
type compiler struct {
	filename string
	// scopes are pass one's result, keyed by the syntax node that opens
	// each scope (the Module, FunctionDef, ClassDef, Lambda or
	// comprehension node).
	scopes map[any]*scope
	// sc and b are the scope and builder of the code being emitted.
	sc      *scope
	b       *builder
	fblocks []fblock
	// qual is the qualified name of the code being emitted, the prefix
	// of its children's __qualname__ (qualName).
	qual string
	// nesting counts the stmt and expr calls on the Go stack (MaxNesting).
	nesting int
	// future is what the module's future statements turned on
	// (future.go).
	future futureFeatures
}

// Module compiles a parsed module into its code object. Pass one
// (symbols) records every scope's names; resolveAll then binds each name
// (local, cell, free, global or class namespace); addClassCells adds the
// __class__ cells and fixCells settles the locals that became cells
// when an inner scope captured them; pass two emits the code. A
// SyntaxError from any pass names filename.
func Module(filename string, mod *syntax.Module) (code *Code, err error) {
	ff, err := futureParse(mod.Body)
	if err != nil {
		return nil, withFile(err, filename)
	}
	sym := &symbols{scopes: map[any]*scope{}, future: ff}
	root := sym.push(moduleScope, "<module>", mod)
	sym.stmts(mod.Body)
	if sym.err != nil {
		return nil, withFile(sym.err, filename)
	}
	if err := root.resolveAll(); err != nil {
		line := 1
		var re *resolveError
		if errors.As(err, &re) && re.line > 0 {
			line = re.line
		}
		return nil, &SyntaxError{Filename: filename, Line: line, Msg: err.Error()}
	}
	addClassCells(root)
	root.fixCells()
	c := &compiler{filename: filename, scopes: sym.scopes, future: ff}
	code = &Code{Name: "<module>", QualName: "<module>", Filename: filename, FirstLine: 1}
	if err := c.body(code, root, mod.Body, false); err != nil {
		return nil, withFile(err, filename)
	}
	return code, nil
}

// withFile sets the file name on a *SyntaxError from a pass; other errors
// (a compiler bug from finish) pass through unchanged.
func withFile(err error, filename string) error {
	if se, ok := err.(*SyntaxError); ok {
		se.Filename = filename
	}
	return err
}

// addClassCells wires __class__ from class bodies into the methods that use
// super() or __class__. CPython gives such a class body an implicit
// __class__ cell, filled with the class once it is made, and the methods
// read it as a free variable (Data model §3.3.3.6, "Creating the class
// object"); zero-argument super() is super(__class__, first argument).
// A function that assigns __class__ itself keeps its own binding.
func addClassCells(s *scope) {
	for _, c := range s.children {
		addClassCells(c)
	}
	if s.kind == functionScope && s.usesClassCell {
		if !contains(s.freevars, "__class__") && !s.assigned["__class__"] {
			s.freevars = append(s.freevars, "__class__")
			s.resolved["__class__"] = bindFree
		}
	}
	if s.kind == classScope && s.needsClassCell && !contains(s.cellvars, "__class__") {
		s.cellvars = append(s.cellvars, "__class__")
	}
}

// body compiles a module, function or class body into code: the scope's
// slots, the docstring constant, a class body's __annotations__ dict, the
// statements, and the implicit return at the end. A class body returns
// its __class__ cell (or None) instead of a value: BUILD_CLASS fills that
// cell with the new class (pvm/vm's buildClass), as CPython's class body
// hands its __classcell__ to type.__new__.
func (c *compiler) body(code *Code, sc *scope, stmts []syntax.Stmt, isLambda bool) error {
	saved := *c
	defer func() {
		c.sc, c.b, c.fblocks = saved.sc, saved.b, saved.fblocks
	}()
	// The slot layout is the scope's; CellArg names the parameters that
	// start life in a cell.
	code.Varnames = sc.varnames
	code.Cellvars = sc.cellvars
	code.Freevars = sc.freevars
	code.Generator = sc.generator || sc.coroutine
	code.Coroutine = sc.coroutine
	code.ClassBody = sc.kind == classScope
	code.CellArg = make([]int, len(sc.cellvars))
	for i, cv := range sc.cellvars {
		code.CellArg[i] = -1
		for j, p := range sc.varnames {
			if p == cv {
				code.CellArg[i] = j
			}
		}
	}
	c.sc = sc
	c.b = newBuilder(code)
	c.fblocks = nil
	c.b.line = int32(code.FirstLine)
	// A def's docstring is its first constant (Code.HasDoc). The
	// expression statement itself is still compiled below (LOAD_CONST,
	// POP_TOP), which CPython 3.11 leaves out; they are charged cycles,
	// so dropping them would change charges.
	if sc.kind == functionScope && !isLambda {
		if doc := docstring(stmts); doc != nil {
			c.b.constIndex(doc)
			code.HasDoc = true
		}
	}
	// CPython's SETUP_ANNOTATIONS: a module or class body that holds an
	// annotated assignment starts with an empty __annotations__ (Language
	// Reference §7.2.2).
	if (sc.kind == classScope || sc.kind == moduleScope) && hasAnnotations(stmts) {
		c.b.emit(BUILD_MAP, 0)
		c.storeName("__annotations__")
	}
	// A module's or class's docstring is stored as its __doc__, in place
	// of the expression statement (CPython's compiler_body): the same
	// two instructions with STORE_NAME for POP_TOP. A module without one
	// finds __doc__ = None among the builtins (pvm/vm), as a class finds
	// its default None on the class.
	if sc.kind == classScope || sc.kind == moduleScope {
		if doc := docstring(stmts); doc != nil {
			c.b.line = int32(stmts[0].Lineno())
			c.b.loadConst(doc)
			c.storeName("__doc__")
			stmts = stmts[1:]
		}
	}
	if err := c.stmts(stmts); err != nil {
		return err
	}
	if sc.kind == classScope {
		if i, ok := c.b.cellIdx["__class__"]; ok {
			c.b.emit(LOAD_CLOSURE, i)
		} else {
			c.b.loadConst(object.None)
		}
	} else {
		c.b.loadConst(object.None)
	}
	c.b.emit(RETURN_VALUE, 0)
	return c.b.finish()
}

// docstring is the body's docstring: a first statement that is a str
// literal (Language Reference §8.7; a bytes literal or an f-string is
// not a docstring), or nil.
func docstring(stmts []syntax.Stmt) object.Value {
	if len(stmts) == 0 {
		return nil
	}
	es, ok := stmts[0].(*syntax.ExprStmt)
	if !ok {
		return nil
	}
	k, ok := es.Value.(*syntax.Constant)
	if !ok {
		return nil
	}
	if s, ok := k.Value.(string); ok && k.Kind != syntax.BytesConst {
		return object.Str(s)
	}
	return nil
}

// nest counts one more level of statement or expression recursion and
// refuses the source past MaxNesting; the caller undoes it with
// c.nesting-- when it returns.
func (c *compiler) nest(line int) error {
	c.nesting++
	if c.nesting > MaxNesting {
		return &SyntaxError{Line: line, Msg: "too many nested expressions or statements"}
	}
	return nil
}

// stmts compiles a statement list, stopping at the first error.
func (c *compiler) stmts(list []syntax.Stmt) error {
	for _, s := range list {
		if err := c.stmt(s); err != nil {
			return err
		}
	}
	return nil
}

// Name access by binding. The opcode follows the binding the scope pass
// chose (Language Reference §4.2.2, "Resolution of names"): a function's
// locals are fast slots, captured names go through cells, and names the
// scope does not bind are globals (module, then builtins). A class body
// is the exception: its unresolved names are LOAD_NAME (its namespace,
// then globals, then builtins) so that `x = x` in a class body reads the
// global x, while a store at class level writes the class namespace
// unless the name is declared global.

// loadName emits the load of name (as written: it is mangled here, as
// storeName and deleteName mangle theirs): [] -> [value].
func (c *compiler) loadName(name string) {
	name = c.sc.mangle(name)
	switch c.sc.resolved[name] {
	case bindLocal:
		c.b.emit(LOAD_FAST, c.b.varIndex[name])
	case bindCell, bindFree:
		c.b.emit(LOAD_DEREF, c.b.cellIdx[name])
	case bindName:
		c.b.emit(LOAD_NAME, c.b.nameIndex(name))
	default:
		if c.sc.kind == classScope {
			c.b.emit(LOAD_NAME, c.b.nameIndex(name))
			return
		}
		c.b.emit(LOAD_GLOBAL, c.b.nameIndex(name))
	}
}

// storeName emits the store of TOS into name: [v] -> [].
func (c *compiler) storeName(name string) {
	name = c.sc.mangle(name)
	switch c.sc.resolved[name] {
	case bindLocal:
		c.b.emit(STORE_FAST, c.b.varIndex[name])
	case bindCell, bindFree:
		c.b.emit(STORE_DEREF, c.b.cellIdx[name])
	case bindName:
		c.b.emit(STORE_NAME, c.b.nameIndex(name))
	default:
		if c.sc.kind == classScope && !c.sc.globals[name] {
			c.b.emit(STORE_NAME, c.b.nameIndex(name))
			return
		}
		c.b.emit(STORE_GLOBAL, c.b.nameIndex(name))
	}
}

// deleteName emits `del name`: [] -> [].
func (c *compiler) deleteName(name string) {
	name = c.sc.mangle(name)
	switch c.sc.resolved[name] {
	case bindLocal:
		c.b.emit(DELETE_FAST, c.b.varIndex[name])
	case bindCell, bindFree:
		c.b.emit(DELETE_DEREF, c.b.cellIdx[name])
	case bindName:
		c.b.emit(DELETE_NAME, c.b.nameIndex(name))
	default:
		if c.sc.kind == classScope && !c.sc.globals[name] {
			c.b.emit(DELETE_NAME, c.b.nameIndex(name))
			return
		}
		c.b.emit(DELETE_GLOBAL, c.b.nameIndex(name))
	}
}

// attrName is the Names index of an attribute name as written, mangled
// as CPython mangles every attribute of LOAD_ATTR, STORE_ATTR,
// DELETE_ATTR and LOAD_METHOD (scope.mangle).
func (c *compiler) attrName(attr string) int {
	return c.b.nameIndex(c.sc.mangle(attr))
}

// makeFunction emits the closure and MAKE_FUNCTION for an inner code
// object; defaults must already be on the stack per flags. The closure is
// a tuple of this code's cells, one per free variable of the inner code,
// in the inner code's Freevars order: the VM hands them over by position.
func (c *compiler) makeFunction(code *Code, flags int) {
	if len(code.Freevars) > 0 {
		for _, fv := range code.Freevars {
			idx, ok := c.b.cellIdx[fv]
			if !ok {
				// A class body passes __class__ through as its own cell.
				idx = c.b.cellIdx["__class__"]
			}
			c.b.emit(LOAD_CLOSURE, idx)
		}
		c.b.emit(BUILD_TUPLE, len(code.Freevars))
		flags |= 4
	}
	c.b.loadConst(code)
	c.b.emit(MAKE_FUNCTION, flags)
}

// qualName is the __qualname__ of a def, class or comprehension named
// name inside the current code (PEP 3155): a function's children get
// "<locals>" in their path, a class's do not.
func (c *compiler) qualName(name string) string {
	if c.sc.kind == moduleScope {
		return name
	}
	if c.sc.kind == functionScope {
		return c.qual + ".<locals>." + name
	}
	return c.qual + "." + name
}

// function compiles a def or lambda and leaves the function on the stack.
// Defaults and keyword-only defaults are evaluated here, in the enclosing
// scope, once, when the def runs (Language Reference §8.7): the
// positional ones into a tuple, the keyword-only ones into a dict from
// parameter name to value.
func (c *compiler) function(node any, name string, args *syntax.Arguments, body []syntax.Stmt, lambdaBody syntax.Expr, line int) error {
	flags := 0
	if args != nil && len(args.Defaults) > 0 {
		for _, d := range args.Defaults {
			if err := c.expr(d); err != nil {
				return err
			}
		}
		c.b.emit(BUILD_TUPLE, len(args.Defaults))
		flags |= 1
	}
	if args != nil {
		n := 0
		for i, d := range args.KwDefaults {
			if d == nil {
				continue
			}
			// The key is the parameter's (mangled) name.
			c.b.loadConst(object.Str(c.sc.mangle(args.KwOnlyArgs[i].Arg)))
			if err := c.expr(d); err != nil {
				return err
			}
			n++
		}
		if n > 0 {
			c.b.emit(BUILD_MAP, n)
			flags |= 2
		}
	}
	if fd, ok := node.(*syntax.FunctionDef); ok {
		if err := c.annotations(fd); err != nil {
			return err
		}
		if len(annotated(fd.Args)) > 0 || fd.Returns != nil {
			flags |= 8
		}
	}
	sc := c.scopes[node]
	qual := c.qualName(name)
	code := &Code{Name: name, QualName: qual, Filename: c.filename, FirstLine: line}
	if args != nil {
		code.PosOnlyCount = len(args.PosOnlyArgs)
		code.ArgCount = len(args.PosOnlyArgs) + len(args.Args)
		code.KwOnlyCount = len(args.KwOnlyArgs)
		code.VarArgs = args.VarArg != nil
		code.VarKw = args.KwArg != nil
	}
	savedQual := c.qual
	c.qual = qual
	var err error
	if lambdaBody != nil {
		err = c.lambdaBody(code, sc, lambdaBody)
	} else {
		err = c.body(code, sc, body, false)
	}
	c.qual = savedQual
	if err != nil {
		return err
	}
	c.makeFunction(code, flags)
	return nil
}

// annotations evaluates a def's annotations into the dict that becomes
// its __annotations__, as CPython 3.11 does when the def runs:
// after the defaults, in the enclosing scope, keyed by the (mangled)
// parameter names in annotated's order, then 'return'. Under `from
// __future__ import annotations` each value is the annotation's text
// instead (annotationValue). Nothing is
// emitted for a def without annotations; its __annotations__ is made
// empty when first read (Function.GetAttr).
func (c *compiler) annotations(fd *syntax.FunctionDef) error {
	n := 0
	for _, p := range annotated(fd.Args) {
		c.b.loadConst(object.Str(c.sc.mangle(p.Arg)))
		if err := c.annotationValue(p.Annotation); err != nil {
			return err
		}
		n++
	}
	if fd.Returns != nil {
		c.b.loadConst(object.Str("return"))
		if err := c.annotationValue(fd.Returns); err != nil {
			return err
		}
		n++
	}
	if n > 0 {
		c.b.line = int32(fd.Line)
		c.b.emit(BUILD_MAP, n)
	}
	return nil
}

// annotationValue pushes what an annotation stores: its value, or under
// PEP 563 (`from __future__ import annotations`) its source text as
// CPython's compiler_visit_annexpr makes it (unparse.go).
func (c *compiler) annotationValue(e syntax.Expr) error {
	if c.future.annotations {
		text, err := unparseAnnotation(e)
		if err != nil {
			return err
		}
		c.b.loadConst(object.Str(text))
		return nil
	}
	return c.expr(e)
}

// lambdaBody compiles a lambda's single expression as its return value.
// A lambda that yields is a generator, and that value is what it returns
// when it ends, as in CPython 3.11: `(lambda: (yield 1))()`, sent 5 after
// its first next(), stops with StopIteration(5).
func (c *compiler) lambdaBody(code *Code, sc *scope, e syntax.Expr) error {
	saved := *c
	defer func() { c.sc, c.b, c.fblocks = saved.sc, saved.b, saved.fblocks }()
	code.Varnames, code.Cellvars, code.Freevars = sc.varnames, sc.cellvars, sc.freevars
	code.Generator = sc.generator
	code.CellArg = make([]int, len(sc.cellvars))
	for i, cv := range sc.cellvars {
		code.CellArg[i] = -1
		for j, p := range sc.varnames {
			if p == cv {
				code.CellArg[i] = j
			}
		}
	}
	c.sc, c.b, c.fblocks = sc, newBuilder(code), nil
	c.b.line = int32(code.FirstLine)
	if err := c.expr(e); err != nil {
		return err
	}
	c.b.emit(RETURN_VALUE, 0)
	return c.b.finish()
}

// class compiles a class statement (Language Reference §8.8): the
// decorators, the body as a function, then BUILD_CLASS[_KW] with the
// name, the bases and the keywords (metaclass= among them), then the
// decorators applied innermost first, and the store of the name.
// **kwargs and *bases in the class line are refused: BUILD_CLASS and
// BUILD_CLASS_KW take counted bases and named keywords, with no
// unpacking form.
func (c *compiler) class(n *syntax.ClassDef) error {
	for _, k := range n.Keywords {
		if k.Arg == "" {
			return &SyntaxError{Line: n.Line, Msg: "PVM: **kwargs in a class statement is not supported"}
		}
	}
	for _, d := range n.DecoratorList {
		if err := c.expr(d); err != nil {
			return err
		}
	}
	sc := c.scopes[n]
	qual := c.qualName(n.Name)
	code := &Code{Name: n.Name, QualName: qual, Filename: c.filename, FirstLine: n.Line}
	savedQual := c.qual
	c.qual = qual
	err := c.body(code, sc, n.Body, false)
	c.qual = savedQual
	if err != nil {
		return err
	}
	c.b.line = int32(n.Line)
	c.makeFunction(code, 0)
	c.b.loadConst(object.Str(n.Name))
	for _, b := range n.Bases {
		if _, ok := b.(*syntax.Starred); ok {
			return &SyntaxError{Line: n.Line, Msg: "PVM: starred base classes are not supported"}
		}
		if err := c.expr(b); err != nil {
			return err
		}
	}
	// [bodyfn name bases...] BUILD_CLASS, or with keywords their values
	// and a constant tuple of their names, as CALL_KW has them.
	if len(n.Keywords) == 0 {
		c.b.emit(BUILD_CLASS, len(n.Bases))
	} else {
		names := make(object.Tuple, len(n.Keywords))
		for i, k := range n.Keywords {
			for _, prev := range names[:i] {
				if string(prev.(object.Str)) == k.Arg {
					return &SyntaxError{Line: n.Line, Msg: "keyword argument repeated: " + k.Arg}
				}
			}
			names[i] = object.Str(k.Arg)
			if err := c.expr(k.Value); err != nil {
				return err
			}
		}
		c.b.loadConst(names)
		c.b.line = int32(n.Line)
		c.b.emit(BUILD_CLASS_KW, len(n.Bases)+len(n.Keywords))
	}
	for range n.DecoratorList {
		c.b.emit(CALL, 1)
	}
	c.storeName(n.Name)
	return nil
}

// hasAnnotations reports whether a module or class body holds an
// annotated assignment anywhere outside nested functions and classes:
// CPython's find_ann, the condition for SETUP_ANNOTATIONS. Any target
// counts, not only a simple name.
func hasAnnotations(stmts []syntax.Stmt) bool {
	for _, st := range stmts {
		switch n := st.(type) {
		case *syntax.AnnAssign:
			return true
		case *syntax.If:
			if hasAnnotations(n.Body) || hasAnnotations(n.Orelse) {
				return true
			}
		case *syntax.For:
			if hasAnnotations(n.Body) || hasAnnotations(n.Orelse) {
				return true
			}
		case *syntax.While:
			if hasAnnotations(n.Body) || hasAnnotations(n.Orelse) {
				return true
			}
		case *syntax.Try:
			if hasAnnotations(n.Body) || hasAnnotations(n.Orelse) || hasAnnotations(n.Finalbody) {
				return true
			}
			for _, h := range n.Handlers {
				if hasAnnotations(h.Body) {
					return true
				}
			}
		case *syntax.With:
			if hasAnnotations(n.Body) {
				return true
			}
		case *syntax.Match:
			for _, mc := range n.Cases {
				if hasAnnotations(mc.Body) {
					return true
				}
			}
		}
	}
	return false
}
