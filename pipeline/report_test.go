package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"

	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
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
		Warnings: []problem.Problem{*problem.New(problem.ObsoleteDirective, problem.Position{File: "content/a.md", Line: 3}, `front matter robots: obsolete directive "noodp"; dropped`)},
		Findings: []problem.Problem{*problem.New(problem.HeaderRuleOverlaps, problem.Position{File: "public/_headers", Line: 4}, "/x.pdf: sets X-Robots-Tag")},
	}
	many := &Report{Pages: 3, Public: 2, NoIndex: 1, Files: 2, Changed: 2, ChangedFiles: []string{"a.html", "b.html"}}
	for i := range 25 {
		many.Warnings = append(many.Warnings, *problem.New(problem.UnknownDirective, problem.Position{File: fmt.Sprintf("content/p%d.md", i), Line: 2}, `unknown directive "x"; dropped`))
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
content/a.md:3: front matter robots: obsolete directive "noodp"; dropped [RS0404 obsolete-directive]
1 finding:
public/_headers:4: /x.pdf: sets X-Robots-Tag [RS0805 header-rule-overlaps]
`},
		{"one of each, build -v", one, true, true, `1 page: 1 public, 0 noindex, 1 error page, 1 redirect; 1 .html file not HTML (left alone)
1 other file, 1 with an X-Robots-Tag rule in _headers
changed 1 file
  index.html
1 source page not published by the generator (drafts, future, expired, render: never):
  content/wip.md (draft)
1 warning:
content/a.md:3: front matter robots: obsolete directive "noodp"; dropped [RS0404 obsolete-directive]
1 finding:
public/_headers:4: /x.pdf: sets X-Robots-Tag [RS0805 header-rule-overlaps]
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

// TestProblems: every error that errors.Join put together is one problem, typed errors keep their
// place and code, each problem of a value of several is its own, and an error of no code gets the
// code of what it is. No message is read back for a place.
func TestProblems(t *testing.T) {
	_, _, several := rules.Compile([]rules.Input{{Agent: "robots", Value: "max-snippet:x, noindx",
		Source: rules.Source{Kind: rules.FromRule, File: "robotsmith.yaml", Line: 9, Rule: 1}}})
	err := errors.Join(
		&config.Error{File: "site/robotsmith.yaml", Line: 7, Err: errors.New(`unknown key "sitemaps"`), Code: problem.ConfigUnknownKey},
		&frontmatter.Error{File: "content/a.md", Line: 3, Col: 9, Err: errors.New("bad"), Code: problem.SourceSyntax},
		fmt.Errorf("/no/such/: %w site/public", ErrUnknownPath),
		several,
		problem.Wrap(0, problem.Position{File: "public"}, ErrNoOutput),
		fmt.Errorf("%w: hugo: exit status 1", ErrCommand),
		&fs.PathError{Op: "open", Path: "public/a.html", Err: syscall.EACCES},
		context.Canceled,
		errors.New("something else"),
	)
	want := []string{
		`site/robotsmith.yaml:7: unknown key "sitemaps" [RS0208 config-unknown-key]`,
		`content/a.md:3:9: bad [RS0301 source-syntax]`,
		`/no/such/: not in the output site/public [RS0506 path-not-in-output]`,
		`robotsmith.yaml:9: rule 1: malformed directive: max-snippet: "x" is not an integer from -1 to 2147483647 [RS0401 malformed-directive]`,
		`robotsmith.yaml:9: rule 1: unknown directive "noindx" (did you mean "noindex"?) [RS0402 misspelt-directive]`,
		`public: output folder not found [RS0503 output-not-found]`,
		`command failed: hugo: exit status 1 [RS0004 command-failed]`,
		`open public/a.html: permission denied [RS0907 io-error]`,
		`context canceled [RS0003 interrupted]`,
		`something else [RS0005 internal-error]`,
	}
	got := Problems(err)
	if strings.Join(texts2(got), "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(texts2(got), "\n"), strings.Join(want, "\n"))
	}
	for _, p := range got {
		if p.Severity != problem.Error {
			t.Errorf("%s: severity %v, want error", p.Text(), p.Severity)
		}
	}
	if p := got[5]; p.File != "public" || p.Msg != "output folder not found" {
		t.Errorf("a wrapped sentinel: file %q, message %q; want public and the message alone", p.File, p.Msg)
	}
	if c := coded(err); !errors.Is(c, ErrNoOutput) || !errors.Is(c, ErrCommand) || !errors.Is(c, context.Canceled) {
		t.Errorf("coded(err) hides what err wraps from errors.Is: %v", c)
	}
	if got := Problems(nil); len(got) != 0 {
		t.Errorf("Problems(nil): got %+v", got)
	}
}

// TestMessageOf: a problem as the JSON report gives it, its other side included.
func TestMessageOf(t *testing.T) {
	p := problem.New(problem.NoindexBlockedByRobotsTxt, problem.Position{File: "content/a.md", Line: 3},
		"/a/ is noindex (front matter robots at content/a.md:3), but ...")
	p.Related = []problem.Related{{Position: problem.Position{File: "public/robots.txt", Line: 2}, Msg: "Disallow: /a/ keeps googlebot from crawling /a/"}}
	got, err := json.Marshal(MessageOf(*p))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"code":"RS0103","name":"noindex-blocked-by-robots-txt","severity":"finding","file":"content/a.md","line":3,"col":0,` +
		`"message":"/a/ is noindex (front matter robots at content/a.md:3), but ...",` +
		`"related":[{"file":"public/robots.txt","line":2,"col":0,"message":"Disallow: /a/ keeps googlebot from crawling /a/"}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, _ := json.Marshal(MessageOf(problem.Problem{Code: problem.NoPages, Severity: problem.Warning, Msg: "x"})); !strings.Contains(string(got), `"related":[]`) {
		t.Errorf("no related place: %s, want []", got)
	}
}

// texts2 is each problem's Text.
func texts2(ps []problem.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Text())
	}
	return out
}

// texts is each problem's Error(): as it reads without its code, for tests about what a message
// says.
func texts(ps []problem.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Error())
	}
	return out
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

func ExampleProblems() {
	err := errors.Join(
		&frontmatter.Error{File: "content/blog/a.md", Line: 3, Err: errors.New("malformed"), Code: problem.MalformedDirective},
		fmt.Errorf("%w: hugo --minify: exit status 1", ErrCommand),
	)
	for _, p := range Problems(err) {
		fmt.Printf("%s line %d: %s (%s %s)\n", p.File, p.Line, p.Msg, p.Code, p.Code.Name())
	}
	// Output:
	// content/blog/a.md line 3: malformed (RS0401 malformed-directive)
	//  line 0: command failed: hugo --minify: exit status 1 (RS0004 command-failed)
}

func ExampleReport_Summary() {
	rep := &Report{Pages: 3, Public: 2, NoIndex: 1, Files: 1, HeaderRules: 1, Changed: 1, ChangedFiles: []string{"index.html"}}
	fmt.Print(rep.Summary(true, false))
	// Output:
	// 3 pages: 2 public, 1 noindex, 0 error pages, 0 redirects
	// 1 other file, 1 with an X-Robots-Tag rule in _headers
	// changed 1 file
}
