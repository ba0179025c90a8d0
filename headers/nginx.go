package headers

import (
	"bytes"
	"errors"
	"github.com/robotsmith/robotsmith/internal/excerpt"
	"github.com/robotsmith/robotsmith/problem"
	"strings"
)

// Nginx writes robotsmith's file for nginx: one exact location (`location = /path`) per path
// with its add_header lines, which the site's server { } block includes (NginxInclude gives the
// line). nginx matches a location against the request's path decoded and with dot segments
// resolved, case-sensitively, so each location names the path as served; an exact location
// takes precedence over every other location, so each file gets exactly robotsmith's lines.
//
// The part of the file between robotsmith's markers is replaced on every build, and lines of
// the owner's outside it are kept (Options.Existing is the file as it is).
//
// nginx sends a location's own add_header lines only: in robotsmith's locations, the add_header
// lines of the server { } block are not sent. The file's comment and docs/internals/hosts.md say
// how to keep them (add_header_inherit merge on nginx 1.29.3 and later, else Options.NginxInclude).
func Nginx(files Files, opt Options) (Result, error) {
	paths, ds, errs := hostPaths(files, NginxFile, false, nil)
	usage, err := usageValue(opt, NginxFile, "/")
	if err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, checkValues(paths, ds, files, NginxFile, usage, nginxValueProblem)...)
	errs = append(errs, checkSelf(opt.Self, NginxFile)...)
	if opt.NginxInclude != "" {
		if _, err := NginxInclude(opt.NginxInclude); err != nil {
			errs = append(errs, problem.Newf(problem.IncludePathInvalid, problem.Position{File: NginxFile}, "the file of add_header lines %v", err))
		}
	}
	if len(errs) > 0 {
		return Result{}, errors.Join(errs...)
	}
	var b bytes.Buffer
	b.WriteString(BeginMarker + "\n")
	b.WriteString(`# Written by robotsmith on every build; edit the rules in its config, not here.
# Include this file inside your server { } block (include /path/to/` + NginxFile + `;).
# Each location below is an exact match, which nginx prefers to your own locations for that
# path: set root (and what every file needs) in the server block, not in a location.
# nginx sends a location's own add_header lines only, so the add_header lines of your server
# block are not sent for these paths: on nginx 1.29.3 or later, add "add_header_inherit merge;"
# to your server block; before that, keep them in a file that robotsmith's config names, and
# every location below includes it.
`)
	if usage != "" {
		b.WriteString("add_header " + usageHeader + " " + nginxQuote(usage) + " always;\n")
	}
	if opt.Self != "" {
		b.WriteString("location = " + nginxQuote(opt.Self) + " {\n    return 404;\n}\n")
	}
	for _, s := range paths {
		if s.path == opt.Self {
			continue // never served: answered with 404 above
		}
		b.WriteString("location = " + nginxQuote(s.path) + " {\n")
		for _, l := range ds.lines[s.set] {
			b.WriteString("    add_header " + headerName + " " + nginxQuote(l.String()) + " always;\n")
		}
		if usage != "" {
			b.WriteString("    add_header " + usageHeader + " " + nginxQuote(usage) + " always;\n")
		}
		if opt.NginxInclude != "" {
			b.WriteString("    include " + nginxQuote(opt.NginxInclude) + ";\n")
		}
		b.WriteString("}\n")
	}
	b.WriteString(EndMarker + "\n")
	out, err := mergeMarked(opt.Existing, b.Bytes(), NginxFile)
	if err != nil {
		return Result{}, err
	}
	return Result{Data: out, Findings: secondBlocks(opt.Existing, NginxFile)}, nil
}

// NginxInclude is the line the owner adds inside the server { } block to include the file at
// path (absolute, as the server sees it). A path with a glob character is refused: nginx would
// include the files it matches, and none when it matches nothing, silently.
func NginxInclude(path string) (string, error) {
	if strings.ContainsAny(path, "*?[") {
		return "", problem.Newf(problem.IncludePathInvalid, problem.Position{}, "%s: nginx reads *, ? and [ in an include as a pattern; give a path without them", excerpt.Quote(path))
	}
	return "include " + nginxQuote(path) + ";", nil
}

// nginxQuote writes s as one double-quoted nginx token: inside quotes nginx reads \" and \\ as
// the character, and keeps every other character (';', '{', '#', spaces) as it is.
func nginxQuote(s string) string {
	return `"` + backslashQuote.Replace(s) + `"`
}

// backslashQuote escapes '\' and '"' with a backslash (nginx's and Apache's quoted arguments).
var backslashQuote = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// nginxValueProblem: add_header reads '$' as the start of a variable, and nginx has no escape
// for it.
func nginxValueProblem(v string) string {
	if strings.Contains(v, "$") {
		return "holds '$', which nginx reads as a variable in add_header"
	}
	return ""
}
