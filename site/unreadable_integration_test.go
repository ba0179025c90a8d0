package site_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/site"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// TestJekyllUnreadableIntegration builds, with the real Jekyll, pages and posts whose front matter
// Jekyll's YAML reader refuses, and checks that robotsmith treats them as Jekyll does (SPEC §3).
// Jekyll 4.3.1 printed, and still built every page:
//
//	Error: YAML Exception reading .../_posts/2020-01-05-bad-post.md: (<unknown>): found unexpected end of stream while scanning a quoted scalar at line 2 column 8
//	Error: YAML Exception reading .../sub/_posts/2019-03-04-bad.md: (<unknown>): did not find expected ',' or ']' while parsing a flow sequence at line 3 column 7
//	YAML Exception reading .../docs/broken.md: (<unknown>): found unexpected end of stream while scanning a quoted scalar at line 2 column 8
//
// and wrote docs/broken.md at its defaults' permalink (manual/broken/index.html), in its defaults'
// layout, without a title: a page keeps the defaults that apply to it. It wrote the posts at 2025/06/01/2020-01-05-bad-post.html
// and sub/2025/06/01/2019-03-04-bad.html: a post's date is the site's time (config `time`), not
// its file name's, its URL's title its whole base name, and the `category: news` of its defaults
// is not applied (Document#read stops before read_post_data), while the well-formed post went to
// news/2020/01/06/good.html. robotsmith maps each page where Jekyll wrote it, warns at the line of
// the fault, and gives the page the robots keys of its defaults; a broken block that holds a
// robots key fails the build, since what it asks for cannot be read.
func TestJekyllUnreadableIntegration(t *testing.T) {
	bin := testtool.Jekyll(t)
	truthPlugin, err := os.ReadFile(filepath.Join("testdata", "jekyll", "truth.rb"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"_config.yml": "timezone: UTC\ntime: 2025-06-01 12:00:00 +0000\ndefaults:\n" +
			"  - scope: {path: docs}\n    values: {permalink: '/manual/:basename/', layout: default, robots: noindex}\n" +
			"  - scope: {path: '', type: posts}\n    values: {category: news}\n",
		"_layouts/default.html":         "<!doctype html><html><head><title>{{ page.title }}</title></head><body>{{ content }}</body></html>\n",
		"docs/broken.md":                "---\ntitle: \"unclosed\nlayout: default\n---\nDoc\n",
		"_posts/2020-01-05-bad-post.md": "---\ntitle: \"unclosed\nlayout: default\n---\nPost\n",
		"sub/_posts/2019-03-04-bad.md":  "---\ntitle: x\ntags: [x\nlayout: default\n---\nPost\n",
		"_posts/2020-01-06-good.md":     "---\ntitle: fine\nlayout: default\n---\nPost\n",
		"_plugins/truth.rb":             string(truthPlugin),
	}
	for _, tc := range []struct {
		desc  string
		files map[string]string
		want  map[string]string // source -> the output Jekyll wrote for it
		warns []string          // the warnings, in order
		err   string            // the build's error; "" when it succeeds
	}{
		{
			desc: "treated as Jekyll treats them",
			want: map[string]string{
				"docs/broken.md":                "manual/broken/index.html",
				"_posts/2020-01-05-bad-post.md": "2025/06/01/2020-01-05-bad-post.html",
				"sub/_posts/2019-03-04-bad.md":  "sub/2025/06/01/2019-03-04-bad.html",
				"_posts/2020-01-06-good.md":     "news/2020/01/06/good.html",
			},
			warns: []string{
				"_posts/2020-01-05-bad-post.md:2: front matter: yaml: the quoted value that starts on this line is not closed (Jekyll builds the page without its front matter)",
				"docs/broken.md:2: front matter: yaml: the quoted value that starts on this line is not closed (Jekyll builds the page without its front matter)",
				"sub/_posts/2019-03-04-bad.md:3: front matter: yaml: did not find expected ',' or ']' in the list that starts on this line (Jekyll builds the page without its front matter)",
			},
		},
		{
			desc:  "a broken block that holds a robots key",
			files: map[string]string{"docs/broken.md": "---\nnoindex: true\ntitle: \"unclosed\nlayout: default\n---\nDoc\n"},
			want:  map[string]string{"docs/broken.md": "manual/broken/index.html"},
			err: "docs/broken.md:3: front matter: yaml: the quoted value that starts on this line is not closed; " +
				"the block sets noindex at line 2, which robotsmith cannot read (Jekyll would build the page without it)",
		},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range files {
				if b, ok := tc.files[name]; ok {
					body = b
				}
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			truthFile := filepath.Join(t.TempDir(), "truth.json")
			cmd := exec.Command(bin, "build")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "JEKYLL_NO_BUNDLER_REQUIRE=true", "ROBOTSMITH_TRUTH="+truthFile)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("jekyll build: %v\n%s", err, out)
			}
			if !strings.Contains(string(out), "YAML Exception reading") {
				t.Errorf("Jekyll did not say it could not read a front matter:\n%s", out)
			}
			var truth struct {
				Dest    string `json:"dest"`
				Entries []struct {
					Source *string `json:"source"`
					Dest   *string `json:"dest"`
				} `json:"entries"`
			}
			b, err := os.ReadFile(truthFile)
			if err == nil {
				err = json.Unmarshal(b, &truth)
			}
			if err != nil {
				t.Fatalf("reading Jekyll's account of its pages: %v", err)
			}
			realDir, _ := filepath.EvalSymlinks(dir)
			wrote := map[string]string{}
			for _, e := range truth.Entries {
				if e.Source != nil && e.Dest != nil {
					src, _ := filepath.Rel(realDir, *e.Source)
					dest, _ := filepath.Rel(truth.Dest, *e.Dest)
					wrote[filepath.ToSlash(src)] = filepath.ToSlash(dest)
				}
			}
			for src, want := range tc.want {
				if wrote[src] != want {
					t.Fatalf("Jekyll wrote %s to %q, not %q as this test says", src, wrote[src], want)
				}
			}

			rep, err := pipeline.Run(context.Background(), pipeline.Options{Root: dir, Write: true})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("build: error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("build: %v", err)
			}
			var warns []string
			for _, w := range rep.Warnings {
				warns = append(warns, w.Error())
			}
			if strings.Join(warns, "\n") != strings.Join(tc.warns, "\n") {
				t.Errorf("warnings:\n%s\nwant\n%s", strings.Join(warns, "\n"), strings.Join(tc.warns, "\n"))
			}
			s, err := site.Open(dir, site.Options{})
			if err != nil {
				t.Fatal(err)
			}
			m, err := s.Map()
			if err != nil {
				t.Fatal(err)
			}
			for src, want := range tc.want {
				if p := m.PageOf(src); p == nil || p.Output != want {
					t.Errorf("%s: page %+v, want the output Jekyll wrote, %s", src, p, want)
				}
			}
			// The page Jekyll built without its front matter keeps its defaults' noindex.
			page, err := os.ReadFile(filepath.Join(truth.Dest, "manual", "broken", "index.html"))
			if err != nil || !strings.Contains(string(page), `<meta name="robots" content="noindex`) {
				t.Errorf("manual/broken/index.html has no noindex (%v):\n%s", err, page)
			}
		})
	}
}
