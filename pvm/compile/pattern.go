package compile

import (
	"fmt"

	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/syntax"
)

// Match statements follow CPython 3.11 (Python/compile.c,
// compiler_match_inner and the compiler_pattern_* functions): a captured
// value is not stored when its sub-pattern matches but kept on the value
// stack, rotated underneath everything the rest of the pattern still needs,
// and the whole case stores its captures in one batch once the pattern has
// matched, before the guard runs. So a pattern that fails part-way binds
// nothing, an or-pattern binds only its successful alternative's names, and
// a failing guard leaves the bindings in place.
//
// Stack layout while a pattern is being matched, top of stack rightmost:
//
//	[... subject capture_k ... capture_1 onTop_1 ... onTop_m  TOS]
//
// capture_1 is the first name captured (stores[0]); onTop items are the
// values the enclosing patterns still need (sequence items not yet matched,
// a mapping's keys tuple, the subject of an as-pattern); TOS is the value
// the current sub-pattern matches and consumes. On failure the pattern jumps
// to failPop[onTop+len(stores)], which pops that many values and falls
// through to failPop[0], the next case.

// patternCtx is the compile-time state of one case's pattern (CPython's
// pattern_context).
type patternCtx struct {
	// stores are the names captured so far, in the order they will be
	// stored; stores[0] is nearest the top of the stack.
	stores []string
	// onTop counts the values above the captures that a failure must pop.
	onTop int
	// failPop[n] pops n values and continues at failPop[0].
	failPop []*label
}

// match compiles a match statement (Language Reference §8.6). The subject
// is evaluated once and stays on the stack while cases are tried; each
// case matches against a DUP_TOP copy, so a failed case leaves the
// subject for the next. After a pattern matches, its captures are stored
// and then the guard runs (§8.6.2): a false guard moves on to the next
// case with those names already bound, as in CPython. When no case
// matches, the statement does nothing.
func (c *compiler) match(n *syntax.Match) error {
	if err := c.expr(n.Subject); err != nil {
		return err
	}
	end := c.b.newLabel()
	for _, mc := range n.Cases {
		pc := &patternCtx{}
		c.b.emit(DUP_TOP, 0)
		if err := c.pattern(mc.Pattern, pc); err != nil {
			return err
		}
		// It's a match: store the captures, stores[0] (on top) first.
		for _, name := range pc.stores {
			c.storeName(name)
		}
		if mc.Guard != nil {
			c.ensureFailPop(pc, 0)
			if err := c.cond(mc.Guard, pc.failPop[0], false); err != nil {
				return err
			}
		}
		c.b.emit(POP_TOP, 0)
		if err := c.stmts(mc.Body); err != nil {
			return err
		}
		c.b.jump(JUMP, end)
		c.emitFailPop(pc)
	}
	c.b.emit(POP_TOP, 0)
	c.b.bind(end)
	return nil
}

// ensureFailPop makes the failure labels up to failPop[n].
func (c *compiler) ensureFailPop(pc *patternCtx, n int) {
	for len(pc.failPop) <= n {
		pc.failPop = append(pc.failPop, c.b.newLabel())
	}
}

// jumpToFailPop emits op (a conditional or unconditional jump) to the
// failure path that pops everything the pattern has left on the stack.
func (c *compiler) jumpToFailPop(pc *patternCtx, op Opcode) {
	pops := pc.onTop + len(pc.stores)
	c.ensureFailPop(pc, pops)
	c.b.jump(op, pc.failPop[pops])
}

// emitFailPop emits the failure path: failPop[n] ... failPop[1] each pop one
// value, failPop[0] is bound to whatever follows.
func (c *compiler) emitFailPop(pc *patternCtx) {
	if len(pc.failPop) == 0 {
		return
	}
	for i := len(pc.failPop) - 1; i > 0; i-- {
		c.b.bind(pc.failPop[i])
		c.b.emit(POP_TOP, 0)
	}
	c.b.bind(pc.failPop[0])
	pc.failPop = nil
}

// rotate moves TOS down to depth n: [a1 ... a(n-1) x] -> [x a1 ... a(n-1)].
func (c *compiler) rotate(n int) {
	switch {
	case n <= 1:
	case n == 2:
		c.b.emit(ROT_TWO, 0)
	case n == 3:
		c.b.emit(ROT_THREE, 0)
	case n == 4:
		c.b.emit(ROT_FOUR, 0)
	default:
		c.b.emit(ROT_N, n)
	}
}

// patternStore captures TOS as name ("" discards it): the value goes under
// the earlier captures and the values still needed, to be stored when the
// whole pattern has matched.
func (c *compiler) patternStore(name string, pc *patternCtx, line int) error {
	if name == "" {
		c.b.emit(POP_TOP, 0)
		return nil
	}
	for _, s := range pc.stores {
		if s == name {
			return syntaxErrorAt(line, fmt.Sprintf("multiple assignments to name '%s' in pattern", name))
		}
	}
	c.rotate(pc.onTop + len(pc.stores) + 1)
	pc.stores = append(pc.stores, name)
	return nil
}

// pattern matches TOS against p. On success TOS is consumed and the
// captures are on the stack (recorded in pc.stores); on failure control
// jumps to pc's failure path.
func (c *compiler) pattern(p syntax.Pattern, pc *patternCtx) error {
	switch n := p.(type) {
	case *syntax.MatchValue:
		// Literal and value patterns (§8.6.4.3, §8.6.4.6) compare with
		// ==: [subject value] -> [bool].
		if err := c.expr(n.Value); err != nil {
			return err
		}
		c.b.emit(COMPARE_OP, int(object.OpEq))
		c.jumpToFailPop(pc, POP_JUMP_IF_FALSE)
	case *syntax.MatchSingleton:
		// None, True and False compare by identity (§8.6.4.3).
		v, err := constValue(&syntax.Constant{Value: n.Value})
		if err != nil {
			return err
		}
		c.b.loadConst(v)
		c.b.emit(IS_OP, 0)
		c.jumpToFailPop(pc, POP_JUMP_IF_FALSE)
	case *syntax.MatchAs:
		// A bare name is a capture pattern, `_` (Name "") the wildcard
		// (§8.6.4.4, §8.6.4.5); `p as name` (§8.6.4.2) matches p against
		// a copy and captures the subject if it matched.
		if n.Pattern == nil {
			return c.patternStore(n.Name, pc, n.Line)
		}
		// Keep a copy of the subject to capture once the sub-pattern matched.
		pc.onTop++
		c.b.emit(DUP_TOP, 0)
		if err := c.pattern(n.Pattern, pc); err != nil {
			return err
		}
		pc.onTop--
		return c.patternStore(n.Name, pc, n.Line)
	case *syntax.MatchOr:
		return c.patternOr(n, pc)
	case *syntax.MatchSequence:
		// [p1, *rest, pn] (§8.6.4.8): the subject must be a sequence
		// (MATCH_SEQUENCE: list, tuple, range, deque or a subclass;
		// never str, bytes or bytearray), of exactly n items, or at
		// least n-1 with a star;
		// then it is unpacked (the star collects a list) and each item
		// matched in order, the first on top.
		star := -1
		for i, q := range n.Patterns {
			if _, isStar := q.(*syntax.MatchStar); isStar {
				star = i
			}
		}
		// The subject stays on the stack during the checks; the
		// MATCH_SEQUENCE and length test results are popped by their
		// jumps, so only the subject counts in onTop while a failure
		// can happen. Then UNPACK replaces it by its items.
		pc.onTop++
		c.b.emit(MATCH_SEQUENCE, 0)
		c.jumpToFailPop(pc, POP_JUMP_IF_FALSE)
		c.b.emit(GET_LEN, 0)
		size := len(n.Patterns)
		if star >= 0 {
			c.b.loadConst(object.Int(size - 1))
			c.b.emit(COMPARE_OP, int(object.OpGe))
		} else {
			c.b.loadConst(object.Int(size))
			c.b.emit(COMPARE_OP, int(object.OpEq))
		}
		c.jumpToFailPop(pc, POP_JUMP_IF_FALSE)
		pc.onTop--
		if star >= 0 {
			c.b.emit(UNPACK_EX, star|(size-star-1)<<8)
		} else {
			c.b.emit(UNPACK_SEQUENCE, size)
		}
		pc.onTop += size
		for _, q := range n.Patterns {
			pc.onTop--
			if s, isStar := q.(*syntax.MatchStar); isStar {
				if err := c.patternStore(s.Name, pc, s.Line); err != nil {
					return err
				}
				continue
			}
			if err := c.pattern(q, pc); err != nil {
				return err
			}
		}
	case *syntax.MatchMapping:
		// {k1: p1, **rest} (§8.6.4.9): the subject must be a mapping
		// (MATCH_MAPPING accepts a dict or a subclass) and have every key
		// (MATCH_KEYS: the values as a tuple, or None if
		// one is missing); the values are unpacked and matched in order,
		// and **rest captures a copy without the matched keys.
		pc.onTop++
		c.b.emit(MATCH_MAPPING, 0)
		c.jumpToFailPop(pc, POP_JUMP_IF_FALSE)
		for _, k := range n.Keys {
			if err := c.expr(k); err != nil {
				return err
			}
		}
		c.b.emit(BUILD_TUPLE, len(n.Keys))
		c.b.emit(MATCH_KEYS, 0) // [subject keys values|None]
		// From here a failure must also pop the keys tuple and the
		// values (the subject was counted already).
		pc.onTop += 2
		c.b.emit(DUP_TOP, 0)
		c.b.loadConst(object.None)
		c.b.emit(IS_OP, 0)
		c.jumpToFailPop(pc, POP_JUMP_IF_TRUE)
		pc.onTop--
		c.b.emit(UNPACK_SEQUENCE, len(n.Keys))
		pc.onTop += len(n.Keys)
		for _, q := range n.Patterns {
			pc.onTop--
			if err := c.pattern(q, pc); err != nil {
				return err
			}
		}
		// A match: what follows consumes the keys tuple and the subject.
		pc.onTop -= 2
		if n.Rest != "" {
			c.b.emit(COPY_DICT_WITHOUT_KEYS, 0) // [subject rest]
			c.b.emit(ROT_TWO, 0)
			c.b.emit(POP_TOP, 0)
			return c.patternStore(n.Rest, pc, n.Line)
		}
		c.b.emit(POP_TOP, 0)
		c.b.emit(POP_TOP, 0)
	case *syntax.MatchClass:
		// Cls(p1, k=p2) (§8.6.4.10): MATCH_CLASS checks that the
		// subject's type is Cls or a subclass of it, and fetches the
		// positional attributes (through __match_args__) and the keyword
		// ones as one tuple, or None on failure; the tuple is unpacked
		// and each sub-pattern matched against its attribute.
		if err := c.expr(n.Cls); err != nil {
			return err
		}
		names := make(object.Tuple, len(n.KwdAttrs))
		for i, a := range n.KwdAttrs {
			names[i] = object.Str(a)
		}
		c.b.loadConst(names)
		c.b.emit(MATCH_CLASS, len(n.Patterns)) // [subject attrs|None]
		c.b.emit(DUP_TOP, 0)
		c.b.loadConst(object.None)
		c.b.emit(IS_OP, 0)
		pc.onTop += 2
		c.jumpToFailPop(pc, POP_JUMP_IF_TRUE)
		pc.onTop -= 2
		c.b.emit(ROT_TWO, 0)
		c.b.emit(POP_TOP, 0)
		all := append(append([]syntax.Pattern(nil), n.Patterns...), n.KwdPatterns...)
		c.b.emit(UNPACK_SEQUENCE, len(all))
		pc.onTop += len(all)
		for _, q := range all {
			pc.onTop--
			if err := c.pattern(q, pc); err != nil {
				return err
			}
		}
	case *syntax.MatchStar:
		// *name is only valid directly in a sequence pattern, handled
		// above.
		return syntaxErrorAt(n.Line, "can't use starred name here")
	default:
		return &SyntaxError{Msg: "PVM: unsupported pattern"}
	}
	return nil
}

// patternOr tries each alternative against a copy of the subject. Each
// alternative starts with no captures of its own; a successful one reorders
// its captures to the first alternative's order and jumps to the common
// end, where they are rotated under the captures made before the
// or-pattern (CPython's compiler_pattern_or). Every alternative must bind
// the same names (§8.6.4.1); `case [x] | (x, _)` binds x either way, and
// the code after the or-pattern finds x in one stack slot whichever
// alternative matched.
func (c *compiler) patternOr(n *syntax.MatchOr, pc *patternCtx) error {
	end := c.b.newLabel()
	outer := *pc
	var control []string
	for i, alt := range n.Patterns {
		*pc = patternCtx{}
		c.b.emit(DUP_TOP, 0)
		if err := c.pattern(alt, pc); err != nil {
			return err
		}
		if i == 0 {
			control = pc.stores
		} else if len(pc.stores) != len(control) {
			return syntaxErrorAt(n.Line, "alternative patterns bind different names")
		} else {
			for icontrol := len(control) - 1; icontrol >= 0; icontrol-- {
				istores := -1
				for j, s := range pc.stores {
					if s == control[icontrol] {
						istores = j
					}
				}
				if istores < 0 {
					return syntaxErrorAt(n.Line, "alternative patterns bind different names")
				}
				if icontrol == istores {
					continue
				}
				// Move stores[:istores+1] to just after position icontrol,
				// and the values on the stack the same way.
				rot := istores + 1
				moved := append([]string(nil), pc.stores[:rot]...)
				rest := append([]string(nil), pc.stores[rot:]...)
				at := icontrol - istores
				pc.stores = append(append(append([]string(nil), rest[:at]...), moved...), rest[at:]...)
				for k := 0; k < rot; k++ {
					c.rotate(icontrol + 1)
				}
			}
		}
		c.b.jump(JUMP, end)
		c.emitFailPop(pc)
	}
	// Back to the enclosing pattern's context, now that the
	// alternatives' own failure paths are emitted.
	*pc = outer
	// No alternative matched: pop the subject and fail.
	c.b.emit(POP_TOP, 0)
	c.jumpToFailPop(pc, JUMP)
	c.b.bind(end)
	// [... earlier captures, onTop values, subject, control captures]: move
	// each new capture under everything, in order.
	nrots := len(control) + 1 + pc.onTop + len(pc.stores)
	for _, name := range control {
		c.rotate(nrots)
		for _, s := range pc.stores {
			if s == name {
				return syntaxErrorAt(n.Line, fmt.Sprintf("multiple assignments to name '%s' in pattern", name))
			}
		}
		pc.stores = append(pc.stores, name)
	}
	c.b.emit(POP_TOP, 0) // the subject
	return nil
}
