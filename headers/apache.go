package headers

import (
	"bytes"
	"errors"
	"regexp"
	"sort"
	"strings"

	"github.com/robotsmith/robotsmith/internal/markers"
	"github.com/robotsmith/robotsmith/problem"
)

// Apache writes robotsmith's block of the output's .htaccess, which Apache reads for every request
// below the folder where AllowOverride allows FileInfo (or All), with mod_headers enabled. Per
// decision, one <If> compares the request's path with a list of paths:
//
//	<If "%{REQUEST_URI} in { '/files/a b.pdf', '/files/report.pdf' }">
//	  Header unset X-Robots-Tag
//	  Header always set X-Robots-Tag "noindex"
//	  Header always add X-Robots-Tag "googlebot: nosnippet"
//	</If>
//
// REQUEST_URI is the path decoded and with dot segments resolved, compared case-sensitively, so
// the list holds paths as served. <Files> is not used: it matches a base name in every folder
// below. mod_headers keeps two tables, the one `Header set` fills (sent with 2xx answers) and the
// one `Header always set` fills (sent with every answer): a value in each is sent twice. So each
// <If> empties the first and sets the second, and a file robotsmith covers carries its lines
// only, whatever other Header lines set; Apache applies <If> sections after the rest of the file.
//
// The block sits between robotsmith's markers; every other line of .htaccess is kept. Lines of
// the user's that set X-Robots-Tag (or Content-Usage, when robotsmith sends it) are findings.
func Apache(files Files, opt Options) (Result, error) {
	paths, ds, errs := hostPaths(files, ApacheFile, false, func(p string) string {
		if len(apacheItem(p)) > apacheMaxList {
			return "is too long for a line of .htaccess (Apache reads at most 8,191 bytes a line there)"
		}
		return ""
	})
	usage, err := usageValue(opt, ApacheFile, "/")
	if err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, checkValues(paths, ds, files, ApacheFile, usage, apacheValueProblem)...)
	if len(errs) > 0 {
		return Result{}, errors.Join(errs...)
	}
	var b bytes.Buffer
	b.WriteString(BeginMarker + "\n")
	b.WriteString(`# Written by robotsmith on every build; edit the rules in its config, not here.
# Apache reads it where AllowOverride allows FileInfo (or All) for this folder, and needs
# mod_headers (a2enmod headers): without it, Apache answers 500 for every path below.
`)
	if usage != "" {
		b.WriteString("Header unset " + usageHeader + "\n")
		b.WriteString("Header always set " + usageHeader + " " + apacheValue(usage) + "\n")
	}
	for _, g := range groupsOf(paths) {
		items := make([]string, len(g.paths))
		for i, p := range g.paths {
			items[i] = apacheItem(p)
		}
		// One expression over several lines (a line that ends in '\' goes on in the next),
		// which Apache joins into one line of at most 8,191 bytes.
		for _, run := range chunks(items, len("    ,  "), apacheMaxList) {
			b.WriteString(`<If "%{REQUEST_URI} in { \` + "\n")
			for i, it := range run {
				sep := ","
				if i == len(run)-1 {
					sep = ""
				}
				b.WriteString("    " + it + sep + " \\\n")
			}
			b.WriteString("  }\">\n")
			b.WriteString("  Header unset " + headerName + "\n")
			for i, l := range ds.lines[g.set] {
				verb := "add"
				if i == 0 {
					verb = "set"
				}
				b.WriteString("  Header always " + verb + " " + headerName + " " + apacheValue(l.String()) + "\n")
			}
			b.WriteString("</If>\n")
		}
	}
	b.WriteString(EndMarker + "\n")
	out, err := mergeMarked(opt.Existing, b.Bytes(), ApacheFile)
	if err != nil {
		return Result{}, err
	}
	return Result{Data: out, Findings: lintApache(opt.Existing, usage != "")}, nil
}

const (
	// apacheMaxLine is the longest line Apache reads in .htaccess: HUGE_STRING_LEN (8,192 bytes)
	// with its end, the lines a trailing '\' continues joined into one (server/config.c, "lower
	// limit for .htaccess"). A string of its expressions holds at most 8,190 bytes, less.
	apacheMaxLine = 8191
	// apacheMaxList bounds the paths of one <If>: the joined line, less its beginning
	// (<If "%{REQUEST_URI} in { ) and end (}">).
	apacheMaxList = apacheMaxLine - 64
)

// apacheItem is p as it stands in an <If>'s list: an expression string, escaped for the
// directive's double-quoted argument.
func apacheItem(p string) string { return apacheConfEscape(apacheExprString(p)) }

// apacheExprString writes p as a single-quoted string of Apache's expression language, where '\'
// escapes the next character, %{ starts a variable and $1 a back-reference; '{' and '}' are
// escaped too, so that the line never holds "${", which Apache reads as a variable of its
// configuration.
func apacheExprString(p string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\', '\'', '%', '$', '{', '}':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// apacheConfEscape writes s for a double-quoted argument of an Apache directive, where \" and \\
// stand for the character.
func apacheConfEscape(s string) string {
	return backslashQuote.Replace(s)
}

// apacheValue writes a header value for mod_headers, which reads %% as '%' (and %x as a format)
// and \\ as '\' (and \n, \t as control characters), quoted as a directive's argument.
func apacheValue(v string) string {
	return `"` + apacheConfEscape(apacheFormat.Replace(v)) + `"`
}

// apacheFormat escapes what mod_headers reads in a value: '\' and '%'.
var apacheFormat = strings.NewReplacer(`\`, `\\`, `%`, `%%`)

// apacheValueProblem: mod_headers reads a value that begins with expr= as an expression, and
// Apache reads at most apacheMaxLine bytes a line of .htaccess.
func apacheValueProblem(v string) string {
	if strings.HasPrefix(strings.ToLower(v), "expr=") {
		return "begins with expr=, which mod_headers reads as an expression"
	}
	if len("  Header always set "+usageHeader+" "+apacheValue(v)) >= apacheMaxLine {
		return "is too long for a line of .htaccess (Apache reads at most 8,191 bytes a line there)"
	}
	return ""
}

// apacheHeaderLine finds mod_headers lines that act on a header: Header [always|onsuccess]
// action name ...
var apacheHeaderLine = regexp.MustCompile(`(?i)^\s*Header\s+(?:(?:always|onsuccess)\s+)?(?:set|setifempty|append|merge|add|unset|edit\*?|echo|note)\s+"?([A-Za-z0-9_-]+)"?(?:\s|$)`)

// lintApache reports the lines outside robotsmith's block that act on X-Robots-Tag, or on
// Content-Usage when robotsmith sends it, and every robotsmith block after the first.
func lintApache(existing []byte, usage bool) []Finding {
	out := secondBlocks(existing, ApacheFile)
	blocks := markers.Find(existing)
	for n, off := 1, 0; off < len(existing); n++ {
		start := off
		line := existing[off:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		off += len(line) + 1
		inBlock := false
		for _, s := range blocks {
			inBlock = inBlock || s.Contains(start)
		}
		m := apacheHeaderLine.FindSubmatch(line)
		if inBlock || m == nil {
			continue
		}
		switch {
		case strings.EqualFold(string(m[1]), headerName):
			out = append(out, Finding{File: ApacheFile, Line: n, Code: problem.HeaderRuleOverlaps, Msg: "a Header line of your own acts on X-Robots-Tag; for the files robotsmith covers, its block removes that value and sends its own (an <If> of yours after the block runs later, and its value is sent too)"})
		case usage && strings.EqualFold(string(m[1]), usageHeader):
			out = append(out, Finding{File: ApacheFile, Line: n, Code: problem.ContentUsageOverlaps, Msg: "a Header line of your own acts on Content-Usage, which robotsmith sends for every path from the ai policy in its config; Apache may send both values"})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}
