package problem_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
)

// TestTable checks the one table of codes: codes unique, in order and in an area; names unique and
// kebab case; every field set; and every Code constant of codes.go in the table.
func TestTable(t *testing.T) {
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	all := problem.All()
	if len(all) == 0 {
		t.Fatal("the table is empty")
	}
	names := map[string]problem.Code{}
	var prev problem.Code
	for _, i := range all {
		if i.Code <= prev {
			t.Errorf("%s comes after %s: codes must be unique and in order", i.Code, prev)
		}
		prev = i.Code
		if i.Code == 0 || i.Code > 999 {
			t.Errorf("code %d: want RS0001 to RS0999 (RS and an area of RS00xx to RS09xx)", i.Code)
		}
		if got := i.Code.String(); len(got) != 6 || !strings.HasPrefix(got, "RS") {
			t.Errorf("code %d is written %q, want RS and four digits", i.Code, got)
		}
		if !kebab.MatchString(i.Name) {
			t.Errorf("%s: name %q is not kebab case", i.Code, i.Name)
		}
		if c, ok := names[i.Name]; ok {
			t.Errorf("%s: name %q is %s's too", i.Code, i.Name, c)
		}
		names[i.Name] = i.Code
		switch i.Severity {
		case problem.Error, problem.Finding, problem.Warning:
		default:
			t.Errorf("%s: severity %v is none of error, finding, warning", i.Code, i.Severity)
		}
		if i.Summary == "" || strings.ContainsAny(i.Summary, "\n") || strings.HasSuffix(i.Summary, ".") {
			t.Errorf("%s: summary %q: want one line, without a closing full stop", i.Code, i.Summary)
		}
		if len(i.Help) < len(i.Summary)/2 || !strings.HasSuffix(i.Help, ".") {
			t.Errorf("%s: help %q: want what it means and what to do, in sentences", i.Code, i.Help)
		}
		if got, ok := problem.Lookup(i.Code); !ok || got.Name != i.Name {
			t.Errorf("Lookup(%s) = %v, %v; want %s", i.Code, got.Name, ok, i.Name)
		}
		for _, s := range []string{i.Code.String(), strings.ToLower(i.Code.String()), i.Name} {
			if got, ok := problem.Find(s); !ok || got.Code != i.Code {
				t.Errorf("Find(%q) = %s, %v; want %s", s, got.Code, ok, i.Code)
			}
		}
	}
	if _, ok := problem.Lookup(0); ok {
		t.Error("Lookup(0) found an entry")
	}

	// Every constant of type Code declared in codes.go is in the table.
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				continue
			}
			for i, n := range vs.Names {
				declared++
				lit := vs.Values[i].(*ast.BasicLit)
				var code problem.Code
				fmt.Sscan(lit.Value, &code)
				if _, ok := problem.Lookup(code); !ok {
					t.Errorf("%s (%s) is not in the table", n.Name, code)
				}
			}
		}
	}
	if declared != len(all) {
		t.Errorf("codes.go declares %d codes, the table has %d", declared, len(all))
	}
}

// TestCodeString checks how codes are written.
func TestCodeString(t *testing.T) {
	for _, tc := range []struct {
		code problem.Code
		want string
	}{
		{0, ""},
		{1, "RS0001"},
		{103, "RS0103"},
		{problem.NoindexBlockedByRobotsTxt, "RS0103"},
		{906, "RS0906"},
	} {
		if got := tc.code.String(); got != tc.want {
			t.Errorf("Code(%d).String() = %q, want %q", tc.code, got, tc.want)
		}
	}
	if got := problem.NoindexBlockedByRobotsTxt.Name(); got != "noindex-blocked-by-robots-txt" {
		t.Errorf("RS0103's name is %q, want noindex-blocked-by-robots-txt (SPEC §1's example)", got)
	}
}

// TestError checks that a Problem prints as robotsmith's text output always has: file:line:col: msg.
func TestError(t *testing.T) {
	for _, tc := range []struct {
		desc string
		pos  problem.Position
		want string
	}{
		{"file line col", problem.Position{File: "a.md", Line: 3, Col: 7}, "a.md:3:7: bad"},
		{"file line", problem.Position{File: "a.md", Line: 3}, "a.md:3: bad"},
		{"file", problem.Position{File: "a.md"}, "a.md: bad"},
		{"line col", problem.Position{Line: 3, Col: 7}, "3:7: bad"},
		{"no position", problem.Position{}, "bad"},
		{"col without line", problem.Position{File: "a.md", Col: 7}, "a.md: bad"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			p := problem.New(problem.MalformedDirective, tc.pos, "bad")
			if got := p.Error(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if p.Severity != problem.Error {
				t.Errorf("severity %v, want the code's, error", p.Severity)
			}
		})
	}
}

// wrapper is an error type of a package: it adds a place and keeps the code of what it wraps.
type wrapper struct {
	file string
	code problem.Code
	err  error
}

func (w *wrapper) Error() string { return w.file + ": " + w.err.Error() }
func (w *wrapper) Unwrap() error { return w.err }
func (w *wrapper) Problem() problem.Problem {
	return problem.Wrapping(w.code, problem.Position{File: w.file}, w.err.Error(), nil, w.err)
}

// TestOf checks that a Problem is found through wrapping and errors.Join, and that a type that
// only adds a place keeps the code of what it wraps.
func TestOf(t *testing.T) {
	sentinel := problem.New(problem.FileChanged, problem.Position{}, "changed by another process")
	inner := problem.New(problem.MisspeltDirective, problem.Position{File: "a.md", Line: 2}, "unknown directive")
	inner.Related = []problem.Related{{Position: problem.Position{File: "a.md", Line: 1}, Msg: "first"}}
	for _, tc := range []struct {
		desc     string
		err      error
		code     problem.Code
		text     string // the Problem's Error()
		severity problem.Severity
	}{
		{"a Problem", inner, problem.MisspeltDirective, "a.md:2: unknown directive", problem.Error},
		{"wrapped with %w", fmt.Errorf("replace x: %w", sentinel), problem.FileChanged, "replace x: changed by another process", problem.Error},
		{"joined", errors.Join(errors.New("plain"), inner), problem.MisspeltDirective, "plain\na.md:2: unknown directive", problem.Error},
		{"a wrapper without a code", &wrapper{file: "b.md", err: inner}, problem.MisspeltDirective, "b.md: a.md:2: unknown directive", problem.Error},
		{"a wrapper with a code", &wrapper{file: "b.md", code: problem.UnknownDirective, err: inner}, problem.UnknownDirective, "b.md: a.md:2: unknown directive", problem.Warning},
		{"no code", errors.New("plain"), 0, "plain", 0},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			p, ok := problem.Of(tc.err)
			if ok != (tc.code != 0) || p.Code != tc.code {
				t.Errorf("Of: code %s, %v; want %s", p.Code, ok, tc.code)
			}
			if got := problem.CodeOf(tc.err); got != tc.code {
				t.Errorf("CodeOf: %s, want %s", got, tc.code)
			}
			if got := p.Error(); got != tc.text {
				t.Errorf("Of(err).Error() = %q, want %q", got, tc.text)
			}
			if p.Severity != tc.severity {
				t.Errorf("severity %v, want %v", p.Severity, tc.severity)
			}
		})
	}
	// A wrapper without related places of its own takes those of what it wraps.
	p, _ := problem.Of(&wrapper{file: "b.md", err: inner})
	if len(p.Related) != 1 || p.Related[0].Line != 1 {
		t.Errorf("related: got %v, want the wrapped problem's", p.Related)
	}
}

// TestStrict checks that --strict raises a warning to a finding and nothing else.
func TestStrict(t *testing.T) {
	for _, tc := range []struct{ from, want problem.Severity }{
		{problem.Warning, problem.Finding},
		{problem.Finding, problem.Finding},
		{problem.Error, problem.Error},
	} {
		if got := (problem.Problem{Severity: tc.from}).Strict().Severity; got != tc.want {
			t.Errorf("Strict of a %v: %v, want %v", tc.from, got, tc.want)
		}
	}
}

// TestText checks the one text form of a problem that every command prints: the place editors jump
// to first, then the message, then the code and name to look it up by.
func TestText(t *testing.T) {
	for _, tc := range []struct {
		desc string
		p    problem.Problem
		want string
	}{
		{"coded, with a place", *problem.New(problem.MalformedDirective, problem.Position{File: "content/a.md", Line: 3}, "front matter robots: bad"),
			"content/a.md:3: front matter robots: bad [RS0401 malformed-directive]"},
		{"coded, no place", *problem.New(problem.ConfigTwoFiles, problem.Position{}, "two configuration files"),
			"two configuration files [RS0206 config-two-files]"},
		{"raised by --strict: the code stays", problem.New(problem.UnknownDirective, problem.Position{File: "a.md", Line: 2}, "dropped").Strict(),
			"a.md:2: dropped [RS0403 unknown-directive]"},
		{"no code", problem.Problem{Position: problem.Position{File: "a.md"}, Msg: "plain"}, "a.md: plain"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := tc.p.Text(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if got, want := problem.NoindexBlockedByRobotsTxt.Title(), "RS0103 noindex-blocked-by-robots-txt"; got != want {
		t.Errorf("Title: got %q, want %q (SPEC §1's form)", got, want)
	}
	if got := problem.Code(0).Title(); got != "" {
		t.Errorf("Title of no code: got %q, want none", got)
	}
}

// several is an error that is two problems at one place, as a value with two bad directives is.
type several struct{ a, b *problem.Problem }

func (s several) Error() string               { return s.a.Error() + "\n" + s.b.Error() }
func (s several) Problems() []problem.Problem { return []problem.Problem{*s.a, *s.b} }

// TestList checks that List takes every problem out of an error: each one errors.Join put together,
// at any depth, each one of a Lister, and a problem for an error of no code.
func TestList(t *testing.T) {
	a := problem.New(problem.MalformedDirective, problem.Position{File: "a.md", Line: 1}, "a")
	b := problem.New(problem.MisspeltDirective, problem.Position{File: "a.md", Line: 1}, "b")
	c := problem.New(problem.UnknownKind, problem.Position{File: "c.yaml", Line: 9}, "c")
	for _, tc := range []struct {
		desc string
		err  error
		want []string // Text of each
	}{
		{"nil", nil, nil},
		{"one", a, []string{"a.md:1: a [RS0401 malformed-directive]"}},
		{"joined", errors.Join(a, c), []string{"a.md:1: a [RS0401 malformed-directive]", "c.yaml:9: c [RS0217 unknown-kind]"}},
		{"joined in joined", errors.Join(errors.Join(a, b), c), []string{"a.md:1: a [RS0401 malformed-directive]", "a.md:1: b [RS0402 misspelt-directive]", "c.yaml:9: c [RS0217 unknown-kind]"}},
		{"a lister", errors.Join(several{a, b}, c), []string{"a.md:1: a [RS0401 malformed-directive]", "a.md:1: b [RS0402 misspelt-directive]", "c.yaml:9: c [RS0217 unknown-kind]"}},
		{"wrapped", fmt.Errorf("reading: %w", c), []string{"reading: c.yaml:9: c [RS0217 unknown-kind]"}},
		{"no code", errors.New("plain"), []string{"plain"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var got []string
			for _, p := range problem.List(tc.err) {
				got = append(got, p.Text())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestWrap checks that Wrap gives an error a place and a code without changing what it says, and
// that errors.Is still finds what it wraps.
func TestWrap(t *testing.T) {
	sentinel := problem.New(problem.OutputNotFound, problem.Position{}, "output folder not found")
	plain := errors.New("permission denied")
	for _, tc := range []struct {
		desc string
		code problem.Code
		pos  problem.Position
		err  error
		text string // Error()
		want string // the Problem's Text
	}{
		{"a place for a coded error", 0, problem.Position{File: "public"}, sentinel,
			"public: output folder not found", "public: output folder not found [RS0503 output-not-found]"},
		{"a code for a plain error", problem.IOError, problem.Position{File: "public/a.html"}, plain,
			"public/a.html: permission denied", "public/a.html: permission denied [RS0907 io-error]"},
		{"a code, no place", problem.Interrupted, problem.Position{}, plain,
			"permission denied", "permission denied [RS0003 interrupted]"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			err := problem.Wrap(tc.code, tc.pos, tc.err)
			if got := err.Error(); got != tc.text {
				t.Errorf("Error: got %q, want %q", got, tc.text)
			}
			p, ok := problem.Of(err)
			if !ok || p.Text() != tc.want {
				t.Errorf("Of: got %q (%v), want %q", p.Text(), ok, tc.want)
			}
			if !errors.Is(err, tc.err) {
				t.Error("errors.Is does not find the error wrapped")
			}
		})
	}
}
