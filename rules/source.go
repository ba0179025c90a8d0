package rules

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/robotsmith/robotsmith/internal/excerpt"
	"github.com/robotsmith/robotsmith/problem"
)

// Kind is where a directive came from, lowest priority first (SPEC §3 order).
type Kind int

const (
	FromDefault Kind = iota // built-in defaults or the config's `defaults`
	FromRule                // a section rule in the config
	FromCascade             // a Hugo cascade (a branch page's front matter or the site configuration)
	// FromFrontMatterDefaults is Jekyll's front matter defaults: the values of a `defaults` scope
	// in _config.yml. It is generator-native inheritance as a cascade is, of the same standing.
	FromFrontMatterDefaults
	FromFrontMatter // the page's own front matter
	FromPage        // a robots-family tag already in the generated page
	FromEnvironment // preview deploy (`previews: noindex`)
)

// String names the kind: "default", "rule", "cascade", "front matter defaults", "front matter",
// "page", "environment".
func (k Kind) String() string {
	switch k {
	case FromDefault:
		return "default"
	case FromRule:
		return "rule"
	case FromCascade:
		return "cascade"
	case FromFrontMatterDefaults:
		return "front matter defaults"
	case FromFrontMatter:
		return "front matter"
	case FromPage:
		return "page"
	case FromEnvironment:
		return "environment"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Source is one place a value came from. String() gives what `explain` prints, e.g.
// "default", "rule 2 at robotsmith.yaml:14", "cascade from content/blog/_index.md:5",
// "front matter defaults at _config.yml:12",
// "front matter robots at content/blog/a.md:3", "tag <meta name=\"googlebot\"> at public/a/index.html:7",
// "environment CONTEXT=deploy-preview".
type Source struct {
	Kind Kind
	File string // file the value came from ("" for built-in defaults and the environment)
	Line int    // 1-based; 0 if unknown
	Rule int    // 1-based rule number for FromRule
	Key  string // front matter key, meta name, "VAR=value" for the environment, or a config key ("ai.meta") for FromRule without a Rule
}

// loc is "file:line", "file" or "".
func (s Source) loc() string {
	if s.File == "" {
		return ""
	}
	if s.Line > 0 {
		return s.File + ":" + strconv.Itoa(s.Line)
	}
	return s.File
}

func (s Source) String() string {
	l := s.loc()
	switch {
	case l == "":
		return s.what()
	case s.Kind == FromCascade:
		return "cascade from " + l
	}
	return s.what() + " at " + l
}

// what names the source without its place: "rule 2", "front matter robots", `tag <meta name="x">`.
// A key is cut to about 80 characters: it may hold an agent's name as written.
func (s Source) what() string {
	s.Key = excerpt.Cut(s.Key)
	switch s.Kind {
	case FromRule:
		if s.Rule > 0 {
			return "rule " + strconv.Itoa(s.Rule)
		}
		if s.Key != "" {
			return s.Key // a config key that is not a numbered rule: "ai.meta"
		}
	case FromFrontMatter:
		if s.Key != "" {
			return "front matter " + s.Key
		}
	case FromPage:
		if s.Key != "" {
			return `tag <meta name="` + s.Key + `">`
		}
		return "tag"
	case FromEnvironment:
		if s.Key != "" {
			return "environment " + s.Key
		}
	}
	return s.Kind.String()
}

// prefix begins a message about the source the way compilers do, place first so that editors and
// terminals can jump to it: "content/a.md:3: front matter robots: ", or "default: " without a place.
func (s Source) prefix() string {
	if l := s.loc(); l != "" {
		return l + ": " + s.what() + ": "
	}
	return s.what() + ": "
}

// priority orders the sources that gave the same value. It is compared by
// beats, the one place precedence is decided. A cascade and front matter defaults are never both
// a site's (one is Hugo's, the other Jekyll's): their order between them decides nothing.
type priority struct {
	kind Kind
	seq  int // position of the input in the order Decide reads them
}

// beats is the single precedence comparison of the package. It is consulted
// only when two candidates give the same value for the same slot (the more
// restrictive value always wins first, whatever its source): then the higher
// Kind (SPEC §3 order) wins the provenance, and on equal Kind the input read
// first (lower seq) wins. Because seq is unique per input, beats is a strict
// total order and merging is order-independent.
func (p priority) beats(q priority) bool {
	if p.kind != q.kind {
		return p.kind > q.kind
	}
	return p.seq < q.seq
}

// Warning is a value robotsmith drops (an unknown or obsolete directive, a misspelling in a tag the
// theme wrote), or one it reads in a way the author should know of (directives separated by spaces,
// a crawler's name inside a value).
type Warning struct {
	Source Source
	Code   problem.Code // what it is: problem.UnknownDirective, problem.LooseSeparators, ...
	Msg    string
}

// String gives "file:line: <source>: <msg>" ("<source>: <msg>" for a source without a place).
func (w Warning) String() string { return w.Source.prefix() + w.Msg }

// Problem is the warning as a problem.Problem, at its source's place; its Error() is String().
func (w Warning) Problem() problem.Problem {
	return problem.Wrapping(w.Code, w.Source.position(), w.Source.what()+": "+w.Msg, nil, nil)
}

// position is the place of the source, for a problem.Problem.
func (s Source) position() problem.Position {
	if s.File == "" {
		return problem.Position{}
	}
	return problem.Position{File: s.File, Line: s.Line}
}

// ErrMalformed is wrapped by every error about a malformed directive value,
// so callers can tell bad input from other failures with errors.Is. It is a
// problem.Problem of code problem.MalformedDirective, which the errors that
// wrap it take.
var ErrMalformed error = problem.New(problem.MalformedDirective, problem.Position{}, "malformed directive")

// ErrMisspelt is wrapped by every error about a directive value or agent name
// that looks like a misspelling of a known one (SPEC §4: within two edits of
// it, or holding characters outside ASCII). It is an error, not a warning,
// because a misspelt restriction would otherwise publish what its author
// meant to hide.
var ErrMisspelt = errors.New("looks misspelt")

// misspelling is an unknown directive or agent name near a known one.
type misspelling struct {
	what     string // "directive" or "crawler name"
	name     string // as written, lower case
	near     string // the known name it resembles
	nonASCII bool
	bare     bool // the message does not quote name: the message it is part of quotes it already
}

func (e *misspelling) Error() string {
	name := ""
	if !e.bare {
		name = " " + excerpt.Quote(e.name)
	}
	if e.nonASCII {
		return fmt.Sprintf("%s%s holds characters outside ASCII (did you mean %q?)", e.what, name, e.near)
	}
	return fmt.Sprintf("unknown %s%s (did you mean %q?)", e.what, name, e.near)
}

// Is makes errors.Is(err, ErrMisspelt) true.
func (e *misspelling) Is(target error) bool { return target == ErrMisspelt }

// Problem is the misspelling as a problem without a place: the *Error holding it has the place.
func (e *misspelling) Problem() problem.Problem {
	code := problem.MisspeltDirective
	if e.what != "directive" {
		code = problem.MisspeltAgent
	}
	return *problem.New(code, problem.Position{}, e.Error())
}

// Error is a malformed value, naming its source.
type Error struct {
	Source Source
	// Value is the raw value as written, when Err is about it as a whole (one directive, a glob);
	// "" when Err quotes the part at fault itself (a directive of several, an agent's name).
	Value string
	Err   error
	// Code is what the problem is (problem.MalformedDirective, problem.MisspeltAgent, ...); 0 takes
	// the code of the first problem Err holds. A value with several problems is one Error,
	// one line a problem, with the first one's code.
	Code problem.Code
}

// Error gives "file:line: <source>: <msg>" ("<source>: <msg>" for a source without a place), the
// form of SPEC §1: `content/blog/a.md:3: front matter robots: "max-snippet:abc": ...`. The value
// is quoted once, at most about 80 characters of it (SPEC §10).
func (e *Error) Error() string {
	if e.Value != "" {
		return e.Source.prefix() + excerpt.Quote(e.Value) + ": " + e.Err.Error()
	}
	return e.Source.prefix() + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Problems is the error as a problem for each line of it: one for each of the problems Err joins
// (a value with two malformed directives), each at the source's place and of its own code (e.Code
// for one of none), or the one Problem.
func (e *Error) Problems() []problem.Problem {
	j, ok := e.Err.(interface{ Unwrap() []error })
	if !ok {
		return []problem.Problem{e.Problem()}
	}
	var out []problem.Problem
	for _, err := range j.Unwrap() {
		code := problem.CodeOf(err)
		if code == 0 {
			code = e.Code
		}
		p := (&Error{Source: e.Source, Value: e.Value, Err: err, Code: code}).Problem()
		out = append(out, p)
	}
	return out
}

// Problem is the error as a problem.Problem, at its source's place; its Error() is Error().
func (e *Error) Problem() problem.Problem {
	msg := e.Source.what() + ": " + e.Err.Error()
	if e.Value != "" {
		msg = e.Source.what() + ": " + excerpt.Quote(e.Value) + ": " + e.Err.Error()
	}
	return problem.Wrapping(e.Code, e.Source.position(), msg, nil, e.Err)
}
