package frontmatter

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/robotsmith/robotsmith/problem"
)

// YAMLError turns an error that yaml.v3 returned for src into an *Error at the line of the fault,
// src's first line being line first of file (1 for a whole file; for a front matter block, the
// line after its `---`). Its Err is "yaml: " and the problem, said once (without yaml.v3's "line
// N") and cut to a short excerpt; Col is set where the fault is one character (a byte that is not
// UTF-8, a control character), else 0.
//
// yaml.v3 names one line, and not always the same one: where the construct it was reading starts
// (its context: a quoted value, a list, a key) when that is past src's first line, else where the
// problem itself is; and a scanner's problem counts lines from 1, a parser's from 0. So, on this
// error path only, src is read twice more at most: after an added blank line, which puts every
// context past the first line, so that the message names the context's line; and from the
// context's line on, which puts the context on the first line, so that the message names the
// problem's. The fault is the problem's line, unless the problem is that something was left open
// (a quote, a list or a map, a key without its colon): then it is the line where that starts. A
// fault at the end of src is on the last line that holds anything.
func YAMLError(file string, src []byte, first int, err error) *Error {
	fault, n, hasLine := yamlProblem(err)
	line, col := 1, 0
	var te *yaml.TypeError
	switch {
	case errors.As(err, &te) && len(te.Errors) > 0:
		// Only from decoding into Go values, whose messages count lines from 1.
		fault, n, hasLine = yamlProblem(errors.New(te.Errors[0]))
		line = max(n, 1)
	case !hasLine && yamlReaderProblems[fault]:
		line, col = yamlBadChar(src)
	default:
		line = yamlFaultLine(src, fault, n, hasLine)
	}
	msg := yamlExplain(fault, src, line)
	if last := lastContentLine(src); line > last {
		line, col, msg = last, 0, fault+" where the YAML ends"
	}
	return &Error{File: file, Line: first + line - 1, Col: col, Code: problem.SourceSyntax, Err: errors.New("yaml: " + shortMessage(msg))}
}

// yamlLineRE is the position yaml.v3 puts in front of its problem.
var yamlLineRE = regexp.MustCompile(`^line (\d+): `)

// yamlProblem splits yaml.v3's message into its problem and the line it names, if any.
func yamlProblem(err error) (problem string, n int, hasLine bool) {
	msg := strings.TrimPrefix(strings.TrimSpace(err.Error()), "yaml: ")
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		n, _ = strconv.Atoi(m[1])
		return msg[len(m[0]):], n, true
	}
	return msg, 0, false
}

// yamlFaultLine is the 1-based line of src where the problem yaml.v3 found in it is (see
// YAMLError); n and hasLine are the line its message named.
func yamlFaultLine(src []byte, problem string, n int, hasLine bool) int {
	// lineOf is the 1-based line that a message of the same problem names in the text it was
	// about: with no line, the first (yaml.v3 leaves it out when the line is the first).
	lineOf := func(n int, hasLine bool) int {
		switch {
		case !hasLine:
			return 1
		case yamlScannerProblem(problem):
			return n
		}
		return n + 1
	}
	reread := func(text []byte) (line int, ok bool) {
		var root yaml.Node
		err := yaml.Unmarshal(text, &root)
		if err == nil {
			return 0, false
		}
		p, n, hasLine := yamlProblem(err)
		return lineOf(n, hasLine), p == problem
	}
	named := lineOf(n, hasLine)
	// The context's line: src after a blank line (after its byte order mark, which yaml.v3 reads
	// only at the start), where every context is past the first line.
	var shifted []byte
	if rest, ok := bytes.CutPrefix(src, []byte(bom)); ok {
		shifted = append(append([]byte(bom), '\n'), rest...)
	} else {
		shifted = append([]byte{'\n'}, src...)
	}
	context := named
	if l, ok := reread(shifted); ok {
		context = max(l-1, 1)
	}
	switch {
	case yamlLeftOpen(problem):
		return context
	case context == 1:
		return named // the context is on the first line, so yaml.v3 named the problem's
	}
	start := 0
	for i := 1; i < context; i++ {
		start += bytes.IndexByte(src[start:], '\n') + 1
	}
	if l, ok := reread(src[start:]); ok {
		return context - 1 + l
	}
	return context
}

// yamlLeftOpen reports a problem whose fault is where its context starts: something left open.
func yamlLeftOpen(problem string) bool {
	switch problem {
	case "found unexpected end of stream", "found unexpected document indicator", "could not find expected ':'",
		"did not find expected ',' or ']'", "did not find expected ',' or '}'":
		return true
	}
	return false
}

// yamlTab is what a tab where YAML wants spaces is called: yaml.v3 names the character it could
// not read, or the indentation, not the tab that broke it.
const yamlTab = "a tab indents this line: YAML allows only spaces there"

// yamlExplain says problem in words that fit the line it is reported at (see yamlLeftOpen).
func yamlExplain(problem string, src []byte, line int) string {
	switch problem {
	case "found unexpected end of stream":
		return "the quoted value that starts on this line is not closed"
	case "found unexpected document indicator":
		return problem + " in the quoted value that starts on this line"
	case "could not find expected ':'":
		return problem + " after the key that starts on this line"
	case "did not find expected ',' or ']'":
		return problem + " in the list that starts on this line"
	case "did not find expected ',' or '}'":
		return problem + " in the map that starts on this line"
	case "found a tab character that violates indentation", "found a tab character where an indentation space is expected":
		return yamlTab
	case "found character that cannot start any token":
		text := src
		for i := 1; i < line; i++ {
			text = text[bytes.IndexByte(text, '\n')+1:]
		}
		indent := text[:len(text)-len(bytes.TrimLeft(text, " \t"))]
		if bytes.IndexByte(indent, '\t') >= 0 {
			return yamlTab
		}
	}
	return problem
}

// yamlScannerProblem reports whether msg is one of the yaml.v3 scanner's problems, whose line
// counts from 1 where a parser's counts from 0 (its parser.fail adds 1 for scanner errors only):
// yaml.v3 gives no structured position, so the kind of error must be told from its text.
func yamlScannerProblem(msg string) bool {
	for _, p := range [...]string{
		"block sequence entries are not allowed",
		"could not find expected",
		"did not find expected alphabetic",
		"did not find expected comment or line break",
		"did not find expected digit",
		"did not find expected hexdecimal",
		"did not find expected version",
		"did not find expected whitespace",
		"did not find the expected '>'",
		"exceeded max depth",
		"found a tab character",
		"found an indentation indicator",
		"found character that cannot start",
		"found extremely long version",
		"found invalid Unicode",
		"found unexpected document indicator",
		"found unexpected end of stream",
		"found unexpected non-alphabetical",
		"found unknown directive",
		"found unknown escape",
		"mapping keys are not allowed",
		"mapping values are not allowed",
	} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// yamlReaderProblems are the problems of yaml.v3's reader, which name no line: the fault is the
// first character YAML does not allow.
var yamlReaderProblems = map[string]bool{
	"invalid leading UTF-8 octet":        true,
	"incomplete UTF-8 octet sequence":    true,
	"invalid trailing UTF-8 octet":       true,
	"invalid length of a UTF-8 sequence": true,
	"invalid Unicode character":          true,
	"control characters are not allowed": true,
}

// yamlBadChar is the 1-based line and column (in characters, a byte that is not UTF-8 counting as
// one) of the first character of src that YAML does not allow (yaml.v3's reader's rule); 1, 0 when
// there is none.
func yamlBadChar(src []byte) (line, col int) {
	line, col = 1, 1
	i := 0
	if bytes.HasPrefix(src, []byte(bom)) {
		i = len(bom)
	}
	for i < len(src) {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 || !yamlPrintable(r) {
			return line, col
		}
		if r == '\n' {
			line, col = line+1, 0
		}
		col++
		i += size
	}
	return 1, 0
}

// yamlPrintable is YAML's set of characters that may appear in a stream.
func yamlPrintable(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0x7E || r == 0x85 ||
		r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// lastContentLine is the 1-based number of src's last line that is neither blank nor a comment
// (1 when there is none).
func lastContentLine(src []byte) int {
	last, line := 1, 1
	for rest := src; len(rest) > 0; line++ {
		text := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			text, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if t := bytes.TrimSpace(bytes.TrimPrefix(text, []byte(bom))); len(t) > 0 && t[0] != '#' {
			last = line
		}
	}
	return last
}
