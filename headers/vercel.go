package headers

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/robotsmith/robotsmith/problem"
)

// Vercel's limits (vercel.com/docs/limits, "Routes created per Deployment"; the vercel.json
// schema in @vercel/routing-utils schemas.ts).
const (
	// VercelMaxRoutes is Vercel's limit on the routes of one deployment, which headers,
	// redirects and rewrites all count toward.
	VercelMaxRoutes = 2048
	// VercelMaxSource is the longest source a header rule may have.
	VercelMaxSource = 4096
	// vercelMaxValue is the longest header value.
	vercelMaxValue = 32768
)

// hostEntry is an entry of a JSON host's header list: vercel.json's {source, headers} or
// firebase.json's {regex, headers}.
type hostEntry struct {
	Source  string     `json:"source,omitempty"`
	Regex   string     `json:"regex,omitempty"`
	Headers []hostPair `json:"headers"`
}

type hostPair struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Vercel writes robotsmith's entries of the `headers` list of vercel.json (Options.Existing; nil
// or empty makes a new file). Vercel compiles each source with path-to-regexp 6.1.0 (strict and
// case-sensitive) and applies every entry that matches, in order, a later value of a header
// replacing an earlier one. Per decision, one entry matches its files' paths with one unnamed
// parameter of alternatives:
//
//	{"source": "/(files/report\\.pdf|files/a(?: |%20)b\\.pdf)", "headers": [{"key": "X-Robots-Tag", "value": "noindex"}]}
//
// so that a site's entries stay far below Vercel's 2,048 routes; each alternative is the path,
// with every character that a client may percent-encode matched either way (eitherForm). An
// entry holds one value per header, so the decision's lines are joined with ", ", the generic
// line first, as Netlify and Cloudflare join repeated lines.
//
// robotsmith's entries replace the ones it wrote last time, which Options.Record lists (Result.
// Record is the next one), in place of the first of them, or at the end of the list; the user's
// entries and every other byte of the file are kept. The user's entries that also set
// X-Robots-Tag for a file robotsmith covers (or Content-Usage, when robotsmith sends it) are
// findings.
func Vercel(files Files, opt Options) (Result, error) {
	paths, ds, errs := hostPaths(files, VercelFile, true, func(p string) string {
		if n := len(vercelSourceOf([]string{eitherForm(p[1:])})); n > VercelMaxSource {
			return fmt.Sprintf("needs a source of %d characters, vercel allows %d", n, VercelMaxSource)
		}
		return ""
	})
	usage, err := usageValue(opt, VercelFile, "/")
	if err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, checkValues(paths, ds, files, VercelFile, usage, func(v string) string {
		if len(v) > vercelMaxValue {
			return fmt.Sprintf("has %d characters, vercel allows %d", len(v), vercelMaxValue)
		}
		return ""
	})...)
	if len(errs) > 0 {
		return Result{}, errors.Join(errs...)
	}
	var entries []any
	if usage != "" {
		entries = append(entries, hostEntry{Source: "/(.*)", Headers: []hostPair{{usageHeader, usage}}})
	}
	for _, g := range groupsOf(paths) {
		items := make([]string, len(g.paths))
		for i, p := range g.paths {
			items[i] = eitherForm(p[1:])
		}
		value := joinLines(ds.lines[g.set])
		if len(value) > vercelMaxValue {
			return Result{}, &PathError{File: VercelFile, Path: g.paths[0], Err: ErrLines,
				Msg: fmt.Sprintf("the X-Robots-Tag lines joined have %d characters, vercel allows %d", len(value), vercelMaxValue)}
		}
		for _, run := range chunks(items, 1, VercelMaxSource-len("/()")) {
			entries = append(entries, hostEntry{Source: vercelSourceOf(run), Headers: []hostPair{{headerName, value}}})
		}
	}
	existing := opt.Existing
	if len(bytes.TrimSpace(existing)) == 0 {
		existing = []byte("{\n}\n")
		if len(entries) == 0 {
			return Result{Data: opt.Existing, Record: makeRecord(VercelFile, nil)}, nil
		}
	}
	root, err := readJSON(existing, VercelFile)
	if err != nil {
		return Result{}, err
	}
	if m := root.member("routes"); m != nil && len(entries) > 0 {
		return Result{}, problem.New(problem.HostRoutesConflict, problem.Position{File: VercelFile, Line: lineOf(existing, m.keyStart)},
			"the file has routes, and Vercel does not allow headers beside them: move the routes to rewrites and redirects, or leave vercel out of robotsmith's formats")
	}
	var arr *jsonValue
	if m := root.member("headers"); m != nil {
		if m.val.kind != '[' {
			return Result{}, problem.New(problem.HostFileInvalid, problem.Position{File: VercelFile, Line: lineOf(existing, m.keyStart)}, "headers is not a list")
		}
		arr = m.val
	}
	now := hashesOf(entries)
	mine, findings := owned(existing, arr, opt.Record, now, VercelFile)
	routes := len(entries)
	for i := range mine {
		if !mine[i] {
			routes++
		}
	}
	for _, name := range []string{"redirects", "rewrites"} {
		if m := root.member(name); m != nil && m.val.kind == '[' {
			routes += len(m.val.elems)
		}
	}
	if routes > VercelMaxRoutes {
		return Result{}, &CountError{File: VercelFile, Needed: routes, Limit: VercelMaxRoutes, Own: len(entries)}
	}
	out := replaceEntries(existing, root, "headers", mine, entries)
	if opt.Existing == nil || len(bytes.TrimSpace(opt.Existing)) == 0 {
		out = append(bytes.TrimRight(out, "\n"), '\n')
	}
	findings = append(findings, lintJSONEntries(existing, arr, mine, paths, usage != "", VercelFile, vercelMatcher)...)
	return Result{Data: out, Record: makeRecord(VercelFile, now), Findings: findings}, nil
}

// vercelSourceOf is the source that matches any of the alternatives (paths without their leading
// '/', as patterns): one unnamed parameter after the '/', which path-to-regexp writes as
// ^(?:\/(alternatives))$. Its groups are all (?:...): path-to-regexp refuses capturing groups
// inside a parameter.
func vercelSourceOf(alts []string) string {
	return "/(" + strings.Join(alts, "|") + ")"
}

// CountError says that a host's limit on rules cannot be met.
type CountError struct {
	File   string // the host's file
	Needed int    // the rules the file would have
	Limit  int
	Own    int // robotsmith's share of Needed
}

func (e *CountError) Error() string { return e.File + ": " + e.msg() }

// msg is the message without the file.
func (e *CountError) msg() string {
	return fmt.Sprintf("the host allows %d routes, this site needs %d (%d of robotsmith's, one per decision and Content-Usage, %d of your own headers, redirects and rewrites)",
		e.Limit, e.Needed, e.Own, e.Needed-e.Own)
}

// Problem is the error as a problem.Problem of code problem.HeaderTooManyRules about the host's
// file; its Error() is Error().
func (e *CountError) Problem() problem.Problem {
	return *problem.New(problem.HeaderTooManyRules, problem.Position{File: e.File}, e.msg())
}

// Unwrap returns ErrTooManyRules.
func (e *CountError) Unwrap() error { return ErrTooManyRules }
