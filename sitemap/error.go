package sitemap

import "github.com/robotsmith/robotsmith/problem"

// Error is a sitemap that cannot be read: XML that is not well-formed, an entry or a piece of
// text longer than the reader holds, an encoding other than UTF-8; at the 1-based line and column
// of the token at fault. Its text is "file:line:col: sitemap: ...", the form editors jump to.
type Error struct {
	File string // the sitemap as messages name it; left for the caller to set
	Line int
	Col  int
	// Code is what it is: problem.SitemapNotWellFormed, problem.SitemapTokenTooLong or
	// problem.SitemapNotUTF8.
	Code problem.Code
	Err  error
}

func (e *Error) Error() string {
	p := e.Problem()
	return p.Error()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Problem is the error as a problem.Problem at its place; its Error() is Error().
func (e *Error) Problem() problem.Problem {
	return problem.Wrapping(e.Code, problem.Position{File: e.File, Line: e.Line, Col: e.Col}, e.Err.Error(), nil, e.Err)
}
