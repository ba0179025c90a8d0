//go:build unix

package pipeline

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/robotsmith/robotsmith/internal/safefs"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
	"github.com/robotsmith/robotsmith/watch"
)

// hasWarning reports whether one of ws contains every part.
func hasWarning(ws []problem.Problem, parts ...string) bool {
	return slices.ContainsFunc(ws, func(w problem.Problem) bool {
		for _, p := range parts {
			if !strings.Contains(w.Text(), p) {
				return false
			}
		}
		return true
	})
}

// interrupted leaves in dir what a build killed while it wrote its temporary files leaves: a
// journal naming a temporary file, and the file.
func interrupted(t *testing.T, dir string) {
	t.Helper()
	writeTree(t, dir, map[string]string{
		safefs.Prefix + "journal":           "robotsmith journal 1\ntmp 0 \"index.html\"\n",
		safefs.Prefix + "0.tmp":             "half a page",
		"blog/a/" + safefs.Prefix + "1.tmp": "not in the journal: a power loss took its record",
	})
}

// TestRecoverFirst: every command first undoes what an interrupted build left in the output, and
// says so; a build does it before it runs the configured command, whose output it would otherwise
// mix with robotsmith's leftovers.
func TestRecoverFirst(t *testing.T) {
	ctx := context.Background()
	for _, cmd := range []string{"build", "check", "explain"} {
		t.Run(cmd, func(t *testing.T) {
			dir := plainSite(t)
			interrupted(t, dir)
			if cmd == "build" {
				// The command fails if it sees the journal's temporary file.
				writeTree(t, dir, map[string]string{"robotsmith.yaml": "command: test ! -e " + safefs.Prefix + "0.tmp\n"})
			}
			var warnings []problem.Problem
			switch cmd {
			case "build", "check":
				rep, err := Run(ctx, Options{Root: dir, Write: cmd == "build", RunCommand: true})
				if err != nil {
					t.Fatal(err)
				}
				warnings = rep.Warnings
				if !hasWarning(warnings, "undid an interrupted build", "1 temporary files removed", "[RS0910 build-recovered]") {
					t.Errorf("warnings %q: none says what was undone", warnings)
				}
			case "explain":
				if _, err := Explain(ctx, Options{Root: dir}, []string{"/"}); err != nil {
					t.Fatal(err)
				}
			}
			for _, name := range []string{safefs.Prefix + "journal", safefs.Prefix + "0.tmp"} {
				if _, err := os.Lstat(filepath.Join(dir, name)); !os.IsNotExist(err) {
					t.Errorf("%s: %v, want it removed", name, err)
				}
			}
			// The temporary file no journal names: a build removes it (the folder is locked);
			// check leaves it to the next build and says so.
			_, err := os.Lstat(filepath.Join(dir, "blog/a", safefs.Prefix+"1.tmp"))
			switch cmd {
			case "build":
				if !os.IsNotExist(err) || !hasWarning(warnings, "blog/a/"+safefs.Prefix+"1.tmp: removed", "[RS0911 leftover-files]") {
					t.Errorf("the leftover: %v, warnings %q; want it removed, with a warning", err, warnings)
				}
			case "check":
				if err != nil || !hasWarning(warnings, "1 temporary file of an interrupted or running robotsmith build", "[RS0911 leftover-files]") {
					t.Errorf("the leftover: %v, warnings %q; want it kept, with a warning", err, warnings)
				}
			}
		})
	}
}

// TestLinksAndSpecialFiles: links into the output are kept and decided by their own path as files
// (their targets processed as themselves); links that lead outside, to nothing or round a loop,
// folder links, FIFOs and sockets are skipped with a warning each, and never opened.
func TestLinksAndSpecialFiles(t *testing.T) {
	dir := plainSite(t)
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret.html": page})
	writeTree(t, dir, map[string]string{"robotsmith.yaml": "rules:\n  - path: /private/**\n    robots: noindex\n  - path: /**/*.pdf\n    robots: noindex\n"})
	links := map[string]string{
		"private/alias.html": "../blog/a/index.html", // a page link: decided as a file, by its path
		"files/y.pdf":        "x.pdf",                // a file link: decided by its path
		"out.html":           filepath.Join(outside, "secret.html"),
		"gone.html":          "nothing.html",
		"loop.html":          "loop.html",
		"mirror":             "blog",
		"elsewhere":          outside,
	}
	for name, target := range links {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.html"), 0o644); err != nil {
		t.Skip(err)
	}
	before := readTree(t, outside)
	rep, err := Run(context.Background(), Options{Root: dir, Write: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range [][]string{
		{"out.html", "leads outside the output folder", "[RS0903 link-outside]"},
		{"gone.html", "a symbolic link to nothing", "[RS0908 link-broken]"},
		{"loop.html", "a symbolic link in a loop", "[RS0908 link-broken]"},
		{"mirror", "a symbolic link to the folder blog: not followed", "[RS0909 link-to-folder]"},
		{"elsewhere", "leads outside the output folder", "[RS0903 link-outside]"},
		{"pipe.html", "a FIFO: skipped, never read", "[RS0902 not-a-regular-file]"},
	} {
		if !hasWarning(rep.Warnings, w...) {
			t.Errorf("no warning says %q: %q", w, rep.Warnings)
		}
	}
	if len(rep.Warnings) != 6 {
		t.Errorf("%d warnings, want 6: %q", len(rep.Warnings), rep.Warnings)
	}
	for name, target := range links {
		if got, err := os.Readlink(filepath.Join(dir, filepath.FromSlash(name))); err != nil || got != target {
			t.Errorf("%s: %q, %v; want the link to %s kept", name, got, err, target)
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	h := read("_headers")
	for _, want := range []string{"/private/alias.html\n  X-Robots-Tag: noindex, follow\n", "/files/y.pdf\n  X-Robots-Tag: noindex, follow\n"} {
		if !strings.Contains(h, want) {
			t.Errorf("_headers lacks %q:\n%s", want, h)
		}
	}
	if !strings.Contains(read("blog/a/index.html"), `content="index, follow"`) {
		t.Errorf("the page a link leads to is not processed as itself")
	}
	if rep.Skipped != 1 || rep.Pages != 4 {
		t.Errorf("got %d pages and %d skipped, want 4 (the link's target among them) and 1 (the page link)", rep.Pages, rep.Skipped)
	}
	if after := readTree(t, outside); !slices.Equal(sortedKeys(after), sortedKeys(before)) || after["secret.html"] != page {
		t.Errorf("the folder outside changed: %q", after)
	}
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestConfigInOutput: robotsmith's configuration in the output (a plain folder's own, or the copy
// Jekyll makes of every file its exclude: does not name) is robotsmith's input, not a file of the
// site; a file that only shares its name is the site's.
func TestConfigInOutput(t *testing.T) {
	const cfg = "rules:\n  - path: /**/*.yaml\n    robots: noindex\n"
	for _, tc := range []struct {
		desc, copy string
		files      int
	}{
		{"a copy is not a site file", cfg, 0},
		{"another file of the same name is", "title: mine\n" + strings.Repeat("#", len(cfg)-len("title: mine\n")), 1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{
				"robotsmith.yaml":          cfg,
				"_site/index.html":         page,
				"_site/robotsmith.yaml":    tc.copy,
				"_site/sub/robotsmith.yml": cfg, // another name: a site file
			})
			rep, err := Run(context.Background(), Options{Root: dir, Output: filepath.Join(dir, "_site"), Write: true})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Files != tc.files+1 {
				t.Errorf("%d files, want %d", rep.Files, tc.files+1)
			}
			h := readTree(t, dir)["_site/_headers"]
			if got := strings.Contains(h, "/robotsmith.yaml\n"); got != (tc.files == 1) {
				t.Errorf("a _headers rule for /robotsmith.yaml: %v, want %v\n%s", got, tc.files == 1, h)
			}
		})
	}
}

// TestFailedBuildLeavesNothing: a build that fails leaves every output file as it was and no file
// of robotsmith's behind, neither journal nor temporary file, whatever failed (SPEC §10): a value
// found malformed while the other pages' temporary files are written, a folder where no file can be
// made (a read-only volume, which refuses even root). The one exception is an undo that cannot
// finish (a folder where robotsmith may create files but not remove them: chattr +a), and the
// build's error then says so; the next run finishes it.
func TestFailedBuildLeavesNothing(t *testing.T) {
	bad := strings.Replace(page, "<title>", "<meta name=\"googlebot\" content=\"max-snippet:lots\">\n<title>", 1)
	readOnly := func(t *testing.T, dir string) func() {
		testtool.ReadOnly(t, filepath.Join(dir, "blog"))
		return nil
	}
	appendOnly := func(t *testing.T, dir string) func() {
		blog := filepath.Join(dir, "blog", "a") // the folder of blog/a/index.html
		if out, err := exec.Command("chattr", "+a", blog).CombinedOutput(); err != nil {
			t.Skipf("chattr +a: %v: %s", err, out)
		}
		undo := func() { exec.Command("chattr", "-a", blog).Run() }
		t.Cleanup(undo)
		return undo
	}
	for _, tc := range []struct {
		desc  string
		files map[string]string
		// setup makes the condition; it returns how to lift it (nil: the test's end does)
		setup func(t *testing.T, dir string) func()
		// changed is a page that another process rewrites once every page is processed, before
		// the commit, with the content it then keeps
		changed   string
		want      []string // in the error
		undoFails bool
	}{
		{"a malformed value", map[string]string{"zz/bad/index.html": bad}, nil, "", []string{"zz/bad/index.html:5"}, false},
		{"a read-only subfolder", nil, readOnly, "", []string{"blog/a/index.html"}, false},
		{"a read-only subfolder and a malformed value", map[string]string{"zz/bad/index.html": bad}, readOnly, "",
			[]string{"blog/a/index.html", "zz/bad/index.html:5"}, false},
		{"a page rewritten during the build", nil, nil, "blog/a/index.html",
			[]string{"blog/a/index.html: changed by another process during the build"}, false},
		{"an undo that cannot finish", map[string]string{"zz/bad/index.html": bad}, appendOnly, "",
			[]string{"zz/bad/index.html:5", "failed; the next robotsmith run finishes it"}, true},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := plainSite(t)
			writeTree(t, dir, tc.files)
			before := readTree(t, dir)
			var lift func()
			if tc.setup != nil {
				lift = tc.setup(t, dir)
			}
			opt := Options{Root: dir, Write: true, Workers: 1}
			if tc.changed != "" {
				const theirs = "<p>the generator's page</p>\n"
				before[tc.changed] = theirs
				opt.Progress = func(phase Phase, done, total int) {
					if phase == ProcessingPages && done == total {
						writeTree(t, dir, map[string]string{tc.changed: theirs})
					}
				}
			}
			_, err := Run(context.Background(), opt)
			if err == nil {
				t.Fatal("build: got no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error: got %v, want it to say %q", err, w)
				}
			}
			after := readTree(t, dir)
			if tc.undoFails {
				// The originals are as they were; robotsmith's own files wait for the next run.
				for name := range after {
					if safefs.Own(filepath.Base(name)) {
						delete(after, name)
					}
				}
			}
			if !reflect.DeepEqual(after, before) {
				t.Errorf("the output after the failed build:\n%s", treeDiff(after, before))
			}
			if !tc.undoFails {
				return
			}
			lift()
			if _, err := Run(context.Background(), Options{Root: dir}); err == nil {
				t.Fatal("check: got no error, want the malformed value")
			}
			if after := readTree(t, dir); !reflect.DeepEqual(after, before) {
				t.Errorf("the output once the next run finished the undo:\n%s", treeDiff(after, before))
			}
		})
	}
}

// treeDiff says how the tree got (readTree) differs from want.
func treeDiff(got, want map[string]string) string {
	var out []string
	for _, k := range sortedKeys(got) {
		if w, ok := want[k]; !ok {
			out = append(out, k+": not there before")
		} else if got[k] != w {
			out = append(out, k+": changed")
		}
	}
	for _, k := range sortedKeys(want) {
		if _, ok := got[k]; !ok {
			out = append(out, k+": gone")
		}
	}
	return strings.Join(out, "\n")
}

// TestLinkedFolders: a SITE or an output folder that is a symbolic link is followed to the folder
// it names, once, and the report says so (SPEC §1); build, check, explain and watch all work on
// that folder, and below it a link is still never followed out of it (SPEC §10). The link stays a
// link. Before, the walk did not enter a linked output folder: 0 pages, exit 0.
func TestLinkedFolders(t *testing.T) {
	for _, tc := range []struct {
		desc string
		// layout makes the site under parent and returns its SITE, its --output ("" for none), the
		// folder the output really is, and the link the report names with its target.
		layout func(t *testing.T, parent string) (root, output, real string, link Symlink)
	}{
		{"an output folder that is a link", func(t *testing.T, parent string) (string, string, string, Symlink) {
			root, real := filepath.Join(parent, "site"), filepath.Join(parent, "elsewhere")
			hugoLayout(t, root, real)
			symlink(t, "../elsewhere", filepath.Join(root, "public"))
			return root, "", real, Symlink{Path: filepath.Join(root, "public"), Target: real}
		}},
		{"a SITE that is a link and is the output (no generator)", func(t *testing.T, parent string) (string, string, string, Symlink) {
			real, link := filepath.Join(parent, "real"), filepath.Join(parent, "site-link")
			writeTree(t, real, readTree(t, plainSite(t)))
			symlink(t, "real", link)
			return link, "", real, Symlink{Path: link, Target: real}
		}},
		{"a SITE that is a link, its output in it", func(t *testing.T, parent string) (string, string, string, Symlink) {
			real, link := filepath.Join(parent, "real"), filepath.Join(parent, "site-link")
			hugoLayout(t, real, filepath.Join(real, "public"))
			symlink(t, real, link) // an absolute link
			return link, "", filepath.Join(real, "public"), Symlink{Path: link, Target: real}
		}},
		{"--output that is a link", func(t *testing.T, parent string) (string, string, string, Symlink) {
			root, real, link := filepath.Join(parent, "site"), filepath.Join(parent, "out"), filepath.Join(parent, "out-link")
			hugoLayout(t, root, real)
			symlink(t, "out", link)
			return root, link, real, Symlink{Path: link, Target: real}
		}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			ctx := context.Background()
			parent := t.TempDir()
			root, output, real, link := tc.layout(t, parent)
			// Below the folder, a link that leads out of it is still skipped, never followed.
			symlink(t, filepath.Join(parent, "secret.html"), filepath.Join(real, "out.html"))
			writeTree(t, parent, map[string]string{"secret.html": page})
			opt := Options{Root: root, Output: output}

			b := opt
			b.Write = true
			rep, err := Run(ctx, b)
			if err != nil {
				t.Fatalf("build: %v", err)
			}
			if rep.Pages == 0 || rep.Changed == 0 {
				t.Errorf("build: %d pages, %d changed; want the folder the link names built", rep.Pages, rep.Changed)
			}
			if !slices.Equal(rep.Symlinks, []Symlink{link}) {
				t.Errorf("build: links %+v, want %+v", rep.Symlinks, []Symlink{link})
			}
			if s := rep.Summary(true, false); !strings.HasPrefix(s, link.Path+" → "+link.Target+" (a symbolic link, followed)\n") {
				t.Errorf("build: the summary does not begin by naming the link:\n%s", s)
			}
			if !hasWarning(rep.Warnings, "out.html", "leads outside the output folder") {
				t.Errorf("build: no warning skips the link out of the folder: %q", rep.Warnings)
			}
			if !holds(t, filepath.Join(real, "index.html"), publicTag) {
				t.Errorf("build: %s/index.html not processed", real)
			}
			if got, err := os.ReadFile(filepath.Join(parent, "secret.html")); err != nil || string(got) != page {
				t.Errorf("build: the file outside changed: %q, %v", got, err)
			}
			if fi, err := os.Lstat(link.Path); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("build: %s is no longer a link (%v)", link.Path, err)
			}

			c := opt
			c.Strict = true
			rep, err = Run(ctx, c)
			if err != nil || rep.Changed != 0 || len(rep.Findings) != 1 || rep.Pages == 0 {
				t.Errorf("check --strict after build: %v, %d changed, %d pages, findings %q; want nothing to change, and the one warning about out.html",
					err, rep.Changed, rep.Pages, rep.Findings)
			}

			es, err := Explain(ctx, opt, []string{"/", filepath.Join(link.Path, strings.TrimPrefix(real, link.Target), "index.html")})
			if err != nil || len(es) != 2 || es[0].Class != "public" || es[1].File != es[0].File {
				t.Errorf("explain: %v, %+v; want / twice, by its URL and by its file through the link", err, es)
			}

			l, err := NewLive(ctx, opt, watch.NewOwn())
			if err != nil {
				t.Fatal(err)
			}
			u := l.Build(ctx)
			if len(u.Errs) > 0 || u.Report == nil || u.Report.Pages == 0 || !slices.Equal(u.Report.Symlinks, []Symlink{link}) {
				t.Fatalf("watch, first pass: %v, report %+v", u.Errs, u.Report)
			}
			roots, _ := l.Watch()
			if roots[0] != real {
				t.Errorf("watch: watches %q, want the output folder %s first", roots, real)
			}
			writeTree(t, real, map[string]string{"index.html": themePage("Home again")})
			u = l.Apply(ctx, watch.Batch{Changes: []watch.Change{change(t, l, outputRoot, "index.html", watch.Write)}})
			if len(u.Errs) > 0 || !slices.Equal(u.Wrote, []string{"index.html"}) || !holds(t, filepath.Join(real, "index.html"), publicTag) {
				t.Errorf("watch, one batch: %v, wrote %q; want index.html processed again", u.Errs, u.Wrote)
			}
		})
	}
}

// hugoLayout writes a Hugo site at root whose output, as Hugo wrote it, is in out.
func hugoLayout(t *testing.T, root, out string) {
	t.Helper()
	site := liveSite(t)
	for name, body := range readTree(t, site) {
		dir := root
		if rel, ok := strings.CutPrefix(name, "public/"); ok {
			dir, name = out, rel
		}
		writeTree(t, dir, map[string]string{name: body})
	}
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

// TestEmptyOutput: an output folder with no page in it is suspicious (the wrong folder, a link
// robotsmith did not follow, a generator that wrote elsewhere): a run that decided nothing says
// so, and check --strict fails on it, rather than ending green having done nothing.
func TestEmptyOutput(t *testing.T) {
	for _, tc := range []struct {
		desc  string
		files map[string]string
		warn  bool
	}{
		{"an empty folder", map[string]string{"robotsmith.yaml": "rules: []\n"}, true},
		{"only other files", map[string]string{"files/x.pdf": "%PDF-1.4\n", "robots.txt": "User-agent: *\n"}, true},
		{"a page", map[string]string{"index.html": page}, false},
		{"a page that is not HTML", map[string]string{"google1234.html": "google-site-verification: google1234.html"}, false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tc.files)
			for _, strict := range []bool{false, true} {
				rep, err := Run(context.Background(), Options{Root: dir, Write: !strict, Strict: strict})
				if err != nil {
					t.Fatal(err)
				}
				said := rep.Warnings
				if strict {
					said = rep.Findings
				}
				if got := hasWarning(said, dir+": no page (.html file) in the output folder", "[RS0504 no-pages]"); got != tc.warn {
					t.Errorf("strict %v: warned %v, want %v: warnings %q, findings %q", strict, got, tc.warn, rep.Warnings, rep.Findings)
				}
			}
		})
	}
}
