package main

// Integration tests over a real release: the archives GoReleaser made (`goreleaser release
// --snapshot --clean`) and the packages assemble made of them, installed and run as users install
// and run them. .ci/release makes both and .ci/run sets ROBOTSMITH_DIST; without it these tests skip.

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/testsupport/hosttest"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// realDist is the release folder named by ROBOTSMITH_DIST, assembled, with its version.
func realDist(t *testing.T) (dist, version string) {
	t.Helper()
	if testing.Short() {
		t.Skip("installs and runs release packages; not with -short")
	}
	dist = os.Getenv("ROBOTSMITH_DIST")
	if dist == "" {
		testtool.Missing(t, "ROBOTSMITH_DIST is not set: run .ci/release (goreleaser release --snapshot --clean, then go run ./release/assemble) and set it to the dist folder it names")
	}
	b, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
	if err != nil {
		t.Fatalf("ROBOTSMITH_DIST: %v", err)
	}
	var meta struct{ Version string }
	if err := json.Unmarshal(b, &meta); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dist, "npm")); err != nil {
		t.Fatalf("ROBOTSMITH_DIST has no npm folder: run go run ./release/assemble -dist %s", dist)
	}
	return dist, meta.Version
}

// requireLinuxAMD64 skips where the release's linux/amd64 binary cannot run.
func requireLinuxAMD64(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("runs the release's linux/amd64 binary; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
}

// fixtureSite is a page with no robots tag yet: any build of robotsmith turns it into its block.
const fixturePage = "<!doctype html><html><head><meta charset=\"utf-8\"><title>t</title></head><body>x</body></html>\n"

// TestReleaseArchive takes the linux/amd64 archive as a user downloads it: its checksum matches
// checksums.txt (readRelease), it holds the binary, README.md, LICENSE, the manual (every file of
// docs/, which README.md links to) and the JSON Schemas the manual links to (schema/*.json), and
// nothing else; and the binary prints the release's version and commit and builds a site.
func TestReleaseArchive(t *testing.T) {
	dist, version := realDist(t)
	requireLinuxAMD64(t)
	rel, err := readRelease(dist, binaryCommit)
	if err != nil {
		t.Fatal(err)
	}
	name := "robotsmith_" + rel.version + "_linux_amd64.tar.gz"
	data, err := os.ReadFile(filepath.Join(dist, name))
	if err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var members []string
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeDir {
			members = append(members, h.Name)
		}
	}
	slices.Sort(members)
	files := append([]string{"LICENSE", "README.md", "robotsmith"}, manualFiles(t)...)
	for _, m := range members {
		if !slices.Contains(files, m) {
			t.Errorf("%s holds %s, which it should not", name, m)
		}
	}
	for _, f := range files {
		if !slices.Contains(members, f) {
			t.Errorf("%s lacks %s", name, f)
		}
	}

	bin := filepath.Join(t.TempDir(), "robotsmith")
	if err := os.WriteFile(bin, rel.binaries[targets[0]], 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("robotsmith version: %v\n%s", err, out)
	}
	// The version GoReleaser stamped, and the commit the go command recorded.
	want := regexp.MustCompile(`^robotsmith ` + regexp.QuoteMeta(version) + ` \(commit ` + rel.commit[:12] + `(, modified)?, \d{4}-\d\d-\d\dT`)
	if !want.Match(out) {
		t.Errorf("robotsmith version printed %q, want it to match %s", out, want)
	}

	site := t.TempDir()
	if err := os.WriteFile(filepath.Join(site, "index.html"), []byte(fixturePage), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "build", site).CombinedOutput(); err != nil {
		t.Fatalf("robotsmith build: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(filepath.Join(site, "index.html")); !strings.Contains(string(b), `<meta name="robots" content="index, follow">`) {
		t.Errorf("the release's robotsmith did not write its tags:\n%s", b)
	}
}

// manualFiles are the files of the manual as the source tree has them, slash paths relative to the
// repository: every file of docs/, and the JSON Schemas in schema/ that it links to.
func manualFiles(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	var out []string
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		out = append(out, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := filepath.Glob(filepath.Join(root, "schema", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range schemas {
		out = append(out, "schema/"+filepath.Base(s))
	}
	if len(out) < 20 {
		t.Fatalf("found %d files of the manual in %s: want docs/ and schema/", len(out), root)
	}
	return out
}

// pathWithout is PATH without any folder that holds a robotsmith, so that a test proves the binary
// came from the package under test.
func pathWithout(t *testing.T) string {
	t.Helper()
	var keep []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "robotsmith")); err == nil {
			continue
		}
		keep = append(keep, dir)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// TestNetlifyPackage runs TestNetlifyPackageInNetns inside `unshare -n`: npm and netlify-cli must
// not reach the network, so the plugin and its binary can only come from the release's tarballs.
func TestNetlifyPackage(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		testtool.Missing(t, "npm not found: install Node.js 20 or newer")
	}
	realDist(t)
	hosttest.RunInNetns(t, "TestNetlifyPackageInNetns", hosttest.Netlify)
}

// TestNetlifyPackageInNetns packs the plugin's npm package and this machine's platform package,
// installs the tarballs into a Hugo site with npm (offline: no registry), names the plugin in
// netlify.toml with no input at all, and runs `netlify build --offline` with Hugo as the build
// command. With no robotsmith on PATH and no binary in the site, only the platform package's binary
// can have written the tags and _headers found in the publish folder.
func TestNetlifyPackageInNetns(t *testing.T) {
	hosttest.RequireNetns(t)
	dist, version := realDist(t)
	requireLinuxAMD64(t)
	netlify := hosttest.Command(t, hosttest.Netlify)
	hugo, _ := testtool.Hugo(t)
	packs := t.TempDir()
	var tarballs []string
	for _, pkg := range []string{"cli-linux-x64", "netlify-plugin-robotsmith"} {
		cmd := exec.Command("npm", "pack", "--pack-destination", packs, "--silent")
		cmd.Dir = filepath.Join(dist, "npm", pkg)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("npm pack %s: %v\n%s", pkg, err, out)
		}
		tarballs = append(tarballs, filepath.Join(packs, strings.TrimSpace(string(out))))
	}

	site := t.TempDir()
	testtool.CopyTree(t, filepath.Join("testdata", "hugo-site"), site)
	writeTestFile(t, filepath.Join(site, "package.json"), `{"name": "fixture-site", "private": true}`+"\n")
	npmEnv := append(os.Environ(), "npm_config_cache="+filepath.Join(t.TempDir(), "npm-cache"),
		"npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
	install := exec.Command("npm", append([]string{"install", "--offline", "--no-save"}, tarballs...)...)
	install.Dir = site
	install.Env = npmEnv
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install of the tarballs: %v\n%s", err, out)
	}
	// npm installs only the platform package whose os and cpu match, and the plugin finds it.
	if _, err := os.Stat(filepath.Join(site, "node_modules", "@robotsmith", "cli-linux-x64", "bin", "robotsmith")); err != nil {
		t.Fatalf("the platform package's binary is not installed: %v", err)
	}
	writeTestFile(t, filepath.Join(site, "netlify.toml"), `[build]
  command = "`+hugo+` --quiet"
  publish = "public"

[[plugins]]
  package = "netlify-plugin-robotsmith"
`)
	out, err := hosttest.NetlifyBuild(t, netlify, site, "production", "PATH="+pathWithout(t))
	if err != nil {
		t.Fatalf("netlify build: %v\n%s", err, out)
	}
	checks := []struct{ file, want string }{
		{"index.html", `<meta name="robots" content="index, follow">`},
		{"secret/index.html", `<meta name="robots" content="noindex, follow">`},
		{"_headers", "/files/report.pdf\n  X-Robots-Tag: noindex, nofollow"},
	}
	for _, c := range checks {
		b, err := os.ReadFile(filepath.Join(site, "public", filepath.FromSlash(c.file)))
		if err != nil || !strings.Contains(string(b), c.want) {
			t.Errorf("public/%s lacks %q (%v)", c.file, c.want, err)
		}
	}
	if t.Failed() {
		t.Logf("netlify build (release %s):\n%s", version, out)
	}
}

// gemInstall builds the gem of one platform folder of dist/gem with `gem build` and installs it
// with `gem install --local` into a folder of its own, returning that folder (for GEM_PATH).
func gemInstall(t *testing.T, dist, platform string) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), platform)
	testtool.CopyTree(t, filepath.Join(dist, "gem", platform), src)
	build := exec.Command("gem", "build", "jekyll-robotsmith.gemspec")
	build.Dir = src
	out, err := build.CombinedOutput()
	if err != nil {
		t.Fatalf("gem build (%s): %v\n%s", platform, err, out)
	}
	gems, _ := filepath.Glob(filepath.Join(src, "jekyll-robotsmith-*.gem"))
	if len(gems) != 1 {
		t.Fatalf("gem build (%s) made %q\n%s", platform, gems, out)
	}
	home := t.TempDir()
	// --ignore-dependencies: Jekyll is Debian's, which RubyGems sees through rubygems-integration,
	// not as a gem of this folder; the plugin's require of jekyll is checked by the build itself.
	install := exec.Command("gem", "install", "--local", "--ignore-dependencies", "--no-document", "--install-dir", home, gems[0])
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("gem install (%s): %v\n%s", platform, err, out)
	}
	return home
}

// TestJekyllGem installs the jekyll-robotsmith gem and names it in a site's `plugins:`, as a Jekyll
// user does, then runs the real `jekyll build`. The platform gem brings its binary (no robotsmith on
// PATH, none in the site); the gem without a binary finds the one _config.yml names outside the
// site. Either way the tags are written and no binary reaches _site.
func TestJekyllGem(t *testing.T) {
	dist, _ := realDist(t)
	requireLinuxAMD64(t)
	jekyll := testtool.Jekyll(t)
	if _, err := exec.LookPath("gem"); err != nil {
		testtool.Missing(t, "gem not found: apt-get install ruby")
	}
	rel, err := readRelease(dist, binaryCommit)
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "robotsmith")
	if err := os.WriteFile(outside, rel.binaries[targets[0]], 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		platform string
		config   string // added to _config.yml
	}{
		{"x86_64-linux", ""},
		{"ruby", "robotsmith:\n  binary: " + outside + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.platform, func(t *testing.T) {
			gems := gemInstall(t, dist, tc.platform)
			site := t.TempDir()
			testtool.CopyTree(t, filepath.Join("..", "..", "testdata", "jekyll-plugin"), site)
			cfg, err := os.ReadFile(filepath.Join(site, "_config.yml"))
			if err != nil {
				t.Fatal(err)
			}
			writeTestFile(t, filepath.Join(site, "_config.yml"), string(cfg)+"plugins: [jekyll-robotsmith]\n"+tc.config)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, jekyll, "build")
			cmd.Dir = site
			// GEM_PATH adds the folder the gem went into to where RubyGems looks (Debian's own gems,
			// Jekyll among them, stay on its default path).
			gemPath, err := exec.Command("gem", "env", "gempath").Output()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Env = append(os.Environ(), "JEKYLL_ENV=production", "JEKYLL_NO_BUNDLER_REQUIRE=true", "GITHUB_ACTIONS=", "CONTEXT=",
				"PATH="+pathWithout(t), "GEM_PATH="+gems+string(os.PathListSeparator)+strings.TrimSpace(string(gemPath)))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("jekyll build: %v\n%s", err, out)
			}
			if b, _ := os.ReadFile(filepath.Join(site, "_site", "secret", "index.html")); !strings.Contains(string(b), `<meta name="robots" content="noindex, follow">`) {
				t.Errorf("_site/secret/index.html lacks robotsmith's noindex:\n%s\njekyll build:\n%s", b, out)
			}
			filepath.WalkDir(filepath.Join(site, "_site"), func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), "robotsmith") {
					t.Errorf("%s: robotsmith's own file published", p)
				}
				return nil
			})
		})
	}
}

// TestHomebrewFormula runs the Homebrew formula through testdata/brew.rb, a stand-in for the part of
// brew's Formula DSL it uses (brew is not on this machine): the formula's install builds robotsmith
// from this source with go, and its own test block runs the result. The stanzas must say what brew
// needs: a head to build from a clone, go as a build dependency, the licence; and the formula a
// release writes must build the release's tag at its commit.
func TestHomebrewFormula(t *testing.T) {
	if testing.Short() {
		t.Skip("builds robotsmith; not with -short")
	}
	if _, err := exec.LookPath("ruby"); err != nil {
		testtool.Missing(t, "ruby not found: apt-get install ruby")
	}
	src, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	formulas := []string{filepath.Join(src, "release", "homebrew", "robotsmith.rb")}
	names := []string{"repository"}
	var rel *release
	if dist := os.Getenv("ROBOTSMITH_DIST"); dist != "" {
		if rel, err = readRelease(dist, binaryCommit); err != nil {
			t.Fatal(err)
		}
		formulas = append(formulas, filepath.Join(dist, "homebrew", "robotsmith.rb"))
		names = append(names, "release")
	}
	for i, formula := range formulas {
		t.Run(names[i], func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "ruby", filepath.Join("testdata", "brew.rb"), formula, src, t.TempDir(), "1.2.3")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the formula's install and test: %v\n%s", err, out)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			var got struct {
				Desc, License string
				Head, URL     map[string]string
				DependsOn     []map[string]string `json:"depends_on"`
			}
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
				t.Fatalf("brew.rb's stanzas: %v\n%s", err, out)
			}
			if got.Desc == "" || got.License != "MIT" {
				t.Errorf("desc %q, license %q: want a description and MIT", got.Desc, got.License)
			}
			if got.Head["url"] != "https://github.com/robotsmith/robotsmith.git" || got.Head["branch"] != "main" {
				t.Errorf("head %v: want the repository's main branch", got.Head)
			}
			if len(got.DependsOn) != 1 || got.DependsOn[0]["go"] != "build" {
				t.Errorf("depends_on %v: want go at build time only", got.DependsOn)
			}
			if i == 0 {
				if got.URL != nil {
					t.Errorf("the formula in the repository has a url (%v): a release writes it", got.URL)
				}
				return
			}
			if got.URL["tag"] != rel.tag || got.URL["revision"] != rel.commit {
				t.Errorf("the release's formula builds %v, want tag %s at %s", got.URL, rel.tag, rel.commit)
			}
		})
	}
}
