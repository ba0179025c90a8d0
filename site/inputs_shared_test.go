package site

import (
	"testing"
)

// TestInputsShared checks that the pages one cascade (Hugo) or default (Jekyll) alone gives robots
// inputs to share one slice of them, which the pipeline compiles once, and that a page with more
// inputs than that has a slice of its own.
func TestInputsShared(t *testing.T) {
	hugo := map[string]string{
		"hugo.toml":              "baseURL = 'https://example.org/'\n",
		"content/blog/_index.md": "---\ncascade:\n  robots: noindex\n---\n",
		"content/blog/a.md":      "---\ntitle: a\n---\n",
		"content/blog/b.md":      "---\ntitle: b\n---\n",
		"content/blog/c.md":      "---\nrobots: nofollow\n---\n",
		"content/blog/d.md":      "---\nrobots: nosnippet\n---\n",
	}
	jekyll := map[string]string{
		"_config.yml":   "defaults:\n  - scope: {path: blog}\n    values: {robots: noindex}\n  - scope: {path: blog/two}\n    values: {robots: {googlebot: nosnippet}}\n",
		"blog/a.md":     "---\ntitle: a\n---\n",
		"blog/b.md":     "---\ntitle: b\n---\n",
		"blog/c.md":     "---\nrobots: nofollow\n---\n",
		"blog/two/d.md": "---\ntitle: d\n---\n",
		"blog/two/e.md": "---\ntitle: e\n---\n",
	}
	tests := []struct {
		name       string
		files      map[string]string
		a, b       string
		n          int // inputs each page has
		wantShared bool
	}{
		{"hugo cascade alone", hugo, "content/blog/a.md", "content/blog/b.md", 1, true},
		{"hugo cascade and own", hugo, "content/blog/c.md", "content/blog/d.md", 2, false},
		{"hugo cascade alone and with own", hugo, "content/blog/a.md", "content/blog/c.md", 0, false},
		{"jekyll default alone", jekyll, "blog/a.md", "blog/b.md", 1, true},
		{"jekyll two defaults", jekyll, "blog/two/d.md", "blog/two/e.md", 2, false},
		{"jekyll default and own", jekyll, "blog/a.md", "blog/c.md", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(writeTree(t, tc.files), Options{Now: jekyllNow})
			if err != nil {
				t.Fatal(err)
			}
			m, err := s.Map()
			if err != nil {
				t.Fatal(err)
			}
			a, b := m.PageOf(tc.a), m.PageOf(tc.b)
			if a == nil || b == nil {
				t.Fatalf("pages %s, %s: not mapped", tc.a, tc.b)
			}
			if tc.n > 0 && (len(a.Inputs) != tc.n || len(b.Inputs) != tc.n) {
				t.Fatalf("inputs %v, %v; want %d each", a.Inputs, b.Inputs, tc.n)
			}
			if len(a.Inputs) == 0 || len(b.Inputs) == 0 {
				t.Fatalf("inputs %v, %v; want some", a.Inputs, b.Inputs)
			}
			if got := &a.Inputs[0] == &b.Inputs[0]; got != tc.wantShared {
				t.Errorf("shared = %v, want %v", got, tc.wantShared)
			}
			if cap(a.Inputs) != len(a.Inputs) {
				t.Errorf("cap(Inputs) = %d, len %d: an append would write into another page's inputs", cap(a.Inputs), len(a.Inputs))
			}
		})
	}
}
