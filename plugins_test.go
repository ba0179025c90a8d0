package main

// The plug-ins in plugins/, run by the real tools: the Netlify Build Plugin by `netlify build
// --offline` (netlify-cli from .ci/install-hosts, inside a network namespace with only loopback),
// and the Jekyll plugin by Jekyll 4.3.1 (`jekyll build`, and `jekyll serve` with its regeneration).

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/internal/hosttest"
	"github.com/robotsmith/robotsmith/internal/testtool"
)

// buildRobotsmith builds robotsmith into a temporary folder, as a user builds it from a clone.
func buildRobotsmith(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "robotsmith")
	// -trimpath, as README's host build commands have it: the build cache then serves a copy of the
	// source elsewhere (TestNetlifyPluginInNetns builds one) without compiling it again.
	if out, err := exec.Command("go", "build", "-trimpath", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

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

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const robotsmithBlock = "<!-- robotsmith -->"

// TestNetlifyPlugin runs TestNetlifyPluginInNetns inside `unshare -n`: netlify-cli must not reach
// the network (telemetry, update checks), offline or not.
func TestNetlifyPlugin(t *testing.T) {
	hosttest.RunInNetns(t, "TestNetlifyPluginInNetns", hosttest.Netlify)
}

// TestNetlifyPluginInNetns builds copies of the sample site with `netlify build --offline`, the
// stand-in generator as the build command and plugins/netlify installed as a local plugin, as
// README's Netlify section says: in production robotsmith's tags and _headers are in the publish
// folder; in a deploy preview (previews: noindex) every page is noindex; a broken front matter fails
// the build, and robotsmith writes nothing.
func TestNetlifyPluginInNetns(t *testing.T) {
	hosttest.RequireNetns(t)
	netlify := hosttest.Command(t, hosttest.Netlify)
	bin := buildRobotsmith(t)
	gen := genBinary(t)

	tests := []struct {
		desc       string
		context    string
		broken     bool
		fromSource bool                // robotsmith's source in the site at robotsmith/, built by the build command
		binary     string              // the plugin's binary input; "" for bin/robotsmith
		fails      []string            // the build fails, saying these
		want       map[string][]string // file in the publish folder -> what it must hold
		not        map[string][]string
	}{
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
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			site := copySite(t, gen)
			command, plugin := gen, "./plugins/robotsmith"
			if tc.fromSource {
				// README's netlify.toml: the source at robotsmith/ (a submodule or a copy), built by the
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
			writeFile(t, site, "netlify.toml", fmt.Sprintf(`[build]
  command = %q
  publish = "public"

[[plugins]]
  package = %q
  [plugins.inputs]
    binary = %q
`, command, plugin, binary))
			if tc.broken {
				writeFile(t, site, "content/about.md", "---\ntitle: About\nrobots: max-snippet:lots\n---\nbody\n")
			}
			out, err := netlifyBuild(t, netlify, site, tc.context)
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
			for file, wants := range tc.want {
				got := readFile(t, filepath.Join(site, "public", file))
				for _, w := range wants {
					if !strings.Contains(got, w) {
						t.Errorf("%s lacks %q", file, w)
					}
				}
			}
			for file, nots := range tc.not {
				got := readFile(t, filepath.Join(site, "public", file))
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

// netlifyBuild runs `netlify build --offline` in site with telemetry and update checks off, in the
// deploy context given.
func netlifyBuild(t *testing.T, netlify []string, site, deployContext string) (string, error) {
	t.Helper()
	xdg := t.TempDir()
	writeFile(t, xdg, "netlify/config.json", `{"telemetryDisabled":true}`+"\n")
	// Go's build cache is found through XDG_CACHE_HOME, set below for netlify; keep the test's.
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := append(netlify[1:], "build", "--offline", "--context", deployContext)
	cmd := exec.CommandContext(ctx, netlify[0], args...)
	cmd.Dir = site
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+xdg, "XDG_DATA_HOME="+xdg, "XDG_CACHE_HOME="+filepath.Join(xdg, "cache"),
		"NO_UPDATE_NOTIFIER=1", "BROWSER=none", "NETLIFY_TELEMETRY_DISABLED=1", "CONTEXT=", "GITHUB_ACTIONS=",
		"GOCACHE="+strings.TrimSpace(string(gocache)))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// jekyllSite copies the plugin fixture, with plugins/jekyll/robotsmith.rb in its _plugins/ and
// robotsmith named in its _config.yml, as README's Jekyll section says.
func jekyllSite(t *testing.T, bin string) string {
	t.Helper()
	site := t.TempDir()
	testtool.CopyTree(t, filepath.Join("testdata", "jekyll-plugin"), site)
	copyFile(t, filepath.Join("plugins", "jekyll", "robotsmith.rb"), filepath.Join(site, "_plugins", "robotsmith.rb"), 0o644)
	cfg := readFile(t, filepath.Join(site, "_config.yml"))
	writeFile(t, site, "_config.yml", cfg+fmt.Sprintf("robotsmith:\n  binary: %q\n", bin))
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

// TestJekyllPlugin builds the fixture with Jekyll 4.3.1 and the plugin in _plugins/: `jekyll build`
// runs robotsmith on _site (tags, _headers, robotsmith.yaml kept out of _site); a broken front matter
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
	bin := buildRobotsmith(t)
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
			got := readFile(t, filepath.Join(dest, c.file))
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

	t.Run("broken front matter", func(t *testing.T) {
		site := jekyllSite(t, bin)
		writeFile(t, site, "about.md", "---\nlayout: default\ntitle: About\nrobots: max-snippet:lots\n---\nAbout.\n")
		out, err := jekyllCmd(ctx, jekyll, site, "build").CombinedOutput()
		if err == nil {
			t.Fatalf("jekyll build passed with a broken page:\n%s", out)
		}
		for _, want := range []string{`about.md:4: front matter robots: "max-snippet:lots"`, "robotsmith: build failed"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("jekyll build output lacks %q:\n%s", want, out)
			}
		}
		if got := readFile(t, filepath.Join(site, "_site", "index.html")); strings.Contains(got, robotsmithBlock) {
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
		cmd := jekyllCmd(ctx, jekyll, site, "serve", "--host", "127.0.0.1", "--port", fmt.Sprint(port), "--force_polling")
		// Jekyll's output goes to a file, which the test reads as it grows.
		logFile, err := os.Create(filepath.Join(t.TempDir(), "serve.log"))
		if err != nil {
			t.Fatal(err)
		}
		defer logFile.Close()
		log := func() string { return readFile(t, logFile.Name()) }
		cmd.Stdout, cmd.Stderr = logFile, logFile
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			cmd.Wait()
			if t.Failed() {
				t.Logf("jekyll serve:\n%s", log())
			}
		}()
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
		writeFile(t, site, "index.md", "---\nlayout: default\ntitle: Home\nrobots: nofollow\n---\nThe home page.\n")
		waitFor("regeneration", "/", `<meta name="robots" content="index, nofollow">`)

		// A bad edit: robotsmith's error is printed and serve goes on; fixing it recovers.
		writeFile(t, site, "about.md", "---\nlayout: default\ntitle: About\nrobots: max-snippet:lots\n---\nAbout.\n")
		deadline := time.Now().Add(90 * time.Second)
		for !strings.Contains(log(), `about.md:4: front matter robots: "max-snippet:lots"`) {
			if time.Now().After(deadline) {
				t.Fatal("jekyll serve never printed robotsmith's error for the bad edit")
			}
			time.Sleep(300 * time.Millisecond)
		}
		writeFile(t, site, "about.md", "---\nlayout: default\ntitle: About\nrobots: noindex\n---\nAbout.\n")
		waitFor("fixed edit", "/about/", `<meta name="robots" content="noindex, follow">`)
		if n := strings.Count(log(), "robotsmith: build /"); n < 4 {
			t.Errorf("robotsmith ran %d times, want once per regeneration (4)", n)
		}
	})
}
