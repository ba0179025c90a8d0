package headers

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/robotsmith/robotsmith/internal/excerpt"
	"github.com/robotsmith/robotsmith/problem"
	"regexp"
	"strings"
)

// Caddy writes robotsmith's file for Caddy: directives that the site block imports (CaddyImport
// gives the line), one named matcher per decision and a header directive that adds its
// X-Robots-Tag lines:
//
//	@robotsmith_1 path_regexp "^(?:/files/a b\.pdf|/files/report\.pdf)$"
//	header @robotsmith_1 {
//		+X-Robots-Tag "noindex"
//		+X-Robots-Tag "googlebot: nosnippet"
//	}
//
// path_regexp compares the request's path decoded and cleaned, case-sensitively; Caddy's path
// matcher would compare it case-insensitively (and reads *, ? and [ as patterns), so two files
// that differ in case could not get different lines. The file holds directives rather than a
// (snippet): a snippet is defined at the top level of the Caddyfile and imported again in the
// site block, two lines where one does.
//
// The part of the file between robotsmith's markers is replaced on every build; lines of the
// owner's outside it are kept.
func Caddy(files Files, opt Options) (Result, error) {
	paths, ds, errs := hostPaths(files, CaddyFile, false, nil)
	usage, err := usageValue(opt, CaddyFile, "/")
	if err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, checkValues(paths, ds, files, CaddyFile, usage, caddyValueProblem)...)
	errs = append(errs, checkSelf(opt.Self, CaddyFile)...)
	if len(errs) > 0 {
		return Result{}, errors.Join(errs...)
	}
	var b bytes.Buffer
	b.WriteString(BeginMarker + "\n")
	b.WriteString(`# Written by robotsmith on every build; edit the rules in its config, not here.
# Import this file inside your site block (import /path/to/` + CaddyFile + `).
# Caddy runs header directives that have a matcher before those that have none: a header
# directive of yours that sets X-Robots-Tag for every path runs later and replaces these lines.
`)
	if opt.Self != "" {
		b.WriteString("@robotsmith_self path_regexp " + caddyQuoteMust("^"+caddyRegexp(opt.Self)+"$") + "\n")
		b.WriteString("respond @robotsmith_self 404\n")
	}
	if usage != "" {
		b.WriteString("header " + usageHeader + " " + caddyQuoteMust(usage) + "\n")
	}
	n := 0
	for _, g := range groupsOf(paths) {
		items := make([]string, 0, len(g.paths))
		for _, p := range g.paths {
			if p != opt.Self {
				items = append(items, caddyRegexp(p))
			}
		}
		for _, run := range chunks(items, 1, caddyMaxRegexp) {
			n++
			name := fmt.Sprintf("@robotsmith_%d", n)
			b.WriteString(name + " path_regexp " + caddyQuoteMust("^(?:"+strings.Join(run, "|")+")$") + "\n")
			b.WriteString("header " + name + " {\n")
			for _, l := range ds.lines[g.set] {
				b.WriteString("\t+" + headerName + " " + caddyQuoteMust(l.String()) + "\n")
			}
			b.WriteString("}\n")
		}
	}
	b.WriteString(EndMarker + "\n")
	out, err := mergeMarked(opt.Existing, b.Bytes(), CaddyFile)
	if err != nil {
		return Result{}, err
	}
	return Result{Data: out, Findings: secondBlocks(opt.Existing, CaddyFile)}, nil
}

// caddyMaxRegexp bounds the alternatives of one matcher, so that a site of many files gets
// several matchers of a size Go's regexp compiles quickly.
const caddyMaxRegexp = 4 << 10

// caddyRegexp is p as a regular expression that matches exactly p. '"' and '`' are written as
// hex escapes, so that the expression can always be double-quoted in the Caddyfile; QuoteMeta
// escapes '{' and '$', so the expression never holds "{$" (an environment variable that Caddy
// substitutes anywhere in the file) nor a placeholder.
func caddyRegexp(p string) string {
	return caddyQuotes.Replace(regexp.QuoteMeta(p))
}

var caddyQuotes = strings.NewReplacer(`"`, `\x22`, "`", `\x60`)

// CaddyImport is the line the owner adds inside the site block to import the file at path
// (absolute, as Caddy sees it). A path Caddy would read as a glob or a placeholder is refused.
func CaddyImport(path string) (string, error) {
	if strings.ContainsAny(path, "*?[{}") {
		return "", problem.Newf(problem.IncludePathInvalid, problem.Position{}, "%s: Caddy reads *, ?, [ and braces in an import as a pattern or a placeholder; give a path without them", excerpt.Quote(path))
	}
	q, ok := caddyQuote(path)
	if !ok {
		return "", problem.Newf(problem.IncludePathInvalid, problem.Position{}, "%s: Caddy cannot quote a path that holds both '\"' and '`'", excerpt.Quote(path))
	}
	return "import " + q, nil
}

// caddyQuote writes s as one Caddyfile token. Inside double quotes Caddy reads \" as '"' and keeps
// every other backslash; inside backquotes it keeps everything. ok is false when s holds both a
// double quote or backslash, and a backquote.
func caddyQuote(s string) (q string, ok bool) {
	if !strings.ContainsAny(s, "\"\\") {
		return `"` + s + `"`, true
	}
	if !strings.Contains(s, "`") {
		return "`" + s + "`", true
	}
	return "", false
}

// caddyQuoteMust is caddyQuote for strings that caddyValueProblem or caddyRegexp let through.
func caddyQuoteMust(s string) string {
	q, ok := caddyQuote(s)
	if !ok {
		panic("headers: caddyQuote of an unchecked string")
	}
	return q
}

// caddyValueProblem: Caddy replaces {placeholders} in a header value and {$VARIABLES} anywhere,
// and cannot quote a value with both kinds of quote.
func caddyValueProblem(v string) string {
	if strings.ContainsAny(v, "{}") {
		return "holds a brace, which Caddy reads as a placeholder"
	}
	if _, ok := caddyQuote(v); !ok {
		return "holds both '\"' (or '\\') and '`', which Caddy cannot quote together"
	}
	return ""
}
