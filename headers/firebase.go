package headers

import (
	"errors"
	"fmt"
	"github.com/robotsmith/robotsmith/internal/excerpt"
	"github.com/robotsmith/robotsmith/problem"
	"strings"
)

// firebaseMaxRegex bounds one entry's expression, as Vercel's 4,096 characters do its sources:
// Firebase documents no limit, and RE2 refuses a program past its memory budget.
const firebaseMaxRegex = 4096

// Firebase writes robotsmith's entries of the `headers` list of firebase.json's hosting
// (Options.Existing, which must exist: it names the site's public folder, which robotsmith does
// not know; Options.Site picks the site when hosting lists several). Firebase applies every
// entry whose pattern matches the request's path, in order, a later value of a header replacing
// an earlier one. Per decision, one entry matches its files with an RE2 expression (the regex
// form, which Firebase takes instead of a glob):
//
//	{"regex": "^(?:/files/report\\.pdf|/files/a(?: |%20)b\\.pdf)$", "headers": [{"key": "X-Robots-Tag", "value": "noindex"}]}
//
// Each alternative is the path with every character a client may percent-encode matched either
// way (eitherForm). A glob could not match every file name exactly: the Firebase emulator
// (superstatic's slasher) turns every backslash of a glob into '/', so a glob cannot escape '*',
// '?', '[' or '{'. The lines are
// joined as for Vercel, and the entries replace the ones Options.Record lists the same way.
func Firebase(files Files, opt Options) (Result, error) {
	paths, ds, errs := hostPaths(files, FirebaseFile, true, func(p string) string {
		if n := len(firebaseRegexOf([]string{eitherForm(p)})); n > firebaseMaxRegex {
			return fmt.Sprintf("needs an expression of %d characters, robotsmith writes at most %d", n, firebaseMaxRegex)
		}
		return ""
	})
	usage, err := usageValue(opt, FirebaseFile, "/")
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return Result{}, errors.Join(errs...)
	}
	var entries []any
	if usage != "" {
		entries = append(entries, hostEntry{Regex: "^/.*$", Headers: []hostPair{{usageHeader, usage}}})
	}
	for _, g := range groupsOf(paths) {
		items := make([]string, len(g.paths))
		for i, p := range g.paths {
			items[i] = eitherForm(p)
		}
		for _, run := range chunks(items, 1, firebaseMaxRegex-len("^(?:)$")) {
			entries = append(entries, hostEntry{Regex: firebaseRegexOf(run), Headers: []hostPair{{headerName, joinLines(ds.lines[g.set])}}})
		}
	}
	existing := opt.Existing
	if len(strings.TrimSpace(string(existing))) == 0 {
		return Result{}, problem.New(problem.HostFileMissing, problem.Position{File: FirebaseFile},
			"there is no firebase.json: robotsmith writes its headers into the one `firebase init` makes, which names the site's public folder")
	}
	root, err := readJSON(existing, FirebaseFile)
	if err != nil {
		return Result{}, err
	}
	site, err := firebaseSite(existing, root, opt.Site)
	if err != nil {
		return Result{}, err
	}
	var arr *jsonValue
	if m := site.member("headers"); m != nil {
		if m.val.kind != '[' {
			return Result{}, problem.New(problem.HostFileInvalid, problem.Position{File: FirebaseFile, Line: lineOf(existing, m.keyStart)}, "headers is not a list")
		}
		arr = m.val
	}
	now := hashesOf(entries)
	mine, findings := owned(existing, arr, opt.Record, now, FirebaseFile)
	out := replaceEntries(existing, site, "headers", mine, entries)
	findings = append(findings, lintJSONEntries(existing, arr, mine, paths, usage != "", FirebaseFile, firebaseMatcher)...)
	return Result{Data: out, Record: makeRecord(FirebaseFile, now), Findings: findings}, nil
}

// firebaseRegexOf is the expression that matches any of the alternatives (paths as patterns),
// anchored at both ends: the Firebase emulator looks for a match anywhere in the path.
func firebaseRegexOf(alts []string) string {
	return "^(?:" + strings.Join(alts, "|") + ")$"
}

// firebaseSite is the hosting object robotsmith writes into: hosting itself, or the entry of its
// list whose site or target is name (the only entry when there is one).
func firebaseSite(data []byte, root *jsonValue, name string) (*jsonValue, error) {
	h := root.member("hosting")
	if h == nil {
		return nil, problem.New(problem.HostFileMissing, problem.Position{File: FirebaseFile}, "there is no hosting: run `firebase init hosting` first")
	}
	switch h.val.kind {
	case '{':
		return h.val, nil
	case '[':
	default:
		return nil, problem.New(problem.HostFileInvalid, problem.Position{File: FirebaseFile, Line: lineOf(data, h.keyStart)}, "hosting is neither an object nor a list")
	}
	var names []string
	var found *jsonValue
	for _, e := range h.val.elems {
		if e.val.kind != '{' {
			continue
		}
		var n string
		for _, key := range []string{"site", "target"} {
			if m := e.val.member(key); m != nil && m.val.kind == '"' && n == "" {
				n = m.val.str
			}
		}
		names = append(names, n)
		if (name != "" && n == name) || (name == "" && len(h.val.elems) == 1) {
			found = e.val
		}
	}
	if found != nil {
		return found, nil
	}
	if name == "" {
		return nil, problem.Newf(problem.HostFileInvalid, problem.Position{File: FirebaseFile, Line: lineOf(data, h.keyStart)},
			"hosting lists %d sites (%s): name the one robotsmith writes to", len(names), strings.Join(names, ", "))
	}
	return nil, problem.Newf(problem.HostFileInvalid, problem.Position{File: FirebaseFile, Line: lineOf(data, h.keyStart)},
		"hosting has no site or target %s (it has %s)", excerpt.Quote(name), strings.Join(names, ", "))
}
