// Package tomldepth bounds the nesting of a TOML document before a decoder
// sees it.
//
// BurntSushi/toml (v1.6.0, the newest release) keeps every value's whole key
// path, so nesting costs it time and memory quadratic in the depth: a
// 60 KB file of inline tables 10,000 deep took 40 s and 4 GB, and it has no
// limit of its own. Line is one pass over the bytes, written by hand for that
// reason; every TOML reader of robotsmith (its configuration, Hugo's
// configuration, front matter) can call it first.
//
// Usage:
//
//	if line := tomldepth.Line(src, 32); line > 0 {
//		return fmt.Errorf("%s:%d: nested more than 32 levels deep", file, line)
//	}
//	_, err := toml.Decode(string(src), &v)
package tomldepth

// Line returns the line where TOML source first nests more than max levels,
// or 0 when it never does. A level is a table header element, a dotted key
// element, or an open array or inline table; the count is never less than
// the depth of the value the decoder builds, so a document Line passes is no
// deeper than max. It skips strings and comments; anything it misreads, the
// decoder reports.
func Line(src []byte, max int) int {
	type level struct {
		dots  int  // key elements counted outside this bracket
		table bool // an inline table {...}, not an array
	}
	line := 1
	var (
		open  []level // the open [ and { of a value
		dots  int     // key elements beyond the first along the current path
		table int     // elements of the current table header
		inKey = true  // reading a key, not a value
	)
	deep := func() bool { return table+len(open)+dots > max }
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '\n':
			line++
			if len(open) == 0 {
				inKey, dots = true, 0
			}
		case '#':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			end, nl := skipTOMLString(src, i)
			if end < 0 {
				return 0 // unterminated: the decoder says where
			}
			line += nl
			i = end - 1
		case '[', '{':
			if c == '[' && len(open) == 0 && inKey && dots == 0 {
				// A table header, [a.b.c] or [[a.b]]: its elements are the
				// depth of the keys under it.
				n, j := 1, i+1
				if j < len(src) && src[j] == '[' {
					n, j = 2, j+1
				}
				for ; j < len(src) && src[j] != ']' && src[j] != '\n'; j++ {
					switch src[j] {
					case '.':
						n++
					case '"', '\'':
						end, _ := skipTOMLString(src, j)
						if end < 0 {
							return 0
						}
						j = end - 1
					}
				}
				if n > max {
					return line
				}
				table = n
				for i+1 < len(src) && src[i+1] != '\n' {
					i++
				}
				continue
			}
			open = append(open, level{dots: dots, table: c == '{'})
			inKey = c == '{'
			if deep() {
				return line
			}
		case ']', '}':
			if len(open) > 0 {
				dots = open[len(open)-1].dots
				open = open[:len(open)-1]
			}
			inKey = false
		case ',':
			if len(open) > 0 {
				top := open[len(open)-1]
				dots, inKey = top.dots, top.table
			}
		case '=':
			inKey = false
		case '.':
			if inKey {
				dots++
				if deep() {
					return line
				}
			}
		}
	}
	return 0
}

// skipTOMLString returns the offset after the string opening at i (basic,
// literal, or their multi-line forms) and the line breaks inside it, or -1
// when it does not end.
func skipTOMLString(src []byte, i int) (int, int) {
	q := src[i]
	nl := 0
	if i+2 < len(src) && src[i+1] == q && src[i+2] == q {
		for j := i + 3; j < len(src); j++ {
			switch {
			case src[j] == '\n':
				nl++
			case src[j] == '\\' && q == '"':
				j++
				if j < len(src) && src[j] == '\n' {
					nl++
				}
			case src[j] == q && j+2 < len(src) && src[j+1] == q && src[j+2] == q:
				end := j + 3
				for n := 0; n < 2 && end < len(src) && src[end] == q; n++ {
					end++ // up to two more quotes belong to the string
				}
				return end, nl
			}
		}
		return -1, nl
	}
	for j := i + 1; j < len(src); j++ {
		switch {
		case src[j] == '\n':
			return -1, nl
		case src[j] == '\\' && q == '"':
			j++
		case src[j] == q:
			return j + 1, nl
		}
	}
	return -1, nl
}
