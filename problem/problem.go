package problem

import (
	"fmt"
	"strconv"
	"strings"
)

// Code is a problem's stable code: RS and four digits. The zero Code is no code.
type Code uint16

// String is the code as it is written: "RS0103"; "" for the zero Code.
func (c Code) String() string {
	if c == 0 {
		return ""
	}
	s := strconv.Itoa(int(c))
	return "RS" + strings.Repeat("0", max(0, 4-len(s))) + s
}

// Name is the code's stable name, "noindex-blocked-by-robots-txt"; "" for a code not in the table.
func (c Code) Name() string {
	i, _ := Lookup(c)
	return i.Name
}

// Title is the code and its name, "RS0103 noindex-blocked-by-robots-txt", as the text output ends a
// problem with it and a GitHub annotation's title gives it (SPEC §1); "" for the zero Code.
func (c Code) Title() string {
	if c == 0 {
		return ""
	}
	if n := c.Name(); n != "" {
		return c.String() + " " + n
	}
	return c.String()
}

// Severity is the code's default severity; 0 for a code not in the table.
func (c Code) Severity() Severity {
	i, _ := Lookup(c)
	return i.Severity
}

// Severity is how a problem weighs on a run.
type Severity uint8

const (
	// Warning is printed; `check --strict` raises it to a Finding.
	Warning Severity = iota + 1
	// Finding is a contradiction between the site's signals: `check` exits 1, `build` prints it.
	Finding
	// Error fails the run: nothing is written.
	Error
)

// String is "warning", "finding" or "error".
func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Finding:
		return "finding"
	case Error:
		return "error"
	}
	return "severity(" + strconv.Itoa(int(s)) + ")"
}

// Position is a place in a file: a 1-based line and column. Col is 0 when only the line is known,
// Line 0 when not even that is; File is "" for a problem of no file (an option, the environment).
type Position struct {
	File string
	Line int
	Col  int
}

// String is "file:line:col", leaving out ":col" when Col is 0 and ":line:col" when Line is 0, the
// form compilers write and editors jump to.
func (p Position) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(':')
		}
		b.WriteString(strconv.Itoa(p.Line))
		if p.Col > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(p.Col))
		}
	}
	return b.String()
}

// Related is the other side of a problem that has two: "first given here", "the rule that
// disallows it".
type Related struct {
	Position
	Msg string
}

// Problem is one error, finding or warning.
type Problem struct {
	Code Code
	// Severity is the code's by default; a Warning raised to a Finding by --strict, or to an
	// Error where a command cannot go on without what it warns of (explain asked for a file the
	// walk skips).
	Severity Severity
	Position
	Related []Related // the other side, where there is one
	Msg     string    // what is wrong and what to do, without position or code
}

// New is a Problem of code at pos, with the code's severity.
func New(code Code, pos Position, msg string) *Problem {
	return &Problem{Code: code, Severity: code.Severity(), Position: pos, Msg: msg}
}

// Newf is New with a message formatted as fmt.Sprintf does.
func Newf(code Code, pos Position, format string, args ...any) *Problem {
	return New(code, pos, fmt.Sprintf(format, args...))
}

// Error is the problem as robotsmith's text output writes it: "file:line:col: msg" (Position.String),
// or the message alone when it has no position. The code is not part of it.
func (p *Problem) Error() string {
	if pos := p.Position.String(); pos != "" {
		return pos + ": " + p.Msg
	}
	return p.Msg
}

// Text is the problem as robotsmith's text output prints it, on stderr and after the summary alike:
// Error()'s "file:line:col: msg", which editors jump to, then the code and name in brackets, to look
// it up by (docs/reference/codes.md): "content/a.md:3: front matter robots: ... [RS0401
// malformed-directive]". A problem without a code is Error() alone.
func (p Problem) Text() string {
	if p.Code == 0 {
		return p.Error()
	}
	return p.Error() + " [" + p.Code.Title() + "]"
}

// Strict is p as `check --strict` reports it: a Warning raised to a Finding, anything else as it is.
func (p Problem) Strict() Problem {
	if p.Severity == Warning {
		p.Severity = Finding
	}
	return p
}

// Problem returns p itself, so that a *Problem is a Carrier like any error type that gives one.
func (p *Problem) Problem() Problem { return *p }

// Lister is an error that is several problems, each a line of its text: a value with two malformed
// directives is one error of its package's type, and two problems at its place. List takes them
// apart.
type Lister interface {
	Problems() []Problem
}

// List is every problem err holds, in order: one for each error that errors.Join put together (at
// any depth of joins), each of a Lister's, and Of of any other error (of code 0 when it holds none).
// It is how a command takes apart the errors a run returns to report each.
func List(err error) []Problem {
	var out []Problem
	var walk func(error)
	walk = func(e error) {
		switch e := e.(type) {
		case nil:
		case Lister:
			out = append(out, e.Problems()...)
		case interface{ Unwrap() []error }:
			for _, e := range e.Unwrap() {
				walk(e)
			}
		default:
			p, _ := Of(e)
			out = append(out, p)
		}
	}
	walk(err)
	return out
}

// Wrap is err at pos, of code: an error whose text is pos's and err's ("public/a.html: permission
// denied"; err's alone for a zero pos), which unwraps to err, and whose Problem is of code, or, for
// code 0, of the code err holds (Wrapping). It gives an error of another package (the system's,
// a sentinel) the place and code robotsmith reports it with.
func Wrap(code Code, pos Position, err error) error {
	return &wrapped{code: code, pos: pos, err: err}
}

type wrapped struct {
	code Code
	pos  Position
	err  error
}

func (w *wrapped) Error() string {
	if pos := w.pos.String(); pos != "" {
		return pos + ": " + w.err.Error()
	}
	return w.err.Error()
}

func (w *wrapped) Unwrap() error { return w.err }

func (w *wrapped) Problem() Problem { return Wrapping(w.code, w.pos, w.err.Error(), nil, w.err) }

// Carrier is an error (or a warning) that is one problem: *Problem, and the error and warning types
// of robotsmith's packages, each of which keeps its own fields and text and gives the Problem they
// make.
type Carrier interface {
	Problem() Problem
}

// Of is the Problem err is: err's own when it is a Carrier, whose code, when it has none of its
// own, is the first found in what it wraps (CodeOf); else a Problem of err's text, without a
// position, with the first code found in what err wraps. ok is false when no code is found.
// A list that errors.Join made is many problems: take them apart first.
func Of(err error) (p Problem, ok bool) {
	if err == nil {
		return Problem{}, false
	}
	if c, isCarrier := err.(Carrier); isCarrier {
		p = c.Problem()
	} else {
		p = Problem{Code: CodeOf(err), Msg: err.Error()}
	}
	if p.Severity == 0 {
		p.Severity = p.Code.Severity()
	}
	return p, p.Code != 0
}

// CodeOf is the code of the first Carrier with one in err's tree, read as errors.As reads it (err
// first, then what it wraps, depth first); 0 when there is none.
func CodeOf(err error) Code {
	p, _ := firstProblem(err)
	return p.Code
}

// Wrapping is the Problem of an error type that wraps another error (cause): at pos, with msg, of
// code; with code 0, it takes the code, severity and related places of the first Problem cause
// wraps, so that an error that only adds a place (a file's name) keeps the code of what it wraps.
// The error types of robotsmith's packages make their Problem with it.
func Wrapping(code Code, pos Position, msg string, related []Related, cause error) Problem {
	p := Problem{Code: code, Position: pos, Related: related, Msg: msg}
	if code == 0 && cause != nil {
		if in, ok := firstProblem(cause); ok {
			p.Code, p.Severity = in.Code, in.Severity
			if p.Related == nil {
				p.Related = in.Related
			}
		}
	}
	if p.Severity == 0 {
		p.Severity = p.Code.Severity()
	}
	return p
}

// firstProblem is the Problem of the first Carrier with a code in err's tree.
func firstProblem(err error) (Problem, bool) {
	if err == nil {
		return Problem{}, false
	}
	if c, ok := err.(Carrier); ok {
		if p := c.Problem(); p.Code != 0 {
			return p, true
		}
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return firstProblem(u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if p, ok := firstProblem(e); ok {
				return p, true
			}
		}
	}
	return Problem{}, false
}
