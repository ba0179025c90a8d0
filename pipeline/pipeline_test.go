package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/internal/safefs"
	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/rules"
)

// writeTree writes files (slash paths) under dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	return m
}

const page = "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>t</title>\n</head>\n<body></body>\n</html>\n"

// plainSite is a folder of HTML with no generator (SPEC §2: "With neither, SITE itself is the output
// folder").
func plainSite(t testing.TB) string {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"index.html":        page,
		"blog/a/index.html": page,
		"tags/index.html":   page,
		"404.html":          strings.Replace(page, "<title>", "<meta name=\"robots\" content=\"noindex\">\n<title>", 1),
		"files/x.pdf":       "%PDF-1.4\n",
		"robotsmith.yaml":   "rules:\n  - path: /tags/**\n    robots: noindex, follow\n  - path: /**/*.pdf\n    robots: noindex\n",
	})
	return dir
}

func TestPreviewInputs(t *testing.T) {
	tests := []struct {
		desc     string
		previews string
		branch   string
		env      map[string]string
		want     string // the environment key, "" for none
	}{
		{"netlify production", "noindex", "", map[string]string{"CONTEXT": "production"}, ""},
		{"netlify deploy preview", "noindex", "", map[string]string{"CONTEXT": "deploy-preview"}, "CONTEXT=deploy-preview"},
		{"netlify branch deploy", "noindex", "", map[string]string{"CONTEXT": "branch-deploy"}, "CONTEXT=branch-deploy"},
		{"previews off", "", "", map[string]string{"CONTEXT": "deploy-preview"}, ""},
		{"cloudflare production", "noindex", "", map[string]string{"CF_PAGES": "1", "CF_PAGES_BRANCH": "main"}, ""},
		{"cloudflare preview", "noindex", "", map[string]string{"CF_PAGES": "1", "CF_PAGES_BRANCH": "feature-x"}, "CF_PAGES_BRANCH=feature-x"},
		{"cloudflare own production branch", "noindex", "prod", map[string]string{"CF_PAGES": "1", "CF_PAGES_BRANCH": "prod"}, ""},
		{"local build", "noindex", "", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			previews := tc.previews
			if previews == "" {
				previews = "off"
			}
			cfg := "previews: " + previews + "\n"
			if tc.branch != "" {
				cfg += "production_branch: " + tc.branch + "\n"
			}
			writeTree(t, dir, map[string]string{"robotsmith.yaml": cfg, "index.html": page, "files/x.pdf": "%PDF"})
			opt := Options{Root: dir, Env: func(k string) string { return tc.env[k] }}
			es, err := Explain(context.Background(), opt, []string{"/", "/files/x.pdf"})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range es {
				got := ""
				for _, v := range e.Agents[0].Values {
					if v.Token == "noindex" && strings.HasPrefix(v.Source, "environment ") {
						got = strings.TrimPrefix(v.Source, "environment ")
					}
				}
				if got != tc.want {
					t.Errorf("%s: environment source: got %q, want %q (SPEC §3.5)", e.URL, got, tc.want)
				}
			}
		})
	}
}

// TestBuildAndCheck: check writes nothing; build writes every form; a second build writes nothing and
// keeps file modes (SPEC §5 "Writes are atomic ... and keep the file mode").
func TestBuildAndCheck(t *testing.T) {
	dir := plainSite(t)
	if err := os.Chmod(filepath.Join(dir, "blog/a/index.html"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := readTree(t, dir)
	rep, err := Run(context.Background(), Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, dir); !reflect.DeepEqual(got, before) {
		t.Fatal("check changed files")
	}
	wantChanged := []string{"404.html", "_headers", "blog/a/index.html", "index.html", "tags/index.html"}
	sort.Strings(rep.ChangedFiles)
	if !reflect.DeepEqual(rep.ChangedFiles, wantChanged) {
		t.Errorf("check: would change %q, want %q", rep.ChangedFiles, wantChanged)
	}

	rep, err = Run(context.Background(), Options{Root: dir, Write: true})
	if err != nil {
		t.Fatal(err)
	}
	got := readTree(t, dir)
	if rep.Public != 2 || rep.NoIndex != 1 || rep.ErrorPages != 1 || rep.Files != 1 || rep.HeaderRules != 1 {
		t.Errorf("report: got %+v", rep)
	}
	if !strings.Contains(got["tags/index.html"], `<meta name="robots" content="noindex, follow">`) {
		t.Errorf("tags page: %s", got["tags/index.html"])
	}
	if strings.Contains(got["404.html"], `name="robots"`) {
		t.Errorf("404 page keeps a robots tag: %s", got["404.html"])
	}
	if !strings.Contains(got["_headers"], "/files/x.pdf\n  X-Robots-Tag: noindex, follow\n") {
		t.Errorf("_headers: %s", got["_headers"])
	}
	fi, err := os.Stat(filepath.Join(dir, "blog/a/index.html"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode: got %v, %v; want 0600 kept", fi.Mode(), err)
	}
	for name := range got {
		if safefs.Own(filepath.Base(name)) {
			t.Errorf("temporary file left: %s", name)
		}
	}

	rep, err = Run(context.Background(), Options{Root: dir, Write: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Changed != 0 || !reflect.DeepEqual(readTree(t, dir), got) {
		t.Errorf("second build changed %q", rep.ChangedFiles)
	}
}

// TestFailedBuildWritesNothing: a malformed value anywhere (here in a tag the theme wrote into one
// page) fails the build, and no file changes, the good pages included (SPEC §1 "nothing
// half-written").
func TestFailedBuildWritesNothing(t *testing.T) {
	dir := plainSite(t)
	writeTree(t, dir, map[string]string{
		"zz/bad/index.html": strings.Replace(page, "<title>", "<meta name=\"googlebot\" content=\"max-snippet:lots\">\n<title>", 1),
	})
	before := readTree(t, dir)
	_, err := Run(context.Background(), Options{Root: dir, Write: true})
	if err == nil {
		t.Fatal("build: got no error, want the malformed max-snippet")
	}
	var re *rules.Error
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "zz/bad/index.html:5") {
		t.Errorf("error: got %v, want a *rules.Error naming zz/bad/index.html:5", err)
	}
	if got := readTree(t, dir); !reflect.DeepEqual(got, before) {
		for k := range got {
			if got[k] != before[k] {
				t.Errorf("%s changed by a failed build", k)
			}
		}
	}
}

func TestExplainUnknownPath(t *testing.T) {
	dir := plainSite(t)
	_, err := Explain(context.Background(), Options{Root: dir}, []string{"/blog/a/", "/nope/"})
	if !errors.Is(err, ErrUnknownPath) || !strings.Contains(err.Error(), "/nope/") {
		t.Errorf("got %v, want ErrUnknownPath for /nope/", err)
	}
}

// TestWriteFile: a build's writes (writeFile) reach the output only at commit, whatever the names
// look like (a user's file whose name starts as robotsmith's own files do, dots, no extension), keep
// each file's mode, and close without commit (every error path) leaves every file as it was and no
// file of robotsmith's.
func TestWriteFile(t *testing.T) {
	names := []string{"index.html", safefs.Prefix + "odd.name.html", "no-extension", "a.b.c.d", "new.txt"}
	for _, commitIt := range []bool{true, false} {
		t.Run(fmt.Sprintf("commit %v", commitIt), func(t *testing.T) {
			dir := t.TempDir()
			for _, n := range names[:len(names)-1] {
				if err := os.WriteFile(filepath.Join(dir, n), []byte("old"), 0o640); err != nil {
					t.Fatal(err)
				}
			}
			_, out, err := open(context.Background(), Options{Root: dir, Write: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range names {
				_, fi, err := out.readFile(n, nil)
				if errors.Is(err, fs.ErrNotExist) {
					fi = nil
				} else if err != nil {
					t.Fatal(err)
				}
				if err := out.writeFile(n, fi, []byte("new "+n)); err != nil {
					t.Fatal(err)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "index.html")); string(b) != "old" {
				t.Fatalf("index.html holds %q before the commit, want old", b)
			}
			if commitIt {
				wrote, _, err := out.commit(context.Background())
				if err != nil || !wrote {
					t.Fatalf("commit: %v, %v; want written", wrote, err)
				}
			}
			out.close()
			for _, n := range names {
				b, err := os.ReadFile(filepath.Join(dir, n))
				want := "old"
				switch {
				case commitIt:
					want = "new " + n
				case n == "new.txt":
					if !errors.Is(err, fs.ErrNotExist) {
						t.Errorf("%s: %v, want it not created", n, err)
					}
					continue
				}
				if string(b) != want {
					t.Errorf("%s holds %q, want %q", n, b, want)
				}
				if fi, err := os.Stat(filepath.Join(dir, n)); err != nil || n != "new.txt" && fi.Mode().Perm() != 0o640 {
					t.Errorf("%s: mode %v, %v; want 0640 kept", n, fi.Mode(), err)
				}
			}
			entries, _ := os.ReadDir(dir)
			want := len(names) - 1
			if commitIt {
				want++
			}
			if len(entries) != want {
				t.Errorf("%d files in the folder, want %d (temporary files left)", len(entries), want)
			}
		})
	}
}

func Example() {
	dir, _ := os.MkdirTemp("", "robotsmith-example")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "tags"), 0o755)
	os.WriteFile(filepath.Join(dir, "tags", "index.html"), []byte("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Tags</title></head><body></body></html>"), 0o644)
	os.WriteFile(filepath.Join(dir, "robotsmith.yaml"), []byte("rules:\n  - path: /tags/**\n    robots: noindex, follow\n"), 0o644)

	rep, err := Run(context.Background(), Options{Root: dir, Write: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Pages, rep.NoIndex, rep.Changed)
	b, _ := os.ReadFile(filepath.Join(dir, "tags", "index.html"))
	fmt.Println(string(b))
	// Output:
	// 1 1 1
	// <!DOCTYPE html><html><head><meta charset="utf-8"><!-- robotsmith -->
	// <meta name="robots" content="noindex, follow">
	// <!-- /robotsmith --><title>Tags</title></head><body></body></html>
}

// TestHeadersLint: a user's own rule outside robotsmith's block that sets X-Robots-Tag for a file
// robotsmith covers is a lint finding (SPEC §6), and the user's rules are kept.
func TestHeadersLint(t *testing.T) {
	dir := plainSite(t)
	user := "/files/*\n  X-Robots-Tag: noarchive\n/*\n  X-Frame-Options: DENY\n"
	writeTree(t, dir, map[string]string{"_headers": user})
	rep, err := Run(context.Background(), Options{Root: dir, Write: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 1 || !strings.Contains(rep.Findings[0].Error(), "_headers:2: /files/x.pdf:") {
		t.Errorf("findings: got %q, want one at _headers:2 naming /files/x.pdf", rep.Findings)
	}
	got := readTree(t, dir)["_headers"]
	if !strings.HasPrefix(got, user) || !strings.Contains(got, "# robotsmith: begin") {
		t.Errorf("_headers: the user's rules must stay and the block follow:\n%s", got)
	}
}

// TestFragmentHeaders: an .html file that is not an HTML document (a verification file, a
// `layout: null` fragment) cannot carry a tag, so its decision goes to _headers, and only when it is
// not what the defaults say (SPEC §6: "for every non-HTML file whose directives differ from the
// default").
func TestFragmentHeaders(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"index.html":                  page,
		"google1234567890abcdef.html": "google-site-verification: google1234567890abcdef.html",
		"private/fragment.html":       "<p>a fragment</p>\n",
		"robotsmith.yaml":             "rules:\n  - path: /private/**\n    robots: noindex\n",
	})
	rep, err := Run(context.Background(), Options{Root: dir, Write: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Skipped != 2 {
		t.Errorf("skipped: got %d, want the 2 fragments", rep.Skipped)
	}
	got := readTree(t, dir)["_headers"]
	if !strings.Contains(got, "/private/fragment.html\n  X-Robots-Tag: noindex, follow\n") {
		t.Errorf("_headers lacks the noindex fragment:\n%s", got)
	}
	if strings.Contains(got, "google1234567890abcdef") {
		t.Errorf("_headers has a rule for a fragment that keeps the default:\n%s", got)
	}
}

// TestProcessSubset: a prepared job runs the step over any subset of the output's files, as watch
// mode does for the files a generator rewrote; the others are left untouched, records and files.
func TestProcessSubset(t *testing.T) {
	dir := plainSite(t)
	before := readTree(t, dir)
	ps := prepareWalk(t, Options{Root: dir, Write: true})
	var subset []plan.Record
	for _, f := range ps.files {
		if f.Rel() == "tags/index.html" || f.Rel() == "files/x.pdf" {
			subset = append(subset, f)
		}
	}
	ps.process(context.Background(), subset)
	wrote, _, err := ps.out.commit(context.Background())
	if err != nil || !wrote {
		t.Fatalf("commit: %v, %v; want written", wrote, err)
	}
	for _, f := range subset {
		if f.Verdict() == nil {
			t.Errorf("%s: not decided", f.Rel())
		}
		if f.Changed() != (f.Rel() == "tags/index.html") {
			t.Errorf("%s: changed %v, want tags/index.html alone", f.Rel(), f.Changed())
		}
	}
	after := readTree(t, dir)
	for name, body := range before {
		if changed := after[name] != body; changed != (name == "tags/index.html") {
			t.Errorf("%s: changed %v", name, changed)
		}
	}
}
