package integration

// The plug-ins in plugins/, run by the real tools: the Netlify Build Plugin by `netlify build
// --offline` (netlify-cli from .ci/install-hosts, inside a network namespace with only loopback),
// and the Jekyll plugin by Jekyll 4.3.1 (`jekyll build`, and `jekyll serve` with its regeneration).

import (
	"bytes"
	"context"
	"debug/elf"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/robotsmith/robotsmith/testsupport/hosttest"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// copyFile copies src to dst with mode.
func copyFile(t *testing.T, src, dst string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, mode); err != nil {
		t.Fatal(err)
	}
}

const robotsmithBlock = "<!-- robotsmith -->"

// TestNetlifyPlugin runs TestNetlifyPluginInNetns inside `unshare -n`: netlify-cli must not reach
// the network (telemetry, update checks), offline or not.
func TestNetlifyPlugin(t *testing.T) {
	hosttest.RunInNetns(t, "TestNetlifyPluginInNetns", hosttest.Netlify)
}

// TestNetlifyPluginVersion runs TestNetlifyPluginVersionInNetns likewise, with a time limit of its
// own: go run compiles robotsmith.
func TestNetlifyPluginVersion(t *testing.T) {
	hosttest.RunInNetns(t, "TestNetlifyPluginVersionInNetns", hosttest.Netlify)
}

// TestNetlifyPluginInNetns builds copies of the sample site with `netlify build --offline`, the
// stand-in generator as the build command and plugins/netlify installed as a local plugin, as the
// Netlify guide (docs/guides/netlify.md) says: in production robotsmith's tags and _headers are in
// the publish folder; in a deploy preview (previews: noindex) every page is noindex; the config
// input names a configuration elsewhere; a broken front matter fails the build, and robotsmith
// writes nothing.
func TestNetlifyPluginInNetns(t *testing.T) {
	netlifyBuilds(t, []netlifyCase{
		{
			desc:       "production, built from source",
			context:    "production",
			fromSource: true,
			want: map[string][]string{
				"blog/index.html": {robotsmithBlock, `<meta name="robots" content="index, follow">`, `<meta name="googlebot"`},
				"tags/index.html": {`<meta name="robots" content="noindex, follow">`},
				"_headers":        {"# robotsmith: begin", "/files/terms.pdf\n  X-Robots-Tag: noindex, nofollow"},
			},
		},
		{
			desc:    "deploy preview",
			context: "deploy-preview",
			want: map[string][]string{
				"blog/index.html": {robotsmithBlock, `<meta name="robots" content="noindex, follow">`},
				"index.html":      {`<meta name="robots" content="noindex, follow">`},
			},
			not: map[string][]string{"blog/index.html": {`<meta name="googlebot"`}},
		},
		{
			// The config input: without it robotsmith would find no configuration, and the taxonomy
			// rule would not make tags/ noindex.
			desc:    "config input",
			context: "production",
			config:  "seo/robots.yaml",
			want: map[string][]string{
				"tags/index.html": {`<meta name="robots" content="noindex, follow">`},
				"_headers":        {"/files/terms.pdf\n  X-Robots-Tag: noindex, nofollow"},
			},
		},
		{
			desc:    "broken front matter",
			context: "production",
			broken:  true,
			fails:   []string{`content/about.md:3: front matter robots: "max-snippet:lots"`, "robotsmith exited with status 1"},
			not:     map[string][]string{"blog/index.html": {robotsmithBlock}, "about/index.html": {robotsmithBlock}},
		},
		{
			desc:    "no robotsmith",
			context: "production",
			binary:  "no-such-robotsmith",
			fails:   []string{"robotsmith could not be started", "set the plugin's binary (or version) input"},
			not:     map[string][]string{"blog/index.html": {robotsmithBlock}},
		},
	})
}

// TestNetlifyPluginVersionInNetns: the version input runs robotsmith with go run.
func TestNetlifyPluginVersionInNetns(t *testing.T) {
	netlifyBuilds(t, []netlifyCase{
		{
			// The version input: `go run github.com/robotsmith/robotsmith@VERSION`, with the module
			// served by a module proxy in a folder (GOPROXY=file://...), as the Go module proxy will
			// serve it once it is published. No robotsmith binary is anywhere: only go run can pass.
			desc:    "version input",
			context: "production",
			version: "v0.1.0",
			binary:  "no-such-robotsmith",
			says:    []string{"go: downloading github.com/robotsmith/robotsmith v0.1.0"},
			want: map[string][]string{
				"blog/index.html": {robotsmithBlock, `<meta name="robots" content="index, follow">`},
				"tags/index.html": {`<meta name="robots" content="noindex, follow">`},
			},
		},
	})
}

// netlifyCase is one `netlify build --offline` of a copy of the sample site.
type netlifyCase struct {
	desc       string
	context    string
	broken     bool
	fromSource bool                // robotsmith's source in the site at robotsmith/, built by the build command
	binary     string              // the plugin's binary input; "" for bin/robotsmith
	version    string              // the plugin's version input, served by a local module proxy
	config     string              // robotsmith.yaml moved there, and the plugin's config input
	fails      []string            // the build fails, saying these
	says       []string            // the build passes, saying these
	want       map[string][]string // file in the publish folder -> what it must hold
	not        map[string][]string
}

// netlifyBuilds runs each case, inside the network namespace.
func netlifyBuilds(t *testing.T, tests []netlifyCase) {
	hosttest.RequireNetns(t)
	netlify := hosttest.Command(t, hosttest.Netlify)
	bin := testtool.Robotsmith(t)
	gen := testtool.SampleGenerator(t)

	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			site := testtool.SampleSite(t, gen)
			command, plugin := gen, "./plugins/robotsmith"
			if tc.fromSource {
				// the Netlify guide's netlify.toml: the source at robotsmith/ (a submodule or a copy), built by the
				// build command, and the plugin from it.
				testtool.CopyTree(t, ".", filepath.Join(site, "robotsmith"), ".git", "sample-site/public")
				command = "go build -C robotsmith -trimpath -o ../bin/robotsmith . && " + gen
				plugin = "./robotsmith/plugins/netlify"
			} else {
				// A binary and a copy of the plugin in the site's repository.
				copyFile(t, bin, filepath.Join(site, "bin", "robotsmith"), 0o755)
				for _, f := range []string{"manifest.yml", "index.js", "package.json"} {
					copyFile(t, filepath.Join("plugins", "netlify", f), filepath.Join(site, "plugins", "robotsmith", f), 0o644)
				}
			}
			binary := "bin/robotsmith"
			if tc.binary != "" {
				binary = tc.binary
			}
			inputs := fmt.Sprintf("    binary = %q\n", binary)
			var env []string
			if tc.version != "" {
				inputs += fmt.Sprintf("    version = %q\n", tc.version)
				env = moduleProxy(t, tc.version)
			}
			if tc.config != "" {
				if err := os.MkdirAll(filepath.Join(site, filepath.Dir(tc.config)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(filepath.Join(site, "robotsmith.yaml"), filepath.Join(site, tc.config)); err != nil {
					t.Fatal(err)
				}
				inputs += fmt.Sprintf("    config = %q\n", tc.config)
			}
			testtool.WriteFile(t, site, "netlify.toml", fmt.Sprintf(`[build]
  command = %q
  publish = "public"

[[plugins]]
  package = %q
  [plugins.inputs]
%s`, command, plugin, inputs))
			if tc.broken {
				testtool.WriteFile(t, site, "content/about.md", "---\ntitle: About\nrobots: max-snippet:lots\n---\nbody\n")
			}
			out, err := hosttest.NetlifyBuild(t, netlify, site, tc.context, env...)
			if tc.fails != nil {
				if err == nil {
					t.Fatalf("netlify build passed:\n%s", out)
				}
				for _, want := range tc.fails {
					if !strings.Contains(out, want) {
						t.Errorf("netlify build output lacks %q:\n%s", want, out)
					}
				}
			} else if err != nil {
				t.Fatalf("netlify build: %v\n%s", err, out)
			}
			for _, want := range tc.says {
				if !strings.Contains(out, want) {
					t.Errorf("netlify build output lacks %q", want)
				}
			}
			for file, wants := range tc.want {
				got := testtool.ReadFile(t, filepath.Join(site, "public", file))
				for _, w := range wants {
					if !strings.Contains(got, w) {
						t.Errorf("%s lacks %q", file, w)
					}
				}
			}
			for file, nots := range tc.not {
				got := testtool.ReadFile(t, filepath.Join(site, "public", file))
				for _, n := range nots {
					if strings.Contains(got, n) {
						t.Errorf("%s has %q", file, n)
					}
				}
			}
			if t.Failed() {
				t.Logf("netlify build output:\n%s", out)
			}
		})
	}
}

// moduleProxy serves robotsmith's source as github.com/robotsmith/robotsmith@version from a module
// proxy in a folder, the layout the Go module proxy serves (GOPROXY protocol: list, .info, .mod,
// .zip), and returns the environment for the go command to use it with no network: robotsmith from
// the folder, its dependencies from the module cache's own download folder (which has that
// layout), a fresh module cache (a cached robotsmith@version from an earlier run would hide a change
// of the source), and no checksum database: it is out of reach offline, robotsmith@version is not in
// it, and the dependencies come from the module cache, which the go command checked against it when
// it downloaded them.
func moduleProxy(t *testing.T, version string) []string {
	t.Helper()
	const modPath = "github.com/robotsmith/robotsmith"
	src := filepath.Join(t.TempDir(), "src")
	testtool.CopyTree(t, ".", src, ".git", "sample-site/public")
	proxy := t.TempDir()
	dir := filepath.Join(proxy, filepath.FromSlash(modPath), "@v")
	var zipped bytes.Buffer
	// x/mod's zip is the module zip format the go command checks (paths, sizes, nested modules left out).
	if err := modzip.CreateFromDir(&zipped, module.Version{Path: modPath, Version: version}, src); err != nil {
		t.Fatalf("module zip: %v", err)
	}
	testtool.WriteFile(t, dir, version+".zip", zipped.String())
	testtool.WriteFile(t, dir, version+".mod", testtool.ReadFile(t, "go.mod"))
	testtool.WriteFile(t, dir, version+".info", fmt.Sprintf(`{"Version":%q,"Time":"2026-01-01T00:00:00Z"}`+"\n", version))
	testtool.WriteFile(t, dir, "list", version+"\n")
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	deps := filepath.Join(strings.TrimSpace(string(modcache)), "cache", "download")
	return []string{
		"GOPROXY=file://" + filepath.ToSlash(proxy) + ",file://" + filepath.ToSlash(deps),
		"GOMODCACHE=" + filepath.Join(t.TempDir(), "mod"),
		"GOFLAGS=-modcacherw -trimpath", // the temporary folder can be removed; the build cache serves the dependencies
		"GOSUMDB=off",
	}
}

// jekyllSite copies the plugin fixture, with plugins/jekyll/lib/jekyll-robotsmith.rb in its _plugins/ and
// robotsmith named in its _config.yml, as the Jekyll guide (docs/guides/jekyll.md) says.
func jekyllSite(t *testing.T, bin string) string {
	t.Helper()
	site := t.TempDir()
	testtool.CopyTree(t, filepath.Join("testdata", "jekyll-plugin"), site)
	copyFile(t, filepath.Join("plugins", "jekyll", "lib", "jekyll-robotsmith.rb"), filepath.Join(site, "_plugins", "jekyll-robotsmith.rb"), 0o644)
	cfg := testtool.ReadFile(t, filepath.Join(site, "_config.yml"))
	testtool.WriteFile(t, site, "_config.yml", cfg+fmt.Sprintf("robotsmith:\n  binary: %q\n", bin))
	return site
}

// jekyllCmd is jekyll run in site, in its own process group, with robotsmith's environment cleared.
func jekyllCmd(ctx context.Context, jekyll, site string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, jekyll, args...)
	cmd.Dir = site
	cmd.Env = append(os.Environ(), "JEKYLL_ENV=production", "GITHUB_ACTIONS=", "CONTEXT=")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// startJekyll starts jekyll with args in site (serve, or build --watch), its output going to a file
// that the log function returned reads as it grows; at the end of the test it stops jekyll, and
// shows the output if the test failed.
func startJekyll(ctx context.Context, t *testing.T, jekyll, site string, args ...string) (log func() string) {
	t.Helper()
	cmd := jekyllCmd(ctx, jekyll, site, args...)
	logFile, err := os.Create(filepath.Join(t.TempDir(), "jekyll.log"))
	if err != nil {
		t.Fatal(err)
	}
	log = func() string { return testtool.ReadFile(t, logFile.Name()) }
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		cmd.Wait()
		if t.Failed() {
			t.Logf("jekyll %s:\n%s", strings.Join(args, " "), log())
		}
		logFile.Close()
	})
	return log
}

// TestJekyllPlugin builds the fixture with Jekyll 4.3.1 and the plugin in _plugins/: `jekyll build`
// runs robotsmith on _site (tags, _headers, robotsmith.yaml kept out of _site), quietly with
// --quiet, and `jekyll build --watch` runs it again on a regeneration; a broken front matter
// fails `jekyll build` with robotsmith's file:line and nothing written by robotsmith; and under
// `jekyll serve` every regeneration runs robotsmith again, a bad edit included, which is reported
// while serve goes on.
func TestJekyllPlugin(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Jekyll; not with -short")
	}
	jekyll, err := exec.LookPath("jekyll")
	if err != nil {
		testtool.Missing(t, "jekyll not found: apt-get install jekyll (Jekyll 4.3.1 from Debian)")
	}
	bin := testtool.Robotsmith(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	t.Run("build", func(t *testing.T) {
		site := jekyllSite(t, bin)
		out, err := jekyllCmd(ctx, jekyll, site, "build").CombinedOutput()
		if err != nil {
			t.Fatalf("jekyll build: %v\n%s", err, out)
		}
		dest := filepath.Join(site, "_site")
		checks := []struct {
			file string
			want []string
		}{
			{"index.html", []string{robotsmithBlock, `<meta name="robots" content="index, follow">`, `<meta name="googlebot"`}},
			{"about/index.html", []string{`<meta name="robots" content="index, follow, noarchive">`}},
			{"secret/index.html", []string{`<meta name="robots" content="noindex, follow">`}},
			{"2024/01/02/hello/index.html", []string{robotsmithBlock}},
			{"_headers", []string{"/files/report.pdf\n  X-Robots-Tag: noindex, nofollow"}},
		}
		for _, c := range checks {
			got := testtool.ReadFile(t, filepath.Join(dest, c.file))
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("_site/%s lacks %q", c.file, w)
				}
			}
		}
		if _, err := os.Stat(filepath.Join(dest, "robotsmith.yaml")); err == nil {
			t.Errorf("_site/robotsmith.yaml: Jekyll copied robotsmith's configuration into the site")
		}
		if !strings.Contains(string(out), "changed 5 files") {
			t.Errorf("jekyll build does not show robotsmith's summary:\n%s", out)
		}
	})

	t.Run("binary in the site", func(t *testing.T) {
		// The host guides' setup keeps a Linux binary at bin/robotsmith in the site's repository.
		// Jekyll copies every file it is not told to exclude: without the plugin's exclusion the
		// 9 MB binary was published at _site/bin/robotsmith.
		site := jekyllSite(t, "bin/robotsmith")
		copyFile(t, bin, filepath.Join(site, "bin", "robotsmith"), 0o755)
		out, err := jekyllCmd(ctx, jekyll, site, "build").CombinedOutput()
		if err != nil {
			t.Fatalf("jekyll build: %v\n%s", err, out)
		}
		if got := testtool.ReadFile(t, filepath.Join(site, "_site", "index.html")); !strings.Contains(got, robotsmithBlock) {
			t.Errorf("robotsmith at bin/robotsmith did not run:\n%s", out)
		}
		if _, err := os.Stat(filepath.Join(site, "_site", "bin", "robotsmith")); err == nil {
			t.Errorf("_site/bin/robotsmith: Jekyll published robotsmith's binary")
		}
	})

	t.Run("build --quiet", func(t *testing.T) {
		// Jekyll's --quiet is robotsmith's -q: the tags are written, the summary is not printed.
		site := jekyllSite(t, bin)
		out, err := jekyllCmd(ctx, jekyll, site, "build", "--quiet").CombinedOutput()
		if err != nil {
			t.Fatalf("jekyll build --quiet: %v\n%s", err, out)
		}
		if got := testtool.ReadFile(t, filepath.Join(site, "_site", "index.html")); !strings.Contains(got, robotsmithBlock) {
			t.Errorf("jekyll build --quiet: robotsmith did not run")
		}
		if strings.Contains(string(out), "changed 5 files") {
			t.Errorf("jekyll build --quiet printed robotsmith's summary:\n%s", out)
		}
	})

	t.Run("build --watch", func(t *testing.T) {
		site := jekyllSite(t, bin)
		log := startJekyll(ctx, t, jekyll, site, "build", "--watch", "--force_polling")
		index := filepath.Join(site, "_site", "index.html")
		// poke, when set, is called every 3 s while waiting: the watcher takes its first look at the
		// files some time after it says it is enabled, and an edit before that look is no change to it.
		waitFor := func(what, want string, poke func()) {
			t.Helper()
			deadline := time.Now().Add(90 * time.Second)
			for i := 0; time.Now().Before(deadline); i++ {
				if poke != nil && i%10 == 0 {
					poke()
				}
				if b, err := os.ReadFile(index); err == nil && strings.Contains(string(b), want) {
					return
				}
				time.Sleep(300 * time.Millisecond)
			}
			t.Fatalf("%s: _site/index.html never had %q", what, want)
		}
		waitFor("first build", `<meta name="robots" content="index, follow">`, nil)
		started := time.Now().Add(90 * time.Second)
		for !strings.Contains(log(), "Auto-regeneration: enabled") {
			if time.Now().After(started) {
				t.Fatal("jekyll build --watch never started watching")
			}
			time.Sleep(300 * time.Millisecond)
		}
		waitFor("regeneration", `<meta name="robots" content="index, nofollow">`, func() {
			testtool.WriteFile(t, site, "index.md", "---\nlayout: default\ntitle: Home\nrobots: nofollow\n---\nThe home page.\n")
		})
	})

	t.Run("broken front matter", func(t *testing.T) {
		site := jekyllSite(t, bin)
		testtool.WriteFile(t, site, "about.md", "---\nlayout: default\ntitle: About\nrobots: max-snippet:lots\n---\nAbout.\n")
		out, err := jekyllCmd(ctx, jekyll, site, "build").CombinedOutput()
		if err == nil {
			t.Fatalf("jekyll build passed with a broken page:\n%s", out)
		}
		for _, want := range []string{`about.md:4: front matter robots: "max-snippet:lots"`, "robotsmith: build failed"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("jekyll build output lacks %q:\n%s", want, out)
			}
		}
		if got := testtool.ReadFile(t, filepath.Join(site, "_site", "index.html")); strings.Contains(got, robotsmithBlock) {
			t.Errorf("robotsmith wrote _site/index.html in a failed build")
		}
	})

	t.Run("serve", func(t *testing.T) {
		site := jekyllSite(t, bin)
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		log := startJekyll(ctx, t, jekyll, site, "serve", "--host", "127.0.0.1", "--port", fmt.Sprint(port), "--force_polling")
		base := fmt.Sprintf("http://127.0.0.1:%d", port)
		waitFor := func(what, path, want string) {
			t.Helper()
			client := &http.Client{Timeout: 5 * time.Second}
			deadline := time.Now().Add(90 * time.Second)
			for time.Now().Before(deadline) {
				if resp, err := client.Get(base + path); err == nil {
					body, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if strings.Contains(string(body), want) {
						return
					}
				}
				time.Sleep(300 * time.Millisecond)
			}
			t.Fatalf("%s: %s never served %q", what, path, want)
		}
		waitFor("first build", "/", `<meta name="robots" content="index, follow">`)

		// An edit: Jekyll regenerates, and robotsmith runs again.
		testtool.WriteFile(t, site, "index.md", "---\nlayout: default\ntitle: Home\nrobots: nofollow\n---\nThe home page.\n")
		waitFor("regeneration", "/", `<meta name="robots" content="index, nofollow">`)

		// A bad edit: robotsmith's error is printed and serve goes on; fixing it recovers.
		testtool.WriteFile(t, site, "about.md", "---\nlayout: default\ntitle: About\nrobots: max-snippet:lots\n---\nAbout.\n")
		deadline := time.Now().Add(90 * time.Second)
		for !strings.Contains(log(), `about.md:4: front matter robots: "max-snippet:lots"`) {
			if time.Now().After(deadline) {
				t.Fatal("jekyll serve never printed robotsmith's error for the bad edit")
			}
			time.Sleep(300 * time.Millisecond)
		}
		testtool.WriteFile(t, site, "about.md", "---\nlayout: default\ntitle: About\nrobots: noindex\n---\nAbout.\n")
		waitFor("fixed edit", "/about/", `<meta name="robots" content="noindex, follow">`)
		if n := strings.Count(log(), "robotsmith: build /"); n < 4 {
			t.Errorf("robotsmith ran %d times, want once per regeneration (4)", n)
		}
	})
}

// TestREADMEInstall runs the commands of README's Install section as a user types them in the
// clone (this folder), in order, with `robotsmith` found on PATH where go install put it: each
// must succeed, `robotsmith version` must print the version, and the cross-compiled binary must be
// a Linux amd64 executable. Two names in them are placeholders: the clone's folder (`cd robotsmith`)
// and the site's repository (`../my-site`), here a temporary folder.
func TestREADMEInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds robotsmith; not with -short")
	}
	readme := testtool.ReadFile(t, "README.md")
	_, section, ok := strings.Cut(readme, "\n## Install\n")
	if !ok {
		t.Fatal("README.md has no \"## Install\" section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var lines []string
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(section, -1) {
		for l := range strings.Lines(block[1]) {
			l, _, _ = strings.Cut(l, "#")
			if l = strings.TrimSpace(l); l != "" && l != "cd robotsmith" {
				lines = append(lines, l)
			}
		}
	}
	if len(lines) < 3 {
		t.Fatalf("README's Install section has %d commands, want go install, robotsmith version and go build: %q", len(lines), lines)
	}
	mySite := t.TempDir()
	gobin := t.TempDir()
	var out strings.Builder
	for _, l := range lines {
		l = strings.ReplaceAll(l, "../my-site", mySite)
		cmd := exec.Command("sh", "-c", l)
		cmd.Env = append(os.Environ(), "GOBIN="+gobin, "PATH="+gobin+string(os.PathListSeparator)+os.Getenv("PATH"))
		b, err := cmd.CombinedOutput()
		out.Write(b)
		if err != nil {
			t.Fatalf("README's %q: %v\n%s", l, err, b)
		}
	}
	// "devel", or the version the go command stamps from the clone's commit (it does when GOFLAGS
	// is set, as .ci/run sets it: v0.0.0-20261124031444-c5c2a12c8d0d).
	// With the record of a clone, the commit and its time follow: (commit c5c2a12c8d0d, 2026-11-24T03:14:44Z).
	if !regexp.MustCompile(`(?m)^robotsmith (devel|v[0-9]+\.[0-9]+\.[0-9]+\S*)( \(commit [0-9a-f]{12}(, modified)?, \S+\))?$`).MatchString(out.String()) {
		t.Errorf("README's install commands did not print robotsmith's version:\n%s", out.String())
	}
	f, err := elf.Open(filepath.Join(mySite, "bin", "robotsmith"))
	if err != nil {
		t.Fatalf("the cross-compiled binary: %v", err)
	}
	defer f.Close()
	if f.Machine != elf.EM_X86_64 || f.Type != elf.ET_EXEC {
		t.Errorf("the cross-compiled binary is %v %v, want a Linux amd64 executable", f.Machine, f.Type)
	}
}

// TestCloudflareGuide runs the build command of docs/guides/cloudflare-pages.md, as written, in a
// Hugo site with robotsmith's source at robotsmith/ and `headers: {format: cloudflare}` in its
// robotsmith.yaml, with the real Hugo: it builds robotsmith from source, runs Hugo, then robotsmith
// on public/.
func TestCloudflareGuide(t *testing.T) {
	if testing.Short() {
		t.Skip("builds robotsmith and runs Hugo; not with -short")
	}
	hugo := os.Getenv("HUGO")
	if hugo == "" {
		testtool.Missing(t, "HUGO is not set: .ci/run builds Hugo v0.165.0; export HUGO=$HOME/.cache/robotsmith/tools/bin/hugo")
	}
	guide := testtool.ReadFile(t, filepath.Join("docs", "guides", "cloudflare-pages.md"))
	_, section, ok := strings.Cut(guide, "\n## The build command\n")
	if !ok {
		t.Fatal("docs/guides/cloudflare-pages.md has no \"## The build command\" section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	m := regexp.MustCompile("(?s)```sh\n([^\n]+)\n```").FindStringSubmatch(section)
	if m == nil {
		t.Fatal("the guide's build command section has no sh block of one line")
	}
	command := m[1]
	site := t.TempDir()
	testtool.CopyTree(t, filepath.Join("site", "testdata", "hugo", "basic"), site)
	testtool.CopyTree(t, ".", filepath.Join(site, "robotsmith"), ".git", "sample-site/public")
	testtool.WriteFile(t, site, "robotsmith.yaml", "headers: {format: cloudflare}\n")
	// Hugo as the build image has it: `hugo` on PATH.
	bin := t.TempDir()
	if err := os.Symlink(hugo, filepath.Join(bin, "hugo")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = site
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GITHUB_ACTIONS=", "CF_PAGES=", "CONTEXT=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the guide's Cloudflare build command %q: %v\n%s", command, err, out)
	}
	if got := testtool.ReadFile(t, filepath.Join(site, "public", "index.html")); !strings.Contains(got, robotsmithBlock) {
		t.Errorf("public/index.html has no robotsmith tags after %q:\n%s", command, out)
	}
	if got := testtool.ReadFile(t, filepath.Join(site, "public", "_headers")); !strings.Contains(got, "# robotsmith: begin") {
		t.Errorf("public/_headers has no robotsmith block:\n%s", got)
	}
}
