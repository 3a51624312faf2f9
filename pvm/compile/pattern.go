package compile

import (
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/syntax"
)

// match compiles a match statement. The subject stays on the stack while
// cases are tried; each case matches against a copy.
func (c *compiler) match(n *syntax.Match) error {
	if err := c.expr(n.Subject); err != nil {
		return err
	}
	end := c.b.newLabel()
	for _, mc := range n.Cases {
		next := c.b.newLabel()
		c.b.emit(DUP_TOP, 0)
		if err := c.pattern(mc.Pattern, next); err != nil {
			return err
		}
		if mc.Guard != nil {
			if err := c.cond(mc.Guard, next, false); err != nil {
				return err
			}
		}
		c.b.emit(POP_TOP, 0)
		if err := c.stmts(mc.Body); err != nil {
			return err
		}
		c.b.jump(JUMP, end)
		c.b.bind(next)
	}
	c.b.emit(POP_TOP, 0)
	c.b.bind(end)
	return nil
}

// popThen returns a label that pops n values and jumps to fail.
func (c *compiler) popThen(n int, fail *label, pending *[]func()) *label {
	if n == 0 {
		return fail
	}
	l := c.b.newLabel()
	*pending = append(*pending, func() {
		c.b.bind(l)
		for i := 0; i < n; i++ {
			c.b.emit(POP_TOP, 0)
		}
		c.b.jump(JUMP, fail)
	})
	return l
}

// pattern matches TOS against p. On success TOS is consumed and captures
// are bound; on failure TOS is consumed and control jumps to fail.
func (c *compiler) pattern(p syntax.Pattern, fail *label) error {
	var pending []func()
	done := c.b.newLabel()
	if err := c.patternBody(p, fail, &pending); err != nil {
		return err
	}
	if len(pending) > 0 {
		c.b.jump(JUMP, done)
		for _, f := range pending {
			f()
		}
	}
	c.b.bind(done)
	return nil
}

func (c *compiler) patternBody(p syntax.Pattern, fail *label, pending *[]func()) error {
	switch n := p.(type) {
	case *syntax.MatchValue:
		if err := c.expr(n.Value); err != nil {
			return err
		}
		c.b.emit(COMPARE_OP, int(object.OpEq))
		c.b.jump(POP_JUMP_IF_FALSE, fail)
	case *syntax.MatchSingleton:
		v, err := constValue(&syntax.Constant{Value: n.Value})
		if err != nil {
			return err
		}
		c.b.loadConst(v)
		c.b.emit(IS_OP, 0)
		c.b.jump(POP_JUMP_IF_FALSE, fail)
	case *syntax.MatchAs:
		if n.Pattern == nil {
			if n.Name == "" {
				c.b.emit(POP_TOP, 0)
			} else {
				c.storeName(n.Name)
			}
			return nil
		}
		c.b.emit(DUP_TOP, 0)
		if err := c.patternBody(n.Pattern, c.popThen(1, fail, pending), pending); err != nil {
			return err
		}
		if n.Name == "" {
			c.b.emit(POP_TOP, 0)
		} else {
			c.storeName(n.Name)
		}
	case *syntax.MatchOr:
		ok := c.b.newLabel()
		for _, alt := range n.Patterns {
			next := c.b.newLabel()
			c.b.emit(DUP_TOP, 0)
			if err := c.pattern(alt, next); err != nil {
				return err
			}
			c.b.emit(POP_TOP, 0)
			c.b.jump(JUMP, ok)
			c.b.bind(next)
		}
		c.b.emit(POP_TOP, 0)
		c.b.jump(JUMP, fail)
		c.b.bind(ok)
	case *syntax.MatchSequence:
		star := -1
		for i, q := range n.Patterns {
			if _, isStar := q.(*syntax.MatchStar); isStar {
				star = i
			}
		}
		fail1 := c.popThen(1, fail, pending)
		c.b.emit(MATCH_SEQUENCE, 0)
		c.b.jump(POP_JUMP_IF_FALSE, fail1)
		c.b.emit(GET_LEN, 0)
		size := len(n.Patterns)
		if star >= 0 {
			c.b.loadConst(object.Int(size - 1))
			c.b.emit(COMPARE_OP, int(object.OpGe))
		} else {
			c.b.loadConst(object.Int(size))
			c.b.emit(COMPARE_OP, int(object.OpEq))
		}
		c.b.jump(POP_JUMP_IF_FALSE, fail1)
		if star >= 0 {
			c.b.emit(UNPACK_EX, star|(size-star-1)<<8)
		} else {
			c.b.emit(UNPACK_SEQUENCE, size)
		}
		for i, q := range n.Patterns {
			f := c.popThen(size-1-i, fail, pending)
			if s, isStar := q.(*syntax.MatchStar); isStar {
				if s.Name == "" {
					c.b.emit(POP_TOP, 0)
				} else {
					c.storeName(s.Name)
				}
				continue
			}
			if err := c.patternBody(q, f, pending); err != nil {
				return err
			}
		}
	case *syntax.MatchMapping:
		fail1 := c.popThen(1, fail, pending)
		c.b.emit(MATCH_MAPPING, 0)
		c.b.jump(POP_JUMP_IF_FALSE, fail1)
		for _, k := range n.Keys {
			if err := c.expr(k); err != nil {
				return err
			}
		}
		c.b.emit(BUILD_TUPLE, len(n.Keys))
		c.b.emit(MATCH_KEYS, 0)
		c.b.emit(DUP_TOP, 0)
		c.b.loadConst(object.None)
		c.b.emit(IS_OP, 0)
		c.b.jump(POP_JUMP_IF_TRUE, c.popThen(3, fail, pending))
		c.b.emit(UNPACK_SEQUENCE, len(n.Keys))
		for i, q := range n.Patterns {
			if err := c.patternBody(q, c.popThen(2+len(n.Patterns)-1-i, fail, pending), pending); err != nil {
				return err
			}
		}
		if n.Rest != "" {
			c.b.emit(COPY_DICT_WITHOUT_KEYS, 0)
			c.storeName(n.Rest)
			c.b.emit(POP_TOP, 0)
		} else {
			c.b.emit(POP_TOP, 0)
			c.b.emit(POP_TOP, 0)
		}
	case *syntax.MatchClass:
		if err := c.expr(n.Cls); err != nil {
			return err
		}
		names := make(object.Tuple, len(n.KwdAttrs))
		for i, a := range n.KwdAttrs {
			names[i] = object.Str(a)
		}
		c.b.loadConst(names)
		c.b.emit(MATCH_CLASS, len(n.Patterns))
		c.b.emit(DUP_TOP, 0)
		c.b.loadConst(object.None)
		c.b.emit(IS_OP, 0)
		c.b.jump(POP_JUMP_IF_TRUE, c.popThen(2, fail, pending))
		c.b.emit(ROT_TWO, 0)
		c.b.emit(POP_TOP, 0)
		all := append(append([]syntax.Pattern(nil), n.Patterns...), n.KwdPatterns...)
		c.b.emit(UNPACK_SEQUENCE, len(all))
		for i, q := range all {
			if err := c.patternBody(q, c.popThen(len(all)-1-i, fail, pending), pending); err != nil {
				return err
			}
		}
	case *syntax.MatchStar:
		return &SyntaxError{Msg: "can't use starred name here"}
	default:
		return &SyntaxError{Msg: "PVM: unsupported pattern"}
	}
	return nil
}
