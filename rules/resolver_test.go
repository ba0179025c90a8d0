package rules

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	cases := []struct {
		glob, path string
		want       bool
		source     string
	}{
		{"/drafts/**", "/drafts/", true, "SPEC §2: /drafts/** matches /drafts/ itself"},
		{"/drafts/**", "/drafts/a/b/", true, "SPEC §2: ** crosses segments"},
		{"/drafts/**", "/draftsx/", false, "SPEC §2: ** is a whole segment"},
		{"/tags/**", "/tags/go/page/2/", true, "SPEC §2 example /tags/**"},
		{"/blog/*", "/blog/post/", true, "SPEC §2: URL paths as served"},
		{"/blog/*", "/blog/2024/post/", false, "SPEC §2: * stays inside one segment"},
		{"/**/*.pdf", "/x.pdf", true, "SPEC §2 example /**/*.pdf"},
		{"/**/*.pdf", "/a/b/x.pdf", true, "SPEC §2 example /**/*.pdf"},
		{"/**/*.pdf", "/a/b/x.PDF", false, "hosts-headers §2: paths are case-exact"},
		{"/**/404.html", "/404.html", true, "SPEC §5 error pages"},
		{"/**/404.html", "/fr/404.html", true, "SPEC §5 error pages"},
		{"/drafts/", "/drafts/", true, "SPEC §2 example /drafts/"},
		{"/drafts/", "/drafts/a/", false, "SPEC §2: a glob without * matches one path"},
		{"/*.html", "/a/b.html", false, "SPEC §2: * stays inside one segment"},
	}
	for _, tc := range cases {
		t.Run(tc.glob+" "+tc.path, func(t *testing.T) {
			got, err := Match(tc.glob, tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Match(%q, %q) = %v, want %v (%s)", tc.glob, tc.path, got, tc.want, tc.source)
			}
		})
	}
	for _, bad := range []string{"tags/**", "/a/[b", ""} {
		if _, err := Match(bad, "/a/"); err == nil {
			t.Errorf("Match(%q): got no error, want one", bad)
		}
	}
}

func TestNewErrors(t *testing.T) {
	ruleSrc := Source{Kind: FromRule, File: "robotsmith.yaml", Line: 14, Rule: 2}
	_, err := New(Config{
		Defaults: []Input{{Agent: "robots", Value: "max-snippet:x", Source: Source{File: "robotsmith.yaml", Line: 9}}},
		Rules: []Rule{
			{Paths: []string{"/ok/**"}, Source: Source{Kind: FromRule, File: "robotsmith.yaml", Line: 12, Rule: 1}},
			{Paths: []string{"tags/**", "/a/[b"}, Values: []Input{{Agent: "robots", Value: "max-image-preview:huge", Source: ruleSrc}}, Source: ruleSrc},
			{Source: Source{Kind: FromRule, File: "robotsmith.yaml", Line: 20, Rule: 3}},
		},
		ErrorPages: []string{"404.html"},
	})
	if err == nil {
		t.Fatal("New: got no error")
	}
	for _, want := range []string{
		`robotsmith.yaml:9: default: "max-snippet:x"`,
		`robotsmith.yaml:14: rule 2: "tags/**": a path glob must start with /`,
		`robotsmith.yaml:14: rule 2: "/a/[b": bad glob`,
		`robotsmith.yaml:14: rule 2: "max-image-preview:huge"`,
		`robotsmith.yaml:20: rule 3: rule has no path, kind or lang`,
		`error_pages: "404.html"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q\nwant it to contain %q", err, want)
		}
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("error %v holds no *Error", err)
	}
}

func TestNewWarningsAndMatching(t *testing.T) {
	r, err := New(Config{Rules: []Rule{
		rule(1, []string{"/blog/**"}, "robots", "noodp, noarchive"),
		rule(2, []string{"/tags/**", "/blog/tags/**"}, "otherbot", "noindex"),
		rule(3, []string{"/**/*.pdf"}, "googlebot", "nosnippet"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	ws := r.Warnings()
	if len(ws) != 1 || ws[0].String() != `robotsmith.yaml:13: rule 1: obsolete directive "noodp" is ignored by Google and Bing; dropped` {
		t.Errorf("warnings: got %q", ws)
	}
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/blog/tags/go/", []string{"rule 1 at robotsmith.yaml:13 (path: /blog/**)", "rule 2 at robotsmith.yaml:16 (path: /blog/tags/**)"}},
		{"/blog/a.pdf", []string{"rule 1 at robotsmith.yaml:13 (path: /blog/**)", "rule 3 at robotsmith.yaml:19 (path: /**/*.pdf)"}},
		{"/about/", nil},
	} {
		var got []string
		for _, m := range r.Matching(Item{Path: tc.path}) {
			got = append(got, m.String())
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Matching(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

func TestSourceString(t *testing.T) {
	cases := []struct {
		src  Source
		want string
	}{
		{Source{}, "default"},
		{Source{Kind: FromDefault, File: "robotsmith.yaml", Line: 9}, "default at robotsmith.yaml:9"},
		{Source{Kind: FromRule, File: "robotsmith.yaml", Line: 14, Rule: 2}, "rule 2 at robotsmith.yaml:14"},
		{Source{Kind: FromRule, File: "robotsmith.yaml", Line: 70, Key: "ai.meta"}, "ai.meta at robotsmith.yaml:70"},
		{cascSrc, "cascade from content/blog/_index.md:5"},
		{jekyllDefSrc, "front matter defaults at _config.yml:8"},
		{fmSrc, "front matter robots at content/blog/a.md:3"},
		{Source{Kind: FromPage, File: "public/a/index.html", Line: 7, Key: "googlebot"}, `tag <meta name="googlebot"> at public/a/index.html:7`},
		{envSrc, "environment CONTEXT=deploy-preview"},
		{Source{Kind: FromFrontMatter, File: "a.md"}, "front matter at a.md"},
	}
	for _, tc := range cases {
		if got := tc.src.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
	w := Warning{Source: fmSrc, Msg: "m"}
	if got, want := w.String(), "content/blog/a.md:3: front matter robots: m"; got != want {
		t.Errorf("Warning: got %q, want %q", got, want)
	}
	e := &Error{Source: fmSrc, Value: "max-snippet:x", Err: ErrMalformed}
	if got, want := e.Error(), `content/blog/a.md:3: front matter robots: "max-snippet:x": malformed directive`; got != want {
		t.Errorf("Error: got %q, want %q", got, want)
	}
	if !errors.Is(e, ErrMalformed) {
		t.Error("Error does not unwrap")
	}
}

// Decide with a malformed value still returns the rest of the decision.
func TestDecidePartial(t *testing.T) {
	r, _ := New(Config{})
	d, _, err := r.Decide(Item{Path: "/a/", Inputs: []Input{fm("robots", "noindex"), fm("robots", "max-snippet:abc")}})
	if err == nil {
		t.Fatal("got no error")
	}
	if got := d.Agents[0].Content(); got != "noindex, follow" {
		t.Errorf("robots: got %q, want %q", got, "noindex, follow")
	}
}

// Single style with config defaults for an agent beyond googlebot and bingbot:
// such values cannot be folded into the robots tag, so the agent keeps a tag.
func TestSingleStyleOtherDefaultAgent(t *testing.T) {
	r, err := New(Config{Style: Single, Defaults: []Input{
		{Agent: "robots", Value: "index, follow"},
		{Agent: "googlebot-news", Value: "nosnippet"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	d, _, _ := r.Decide(Item{Path: "/a/"})
	want := []Tag{{"robots", "index, follow"}, {"googlebot-news", "index, follow, nosnippet"}}
	if got := d.Directives().Tags; !reflect.DeepEqual(got, want) {
		t.Errorf("tags: got %q, want %q", got, want)
	}
}

func TestIsAgent(t *testing.T) {
	for name, want := range map[string]bool{"robots": true, " GoogleBot ": true, "googlebot-news": true, "otherbot": false, "": false} {
		if got := IsAgent(name); got != want {
			t.Errorf("IsAgent(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestMatchEmptySegment(t *testing.T) {
	// Documented in the package doc: '*' may match an empty segment.
	if ok, _ := Match("/blog/*", "/blog/"); !ok {
		t.Error(`Match("/blog/*", "/blog/") = false, want true`)
	}
}
