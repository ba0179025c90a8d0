//go:build linux

package integration

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// The robotsmith binary's watch mode against the real generators in their own watch modes (SPEC
// §8): `robotsmith watch SITE -- CMD` runs the generator as its child on a copy of a fixture;
// each edit (front matter, a rule, a template that rewrites every page, a new section, a deleted
// page, a broken edit and its fix) must reach the output, fixed by robotsmith (within two seconds
// is the target, logged for each step);
// Ctrl-C must end robotsmith with status 0 and the generator's process group with it; and
// `robotsmith check` must then find nothing to change.

// watchWithin is how soon after an edit its effect should be in the output, fixed (SPEC §8's
// target). Each step logs how long it took against it; the test fails only past watchBound, so that
// a loaded machine (two cores shared by several test runs, a Ruby generator among them) cannot
// make it fail while nothing is wrong. The figure is read from the logs (-v), not asserted.
const watchWithin = 2 * time.Second

// watchBound is how long a step may take before the test fails: the edit was missed.
const watchBound = 30 * time.Second

// The robotsmith block as the fixtures' pages get it.
const (
	blockStart  = "<!-- robotsmith -->"
	noindexMeta = `<meta name="robots" content="noindex`
	publicMeta  = `<meta name="googlebot" content="index, follow`
)

// want is one thing that must be true after an edit.
type want struct {
	file   string // a file of the site, slash path; "" for robotsmith's output
	text   string // it holds this (or, with not, does not)
	not    bool
	stderr bool // with file "": robotsmith's stderr, else its stdout
	gone   bool // the file is not there
}

func (w want) String() string {
	switch {
	case w.gone:
		return w.file + " gone"
	case w.file == "" && w.stderr:
		return fmt.Sprintf("stderr with %q", w.text)
	case w.file == "":
		return fmt.Sprintf("stdout with %q", w.text)
	case w.not:
		return fmt.Sprintf("%s without %q", w.file, w.text)
	}
	return fmt.Sprintf("%s with %q", w.file, w.text)
}

type watchStep struct {
	desc  string
	edit  map[string]string // files to write (slash paths); "" removes the file
	wants []want
}

type watchRun struct {
	name    string
	bin     func(t testing.TB) string
	args    []string // "{port}" is a free port
	fixture string
	output  string
	ready   string // the generator watches its sources once it has printed this
	// warm, when set, is a source and its output file (slash paths): before the first step the
	// source is touched until the generator writes the output again. Jekyll's watcher (the listen
	// gem) records the folder's files in a thread of its own after it prints that it watches; an
	// edit made while it records is taken for no change.
	warm [2]string
	// watching are the folders and files robotsmith's first line must name (slash paths, relative
	// to the site), in this order.
	watching []string
	// notes are what robotsmith must say on stderr as it starts (a moved flag's line).
	notes []string
	steps []watchStep
}

// page is what a page of the fixtures must hold once robotsmith has fixed it: the generator's
// text and robotsmith's block with the robots tag of its decision.
func page(file, text string, noindex bool) []want {
	tag := publicMeta
	if noindex {
		tag = noindexMeta
	}
	return []want{{file: file, text: text}, {file: file, text: blockStart}, {file: file, text: tag}}
}

func TestWatchGenerators(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generators; not with -short")
	}
	hugoSteps := []watchStep{
		{
			desc: "front matter edit",
			edit: map[string]string{"content/blog/a.md": "---\ntitle: A2\nrobots: noindex\n---\nalpha2\n"},
			wants: append(page("public/blog/a/index.html", "<h1>A2</h1>", true),
				want{text: "/blog/a/ public → noindex"}),
		},
		{
			desc: "a rule",
			edit: map[string]string{"robotsmith.yaml": "rules:\n  - path: /files/**\n    robots: noindex\n  - path: /blog/b/\n    robots: noindex\n"},
			wants: append(page("public/blog/b/index.html", "<h1>B</h1>", true),
				want{text: "/blog/b/ public → noindex"}),
		},
		{
			desc: "template edit: every page rewritten",
			edit: map[string]string{"layouts/_default/single.html": "{{ define \"main\" }}<h1 class=\"t\">{{ .Title }}</h1>{{ .Content }}{{ end }}\n"},
			wants: append(page("public/blog/a/index.html", `<h1 class="t">A2</h1>`, true),
				page("public/blog/b/index.html", `<h1 class="t">B</h1>`, true)...),
		},
		{
			desc: "new section",
			edit: map[string]string{"content/news/n1.md": "---\ntitle: N1\n---\nnews\n"},
			wants: append(page("public/news/n1/index.html", `<h1 class="t">N1</h1>`, false),
				page("public/news/index.html", `href="/news/n1/"`, false)...),
		},
		{
			desc: "deleted page",
			edit: map[string]string{"content/blog/b.md": ""},
			// Hugo rewrites the list without it, and leaves the page's own file (robotsmith keeps
			// deciding it by the rules, as build does).
			wants: append(page("public/blog/index.html", "<h1>Blog</h1>", false),
				want{file: "public/blog/index.html", text: "/blog/b/", not: true}),
		},
		{
			desc: "broken front matter",
			edit: map[string]string{"content/blog/a.md": "---\ntitle: [unclosed\n---\nbroken\n"},
			// The line of the list left open, as Hugo's own error says ("a.md:2:8").
			wants: []want{{text: "content/blog/a.md:2: front matter", stderr: true}},
		},
		{
			desc:  "fixed front matter",
			edit:  map[string]string{"content/blog/a.md": "---\ntitle: Fixed\n---\nfixed\n"},
			wants: append(page("public/blog/a/index.html", `<h1 class="t">Fixed</h1>`, false), want{text: "/blog/a/ noindex → public"}),
		},
		{
			desc:  "misspelt rule",
			edit:  map[string]string{"robotsmith.yaml": "rules:\n  - path: /files/**\n    robots: noindx\n"},
			wants: []want{{text: "robotsmith.yaml:3", stderr: true}, {text: `did you mean "noindex"`, stderr: true}},
		},
		{
			desc:  "fixed rule",
			edit:  map[string]string{"robotsmith.yaml": "rules:\n  - path: /files/**\n    robots: noindex\n"},
			wants: []want{{text: "(configuration changed)"}, {text: "/blog/b/ noindex → public"}},
		},
	}
	jekyllSteps := []watchStep{
		{
			desc: "front matter edit",
			edit: map[string]string{"blog/a.md": "---\nlayout: default\ntitle: A2\nrobots: noindex\n---\nalpha2\n"},
			// Jekyll's cleaner removes _headers on every regeneration: robotsmith writes it again.
			wants: append(page("_site/blog/a.html", "<title>A2</title>", true),
				want{file: "_site/_headers", text: "/files/x.pdf"}, want{text: "/blog/a.html public → noindex"}),
		},
		{
			desc: "a rule",
			edit: map[string]string{"robotsmith.yaml": "rules:\n  - path: /files/**\n    robots: noindex\n  - path: /blog/b.html\n    robots: noindex\n"},
			wants: append(page("_site/blog/b.html", "<title>B</title>", true),
				want{file: "_site/_headers", text: "/files/x.pdf"}, want{text: "/blog/b.html public → noindex"}),
		},
		{
			desc: "template edit: every page rewritten",
			edit: map[string]string{"_layouts/default.html": "<!doctype html><html><head><meta charset=\"utf-8\"><meta name=\"robots\" content=\"index, follow\"><title>{{ page.title }}</title></head><body class=\"t\">{{ content }}</body></html>\n"},
			wants: append(append(page("_site/blog/a.html", `<body class="t">`, true),
				page("_site/blog/b.html", `<body class="t">`, true)...),
				append(page("_site/index.html", `<body class="t">`, false), want{file: "_site/_headers", text: "/files/x.pdf"})...),
		},
		{
			desc:  "new section",
			edit:  map[string]string{"news/n1.md": "---\nlayout: default\ntitle: N1\n---\nnews\n"},
			wants: append(page("_site/news/n1.html", "<title>N1</title>", false), want{file: "_site/_headers", text: "/files/x.pdf"}),
		},
		{
			desc:  "deleted page",
			edit:  map[string]string{"blog/b.md": ""},
			wants: []want{{file: "_site/blog/b.html", gone: true}, {text: "/blog/b.html gone (was noindex)"}, {file: "_site/_headers", text: "/files/x.pdf"}},
		},
		{
			desc: "broken front matter",
			edit: map[string]string{"blog/a.md": "---\nlayout: default\ntitle: [unclosed\n---\nbroken\n"},
			// Jekyll builds the page without its front matter; robotsmith warns, and maps it
			// as Jekyll does.
			wants: []want{{text: "blog/a.md:3: front matter", stderr: true}},
		},
		{
			desc:  "fixed front matter",
			edit:  map[string]string{"blog/a.md": "---\nlayout: default\ntitle: Fixed\n---\nfixed\n"},
			wants: append(page("_site/blog/a.html", "<title>Fixed</title>", false), want{file: "_site/_headers", text: "/files/x.pdf"}),
		},
		{
			desc:  "misspelt rule",
			edit:  map[string]string{"robotsmith.yaml": "rules:\n  - path: /files/**\n    robots: noindx\n"},
			wants: []want{{text: "robotsmith.yaml:3", stderr: true}, {text: `did you mean "noindex"`, stderr: true}},
		},
		{
			desc:  "fixed rule",
			edit:  map[string]string{"robotsmith.yaml": "rules:\n  - path: /files/**\n    robots: noindex\n"},
			wants: []want{{text: "(configuration changed)"}, {file: "_site/_headers", text: "/files/x.pdf"}},
		},
	}
	runs := []watchRun{
		{
			name: "hugo server", bin: watchHugo, fixture: "testdata/watch/hugo", output: "public",
			args:  []string{"server", "--bind", "127.0.0.1", "--port", "{port}", "--disableFastRender"},
			ready: "Press Ctrl+C to stop", steps: hugoSteps,
		},
		{
			name: "hugo --watch", bin: watchHugo, fixture: "testdata/watch/hugo", output: "public",
			args:  []string{"--watch"},
			ready: "Press Ctrl+C to stop", steps: hugoSteps,
		},
		{
			name: "jekyll build --watch", bin: testtool.Jekyll, fixture: "testdata/watch/jekyll", output: "_site",
			args:  []string{"build", "--watch"},
			ready: "Auto-regeneration: enabled", steps: jekyllSteps, warm: [2]string{"index.md", "_site/index.html"},
		},
		{
			name: "jekyll serve", bin: testtool.Jekyll, fixture: "testdata/watch/jekyll", output: "_site",
			args:  []string{"serve", "--host", "127.0.0.1", "--port", "{port}"},
			ready: "Server running", steps: jekyllSteps, warm: [2]string{"index.md", "_site/index.html"},
		},
	}
	exerciseAll(t, runs)
}

// TestWatchSources: robotsmith watch watches every folder the site's map reads, with the real
// generators in their watch modes: a front matter edit in each kind of folder reaches its page,
// fixed (SPEC §8): each language's content folder and Hugo's config/_default on a site laid out
// as hugo-book's example site is, where a language added in the configuration brings a folder
// that is then watched too; a module's content mount and a theme's content on another; Jekyll's
// collections_dir, with a collection and posts in it. The first line names those folders. Each
// edit's page is then noindex (or public again), in the output, with robotsmith's block.
func TestWatchSources(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generators; not with -short")
	}
	noindex := func(file, text string) []want {
		return []want{{file: file, text: text}, {file: file, text: blockStart}, {file: file, text: noindexMeta}}
	}
	public := func(file, text string) []want {
		return []want{{file: file, text: text}, {file: file, text: noindexMeta, not: true}}
	}
	runs := []watchRun{
		{
			name: "hugo-book's layout", bin: watchHugo, fixture: "site/testdata/hugo/book", output: "public",
			args: []string{"--watch"}, ready: "Press Ctrl+C to stop",
			watching: []string{"public", "config/_default", "config/production", "content.en", "content.zh", "content.he"},
			steps: []watchStep{
				{
					desc: "content.en",
					edit: map[string]string{"content.en/docs/intro.md": "---\ntitle: Intro 2\nweight: 1\nrobots: noindex\n---\nDocs.\n"},
					wants: append(noindex("public/docs/intro/index.html", "<title>Intro 2</title>"),
						want{text: "/docs/intro/ public → noindex"}),
				},
				{
					desc: "content.he",
					edit: map[string]string{"content.he/docs/intro.md": "---\ntitle: מבוא 2\nrobots: noindex\n---\nתיעוד\n"},
					wants: append(noindex("public/he/docs/intro/index.html", "<title>מבוא 2</title>"),
						want{text: "/he/docs/intro/ public → noindex"}),
				},
				{
					desc: "content.zh",
					edit: map[string]string{"content.zh/posts/example-post.md": "---\ntitle: 示例 2\ndate: 2020-01-01\n---\n文章\n"},
					wants: append(public("public/zh/posts/example-post/index.html", "<title>示例 2</title>"),
						want{text: "/zh/posts/example-post/ noindex → public"}),
				},
				{
					desc: "config/_default: a language with a folder of its own",
					edit: map[string]string{
						"config/_default/languages.toml": "[en]\n  contentDir = \"content.en\"\n  weight = 1\n[zh]\n  contentDir = \"content.zh\"\n  weight = 2\n[fr]\n  contentDir = \"content.fr\"\n  weight = 4\n",
						"content.fr/_index.md":           "---\ntitle: Accueil\n---\n",
						"content.fr/docs/guide.md":       "---\ntitle: Guide\nrobots: noindex\n---\nGuide.\n",
					},
					// robotsmith says what it watches now, the new folder last.
					wants: append(noindex("public/fr/docs/guide/index.html", "<title>Guide</title>"),
						want{text: "/content.fr (Ctrl-C stops)"}),
				},
				{
					desc: "content.fr, the new folder",
					edit: map[string]string{"content.fr/docs/guide.md": "---\ntitle: Guide 2\n---\nGuide.\n"},
					// Hugo v0.165.0's --watch does not watch a content folder that a change of its
					// configuration added: it printed nothing for this edit, and the page keeps its
					// old title until Hugo is restarted. robotsmith watches it, and fixes the page's
					// tags.
					wants: append(public("public/fr/docs/guide/index.html", "<title>Guide</title>"), want{text: "/fr/docs/guide/ noindex → public"}),
				},
			},
		},
		{
			name: "hugo's module and theme mounts", bin: watchHugo, fixture: "site/testdata/hugo/bookmount", output: "public",
			args: []string{"--watch"}, ready: "Press Ctrl+C to stop",
			watching: []string{"public", "hugo.yaml", "themes/book/hugo.toml", "content.en", "content.zh", "shared/guides", "themes/book/content"},
			steps: []watchStep{
				{
					desc:  "a module's content mount",
					edit:  map[string]string{"shared/guides/install.md": "---\ntitle: Install 2\n---\nSteps.\n"},
					wants: append(public("public/guides/install/index.html", "<title>Install 2</title>"), want{text: "/guides/install/ noindex → public"}),
				},
				{
					desc:  "a theme's content",
					edit:  map[string]string{"themes/book/content/docs/shortcodes.md": "---\ntitle: Shortcodes 2\n---\nS.\n"},
					wants: append(public("public/docs/shortcodes/index.html", "<title>Shortcodes 2</title>"), want{text: "/docs/shortcodes/ noindex → public"}),
				},
				{
					desc:  "a language's mounted folder",
					edit:  map[string]string{"content.zh/posts/example-post.md": "---\ntitle: 示例 2\ndate: 2020-01-01\nrobots: noindex\n---\n文章\n"},
					wants: append(noindex("public/zh/posts/example-post/index.html", "<title>示例 2</title>"), want{text: "/zh/posts/example-post/ public → noindex"}),
				},
			},
		},
		{
			name: "jekyll's collections_dir", bin: testtool.Jekyll, fixture: "testdata/watch/jekyll-collections", output: "_site",
			args: []string{"build", "--watch"}, ready: "Auto-regeneration: enabled", warm: [2]string{"index.md", "_site/index.html"},
			watching: []string{"_site", "_config.yml", ".", "my_collections", "my_collections/_recipes"},
			steps: []watchStep{
				{
					desc:  "a collection",
					edit:  map[string]string{"my_collections/_recipes/soup.md": "---\nlayout: default\ntitle: Soup 2\nrobots: noindex\n---\nsoup\n"},
					wants: append(noindex("_site/recipes/soup.html", "<title>Soup 2</title>"), want{text: "/recipes/soup.html public → noindex"}),
				},
				{
					desc:  "posts in collections_dir",
					edit:  map[string]string{"my_collections/_posts/2024-01-01-hello.md": "---\nlayout: default\ntitle: Hello 2\nrobots: noindex\n---\nhello\n"},
					wants: append(noindex("_site/2024/01/01/hello.html", "<title>Hello 2</title>"), want{text: "/2024/01/01/hello.html public → noindex"}),
				},
			},
		},
	}
	exerciseAll(t, runs)
}

// TestWatchMovedFlags: a generator flag the installed Hugo no longer has, in the command after --,
// gets one line naming what replaced it, and the command runs without it (or with its
// replacement), where Hugo v0.165.0 itself answers "Error: unknown flag: --renderToDisk" with its
// whole usage and exits 1, and the watch with it.
func TestWatchMovedFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generators; not with -short")
	}
	edit := []watchStep{{
		desc:  "front matter edit",
		edit:  map[string]string{"content/blog/a.md": "---\ntitle: A2\nrobots: noindex\n---\nalpha2\n"},
		wants: append(page("public/blog/a/index.html", "<h1>A2</h1>", true), want{text: "/blog/a/ public → noindex"}),
	}}
	runs := []watchRun{
		{
			name: "hugo server --renderToDisk", bin: watchHugo, fixture: "testdata/watch/hugo", output: "public",
			args:  []string{"server", "--renderToDisk", "--bind", "127.0.0.1", "--port", "{port}", "--disableFastRender"},
			ready: "Press Ctrl+C to stop", steps: edit,
			notes: []string{"robotsmith: hugo server --renderToDisk is gone since Hugo v0.123.0, as hugo server writes to disk by default (--renderToMemory keeps the pages in memory): leave it out\n"},
		},
		{
			name: "hugo --watch --verbose", bin: watchHugo, fixture: "testdata/watch/hugo", output: "public",
			args:  []string{"--watch", "--verbose"},
			ready: "Press Ctrl+C to stop", steps: edit,
			// --logLevel info, in its place: Hugo's INFO lines.
			notes: []string{"robotsmith: hugo --verbose is gone since Hugo v0.114.0: use --logLevel info instead\n", "INFO "},
		},
	}
	exerciseAll(t, runs)
}

// watchHugo is the Hugo the watch tests run: the version they were written against, whose watch
// mode their comments describe, or testtool.Missing.
func watchHugo(t testing.TB) string {
	p, version := testtool.Hugo(t)
	if version != testtool.HugoVersion {
		testtool.Missing(t, "hugo at %s is %s; the watch tests are for %s", p, version, testtool.HugoVersion)
	}
	return p
}

// exerciseAll builds robotsmith's binary and exercises each run in a subtest of its own.
func exerciseAll(t *testing.T, runs []watchRun) {
	bin := testtool.Robotsmith(t)
	for _, run := range runs {
		t.Run(run.name, func(t *testing.T) { run.exercise(t, bin) })
	}
}

// startWatch starts robotsmith's binary bin with args, its output kept, and returns the command,
// its stdout and stderr, and its exit status, sent once and then closed: once waitFor has taken
// the status, a deferred stop does not wait for a second one.
func startWatch(t *testing.T, bin string, args ...string) (*exec.Cmd, *testtool.Output, *testtool.Output, <-chan error) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stdout, stderr := &testtool.Output{}, &testtool.Output{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); close(exited) }()
	return cmd, stdout, stderr, exited
}

// exercise runs robotsmith's binary bin as `robotsmith watch SITE -- GENERATOR ARGS` on a copy of
// the run's fixture, makes each step's edit in turn and waits for what it wants, then stops it with
// Ctrl-C and checks that it exits 0, that the generator's process group is gone, and that robotsmith
// check finds nothing to change.
func (run watchRun) exercise(t *testing.T, bin string) {
	gen := run.bin(t)
	site := t.TempDir()
	testtool.CopyTree(t, run.fixture, site)
	args := []string{"watch", site, "--", gen}
	for _, a := range run.args {
		args = append(args, strings.ReplaceAll(a, "{port}", strconv.Itoa(testtool.FreePort(t))))
	}
	cmd, stdout, stderr, exited := startWatch(t, bin, args...)
	stopped := false
	defer func() {
		if !stopped {
			cmd.Process.Signal(os.Interrupt)
			<-exited
		}
		if t.Failed() {
			t.Logf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
		}
	}()
	child := childOf(t, cmd.Process.Pid)

	// The generator's first build, and robotsmith's first pass over it (Ruby and Hugo take
	// their time to start).
	waitFor(t, time.Minute, exited, func() []string {
		var missing []string
		if !strings.Contains(stdout.String()+stderr.String(), run.ready) {
			missing = append(missing, "the generator ready")
		}
		if !strings.Contains(stdout.String(), "(first pass)") {
			missing = append(missing, "robotsmith's first pass")
		}
		for _, n := range run.notes {
			if !strings.Contains(stderr.String(), n) {
				missing = append(missing, "stderr with "+strconv.Quote(n))
			}
		}
		return missing
	})
	if len(run.watching) > 0 {
		first, _, _ := strings.Cut(stdout.String(), "\n")
		at := 0
		for _, name := range run.watching {
			i := strings.Index(first[at:], filepath.ToSlash(filepath.Join(site, name)))
			if i < 0 {
				t.Errorf("the first line does not name %s after %q: %q", name, first[:at], first)
				break
			}
			at += i + 1
		}
	}
	if run.warm[0] != "" {
		warmGenerator(t, site, run.warm[0], run.warm[1])
	}
	for _, s := range run.steps {
		t.Run(s.desc, func(t *testing.T) {
			quiet(t, stdout, stderr)
			outMark, errMark := len(stdout.String()), len(stderr.String())
			start := time.Now()
			// Files written into a folder the edit made: a generator's watcher (Jekyll's
			// listen) may miss them on a loaded machine, before it watches the folder; an
			// author saves again, and so does this, every 3 s until the output is right.
			var fresh []string
			for rel, body := range s.edit {
				p := filepath.Join(site, filepath.FromSlash(rel))
				if body == "" {
					if err := os.Remove(p); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if _, err := os.Stat(filepath.Dir(p)); err != nil {
					fresh = append(fresh, p)
				}
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			touched := time.Now()
			waitFor(t, watchBound, exited, func() []string {
				if len(fresh) > 0 && time.Since(touched) > 3*time.Second {
					touched = time.Now()
					for _, p := range fresh {
						os.Chtimes(p, touched, touched)
					}
				}
				var missing []string
				for _, w := range s.wants {
					if !w.holds(site, stdout.String()[outMark:], stderr.String()[errMark:]) {
						missing = append(missing, w.String())
					}
				}
				return missing
			})
			took := time.Since(start).Round(time.Millisecond)
			if took > watchWithin {
				t.Logf("in the output, fixed, %v after the edit: slower than the %v target (a loaded machine?)", took, watchWithin)
			} else {
				t.Logf("in the output, fixed, %v after the edit", took)
			}
		})
	}

	// Ctrl-C: robotsmith passes it on, the generator stops, robotsmith exits 0.
	quiet(t, stdout, stderr)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		stopped = true
		if err != nil {
			t.Errorf("after Ctrl-C: %v, want exit status 0", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("robotsmith did not exit within 30 s of Ctrl-C")
	}
	if err := syscall.Kill(-child, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the generator's process group %d is still there after robotsmith exited (kill: %v)", child, err)
	}
	// Everything robotsmith left is in step: check finds nothing to change.
	if out, err := exec.Command(bin, "check", site).CombinedOutput(); err != nil {
		t.Errorf("robotsmith check after the watch: %v\n%s", err, out)
	}
}

// holds reports whether w is true now; out and errs are what robotsmith printed since the edit.
func (w want) holds(site, out, errs string) bool {
	if w.file == "" {
		if w.stderr {
			return strings.Contains(errs, w.text)
		}
		return strings.Contains(out, w.text)
	}
	b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(w.file)))
	if w.gone {
		return errors.Is(err, os.ErrNotExist)
	}
	return err == nil && bytes.Contains(b, []byte(w.text)) != w.not
}

// warmGenerator touches the source src until the generator writes its output file out again (a
// new modification time), each touch given a few seconds: an answer proves that it watches.
func warmGenerator(t *testing.T, site, src, out string) {
	t.Helper()
	src, out = filepath.Join(site, filepath.FromSlash(src)), filepath.Join(site, filepath.FromSlash(out))
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		before, err := os.Stat(out)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		if err := os.Chtimes(src, now, now); err != nil {
			t.Fatal(err)
		}
		for wait := time.Now().Add(5 * time.Second); time.Now().Before(wait); time.Sleep(20 * time.Millisecond) {
			if fi, err := os.Stat(out); err == nil && (!fi.ModTime().Equal(before.ModTime()) || !os.SameFile(fi, before)) {
				return
			}
		}
		t.Logf("the generator did not answer a touch of %s yet: again", src)
	}
	t.Fatalf("the generator never wrote %s again for a touch of %s", out, src)
}

// waitFor polls until check reports nothing missing, failing with what is missing after limit or
// when robotsmith exits.
func waitFor(t *testing.T, limit time.Duration, exited <-chan error, check func() []string) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		missing := check()
		if len(missing) == 0 {
			return
		}
		select {
		case err := <-exited:
			t.Fatalf("robotsmith exited (%v) while waiting for %q", err, missing)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %q", limit, missing)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// quiet waits until robotsmith and the generator have printed nothing for a second (each batch
// prints a line), so that the next edit's effects are its own.
func quiet(t *testing.T, outs ...*testtool.Output) {
	t.Helper()
	size := func() int {
		n := 0
		for _, o := range outs {
			n += len(o.String())
		}
		return n
	}
	last, since := size(), time.Now()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if n := size(); n != last {
			last, since = n, time.Now()
		} else if time.Since(since) >= time.Second {
			return
		}
	}
	t.Fatal("robotsmith and the generator never went quiet")
}

// childOf waits for the process pid to have a child that leads a process group of its own
// (watch.Child puts it in one) and returns its pid, which is also the group's. It reads /proc.
func childOf(t *testing.T, pid int) int {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
			if err != nil {
				continue
			}
			// pid (comm) state ppid pgrp ...: comm may hold anything but the last ')'.
			f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
			// Between fork and exec the child may not have its own group yet: wait for it.
			if len(f) > 2 && f[1] == strconv.Itoa(pid) && f[2] == e.Name() {
				child, _ := strconv.Atoi(e.Name())
				return child
			}
		}
	}
	t.Fatalf("robotsmith (pid %d) started no child in a process group of its own", pid)
	return 0
}
