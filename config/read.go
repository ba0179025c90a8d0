package config

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/problem"
)

// read decodes src with robotsmith's one reader of source files (package frontmatter), which gives
// every value its offset in the file, and checks what that reader leaves to the configuration: its
// lower nesting limit, how far YAML aliases may expand it, and keys written twice.
func (p *parser) read(src []byte) (*frontmatter.Node, error) {
	// A byte order mark, which some editors write, is not part of the configuration in any format;
	// without it the first line's columns are counted as the reader counts them after one.
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	doc, err := frontmatter.Decode(p.file, src, formatOf(p.file))
	if err != nil {
		return nil, p.readError(err)
	}
	p.doc = doc
	root := doc.Root
	b := bounds{p: p, budget: aliasBudget(len(src)), seen: map[*frontmatter.Node]bool{}}
	if err := b.walk(root, 0, -1); err != nil {
		return nil, err
	}
	return root, nil
}

// formatOf picks the format by the file's extension: .toml is TOML, .json JSON, anything else YAML.
func formatOf(file string) frontmatter.Format {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".toml":
		return frontmatter.TOML
	case ".json":
		return frontmatter.JSON
	}
	return frontmatter.YAML
}

// readError turns the reader's error into an *Error at the same line and column, its message
// without the reader's "config: ". The reader's own nesting limit is above the configuration's, and
// a top level that is not a map has the configuration's own words.
func (p *parser) readError(err error) error {
	var fe *frontmatter.Error
	if !errors.As(err, &fe) {
		return &Error{File: p.file, Code: problem.ConfigSyntax, Err: clip(err)}
	}
	e := &Error{File: p.file, Line: fe.Line, Col: fe.Col, Err: fe.Err}
	if inner := errors.Unwrap(fe.Err); inner != nil {
		e.Err = inner
	}
	switch {
	case errors.Is(err, frontmatter.ErrDepth):
		e.Col, e.Err = 0, ErrTooDeep
	case errors.Is(err, frontmatter.ErrNotMap):
		e.Col, e.Err = 0, errNotMap
	default:
		e.Code, e.Err = problem.ConfigSyntax, clip(e.Err)
	}
	return e
}

// errNotMap is the error for a file whose top level is a list or a single value.
var errNotMap error = problem.New(problem.ConfigNotAMap, problem.Position{}, "the configuration must be a map of keys (tags: three, rules: ...), not a list or a single value")

// bounds walks the tree as the parser will read it, a value that YAML aliases share once for every
// place it is used: within budget values in all (a "billion laughs" file of 300 bytes would be
// billions) and maxDepth levels. It reports the keys of a map written twice, each map once.
type bounds struct {
	p      *parser
	budget int
	seen   map[*frontmatter.Node]bool // every value reached, to tell a value an alias shares
}

// walk checks n at depth; via is the line of the place where an alias brought in the value being
// walked (-1 outside aliases), where an expansion over budget is reported.
func (b *bounds) walk(n *frontmatter.Node, depth, via int) error {
	if n == nil {
		return nil
	}
	if b.budget--; b.budget < 0 {
		line := via
		if line < 0 {
			line = b.p.line(n)
		}
		return &Error{File: b.p.file, Line: line, Err: ErrAliases}
	}
	if depth > maxDepth {
		return &Error{File: b.p.file, Line: b.p.line(n), Err: ErrTooDeep}
	}
	first := !b.seen[n]
	b.seen[n] = true
	switch n.Kind {
	case frontmatter.KindList:
		for _, e := range n.List {
			if err := b.walk(e, depth+1, b.via(e, via, n.Off)); err != nil {
				return err
			}
		}
	case frontmatter.KindMap:
		if first {
			b.p.duplicates(n)
		}
		for _, k := range n.Keys {
			if err := b.walk(k.Value, depth+1, b.via(k.Value, via, k.Off)); err != nil {
				return err
			}
		}
	}
	return nil
}

// via is the line to report an expansion of v at: the one the walk is in already, or, when v has
// been reached before (an alias uses it again), the line of the place that uses it, at off.
func (b *bounds) via(v *frontmatter.Node, via, off int) int {
	if via < 0 && b.seen[v] {
		return b.p.doc.Line(off)
	}
	return via
}
