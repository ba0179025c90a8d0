package rules

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
)

// unjoin lists the errors errors.Join put together in err, or err alone.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// TestProblemCodes checks that every error and warning rules reports carries its code, and that
// its Problem prints as the error or warning always has.
func TestProblemCodes(t *testing.T) {
	fm := Source{Kind: FromFrontMatter, File: "content/a.md", Line: 3, Key: "robots"}
	page := Source{Kind: FromPage, File: "public/a/index.html", Line: 7, Key: "robots"}
	many := strings.Repeat("foobar ", 12)
	for _, tc := range []struct {
		desc  string
		in    []Input
		errs  []problem.Code // of each error, in order
		warns []problem.Code // of each warning, in order
	}{
		{"malformed", []Input{{Agent: "robots", Value: "max-snippet:abc", Source: fm}}, []problem.Code{problem.MalformedDirective}, nil},
		{"malformed date", []Input{{Agent: "robots", Value: "unavailable_after: tomorrow", Source: fm}}, []problem.Code{problem.MalformedDirective}, nil},
		{"misspelt directive", []Input{{Agent: "robots", Value: "noindx", Source: fm}}, []problem.Code{problem.MisspeltDirective}, nil},
		{"misspelt among several", []Input{{Agent: "robots", Value: "follow, noindx", Source: fm}}, []problem.Code{problem.MisspeltDirective}, nil},
		{"misspelt agent", []Input{{Agent: "googlebto", Value: "noindex", Source: fm}}, []problem.Code{problem.MisspeltAgent}, nil},
		{"not an agent name", []Input{{Agent: "google bot", Value: "noindex", Source: fm}}, []problem.Code{problem.InvalidAgentName}, nil},
		{"unknown directive", []Input{{Agent: "robots", Value: "foobar", Source: fm}}, nil, []problem.Code{problem.UnknownDirective}},
		{"obsolete directive", []Input{{Agent: "robots", Value: "noodp", Source: fm}}, nil, []problem.Code{problem.ObsoleteDirective}},
		{"loose separators", []Input{{Agent: "robots", Value: "noindex nofollow", Source: fm}}, nil, []problem.Code{problem.LooseSeparators}},
		{"a crawler inside the value", []Input{{Agent: "robots", Value: "googlebot: noindex", Source: fm}}, nil, []problem.Code{problem.AgentInsideValue}},
		{"misspelt directive in a page's tag", []Input{{Agent: "robots", Value: "noindx", Source: page}}, nil, []problem.Code{problem.MisspeltInPageTag}},
		{"misspelt agent in a page's tag", []Input{{Agent: "googlebto", Value: "noindex", Source: page}}, nil, []problem.Code{problem.MisspeltInPageTag}},
		{"more warnings than listed", []Input{{Agent: "robots", Value: "foobar, foobaz, " + strings.ReplaceAll(many, " ", ", "), Source: fm}}, nil,
			append(repeat(problem.UnknownDirective, maxValueProblems), problem.MoreWarnings)},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, warns, err := Compile(tc.in)
			var gotErrs []problem.Code
			if err != nil {
				for _, e := range unjoin(err) {
					gotErrs = append(gotErrs, codeAndText(t, e))
				}
			}
			if fmt.Sprint(gotErrs) != fmt.Sprint(tc.errs) {
				t.Errorf("errors: got codes %v, want %v (%v)", gotErrs, tc.errs, err)
			}
			var gotWarns []problem.Code
			for _, w := range warns {
				p := w.Problem()
				if p.Error() != w.String() {
					t.Errorf("warning's Problem prints %q, want %q", p.Error(), w.String())
				}
				if p.Code != w.Code || p.Severity != problem.Warning {
					t.Errorf("warning %q: Problem has code %s and severity %v, want %s and warning", w, p.Code, p.Severity, w.Code)
				}
				gotWarns = append(gotWarns, w.Code)
			}
			if fmt.Sprint(gotWarns) != fmt.Sprint(tc.warns) {
				t.Errorf("warnings: got codes %v, want %v (%v)", gotWarns, tc.warns, warns)
			}
		})
	}
}

func repeat(c problem.Code, n int) []problem.Code {
	out := make([]problem.Code, n)
	for i := range out {
		out[i] = c
	}
	return out
}

// codeAndText is the code of e, an *Error, after checking that its Problem prints as it does.
func codeAndText(t *testing.T, e error) problem.Code {
	t.Helper()
	var re *Error
	if !errors.As(e, &re) {
		t.Errorf("error %v (%T) is not an *Error", e, e)
		return problem.CodeOf(e)
	}
	p, ok := problem.Of(e)
	if !ok {
		t.Errorf("error %v has no code", e)
	}
	if p.Error() != e.Error() {
		t.Errorf("error's Problem prints %q, want %q", p.Error(), e.Error())
	}
	return p.Code
}

// TestConfigProblemCodes checks the codes of the errors New reports about the config's rules.
func TestConfigProblemCodes(t *testing.T) {
	rule := Source{Kind: FromRule, File: "robotsmith.yaml", Line: 9}
	noindex := []Input{{Agent: "robots", Value: "noindex"}}
	for _, tc := range []struct {
		desc string
		cfg  Config
		want []problem.Code
	}{
		{"no selector", Config{Rules: []Rule{{Values: noindex, Source: rule}}}, []problem.Code{problem.RuleNoSelector}},
		{"a glob without /", Config{Rules: []Rule{{Paths: []string{"blog/*"}, Values: noindex, Source: rule}}}, []problem.Code{problem.BadPathGlob}},
		{"a bad glob", Config{Rules: []Rule{{Paths: []string{"/blog/[a"}, Values: noindex, Source: rule}}}, []problem.Code{problem.BadPathGlob}},
		{"an empty kind", Config{Rules: []Rule{{Kinds: []string{" "}, Values: noindex, Source: rule}}}, []problem.Code{problem.ConfigEmptyValue}},
		{"a malformed value", Config{Rules: []Rule{{Paths: []string{"/a/"}, Values: []Input{{Agent: "robots", Value: "max-snippet:x"}}, Source: rule}}}, []problem.Code{problem.MalformedDirective}},
		{"a misspelt default", Config{Defaults: []Input{{Agent: "robots", Value: "noindx", Source: rule}}}, []problem.Code{problem.MisspeltDirective}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := New(tc.cfg)
			var got []problem.Code
			if err != nil {
				for _, e := range unjoin(err) {
					got = append(got, codeAndText(t, e))
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got codes %v, want %v (%v)", got, tc.want, err)
			}
		})
	}

	// error_pages' globs have no source to name: a plain error, its code in what it wraps.
	_, err := New(Config{ErrorPages: []string{"404.html"}})
	if got := problem.CodeOf(err); got != problem.BadPathGlob {
		t.Errorf("error_pages: got code %s, want %s (%v)", got, problem.BadPathGlob, err)
	}
}

// TestTooManyAgentsCode checks the code of the agent limit, in a page and in the config.
func TestTooManyAgentsCode(t *testing.T) {
	in := make([]Input, MaxAgents+1)
	for i := range in {
		in[i] = Input{Agent: fmt.Sprintf("bot%d", i), Value: "noindex", Source: Source{Kind: FromFrontMatter, File: "a.md", Line: 2}}
	}
	_, _, err := Compile(in)
	if got := problem.CodeOf(err); got != problem.TooManyAgents {
		t.Errorf("Compile: got code %s, want %s", got, problem.TooManyAgents)
	}
	_, err = New(Config{Defaults: in})
	if got := problem.CodeOf(err); got != problem.TooManyAgents {
		t.Errorf("New: got code %s, want %s", got, problem.TooManyAgents)
	}
}

// TestProblemsOfOneValue checks that a value with several problems, one *Error of several lines,
// is a problem for each, each at the value's place with its own code: the text output, the JSON
// report and SARIF give each its place and code (problem.List).
func TestProblemsOfOneValue(t *testing.T) {
	fm := Source{Kind: FromFrontMatter, File: "content/a.md", Line: 3, Key: "robots"}
	rule := Source{Kind: FromRule, File: "robotsmith.yaml", Line: 9, Rule: 1}
	for _, tc := range []struct {
		desc string
		in   Input
		want []string // problem.Problem.Text of each
	}{
		{"one problem", Input{Agent: "robots", Value: "max-snippet:abc", Source: fm}, []string{
			`content/a.md:3: front matter robots: "max-snippet:abc": malformed directive: max-snippet: its value is not an integer from -1 to 2147483647 [RS0401 malformed-directive]`}},
		{"three", Input{Agent: "robots", Value: "max-snippet:abc, max-image-preview:huge, noindx", Source: rule}, []string{
			`robotsmith.yaml:9: rule 1: malformed directive: max-snippet: "abc" is not an integer from -1 to 2147483647 [RS0401 malformed-directive]`,
			`robotsmith.yaml:9: rule 1: malformed directive: max-image-preview: "huge" is not none, standard or large [RS0401 malformed-directive]`,
			`robotsmith.yaml:9: rule 1: unknown directive "noindx" (did you mean "noindex"?) [RS0402 misspelt-directive]`}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, _, err := Compile([]Input{tc.in})
			var got []string
			for _, p := range problem.List(err) {
				got = append(got, p.Text())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
