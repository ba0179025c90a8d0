package frontmatter

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
)

// problems are the codes of what reading src finds, as the site reader reads a page: its errors
// (Parse's, or Robots' and Cascades' joined) and its warnings, each checked to print as its
// Problem does.
func problems(t *testing.T, src string, dialect Dialect) (errs, warns []problem.Code, related []problem.Related) {
	t.Helper()
	add := func(to *[]problem.Code, err error) {
		if err == nil {
			return
		}
		list := []error{err}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			list = j.Unwrap()
		}
		for _, e := range list {
			var fe *Error
			if !errors.As(e, &fe) {
				t.Errorf("%v (%T) is not an *Error", e, e)
			}
			p, ok := problem.Of(e)
			if !ok {
				t.Errorf("%v has no code", e)
			}
			if p.Error() != e.Error() {
				t.Errorf("its Problem prints %q, want %q", p.Error(), e.Error())
			}
			*to = append(*to, p.Code)
			related = append(related, p.Related...)
		}
	}
	d, err := Parse("p.md", []byte(src), dialect)
	add(&errs, err)
	if d != nil {
		_, err = d.Robots()
		add(&errs, err)
		_, err = d.Cascades()
		add(&errs, err)
		for _, w := range d.Warnings {
			add(&warns, w)
		}
	}
	return errs, warns, related
}

// TestProblemCodes checks that every error and warning a front matter gives carries its code.
func TestProblemCodes(t *testing.T) {
	deep := "---\nx: " + strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2) + "\n---\n"
	for _, tc := range []struct {
		desc    string
		src     string
		dialect Dialect
		errs    []problem.Code
		warns   []problem.Code
		related int // the line of the other side, 0 for none
	}{
		{desc: "yaml", src: "---\ntitle: [a\n---\n", errs: []problem.Code{problem.SourceSyntax}},
		{desc: "toml", src: "+++\ntitle = \n+++\n", errs: []problem.Code{problem.SourceSyntax}},
		{desc: "json", src: "{\"title\": }\n", errs: []problem.Code{problem.SourceSyntax}},
		{desc: "unclosed", src: "---\ntitle: a\n", errs: []problem.Code{problem.FrontMatterUnclosed}},
		{desc: "too deep", src: deep, errs: []problem.Code{problem.SourceTooDeep}},
		{desc: "not a map", src: "---\n- a\n---\n", errs: []problem.Code{problem.SourceNotAMap}},
		{desc: "robots twice", src: "---\nrobots: noindex\nrobots: index\n---\n", errs: []problem.Code{problem.RobotsKeyRepeated}, related: 2},
		{desc: "wrong type", src: "---\nnoindex: maybe\n---\n", errs: []problem.Code{problem.RobotsKeyWrongType}},
		{desc: "empty agent", src: "---\nrobots: {\"\": noindex}\n---\n", errs: []problem.Code{problem.InvalidAgentName}},
		{desc: "misspelt key that hides", src: "---\nnoindx: true\n---\n", errs: []problem.Code{problem.MisspeltRobotsKey}},
		{desc: "misspelt key that restricts", src: "---\nnofolow: true\n---\n", warns: []problem.Code{problem.UnreadRobotsKey}},
		{desc: "jekyll skips the block", src: "---\ntitle: [a\n---\n", dialect: Jekyll, warns: []problem.Code{problem.FrontMatterSkipped}},
		{desc: "jekyll skips a robots key", src: "---\nrobots: noindex\ntitle: [a\n---\n", dialect: Jekyll, errs: []problem.Code{problem.RobotsKeyUnreadable}, related: 2},
		{desc: "cascade", src: "---\ncascade: 5\n---\n", errs: []problem.Code{problem.CascadeInvalid}},
		{desc: "cascade entry", src: "---\ncascade: [5]\n---\n", errs: []problem.Code{problem.CascadeInvalid}},
		{desc: "cascade target", src: "---\ncascade: {target: 5}\n---\n", errs: []problem.Code{problem.CascadeInvalid}},
		{desc: "cascade two targets", src: "---\ncascade:\n  target: {path: /a}\n  _target: {path: /b}\n---\n", warns: []problem.Code{problem.CascadeTwoTargets}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			errs, warns, related := problems(t, tc.src, tc.dialect)
			if fmt.Sprint(errs) != fmt.Sprint(tc.errs) {
				t.Errorf("errors: got codes %v, want %v", errs, tc.errs)
			}
			if fmt.Sprint(warns) != fmt.Sprint(tc.warns) {
				t.Errorf("warnings: got codes %v, want %v", warns, tc.warns)
			}
			switch {
			case tc.related == 0 && len(related) > 0:
				t.Errorf("related: got %v, want none", related)
			case tc.related > 0 && (len(related) != 1 || related[0].Line != tc.related || related[0].File != "p.md"):
				t.Errorf("related: got %v, want p.md:%d", related, tc.related)
			}
		})
	}
}
