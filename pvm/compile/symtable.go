package compile

import "strings"

// scopeKind is the kind of a name scope. Lambdas and comprehensions are
// function scopes (a comprehension's is named "<comp>", which the scope
// pass tests for its comprehension-only rules).
type scopeKind uint8

const (
	moduleScope scopeKind = iota
	functionScope
	classScope
)

// binding is where a resolved name lives (as in starlark's resolve package:
// Local, Cell, Free, Global; Python adds class-body Name lookups). Each
// binding has its own load, store and delete opcodes (compiler.loadName).
type binding uint8

const (
	bindGlobal binding = iota // module namespace, then builtins
	bindLocal                 // fast local slot
	bindCell                  // local captured by an inner function
	bindFree                  // captured from an enclosing function
	bindName                  // class body namespace, then globals
)

// scope records the names a module, function, lambda, comprehension or class
// body binds and uses; resolve decides each name's binding before code is
// generated.
type scope struct {
	kind   scopeKind
	name   string
	parent *scope
	// private is the name of the innermost class whose body holds the
	// scope (the class itself for a class body), "" outside classes:
	// CPython's u_private, against which mangle rewrites private names.
	private string
	// Names in first-seen order (for deterministic slot numbering). The
	// maps below are only ever read by key; every walk over a scope's
	// names goes through order, so the slots, and with them the bytecode,
	// are the same on every node.
	order []string
	// assigned holds the names the scope binds (assignment, def, class,
	// import, for and with targets, except names, parameters, pattern
	// captures); used those it reads; globals and nonlocals those it
	// declares.
	assigned  map[string]bool
	used      map[string]bool
	globals   map[string]bool
	nonlocals map[string]bool
	// annotated holds the simple names the scope annotates (CPython's
	// DEF_ANNOT), which a later global or nonlocal declaration refuses.
	annotated map[string]bool
	// compKind names a comprehension's scope in errors ("list
	// comprehension", "generator expression", ...); "" for the others.
	compKind string
	// nonlocalLine is the line of each name's first nonlocal statement,
	// where an unbound nonlocal is reported (as CPython does).
	nonlocalLine map[string]int
	// params are the parameter names in slot order (Code.Varnames'
	// prefix): positional-only, positional, keyword-only, *args,
	// **kwargs.
	params   []string
	children []*scope
	// generator is set when the body yields, coroutine for an async def
	// (and for a comprehension that awaits inside one, PEP 530).
	generator bool
	coroutine bool
	// needsClassCell is set on a class scope when a method uses super() or
	// __class__; usesClassCell on each function scope between that use
	// and the class, which receives __class__ as a free variable.
	needsClassCell bool
	usesClassCell  bool

	// The results of resolve: each name's binding, and the slot lists the
	// code object takes over (Code.Cellvars, Freevars and Varnames).
	resolved map[string]binding
	cellvars []string
	freevars []string
	varnames []string
}

// newScope makes a scope and links it under parent, in source order.
func newScope(kind scopeKind, name string, parent *scope) *scope {
	s := &scope{kind: kind, name: name, parent: parent,
		assigned: map[string]bool{}, used: map[string]bool{},
		globals: map[string]bool{}, nonlocals: map[string]bool{}, nonlocalLine: map[string]int{}, annotated: map[string]bool{},
		resolved: map[string]binding{}}
	if parent != nil {
		parent.children = append(parent.children, s)
		s.private = parent.private
	}
	if kind == classScope {
		s.private = name
	}
	return s
}

// mangle is name as code in s refers to it: CPython's private name
// mangling (_Py_Mangle; Language Reference §6.2.1, "Private name
// mangling"). Inside a class body, and in every function, lambda and
// comprehension nested in it, an identifier that starts with two
// underscores and does not end with two becomes _Class__name, the class
// name stripped of its leading underscores. A class named only by
// underscores mangles nothing, and neither does a dotted name (a
// module path). It applies to every name the scope binds, reads or
// declares, to parameter names and to attribute names, but not to
// keyword arguments of a call or to the __name__ of a def or class.
func (s *scope) mangle(name string) string {
	return mangle(s.private, name)
}

// mangle rewrites name for the class named private (see scope.mangle).
func mangle(private, name string) string {
	if private == "" || !strings.HasPrefix(name, "__") || strings.HasSuffix(name, "__") || strings.Contains(name, ".") {
		return name
	}
	class := strings.TrimLeft(private, "_")
	if class == "" {
		return name
	}
	return "_" + class + name
}

// note records name's first appearance in the scope (order).
func (s *scope) note(name string) {
	if !s.assigned[name] && !s.used[name] && !s.globals[name] && !s.nonlocals[name] {
		s.order = append(s.order, name)
	}
}

// def records a binding of name (as written, mangled here) in the scope.
func (s *scope) def(name string) {
	name = s.mangle(name)
	s.note(name)
	s.assigned[name] = true
}

// use records a read of name (as written, mangled here) in the scope.
func (s *scope) use(name string) {
	name = s.mangle(name)
	s.note(name)
	s.used[name] = true
}

// bindsLocally reports whether a function scope owns name as a local.
func (s *scope) bindsLocally(name string) bool {
	return s.kind == functionScope && s.assigned[name] && !s.globals[name] && !s.nonlocals[name]
}

// resolveAll resolves s and its children. Children are resolved first so
// that their free variables turn the owning locals into cells.
func (s *scope) resolveAll() error {
	for _, c := range s.children {
		if err := c.resolveAll(); err != nil {
			return err
		}
	}
	return s.resolve()
}

// lookupEnclosing finds the function scope that binds name for a free
// reference from s; it returns nil for a global. Class bodies are
// skipped: a name bound in a class body is not visible to the functions
// nested in it (Language Reference §4.2.2, "The scope of names defined
// in a class block is limited to the class block"). A function that
// declares the name global ends the search with a global, and one that
// declares it nonlocal is itself a binder (markFree follows it further
// out).
func (s *scope) lookupEnclosing(name string) *scope {
	for p := s.parent; p != nil; p = p.parent {
		if p.kind == classScope {
			continue
		}
		if p.kind == moduleScope {
			return nil
		}
		if p.globals[name] {
			return nil
		}
		if p.bindsLocally(name) || p.nonlocals[name] {
			return p
		}
	}
	return nil
}

// markFree makes name a free variable of s and of every function scope
// between s and the owner, and a cell of the owner. The scopes in
// between must carry the cell even if they never use the name: a
// closure is built from the cells of the code that makes it
// (compiler.makeFunction).
func (s *scope) markFree(name string, owner *scope) {
	for p := s; p != owner; p = p.parent {
		if p.kind == classScope && p != s {
			// A class body between passes the cell through to its
			// methods without binding the name itself.
			if !contains(p.freevars, name) {
				p.freevars = append(p.freevars, name)
			}
			continue
		}
		if _, ok := p.resolved[name]; !ok || p.resolved[name] != bindFree {
			if !contains(p.freevars, name) {
				p.freevars = append(p.freevars, name)
			}
		}
		if p.kind != classScope || p == s {
			p.resolved[name] = bindFree
		}
	}
	if owner.nonlocals[name] {
		// The owner itself is a pass-through for an outer cell.
		if o := owner.lookupEnclosing(name); o != nil {
			owner.markFree(name, o)
		}
		return
	}
	if !contains(owner.cellvars, name) {
		owner.cellvars = append(owner.cellvars, name)
	}
	owner.resolved[name] = bindCell
}

// contains reports whether x is in xs; the lists are short slot lists,
// kept as slices for their order.
func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// resolveError is a name-resolution error (an unbound nonlocal), at the
// line of the nonlocal statement.
type resolveError struct {
	line int
	msg  string
}

// Error is the message, CPython's wording.
func (e *resolveError) Error() string { return e.msg }

// resolve decides the binding of each name s mentions, in first-seen
// order (§4.2.2): a global declaration wins, then a nonlocal one (which
// must find an enclosing function binding, or it is CPython's "no
// binding for nonlocal" error), then a binding in s makes the name s's
// own, and a name s only reads belongs to the nearest enclosing function
// that binds it, or else is global. Names an inner scope captured were
// resolved already (markFree) and are skipped. Last, a function's
// locals are numbered: parameters first, then the other locals in order.
func (s *scope) resolve() error {
	for _, name := range s.order {
		if _, done := s.resolved[name]; done {
			continue
		}
		switch s.kind {
		case moduleScope:
			s.resolved[name] = bindGlobal
		case classScope, functionScope:
			// Class bodies differ only in where their own and unresolved
			// names live: the class namespace (Name lookups) rather than fast
			// locals and globals.
			own, fallback := bindLocal, bindGlobal
			if s.kind == classScope {
				own, fallback = bindName, bindName
			}
			switch {
			case s.globals[name]:
				s.resolved[name] = bindGlobal
			case s.nonlocals[name]:
				owner := s.lookupEnclosing(name)
				if owner == nil {
					return &resolveError{s.nonlocalLine[name], "no binding for nonlocal '" + name + "' found"}
				}
				s.markFree(name, owner)
			case s.assigned[name]:
				s.resolved[name] = own
			default:
				if owner := s.lookupEnclosing(name); owner != nil {
					s.markFree(name, owner)
				} else {
					s.resolved[name] = fallback
				}
			}
		}
	}
	if s.kind == functionScope {
		s.varnames = append(s.varnames, s.params...)
		for _, name := range s.order {
			if s.resolved[name] == bindLocal && !contains(s.params, name) {
				s.varnames = append(s.varnames, name)
			}
		}
	}
	return nil
}

// fixCells runs after every scope is resolved: a local that some inner
// scope captured was turned into a cell after the owner resolved it, so the
// owner's bindings are corrected here.
func (s *scope) fixCells() {
	for _, c := range s.cellvars {
		s.resolved[c] = bindCell
	}
	for _, c := range s.children {
		c.fixCells()
	}
}

// declError is CPython's message for a global or nonlocal (kind)
// declaration of a name the scope already has, checked in symtable.c's
// order: a parameter, a use, an annotation, an assignment. name is the
// mangled name, written the name as the source spells it, which the
// message shows (as CPython's does). "" when the declaration is allowed.
func (s *scope) declError(name, written, kind string) string {
	switch {
	case contains(s.params, name):
		return "name '" + written + "' is parameter and " + kind
	case s.used[name]:
		return "name '" + written + "' is used prior to " + kind + " declaration"
	case s.annotated[name]:
		return "annotated name '" + written + "' can't be " + kind
	case s.assigned[name]:
		return "name '" + written + "' is assigned to before " + kind + " declaration"
	}
	return ""
}
