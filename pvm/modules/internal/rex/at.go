package rex

// SubmatchIndexAt is FindStringSubmatchIndex for a search that begins at
// byte offset pos of s: matches start at pos or later, and zero-width
// assertions (^, \A, \b, \B) see the text before pos as Python's re does
// for its pos argument. It returns nil when there is no match, and the work
// the engine did in steps (NFA threads stepped, input positions visited,
// bytes skipped by the literal-prefix search), the PVM's measure for
// metering.
//
// It never uses the backtracking engine: that engine clears a bitmap the
// size of program × input on every search, work that a loop of searches
// (findall, sub) would repeat without it being visible in steps.
func (re *Regexp) SubmatchIndexAt(s string, pos int) (loc []int, steps int) {
	if pos < 0 || pos > len(s) {
		return nil, 0
	}
	if len(s) < re.minInputLen {
		return nil, 1
	}
	ncap := re.prog.NumCap
	if re.onepass != nil {
		loc = re.doOnePass(nil, nil, s, pos, ncap, nil, &steps)
		if loc != nil && len(loc) == 0 {
			loc = nil
		}
		return loc, steps + 1
	}
	m := re.get()
	i, _ := m.inputs.init(nil, nil, s)
	m.init(ncap)
	if m.match(i, pos) {
		loc = append([]int(nil), m.matchcap...)
	}
	steps = m.steps + 1
	re.put(m)
	return loc, steps
}
