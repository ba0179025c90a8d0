package site

import (
	"fmt"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
)

// TestProblemCodes checks that the errors and warnings of mapping a site carry their codes: those
// of the site's own reading, and the front matter's it passes on.
func TestProblemCodes(t *testing.T) {
	hugo := "title = \"x\"\n"
	jekyll := "timezone: UTC\n"
	for _, tc := range []struct {
		desc  string
		files map[string]string
		errs  []problem.Code
		warns []problem.Code
	}{
		{desc: "a hugo module not found", files: map[string]string{"hugo.toml": hugo + "[module]\n  [[module.imports]]\n    path = \"example.com/gone\"\n"},
			warns: []problem.Code{problem.ModuleNotFound}},
		{desc: "an output format of the configuration", files: map[string]string{"hugo.toml": hugo + "[outputs]\n  home = [\"html\", \"nosuch\"]\n"},
			errs: []problem.Code{problem.OutputFormatUnknown}},
		{desc: "an output format of a page", files: map[string]string{"hugo.toml": hugo, "content/a.md": "---\noutputs: [nosuch]\n---\n"},
			errs: []problem.Code{problem.OutputFormatUnknown}},
		{desc: "a cascade target's glob", files: map[string]string{"hugo.toml": hugo, "content/_index.md": "---\ncascade:\n  target: {path: \"[\"}\n  robots: noindex\n---\n"},
			errs: []problem.Code{problem.CascadeInvalid}},
		{desc: "a cascade target's negation", files: map[string]string{"hugo.toml": hugo, "content/_index.md": "---\ncascade:\n  target: {sites: {matrix: {languages: [\"! fr\"]}}}\n  robots: noindex\n---\n"},
			errs: []problem.Code{problem.CascadeTargetUnsupported}},
		{desc: "a hugo permalink", files: map[string]string{"hugo.toml": hugo + "[permalinks]\n  posts = \"/:nosuch/\"\n", "content/posts/a.md": "---\ntitle: a\n---\n"},
			errs: []problem.Code{problem.PermalinkInvalid}},
		{desc: "front matter jekyll skips", files: map[string]string{"_config.yml": jekyll, "a.md": "---\ntitle: [\n---\n"},
			warns: []problem.Code{problem.FrontMatterSkipped}},
		{desc: "a date jekyll reads", files: map[string]string{"_config.yml": jekyll, "_posts/2020-05-06-x.md": "---\ntitle: x\ndate: sometime soon\n---\n"},
			warns: []problem.Code{problem.DateUnreadable}},
		{desc: "jekyll's collections", files: map[string]string{"_config.yml": jekyll + "collections: 5\n"},
			errs: []problem.Code{problem.GeneratorConfigInvalid}},
		{desc: "jekyll's defaults", files: map[string]string{"_config.yml": jekyll + "defaults: {a: b}\n"},
			errs: []problem.Code{problem.GeneratorConfigInvalid}},
		{desc: "a post's file name", files: map[string]string{"_config.yml": jekyll, "_posts/2020-13-45-x.md": "---\ntitle: x\n---\n"},
			errs: []problem.Code{problem.FileNameDateInvalid}},
		{desc: "a jekyll permalink", files: map[string]string{"_config.yml": jekyll, "_posts/2020-05-06-x.md": "---\npermalink: /:nosuch/\n---\n"},
			errs: []problem.Code{problem.PermalinkInvalid}},
		{desc: "a robots key given twice", files: map[string]string{"_config.yml": jekyll, "a.md": "---\nnoindex: true\nnoindex: false\n---\n"},
			errs: []problem.Code{problem.RobotsKeyRepeated}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			s, err := Open(writeTree(t, tc.files), Options{Now: jekyllNow, Env: func(k string) string {
				if k == "TZ" {
					return "UTC"
				}
				return ""
			}})
			var m *Map
			if err == nil {
				m, err = s.Map()
			}
			var errs, warns []problem.Code
			for _, e := range unjoin(err) {
				errs = append(errs, codeOf(t, e))
			}
			if m != nil {
				for _, w := range m.Warnings {
					warns = append(warns, codeOf(t, w))
				}
			}
			if fmt.Sprint(errs) != fmt.Sprint(tc.errs) {
				t.Errorf("errors: got codes %v, want %v (%v)", errs, tc.errs, err)
			}
			if fmt.Sprint(warns) != fmt.Sprint(tc.warns) {
				t.Errorf("warnings: got codes %v, want %v", warns, tc.warns)
			}
		})
	}
}

// unjoin lists the errors errors.Join put together in err, however deep, or err alone.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, unjoin(e)...)
	}
	return out
}

// codeOf is e's code, after checking that e is one problem that prints as its Problem.
func codeOf(t *testing.T, e error) problem.Code {
	t.Helper()
	c, ok := e.(problem.Carrier)
	if !ok {
		t.Errorf("%v (%T) is not a problem.Carrier", e, e)
		return problem.CodeOf(e)
	}
	p := c.Problem()
	if p.Error() != e.Error() {
		t.Errorf("its Problem prints %q, want %q", p.Error(), e.Error())
	}
	return p.Code
}
