package compile

// scopeKind is the kind of a name scope.
type scopeKind uint8

const (
	moduleScope scopeKind = iota
	functionScope
	classScope
)

// binding is where a resolved name lives (as in starlark's resolve package:
// Local, Cell, Free, Global; Python adds class-body Name lookups).
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
	// Names in first-seen order (for deterministic slot numbering).
	order     []string
	assigned  map[string]bool
	used      map[string]bool
	globals   map[string]bool
	nonlocals map[string]bool
	params    []string
	children  []*scope
	generator bool
	coroutine bool // async def
	// needsClassCell is set on a class scope when a method uses super() or
	// __class__.
	needsClassCell bool
	usesClassCell  bool

	resolved map[string]binding
	cellvars []string
	freevars []string
	varnames []string
}

func newScope(kind scopeKind, name string, parent *scope) *scope {
	s := &scope{kind: kind, name: name, parent: parent,
		assigned: map[string]bool{}, used: map[string]bool{},
		globals: map[string]bool{}, nonlocals: map[string]bool{},
		resolved: map[string]binding{}}
	if parent != nil {
		parent.children = append(parent.children, s)
	}
	return s
}

func (s *scope) note(name string) {
	if !s.assigned[name] && !s.used[name] && !s.globals[name] && !s.nonlocals[name] {
		s.order = append(s.order, name)
	}
}

func (s *scope) def(name string) {
	s.note(name)
	s.assigned[name] = true
}

func (s *scope) use(name string) {
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
// reference from s, marking pass-through scopes; it returns nil for a
// global.
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
// between s and the owner, and a cell of the owner.
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

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

type resolveError struct{ msg string }

func (e *resolveError) Error() string { return e.msg }

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
					return &resolveError{"no binding for nonlocal '" + name + "' found"}
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
