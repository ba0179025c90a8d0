package site_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	hdr "github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/site"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// The real-site method of docs/internals/mapping.md, on every fixture: build it with its generator, give every
// source it rendered a noindex, run `robotsmith build`, and check that every page rendered from a
// source (pager pages included) got the noindex, that no page without a source did, and that
// `check` after `build` has nothing to say.

var (
	// truthAttr is what the Hugo fixtures' templates write on <body> (data-truth="...") and into
	// JSON ("truth": "..."): kind|lang|file|pager number.
	truthAttr   = regexp.MustCompile(`truth"?[=:] ?"[^"|]*\|[^"|]*\|([^"|]*)\|[0-9]*"`)
	robotsNoidx = regexp.MustCompile(`<meta name="robots" content="noindex`)
	refresh     = regexp.MustCompile(`(?i)http-equiv="?refresh`)
	errorPage   = regexp.MustCompile(`(^|/)404\.html$`) // no robots tag at all (SPEC §5)
)

func TestNoindexEverySourceHugo(t *testing.T) {
	hugo, _ := testtool.Hugo(t)
	fixtures := []struct {
		name string
		env  map[string]string
		args []string
	}{
		{name: "basic"}, {name: "permalinks"}, {name: "ugly"}, {name: "multilingual"},
		{name: "configdir", env: map[string]string{"HUGO_ENVIRONMENT": "staging"}},
		{name: "mounts"}, {name: "edge"}, {name: "nokinds"},
		{name: "langdirs", args: []string{"-D"}}, {name: "formats"}, {name: "taxlangs"},
	}
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			dir := t.TempDir()
			testtool.CopyTree(t, filepath.Join("testdata", "hugo", fx.name), dir)
			cmd := exec.Command(hugo, append([]string{"--quiet"}, fx.args...)...)
			cmd.Dir, cmd.Env = dir, append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(dir, ".cache"))
			for k, v := range fx.env {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("hugo: %v\n%s", err, out)
			}
			env := func(k string) string { return fx.env[k] }
			s, err := site.Open(dir, site.Options{Env: env})
			if err != nil {
				t.Fatal(err)
			}
			out := s.Output
			sourceOf := map[string]string{} // HTML file -> the source Hugo rendered it from ("" for none)
			marked := map[string]bool{}     // every source Hugo rendered, into HTML or another format
			walkFiles(t, out, "", func(rel string, b []byte) {
				m := truthAttr.FindSubmatch(b)
				if m == nil || refresh.Match(b) {
					return
				}
				if strings.HasSuffix(rel, ".html") {
					sourceOf[rel] = string(m[1])
				}
				if src := string(m[1]); src != "" && !marked[src] {
					markNoindex(t, src)
					marked[src] = true
				}
			})
			checkNoindex(t, pipeline.Options{Root: dir, Env: env}, out, sourceOf, marked)
		})
	}
}

func TestNoindexEverySourceJekyll(t *testing.T) {
	bin := testtool.Jekyll(t)
	truthPlugin, err := os.ReadFile(filepath.Join("testdata", "jekyll", "truth.rb"))
	if err != nil {
		t.Fatal(err)
	}
	fixtures, err := os.ReadDir(filepath.Join("testdata", "jekyll"))
	if err != nil {
		t.Fatal(err)
	}
	for _, fx := range fixtures {
		if !fx.IsDir() {
			continue
		}
		t.Run(fx.Name(), func(t *testing.T) {
			if fx.Name() == "paginate" && exec.Command("ruby", "-e", `require "jekyll"; require "jekyll-paginate"`).Run() != nil {
				testtool.Missing(t, "the jekyll-paginate plugin is not installed: apt-get install ruby-jekyll-paginate")
			}
			dir := t.TempDir()
			testtool.CopyTree(t, filepath.Join("testdata", "jekyll", fx.Name()), dir)
			if err := os.MkdirAll(filepath.Join(dir, "_plugins"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "_plugins", "truth.rb"), truthPlugin, 0o644); err != nil {
				t.Fatal(err)
			}
			truthFile := filepath.Join(t.TempDir(), "truth.json")
			cmd := exec.Command(bin, "build", "--quiet")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "JEKYLL_NO_BUNDLER_REQUIRE=true", "ROBOTSMITH_TRUTH="+truthFile)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("jekyll build: %v\n%s", err, out)
			}
			var truth struct {
				Dest    string `json:"dest"`
				Entries []struct {
					Source *string `json:"source"`
					Dest   *string `json:"dest"`
					Twin   *string `json:"twin"` // the Markdown the twins fixture's plugin wrote beside the page
				} `json:"entries"`
			}
			b, err := os.ReadFile(truthFile)
			if err == nil {
				err = json.Unmarshal(b, &truth)
			}
			if err != nil {
				t.Fatalf("reading Jekyll's account of its pages: %v", err)
			}
			sourceOf := map[string]string{}
			walkFiles(t, truth.Dest, ".html", func(rel string, b []byte) {
				if !refresh.Match(b) {
					sourceOf[rel] = ""
				}
			})
			marked := map[string]bool{}
			for _, e := range truth.Entries {
				if e.Source == nil || e.Dest == nil {
					continue
				}
				rel, _ := filepath.Rel(truth.Dest, *e.Dest)
				if _, ok := sourceOf[filepath.ToSlash(rel)]; ok {
					sourceOf[filepath.ToSlash(rel)] = *e.Source
				}
				if !marked[*e.Source] {
					markNoindex(t, *e.Source)
					marked[*e.Source] = true
				}
			}
			others := checkNoindex(t, pipeline.Options{Root: dir}, truth.Dest, sourceOf, marked)
			for _, e := range truth.Entries {
				if e.Source != nil && e.Twin != nil && !others[strings.TrimPrefix(*e.Twin, "/")] {
					t.Errorf("%s: Jekyll wrote its Markdown twin %s; _headers was not checked for it", *e.Source, *e.Twin)
				}
			}
		})
	}
}

// checkNoindex runs build and then check, and compares every HTML page with sourceOf (its source,
// or "" for a page with no source): a page from a source carries the noindex (a page without a
// head gets it as X-Robots-Tag), a page without one carries none it did not have before. The
// pages' other files get it as X-Robots-Tag (checkOtherFiles); it returns those files.
func checkNoindex(t *testing.T, opt pipeline.Options, out string, sourceOf map[string]string, marked map[string]bool) map[string]bool {
	t.Helper()
	before := map[string]bool{}
	walkFiles(t, out, ".html", func(rel string, b []byte) { before[rel] = robotsNoidx.Match(b) })
	opt.Write = true
	if _, err := pipeline.Run(context.Background(), opt); err != nil {
		t.Fatalf("build: %v", err)
	}
	headers, _ := os.ReadFile(filepath.Join(out, "_headers"))
	covered, sources, sourceless := 0, 0, 0
	walkFiles(t, out, ".html", func(rel string, b []byte) {
		src, known := sourceOf[rel]
		if !known || errorPage.MatchString(rel) {
			return
		}
		got := robotsNoidx.Match(b)
		if !bytes.Contains(bytes.ToLower(b), []byte("<head")) {
			got = bytes.Contains(headers, []byte("/"+strings.TrimSuffix(rel, "index.html")+"\n  X-Robots-Tag: noindex"))
		}
		switch {
		case src != "":
			sources++
			if !got {
				t.Errorf("%s: rendered from %s, which says noindex; the page has no noindex", rel, src)
			} else {
				covered++
			}
		case got && !before[rel]:
			t.Errorf("%s: no source, but robotsmith gave it a noindex", rel)
		default:
			sourceless++
		}
	})
	others := checkOtherFiles(t, opt, out, string(headers), marked)
	rep, err := pipeline.Run(context.Background(), pipeline.Options{Root: opt.Root, Env: opt.Env})
	if err != nil || rep.Changed != 0 || len(rep.Findings) != 0 {
		t.Errorf("check after build: err %v, would change %v, findings %v; want nothing", err, rep.ChangedFiles, rep.Findings)
	}
	sameOnCopy(t, opt, out)
	if sources == 0 {
		t.Fatal("no page rendered from a source: the test checked nothing")
	}
	t.Logf("pages from a source with the noindex: %d of %d; pages without a source, none added: %d; their other files with X-Robots-Tag: %d",
		covered, sources, sourceless, len(others))
	return others
}

// checkOtherFiles checks that every file that is not HTML and belongs to a page whose source was
// marked noindex (marked: the sources' paths as the generator gave them) (another output format:
// RSS, JSON, Markdown; a pager page's JSON; a bundle resource) has the page's noindex in
// _headers, and returns those files. Which page a file belongs to is Map.Owner's answer, which the
// integration tests hold to the generator's own account.
func checkOtherFiles(t *testing.T, opt pipeline.Options, out, headers string, marked map[string]bool) map[string]bool {
	t.Helper()
	s, err := site.Open(opt.Root, site.Options{Env: opt.Env})
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Map()
	if err != nil {
		t.Fatal(err)
	}
	realRoot, _ := filepath.EvalSymlinks(opt.Root)
	isMarked := func(src string) bool {
		return marked[filepath.Join(opt.Root, src)] || marked[filepath.Join(realRoot, src)]
	}
	others := map[string]bool{}
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		if hostFiles[rel] {
			return nil
		}
		o := m.Owner(rel)
		if o.Page == nil || o.Page.Source == "" || o.Role == site.RolePage {
			return nil
		}
		if !isMarked(filepath.FromSlash(o.Page.Source)) {
			t.Errorf("%s: the %s of %s, which the generator did not render", rel, o.Role, o.Page.Source)
			return nil
		}
		others[rel] = true
		if !strings.Contains(headers, headersPath(rel)+"\n  X-Robots-Tag: noindex") {
			t.Errorf("%s: the %s of %s, which says noindex; _headers gives it no noindex", rel, o.Role, o.Page.Source)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return others
}

// hostFiles are what hosts read as their configuration and never serve (a Hugo output format can
// write _redirects): no header reaches them.
var hostFiles = map[string]bool{"_headers": true, "_redirects": true, "_routes.json": true, "_worker.js": true}

// headersPath is a file's path as a _headers rule names it.
func headersPath(rel string) string { return hdr.EncodePath("/" + rel) }

// markNoindex adds noindex to a source's front matter (a block where there is none), unless the
// block says so already: a second noindex key would be one given twice, an error.
func markNoindex(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := bytes.Cut(b, []byte("\n"))
	switch strings.TrimSpace(string(first)) {
	case "---":
		if block, _, _ := bytes.Cut(rest, []byte("\n---")); bytes.Contains([]byte("\n"+string(block)+"\n"), []byte("\nnoindex: true\n")) {
			return
		}
		b = append([]byte("---\nnoindex: true\n"), rest...)
	case "+++":
		b = append([]byte("+++\nnoindex = true\n"), rest...)
	default:
		b = append([]byte("---\nnoindex: true\n---\n"), b...)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// walkFiles calls fn for every file under root whose name ends in suffix with its slash path and
// content.
func walkFiles(t *testing.T, root, suffix string, fn func(rel string, b []byte)) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, suffix) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fn(filepath.ToSlash(rel), b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
