package headers

import (
	"fmt"
	"strings"

	"github.com/robotsmith/robotsmith/internal/markers"
	"github.com/robotsmith/robotsmith/problem"
)

// Sentinel errors that callers may branch on with errors.Is. Each is of its problem code, which
// the errors that wrap it take.
var (
	// ErrPath: a path that a `_headers` rule cannot match exactly ('*', a
	// placeholder, whitespace the host would trim, a "." or ".." segment).
	// Code problem.HeaderPathUnwritable.
	ErrPath error = problem.New(problem.HeaderPathUnwritable, problem.Position{}, "path cannot be written as a _headers rule")
	// ErrLines: X-Robots-Tag lines that the host would fold into a header
	// with another meaning (a bare directive after an agent's line), empty
	// lines, line breaks, or a line over Cloudflare's 2,000 characters.
	// Code problem.HeaderLinesInvalid.
	ErrLines error = problem.New(problem.HeaderLinesInvalid, problem.Position{}, "bad X-Robots-Tag lines")
	// ErrCaseConflict: Netlify matches paths case-insensitively, so two
	// files that differ only in case cannot get different headers there.
	// Code problem.HeaderCaseConflict.
	ErrCaseConflict error = problem.New(problem.HeaderCaseConflict, problem.Position{}, "paths differ only in case but get different X-Robots-Tag lines")
	// ErrTooManyRules: the Cloudflare limit of 100 rules cannot be met even
	// after folding; the error is a *LimitError (a *CountError for Vercel's
	// routes). Code problem.HeaderTooManyRules.
	ErrTooManyRules error = problem.New(problem.HeaderTooManyRules, problem.Position{}, "too many _headers rules")
	// ErrUnclosed: a "# robotsmith: begin" line with no "# robotsmith: end"
	// after it; the error is a *MarkerError.
	ErrUnclosed = markers.ErrUnclosed
)

// MarkerError is a begin marker without an end marker: Merge cannot tell
// where robotsmith's block ends and the user's rules begin, so it refuses
// rather than replace everything after the marker. Its File is the file as
// the caller names it ("public/_headers"); Merge sets "_headers". It is the
// error robots.txt's block gives too (internal/markers).
type MarkerError = markers.Error

// PathError is a problem with one file's path or lines.
type PathError struct {
	File string // the file being written ("vercel.json"); "" is _headers
	Path string // the File's Path
	Msg  string // what is wrong, for a person
	Err  error  // ErrPath, ErrLines or ErrCaseConflict
	// Code is what the problem is; 0 takes Err's (problem.HeaderPathUnwritable, ...).
	Code problem.Code
}

func (e *PathError) Error() string { return e.file() + ": " + e.Path + ": " + e.Msg }

// file is the file being written, as messages name it.
func (e *PathError) file() string {
	if e.File == "" {
		return "_headers"
	}
	return e.File
}

// Unwrap returns the sentinel error.
func (e *PathError) Unwrap() error { return e.Err }

// Problem is the error as a problem.Problem about the file being written; its Error() is Error().
func (e *PathError) Problem() problem.Problem {
	return problem.Wrapping(e.Code, problem.Position{File: e.file()}, e.Path+": "+e.Msg, nil, e.Err)
}

// FolderCost is a folder whose files do not share one decision, with the
// number of rules its files need; a config rule giving the whole folder one
// decision would fold them into a single `/folder/*` rule.
type FolderCost struct {
	Folder string // "/photos/2024/"
	Rules  int
}

// LimitError says that Cloudflare's limit of 100 rules cannot be met.
type LimitError struct {
	File    string       // the file as messages name it ("public/_headers"); "" is _headers
	Needed  int          // rules the file would need: preview rule + the user's + robotsmith's after folding
	Limit   int          // 100
	User    int          // the user's own rules outside robotsmith's block
	Usage   int          // 1 when robotsmith's Content-Usage rule for /* is written, else 0
	Folders []FolderCost // folders to give one decision, enough to meet the limit where possible
}

func (e *LimitError) Error() string { return e.file() + ": " + e.msg() }

// file is the file, as messages name it.
func (e *LimitError) file() string {
	if e.File == "" {
		return "_headers"
	}
	return e.File
}

// Problem is the error as a problem.Problem of code problem.HeaderTooManyRules about the file; its
// Error() is Error().
func (e *LimitError) Problem() problem.Problem {
	return *problem.New(problem.HeaderTooManyRules, problem.Position{File: e.file()}, e.msg())
}

// msg is the message without the file.
func (e *LimitError) msg() string {
	var b strings.Builder
	usage := ""
	if e.Usage > 0 {
		usage = "1 Content-Usage rule, "
	}
	fmt.Fprintf(&b, "cloudflare allows %d rules, this site needs %d even after folding (1 preview rule, %s%d of your own, %d for files)",
		e.Limit, e.Needed, usage, e.User, e.Needed-1-e.Usage-e.User)
	if len(e.Folders) > 0 {
		b.WriteString("; give these folders one decision with a rule in the config so each folds into one /folder/* rule:")
		for i, f := range e.Folders {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %s (now %d rules)", f.Folder, f.Rules)
		}
	} else {
		b.WriteString("; files at the site root cannot be folded: give them one decision or fewer of your own rules")
	}
	return b.String()
}

// Unwrap returns ErrTooManyRules.
func (e *LimitError) Unwrap() error { return ErrTooManyRules }
