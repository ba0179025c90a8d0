package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/frontmatter"
)

func TestPlural(t *testing.T) {
	tests := []struct {
		n    int
		noun string
		want string
	}{
		{0, "file", "0 files"},
		{1, "file", "1 file"},
		{2, "file", "2 files"},
		{1, "error page", "1 error page"},
		{19, "redirect", "19 redirects"},
	}
	for _, tc := range tests {
		if got := Plural(tc.n, tc.noun); got != tc.want {
			t.Errorf("Plural(%d, %q): got %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}

// TestSummary is the table of summaries: plurals right, counts instead of lists, lists with -v.
func TestSummary(t *testing.T) {
	one := &Report{
		Pages: 1, Public: 1, Files: 1, HeaderRules: 1, ErrorPages: 1, Redirects: 1, Skipped: 1,
		Changed: 1, ChangedFiles: []string{"index.html"},
		NoOutput: 1, Unpublished: []string{"content/wip.md (draft)"},
		Warnings: []string{"content/a.md:3: front matter robots: obsolete directive \"noodp\"; dropped"},
		Findings: []string{"public/_headers:4: /x.pdf: sets X-Robots-Tag"},
	}
	many := &Report{Pages: 3, Public: 2, NoIndex: 1, Files: 2, Changed: 2, ChangedFiles: []string{"a.html", "b.html"}}
	for i := range 25 {
		many.Warnings = append(many.Warnings, fmt.Sprintf("content/p%d.md:2: unknown directive \"x\"; dropped", i))
	}
	tests := []struct {
		desc           string
		rep            *Report
		write, verbose bool
		want           string
	}{
		{"one of each, check", one, false, false, `1 page: 1 public, 0 noindex, 1 error page, 1 redirect; 1 .html file not HTML (left alone)
1 other file, 1 with an X-Robots-Tag rule in _headers
would change 1 file
1 source page not published by the generator (drafts, future, expired, render: never); -v lists them
1 warning:
content/a.md:3: front matter robots: obsolete directive "noodp"; dropped
1 finding:
public/_headers:4: /x.pdf: sets X-Robots-Tag
`},
		{"one of each, build -v", one, true, true, `1 page: 1 public, 0 noindex, 1 error page, 1 redirect; 1 .html file not HTML (left alone)
1 other file, 1 with an X-Robots-Tag rule in _headers
changed 1 file
  index.html
1 source page not published by the generator (drafts, future, expired, render: never):
  content/wip.md (draft)
1 warning:
content/a.md:3: front matter robots: obsolete directive "noodp"; dropped
1 finding:
public/_headers:4: /x.pdf: sets X-Robots-Tag
`},
		{"nothing", &Report{}, true, false, `0 pages: 0 public, 0 noindex, 0 error pages, 0 redirects
0 other files, 0 with an X-Robots-Tag rule in _headers
changed 0 files
`},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if got := tc.rep.Summary(tc.write, tc.verbose); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
	t.Run("many warnings", func(t *testing.T) {
		got := many.Summary(true, false)
		if strings.Count(got, "unknown directive") != maxShown || !strings.Contains(got, "... and 5 more (-v or --json lists them all)\n") {
			t.Errorf("25 warnings without -v: want %d listed and the rest counted:\n%s", maxShown, got)
		}
		if strings.Contains(got, "a.html") {
			t.Errorf("changed files listed without -v:\n%s", got)
		}
		if got := many.Summary(true, true); strings.Count(got, "unknown directive") != 25 {
			t.Errorf("-v does not list every warning:\n%s", got)
		}
	})
}

// TestParseMessage is the table of places read from messages (SPEC §1's form, file:line: msg).
func TestParseMessage(t *testing.T) {
	tests := []struct {
		text            string
		file            string
		line, col       int
		message         string
		severityWarning bool
	}{
		{"content/blog/a.md:3: front matter: bad", "content/blog/a.md", 3, 0, "front matter: bad", false},
		{"a.md:3:14: bad", "a.md", 3, 14, "bad", false},
		{"content/blog/Seasonal Offer.md:7: x: y", "content/blog/Seasonal Offer.md", 7, 0, "x: y", false},
		{"content/x.md: no output found (expected public/x/index.html)", "content/x.md", 0, 0, "no output found (expected public/x/index.html)", false},
		{"public/_headers:4: /x.pdf: sets X-Robots-Tag", "public/_headers", 4, 0, "/x.pdf: sets X-Robots-Tag", false},
		{"command failed: hugo --minify: exit status 1", "", 0, 0, "command failed: hugo --minify: exit status 1", false},
		{"rewrite: read: EOF", "", 0, 0, "rewrite: read: EOF", false},
		{"environment CONTEXT=deploy-preview: noindex", "", 0, 0, "environment CONTEXT=deploy-preview: noindex", true},
		{"no place at all", "", 0, 0, "no place at all", true},
		{"robotsmith.yaml:12: unknown key \"x\"", "robotsmith.yaml", 12, 0, "unknown key \"x\"", true},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			sev := SeverityError
			if tc.severityWarning {
				sev = SeverityWarning
			}
			got := ParseMessage(sev, tc.text)
			want := Message{File: tc.file, Line: tc.line, Col: tc.col, Severity: sev, Message: tc.message, Text: tc.text}
			if got != want {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}

// TestErrorMessages: every error that errors.Join put together is one message, typed errors keep
// their place, and an unknown explain path is not taken for a file.
func TestErrorMessages(t *testing.T) {
	err := errors.Join(
		&config.Error{File: "site/robotsmith.yaml", Line: 7, Err: errors.New(`unknown key "sitemaps"`)},
		&frontmatter.Error{File: "content/a.md", Line: 3, Col: 9, Err: errors.New("bad")},
		fmt.Errorf("/no/such/: %w site/public", ErrUnknownPath),
		errors.New("first line\nsecond line"),
	)
	got := ErrorMessages(err)
	want := []Message{
		{File: "site/robotsmith.yaml", Line: 7, Severity: SeverityError, Message: `unknown key "sitemaps"`, Text: `site/robotsmith.yaml:7: unknown key "sitemaps"`},
		{File: "content/a.md", Line: 3, Col: 9, Severity: SeverityError, Message: "bad", Text: "content/a.md:3:9: bad"},
		{Severity: SeverityError, Message: "/no/such/: not in the output site/public", Text: "/no/such/: not in the output site/public"},
		{Severity: SeverityError, Message: "first line", Text: "first line"},
		{Severity: SeverityError, Message: "second line", Text: "second line"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d messages, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d:\ngot  %+v\nwant %+v", i, got[i], want[i])
		}
	}
	if got := ErrorMessages(nil); len(got) != 0 {
		t.Errorf("ErrorMessages(nil): got %+v", got)
	}
}

// TestDocumentNoNull: lists left nil in the Report and the explanations are written as [], never
// null, and the Report is not changed by it.
func TestDocumentNoNull(t *testing.T) {
	rep := &Report{Site: "s"}
	b, err := json.Marshal(Document{Command: "check", Report: rep})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "null") {
		t.Errorf("null in %s", b)
	}
	for _, f := range []string{`"changed_files":[]`, `"unpublished":[]`, `"errors":[]`, `"warnings":[]`, `"findings":[]`} {
		if !strings.Contains(string(b), f) {
			t.Errorf("%s lacks %s", b, f)
		}
	}
	if rep.ChangedFiles != nil {
		t.Errorf("marshalling changed the report: %+v", rep)
	}
	b, err = json.Marshal(ExplainDocument{Command: "explain", Paths: []Explanation{{Agents: []Agent{{Name: "robots"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "null") || !strings.Contains(string(b), `"values":[]`) || !strings.Contains(string(b), `"x_robots_tag":[]`) {
		t.Errorf("explain document: %s", b)
	}
	b, err = json.Marshal(Document{Command: "build"}) // stopped before the site was read
	if err != nil || strings.Contains(string(b), "null") {
		t.Errorf("document without a report: %s, %v", b, err)
	}
}

func ExampleParseMessage() {
	m := ParseMessage(SeverityError, `content/blog/a.md:3: front matter robots: "max-snippet:abc": malformed directive`)
	fmt.Printf("%s, line %d: %s\n", m.File, m.Line, m.Message)
	// Output: content/blog/a.md, line 3: front matter robots: "max-snippet:abc": malformed directive
}

func ExampleReport_Summary() {
	rep := &Report{Pages: 3, Public: 2, NoIndex: 1, Files: 1, HeaderRules: 1, Changed: 1, ChangedFiles: []string{"index.html"}}
	fmt.Print(rep.Summary(true, false))
	// Output:
	// 3 pages: 2 public, 1 noindex, 0 error pages, 0 redirects
	// 1 other file, 1 with an X-Robots-Tag rule in _headers
	// changed 1 file
}
