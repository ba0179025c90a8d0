package frontmatter

import (
	"strconv"
	"strings"

	"github.com/robotsmith/robotsmith/problem"
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
	// Code is what the problem is (problem.SourceSyntax, problem.RobotsKeyRepeated, ...); 0 takes
	// the code of the first problem Err holds.
	Code problem.Code
	// Related is the other side, where the problem has two (the key's first write); not printed
	// apart, the message names it.
	Related []problem.Related
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
	msg := e.msg()
	if b.Len() == 0 {
		return msg
	}
	b.WriteString(": ")
	b.WriteString(msg)
	return b.String()
}

// msg is the message without the place.
func (e *Error) msg() string {
	if e.Err == nil {
		return "<nil>"
	}
	return e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Problem is the error as a problem.Problem; its Error() is Error().
func (e *Error) Problem() problem.Problem {
	pos := problem.Position{File: e.File, Line: e.Line, Col: e.Col}
	return problem.Wrapping(e.Code, pos, e.msg(), e.Related, e.Err)
}
