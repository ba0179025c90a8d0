package headers

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
)

// codesOf are the codes of the problems err joins, each checked to print as its Problem.
func codesOf(t *testing.T, err error) []problem.Code {
	t.Helper()
	if err == nil {
		return nil
	}
	list := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	}
	var out []problem.Code
	for _, e := range list {
		p, ok := problem.Of(e)
		if !ok {
			t.Errorf("%v (%T) has no code", e, e)
		}
		if _, carrier := e.(problem.Carrier); !carrier {
			t.Errorf("%v (%T) is not a problem.Carrier", e, e)
		} else if p.Error() != e.Error() {
			t.Errorf("its Problem prints %q, want %q", p.Error(), e.Error())
		}
		out = append(out, p.Code)
	}
	return out
}

// TestErrorCodes checks that the errors the writers report carry their codes.
func TestErrorCodes(t *testing.T) {
	noindex := []rules.HeaderLine{{Content: "noindex"}}
	var many []File
	for i := range MaxRules + 1 {
		// Files at the root, each its own decision: nothing folds.
		many = append(many, File{Path: fmt.Sprintf("/f%d.pdf", i), Lines: []rules.HeaderLine{{Content: fmt.Sprintf("max-snippet:%d", i)}}})
	}
	var redirects strings.Builder
	redirects.WriteString(`{"redirects": [`)
	for i := range VercelMaxRoutes {
		if i > 0 {
			redirects.WriteString(",")
		}
		fmt.Fprintf(&redirects, `{"source": "/r%d", "destination": "/"}`, i)
	}
	redirects.WriteString("]}\n")
	for _, tc := range []struct {
		desc string
		err  func() error
		want []problem.Code
	}{
		{"a path no rule matches exactly", func() error {
			_, err := Block([]File{{Path: "/a*b.pdf", Lines: noindex}}, Options{Format: Netlify})
			return err
		}, []problem.Code{problem.HeaderPathUnwritable}},
		{"a generic line after an agent's", func() error {
			_, err := Block([]File{{Path: "/a.pdf", Lines: []rules.HeaderLine{{Agent: "googlebot", Content: "nosnippet"}, {Content: "noindex"}}}}, Options{Format: Netlify})
			return err
		}, []problem.Code{problem.HeaderLinesInvalid}},
		{"paths that differ in case", func() error {
			_, err := Block([]File{{Path: "/A.pdf", Lines: noindex}, {Path: "/a.pdf", Lines: []rules.HeaderLine{{Content: "nofollow"}}}}, Options{Format: Netlify})
			return err
		}, []problem.Code{problem.HeaderCaseConflict}},
		{"cloudflare's limit", func() error {
			_, err := Block(many, Options{Format: Cloudflare})
			return err
		}, []problem.Code{problem.HeaderTooManyRules}},
		{"vercel's limit", func() error {
			_, err := Vercel(List([]File{{Path: "/a.pdf", Lines: noindex}}), Options{Existing: []byte(redirects.String())})
			return err
		}, []problem.Code{problem.HeaderTooManyRules}},
		{"vercel's routes", func() error {
			_, err := Vercel(List([]File{{Path: "/a.pdf", Lines: noindex}}), Options{Existing: []byte("{\n  \"routes\": []\n}\n")})
			return err
		}, []problem.Code{problem.HostRoutesConflict}},
		{"vercel's headers", func() error {
			_, err := Vercel(List([]File{{Path: "/a.pdf", Lines: noindex}}), Options{Existing: []byte("{\n  \"headers\": {}\n}\n")})
			return err
		}, []problem.Code{problem.HostFileInvalid}},
		{"not json", func() error {
			_, err := Vercel(List([]File{{Path: "/a.pdf", Lines: noindex}}), Options{Existing: []byte("{\n  \"headers\": [,]\n}\n")})
			return err
		}, []problem.Code{problem.HostFileInvalid}},
		{"no firebase.json", func() error {
			_, err := Firebase(List([]File{{Path: "/a.pdf", Lines: noindex}}), Options{})
			return err
		}, []problem.Code{problem.HostFileMissing}},
		{"no hosting", func() error {
			_, err := Firebase(List([]File{{Path: "/a.pdf", Lines: noindex}}), Options{Existing: []byte("{}\n")})
			return err
		}, []problem.Code{problem.HostFileMissing}},
		{"hosting of several sites", func() error {
			_, err := Firebase(List([]File{{Path: "/a.pdf", Lines: noindex}}), Options{Existing: []byte(`{"hosting": [{"site": "a"}, {"site": "b"}]}`)})
			return err
		}, []problem.Code{problem.HostFileInvalid}},
		{"an nginx include", func() error { _, err := NginxInclude("/etc/*.conf"); return err }, []problem.Code{problem.IncludePathInvalid}},
		{"nginx's own include", func() error {
			_, err := Nginx(List([]File{{Path: "/a.pdf", Lines: noindex}}), Options{NginxInclude: "/etc/*.conf"})
			return err
		}, []problem.Code{problem.IncludePathInvalid}},
		{"a caddy import", func() error { _, err := CaddyImport("/etc/{x}"); return err }, []problem.Code{problem.IncludePathInvalid}},
		{"a format", func() error { _, err := ParseFormat("apache2"); return err }, []problem.Code{problem.HeaderFormatUnknown}},
		{"an unclosed block", func() error {
			_, err := Merge([]byte("/a\n  X: y\n# robotsmith: begin\n"), nil)
			var me *MarkerError
			if errors.As(err, &me) {
				me.File = "public/_headers"
			}
			return err
		}, []problem.Code{problem.UnclosedBlock}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			err := tc.err()
			if got := codesOf(t, err); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got codes %v, want %v (%v)", got, tc.want, err)
			}
		})
	}
}

// TestFindingCodes checks that every lint finding carries its code and prints as its Problem.
func TestFindingCodes(t *testing.T) {
	files := []File{{Path: "/a.pdf", Lines: []rules.HeaderLine{{Content: "noindex"}}}}
	block := "# robotsmith: begin\n# robotsmith: end\n"
	for _, tc := range []struct {
		desc string
		got  func() []Finding
		want []problem.Code
	}{
		{"a rule of the owner's", func() []Finding {
			return Lint([]byte("/a.pdf\n  X-Robots-Tag: index\n"), files, Netlify)
		}, []problem.Code{problem.HeaderRuleOverlaps}},
		{"a second block", func() []Finding { return Lint([]byte(block+block), files, Netlify) }, []problem.Code{problem.SecondBlock}},
		{"content usage", func() []Finding {
			return LintContentUsage([]byte("/*\n  Content-Usage: train-ai=y\n"), Netlify)
		}, []problem.Code{problem.ContentUsageOverlaps}},
		{"a vercel entry of the owner's", func() []Finding {
			r, err := Vercel(List(files), Options{Existing: []byte(`{"headers": [{"source": "/a.pdf", "headers": [{"key": "X-Robots-Tag", "value": "index"}]}]}`)})
			if err != nil {
				t.Fatal(err)
			}
			return r.Findings
		}, []problem.Code{problem.HeaderRuleOverlaps}},
		{"a vercel entry robotsmith cannot model", func() []Finding {
			r, err := Vercel(List(files), Options{Existing: []byte(`{"headers": [{"source": "/(?!x).*", "headers": [{"key": "X-Robots-Tag", "value": "index"}]}]}`)})
			if err != nil {
				t.Fatal(err)
			}
			return r.Findings
		}, []problem.Code{problem.HeaderRuleUnmodelled}},
		{"an unreadable record", func() []Finding {
			r, err := Vercel(List(files), Options{Existing: []byte("{}\n"), Record: []byte("not a record")})
			if err != nil {
				t.Fatal(err)
			}
			return r.Findings
		}, []problem.Code{problem.HostRecordUnreadable}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var got []problem.Code
			for _, f := range tc.got() {
				p := f.Problem()
				if p.Error() != f.String() {
					t.Errorf("its Problem prints %q, want %q", p.Error(), f.String())
				}
				if p.Severity != problem.Finding {
					t.Errorf("%s: severity %v, want finding", f, p.Severity)
				}
				got = append(got, f.Code)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got codes %v, want %v", got, tc.want)
			}
		})
	}
}
