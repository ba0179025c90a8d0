package config

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Bounds on what a configuration may make robotsmith do (SPEC §10: no input
// may use memory or time out of proportion to its size). A real
// configuration is a few kilobytes, four levels deep.
const (
	// MaxSize is the largest configuration file read.
	MaxSize = 1 << 20
	// maxDepth is the deepest nesting of maps and lists (and TOML's dotted
	// keys and table headers) accepted.
	maxDepth = 32
	// maxErrors is how many problems one file reports before "and N more".
	maxErrors = 20
)

// ErrTooDeep, ErrAliases: the configuration nests deeper than robotsmith
// reads, or YAML aliases expand it to far more values than it writes.
var (
	ErrTooDeep  = fmt.Errorf("nested more than %d levels deep", maxDepth)
	ErrAliases  = errors.New("YAML aliases expand to many times the values the file writes out")
	errTooLarge = fmt.Errorf("more than %d KiB; a configuration is a few", MaxSize>>10)
)

// aliasBudget is how many values the tree of a YAML document of n bytes may
// have. Without aliases it has fewer values than bytes; aliases may repeat a
// part a few times, never multiply it (a "billion laughs" file of 300 bytes
// expands to billions).
func aliasBudget(n int) int { return 4*n + 1000 }

// quote is %q of at most 40 bytes of s: an error quotes a short excerpt,
// never a whole value someone pasted into the file.
func quote(s string) string {
	const max = 40
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("... (%d bytes)", len(s))
}

// clip shortens a decoder's message, which may quote a key or value whole.
func clip(err error) error {
	const max = 200
	msg := err.Error()
	if len(msg) <= max {
		return err
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return fmt.Errorf("%s...", msg[:cut])
}

// limitErrors keeps the first maxErrors problems and counts the rest.
func limitErrors(file string, errs []error) []error {
	if len(errs) <= maxErrors {
		return errs
	}
	out := append([]error(nil), errs[:maxErrors]...)
	return append(out, &Error{File: file, Err: fmt.Errorf("and %d more problems", len(errs)-maxErrors)})
}

// tomlTooDeep returns the line where TOML source first nests more than
// maxDepth levels, counting table header elements, dotted key elements and
// open arrays and inline tables, or 0. BurntSushi/toml (v1.6.0, the newest)
// keeps every value's whole key path, so nesting costs it time and memory
// quadratic in the depth (10,000 levels: 40 s and 4 GB) and it has no limit
// of its own; this scan, written by hand for that reason, runs before it, in
// one pass. It skips strings and comments; anything it misreads, the decoder
// reports.
func tomlTooDeep(src []byte) int {
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
	deep := func() bool { return table+len(open)+dots > maxDepth }
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
				if n > maxDepth {
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
