package frontmatter

import (
	"strconv"
	"strings"
)

// Error is a problem in an input file, at a 1-based line and column. Col is 0
// when only the line is known; Line is 0 when not even that is known.
//
// Error() prints "file:line:col: msg", leaving out ":col" when Col is 0 and
// ":line:col" when Line is 0, the form compilers and editors understand.
type Error struct {
	File string
	Line int
	Col  int
	Err  error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(':')
		}
		b.WriteString(strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Col))
		}
	}
	msg := "<nil>"
	if e.Err != nil {
		msg = e.Err.Error()
	}
	if b.Len() == 0 {
		return msg
	}
	b.WriteString(": ")
	b.WriteString(msg)
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }
