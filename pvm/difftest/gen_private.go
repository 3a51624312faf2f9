package difftest

import (
	"fmt"
	"strings"
)

// Units for private name mangling (Language Reference §6.2.1): classes
// whose bodies, methods, nested functions, lambdas and comprehensions use
// __names for instance and class attributes, methods, parameters,
// keyword-only defaults, globals, nonlocals and walrus targets, read back
// from outside and from a subclass through the mangled name. The class
// name is drawn with leading underscores, trailing ones, or only
// underscores (which mangles nothing).

// mangled is name as code in the class named private spells it: CPython's
// _Py_Mangle, which the expected results of the generated prints follow
// (only to pick what to print; CPython's output is the reference).
func mangled(private, name string) string {
	if !strings.HasPrefix(name, "__") || strings.HasSuffix(name, "__") {
		return name
	}
	class := strings.TrimLeft(private, "_")
	if class == "" {
		return name
	}
	return "_" + class + name
}

// privateUnit emits one class using private names and prints what it
// did: 2-4 features out of privateFeatures, each a method or two of the
// class and lines after it.
func (g *gen) privateUnit() {
	cls := g.pick("Pv", "_Pv", "__Pv", "Pv_", "Acct", "___", "_")
	attr := g.pick("__x", "__val", "__x_", "__a1", "__tot")
	ca := g.pick("__c", "__count", "__n_")
	p := &privateClass{g: g, cls: cls, attr: attr, ca: ca, obj: "po"}
	body := []string{
		"class " + cls + ":",
		"    " + ca + " = " + g.smallInt(),
		"    def __init__(self, v):",
		"        self." + attr + " = v",
		"        type(self)." + ca + " += 1",
	}
	var after []string
	used := map[int]bool{}
	for k := 2 + g.n(3); k > 0; k-- {
		f := g.n(len(privateFeatures))
		if used[f] {
			continue
		}
		used[f] = true
		b, a := privateFeatures[f](p)
		body = append(body, b...)
		after = append(after, a...)
	}
	lines := append(body, p.obj+" = "+cls+"("+g.smallInt()+")")
	lines = append(lines, after...)
	lines = append(lines,
		fmt.Sprintf("print(show(sorted(vars(%s))), show(sorted([k for k in vars(%s) if not (k.startswith('__') and k.endswith('__'))])))", p.obj, cls),
		fmt.Sprintf("print(hasattr(%s, '%s'), getattr(%s, '%s', 'none'), %s.%s)", p.obj, attr, p.obj, mangled(cls, attr), cls, mangled(cls, ca)))
	g.emit(lines...)
}

// privateClass is the class a privateUnit builds, for its features.
type privateClass struct {
	g               *gen
	cls, attr, ca   string
	obj             string
	subclassEmitted bool
}

// privateFeatures each return lines of the class body (indented) and
// lines to run after the class and its instance po exist.
var privateFeatures = []func(p *privateClass) (body, after []string){
	// A private method called through self, and from outside by its
	// mangled name; a __dunder__ method beside it is not mangled.
	func(p *privateClass) ([]string, []string) {
		m := p.g.pick("__m", "__helper", "__m_", "__calc")
		k := p.g.smallInt()
		return []string{
				"    def " + m + "(self, k):",
				"        return self." + p.attr + " * 2 + k",
				"    def run(self):",
				"        return self." + m + "(" + k + ")",
				"    def __dd__(self):",
				"        return 'dd'",
			}, []string{
				fmt.Sprintf("print(%s.run(), getattr(%s, '%s')(1), %s.__dd__(), show([n for n in ('%s', '%s') if hasattr(%s, n)]))", p.obj, p.obj, mangled(p.cls, m), p.obj, m, mangled(p.cls, m), p.cls),
				fmt.Sprintf("print(%s.%s.__name__)", p.cls, mangled(p.cls, m)),
			}
	},
	// Nested function, lambda and comprehensions in a method, over a
	// private local and the private attribute.
	func(p *privateClass) ([]string, []string) {
		return []string{
				"    def nest(self, n):",
				"        __t = n",
				"        def inner(q):",
				"            return q + __t + self." + p.attr,
				"        f = lambda __z=" + p.g.smallInt() + ": __z - self." + p.attr,
				"        sq = [__i * self." + p.attr + " for __i in range(3)]",
				"        dc = {__k: __t for __k in 'ab'}",
				"        return inner(1), f(), f(" + mangled(p.cls, "__z") + "=2), sq, show(dc), sum(__j for __j in range(n % 5))",
			}, []string{
				fmt.Sprintf("print(show(%s.nest(%s)))", p.obj, p.g.smallInt()),
			}
	},
	// The class attribute through cls, the class name and the instance.
	func(p *privateClass) ([]string, []string) {
		// Inside the class, a class named __Pv is itself spelled
		// _Pv__Pv (a NameError): written so only now and then.
		named := p.cls
		if strings.HasPrefix(named, "__") && strings.Trim(named, "_") != "" && p.g.n(4) != 0 {
			named = "type(self)"
		}
		return []string{
				"    @classmethod",
				"    def count(cls):",
				"        return cls." + p.ca,
				"    def both(self):",
				"        return self." + p.ca + ", " + named + "." + p.ca,
			}, []string{
				fmt.Sprintf("%s(%s)", p.cls, p.g.smallInt()),
				fmt.Sprintf("print(%s.count(), show(%s.both()))", p.cls, p.obj),
			}
	},
	// A subclass: its own __attr is another name; the base's is reached
	// through the base's mangled name.
	func(p *privateClass) ([]string, []string) {
		sub := p.g.pick("Sb", "_Sb", "__Sb", "Sb_")
		// In the subclass self.__x would be its own name, so the base's
		// is written mangled; a base named by underscores only keeps
		// __x, reached by getattr.
		base := "self." + mangled(p.cls, p.attr)
		if strings.TrimLeft(p.cls, "_") == "" {
			base = "getattr(self, '" + p.attr + "')"
		}
		return nil, []string{
			"class " + sub + "(" + p.cls + "):",
			"    def peek(self):",
			"        try:",
			"            return self." + p.attr,
			"        except AttributeError as e:",
			"            return 'AttributeError ' + str(e)",
			"    def base(self):",
			"        return " + base,
			"    def mine(self):",
			"        self." + p.attr + " = 'own'",
			"        return sorted(vars(self))",
			fmt.Sprintf("sq = %s(%s)", sub, p.g.smallInt()),
			"print(sq.peek(), sq.base(), show(sq.mine()), sq.peek())",
		}
	},
	// Keyword-only and positional private parameters: the parameter and
	// the kwdefaults key are mangled, a call's keyword is not.
	func(p *privateClass) ([]string, []string) {
		d := p.g.smallInt()
		return []string{
				"    def kw(self, __p, *, __q=" + d + "):",
				"        return __p - __q",
			}, []string{
				fmt.Sprintf("print(%s.kw(1), %s.kw(1, %s=5), show(%s.kw.__kwdefaults__), %s.kw.__defaults__)", p.obj, p.obj, mangled(p.cls, "__q"), p.cls, p.cls),
				"try:",
				fmt.Sprintf("    print(%s.kw(1, %s=2))", p.obj, p.g.pick("__q", "__p")),
				"except TypeError as e:",
				"    print('TypeError', e)",
			}
	},
	// global and nonlocal private names, and a walrus in a comprehension.
	func(p *privateClass) ([]string, []string) {
		gname := p.g.pick("__g", "__glob")
		return []string{
				"    def setg(self, v):",
				"        global " + gname,
				"        " + gname + " = v",
				"        return " + gname,
				"    def counter(self):",
				"        __n = 0",
				"        def bump():",
				"            nonlocal __n",
				"            __n += self." + p.attr,
				"            return __n",
				"        bump()",
				"        return bump(), [(__w := i) for i in range(3)], __w",
			}, []string{
				fmt.Sprintf("print(%s.setg(%s), %s, show(%s.counter()))", p.obj, p.g.smallInt(), mangled(p.cls, gname), p.obj),
			}
	},
	// A module-level __name read in a method is the mangled global;
	// del of a private attribute.
	func(p *privateClass) ([]string, []string) {
		return []string{
				"    def modread(self):",
				"        try:",
				"            return __modv",
				"        except NameError as e:",
				"            return 'NameError ' + str(e)",
				"    def drop(self):",
				"        del self." + p.attr,
				"        try:",
				"            return self." + p.attr,
				"        except AttributeError as e:",
				"            return 'AttributeError ' + str(e)",
			}, []string{
				"__modv = 'module'",
				fmt.Sprintf("print(%s.modread(), %s.drop())", p.obj, p.obj),
				fmt.Sprintf("%s.__init__(%s, 4)", p.cls, p.obj),
			}
	},
	// A nested private class, mangled with the outer name, mangling its
	// own names with its own.
	func(p *privateClass) ([]string, []string) {
		in := p.g.pick("__In", "_In", "In", "__")
		return []string{
				"    class " + in + ":",
				"        __deep = " + p.g.smallInt(),
				"        def get(self):",
				"            return self.__deep",
				"    def mk(self):",
				"        return self." + in + "().get()",
			}, []string{
				fmt.Sprintf("print(%s.mk(), %s.%s.__name__, show(sorted([k for k in vars(%s.%s) if 'deep' in k])))", p.obj, p.cls, mangled(p.cls, in), p.cls, mangled(p.cls, in)),
			}
	},
	// Augmented assignment and annotations of private names.
	func(p *privateClass) ([]string, []string) {
		return []string{
				"    __ann: int = 3",
				"    plain: str = 'p'",
				"    def add(self, k):",
				"        self." + p.attr + " += k",
				"        self." + p.attr + " *= 2",
				"        return self." + p.attr,
			}, []string{
				fmt.Sprintf("print(%s.add(%s), show(sorted(%s.__annotations__)))", p.obj, p.g.smallInt(), p.cls),
			}
	},
	// setattr/getattr strings are not mangled.
	func(p *privateClass) ([]string, []string) {
		return []string{
				"    def raw(self):",
				"        setattr(self, '" + p.attr + "', 'raw')",
				"        return getattr(self, '" + p.attr + "'), self." + p.attr,
			}, []string{
				fmt.Sprintf("print(show(%s.raw()))", p.obj),
			}
	},
}
