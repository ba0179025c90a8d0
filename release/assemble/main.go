// Command assemble turns GoReleaser's release archives into the packages that bring robotsmith to
// users who have no Go: the Netlify Build Plugin's npm packages and the jekyll-robotsmith gems.
//
// Usage:
//
//	goreleaser release --snapshot --clean   # dist/: the archives and checksums.txt
//	go run ./release/assemble -dist dist    # dist/npm/..., dist/gem/...: package folders
//	(cd dist/npm/cli-linux-x64 && npm pack) # each npm folder packs as it is
//	(cd dist/gem/x86_64-linux && gem build jekyll-robotsmith.gemspec)
//
// Every binary is taken from its archive only after the archive's SHA-256 matched checksums.txt, so a
// package can never carry a binary the release did not publish.
//
// npm (the esbuild and Biome pattern): one package a platform, @robotsmith/cli-<os>-<cpu> in npm's
// words (linux, darwin, win32; x64, arm64), holding bin/robotsmith and saying which os and cpu it is
// for; the plugin, netlify-plugin-robotsmith, names them all as optional dependencies, so that npm
// installs only the one that runs on the build machine, and its index.js finds it.
//
// RubyGems: jekyll-robotsmith for each platform (x86_64-linux, aarch64-linux, x86_64-darwin,
// arm64-darwin, x64-mingw-ucrt) with the binary in exe/, which RubyGems picks for the machine it
// installs on, and one for any other platform ("ruby") without a binary, which finds robotsmith on
// PATH or where _config.yml names it.
package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

func main() {
	dist := flag.String("dist", "dist", "GoReleaser's output folder: its archives and checksums.txt")
	src := flag.String("src", ".", "robotsmith's source: the plugins, README.md and LICENSE")
	flag.Parse()
	if err := assemble(*src, *dist); err != nil {
		fmt.Fprintln(os.Stderr, "assemble:", err)
		os.Exit(1)
	}
}

// target is one platform robotsmith is released for, in the words of each packaging system.
type target struct {
	goos, goarch  string // GoReleaser's archive name
	npmOS, npmCPU string // npm's os and cpu (process.platform, process.arch)
	gem           string // RubyGems' platform
}

// targets are the release's platforms: .goreleaser.yaml's goos × goarch.
var targets = []target{
	{"linux", "amd64", "linux", "x64", "x86_64-linux"},
	{"linux", "arm64", "linux", "arm64", "aarch64-linux"},
	{"darwin", "amd64", "darwin", "x64", "x86_64-darwin"},
	{"darwin", "arm64", "darwin", "arm64", "arm64-darwin"},
	{"windows", "amd64", "win32", "x64", "x64-mingw-ucrt"},
	{"windows", "arm64", "win32", "arm64", "aarch64-mingw-ucrt"},
}

func (t target) exe() string {
	if t.goos == "windows" {
		return "robotsmith.exe"
	}
	return "robotsmith"
}

// npmName is the platform package's name; plugins/netlify/index.js builds the same name from
// process.platform and process.arch.
func (t target) npmName() string { return "@robotsmith/cli-" + t.npmOS + "-" + t.npmCPU }

// archiveName matches .goreleaser.yaml's archives.name_template.
var archiveName = regexp.MustCompile(`^robotsmith_(.+)_([a-z0-9]+)_([a-z0-9]+)\.(tar\.gz|zip)$`)

// release is what assemble reads of GoReleaser's output.
type release struct {
	version  string
	binaries map[target][]byte
	// tag and commit are the release's git tag and full commit (dist/metadata.json).
	tag, commit string
}

func assemble(src, dist string) error { return assembleWith(src, dist, binaryCommit) }

// assembleWith is assemble, reading the commit a binary was built from with commitOf.
func assembleWith(src, dist string, commitOf func(binary []byte) (string, error)) error {
	rel, err := readRelease(dist, commitOf)
	if err != nil {
		return err
	}
	for _, dir := range []string{"npm", "gem", "homebrew"} {
		if err := os.RemoveAll(filepath.Join(dist, dir)); err != nil {
			return err
		}
	}
	if err := writeNPM(src, filepath.Join(dist, "npm"), rel); err != nil {
		return err
	}
	if err := writeGems(src, filepath.Join(dist, "gem"), rel); err != nil {
		return err
	}
	return writeFormula(src, filepath.Join(dist, "homebrew"), rel)
}

// readRelease reads checksums.txt and takes each platform's binary out of its archive, once the
// archive's checksum matched. Every target must be there, in one version.
func readRelease(dist string, commitOf func([]byte) (string, error)) (*release, error) {
	sums, err := readChecksums(filepath.Join(dist, "checksums.txt"))
	if err != nil {
		return nil, err
	}
	rel := &release{binaries: map[target][]byte{}}
	meta, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
	if err != nil {
		return nil, err
	}
	var m struct{ Tag, Commit string }
	if err := json.Unmarshal(meta, &m); err != nil {
		return nil, fmt.Errorf("metadata.json: %w", err)
	}
	if m.Tag == "" {
		return nil, fmt.Errorf("metadata.json: no tag")
	}
	rel.tag, rel.commit = m.Tag, m.Commit
	names := make([]string, 0, len(sums))
	for name := range sums {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		m := archiveName.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		i := slices.IndexFunc(targets, func(t target) bool { return t.goos == m[2] && t.goarch == m[3] })
		if i < 0 {
			continue
		}
		if rel.version != "" && rel.version != m[1] {
			return nil, fmt.Errorf("checksums.txt lists versions %s and %s: clean dist/ and release again", rel.version, m[1])
		}
		rel.version = m[1]
		data, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			return nil, err
		}
		if got := sha256.Sum256(data); hex.EncodeToString(got[:]) != sums[name] {
			return nil, fmt.Errorf("%s: its SHA-256 is not the one checksums.txt gives", name)
		}
		bin, err := extract(name, data, targets[i].exe())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		rel.binaries[targets[i]] = bin
	}
	for _, t := range targets {
		if rel.binaries[t] == nil {
			return nil, fmt.Errorf("no archive for %s/%s in checksums.txt", t.goos, t.goarch)
		}
	}
	// GoReleaser knows the commit only where the repository has a remote; the binaries always
	// record it (-buildvcs), and every target's is the same build.
	if len(rel.commit) != 40 {
		if rel.commit, err = commitOf(rel.binaries[targets[0]]); err != nil {
			return nil, err
		}
	}
	return rel, nil
}

// binaryCommit is the VCS revision the go command recorded in a binary.
func binaryCommit(bin []byte) (string, error) {
	bi, err := buildinfo.Read(bytes.NewReader(bin))
	if err != nil {
		return "", fmt.Errorf("reading the build record of the linux/amd64 binary: %w", err)
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) == 40 {
			return s.Value, nil
		}
	}
	return "", errors.New("the linux/amd64 binary records no commit: release from a git clone, with -buildvcs")
}

// readChecksums reads GoReleaser's checksums.txt: "<sha256>  <file>" a line.
func readChecksums(file string) (map[string]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != sha256.Size*2 {
			return nil, fmt.Errorf("%s:%d: not a checksum line", file, n)
		}
		sums[name] = sum
	}
	return sums, sc.Err()
}

// extract is the file called exe at the top of the archive.
func extract(name string, data []byte, exe string) ([]byte, error) {
	if strings.HasSuffix(name, ".zip") {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, err
		}
		for _, f := range zr.File {
			if f.Name == exe {
				rc, err := f.Open()
				if err != nil {
					return nil, err
				}
				defer rc.Close()
				return io.ReadAll(rc)
			}
		}
		return nil, fmt.Errorf("no %s in it", exe)
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("no %s in it", exe)
		}
		if err != nil {
			return nil, err
		}
		if h.Name == exe && h.Typeflag == tar.TypeReg {
			return io.ReadAll(tr)
		}
	}
}

// npmVersion is the release's version as npm writes it: semver without GoReleaser's build metadata
// (a snapshot's "+commit"), which npm drops when it publishes and then could not tell apart.
func npmVersion(v string) string {
	v, _, _ = strings.Cut(v, "+")
	return v
}

// npmPackage is a package.json, its fields in the order npm's own files have them.
type npmPackage struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	License              string            `json:"license,omitempty"`
	Main                 string            `json:"main,omitempty"`
	Files                []string          `json:"files"`
	Keywords             []string          `json:"keywords,omitempty"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	Engines              map[string]string `json:"engines,omitempty"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
}

// writeNPM writes one folder a platform package and one for the plugin.
func writeNPM(src, out string, rel *release) error {
	version := npmVersion(rel.version)
	optional := map[string]string{}
	for _, t := range targets {
		dir := filepath.Join(out, "cli-"+t.npmOS+"-"+t.npmCPU)
		pkg := npmPackage{
			Name:        t.npmName(),
			Version:     version,
			Description: fmt.Sprintf("robotsmith's binary for %s %s, installed by netlify-plugin-robotsmith on that platform.", t.npmOS, t.npmCPU),
			License:     "MIT",
			Files:       []string{"bin/" + t.exe()},
			OS:          []string{t.npmOS},
			CPU:         []string{t.npmCPU},
		}
		if err := writeJSON(filepath.Join(dir, "package.json"), pkg); err != nil {
			return err
		}
		if err := writeFile(filepath.Join(dir, "bin", t.exe()), rel.binaries[t], 0o755); err != nil {
			return err
		}
		if err := copyFiles(src, dir, "LICENSE"); err != nil {
			return err
		}
		optional[t.npmName()] = version
	}

	// The plugin: its own package.json, with the version and the platform packages filled in. A field
	// this struct does not know is an error, so that it is never dropped from the published package.
	dir := filepath.Join(out, "netlify-plugin-robotsmith")
	b, err := os.ReadFile(filepath.Join(src, "plugins", "netlify", "package.json"))
	if err != nil {
		return err
	}
	var pkg npmPackage
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pkg); err != nil {
		return fmt.Errorf("plugins/netlify/package.json: %w", err)
	}
	pkg.Version = version
	pkg.OptionalDependencies = optional
	pkg.Files = append(pkg.Files, "LICENSE", "README.md")
	if err := writeJSON(filepath.Join(dir, "package.json"), pkg); err != nil {
		return err
	}
	if err := copyFiles(filepath.Join(src, "plugins", "netlify"), dir, "index.js", "manifest.yml"); err != nil {
		return err
	}
	return copyFiles(src, dir, "LICENSE", "README.md")
}

// gemVersion is the release's version as RubyGems writes it: a pre-release's "-" becomes ".pre.",
// and build metadata is dropped (RubyGems has none).
func gemVersion(v string) string {
	v, _, _ = strings.Cut(v, "+")
	return strings.Replace(v, "-", ".pre.", 1)
}

// writeGems writes one folder a platform gem, and one ("ruby") without a binary, each with its
// gemspec: `gem build jekyll-robotsmith.gemspec` in the folder builds it.
func writeGems(src, out string, rel *release) error {
	version := gemVersion(rel.version)
	platforms := []string{"ruby"}
	for _, t := range targets {
		platforms = append(platforms, t.gem)
	}
	for _, platform := range platforms {
		dir := filepath.Join(out, platform)
		files := []string{"lib/jekyll-robotsmith.rb", "LICENSE", "README.md"}
		if platform != "ruby" {
			t := targets[slices.IndexFunc(targets, func(t target) bool { return t.gem == platform })]
			if err := writeFile(filepath.Join(dir, "exe", t.exe()), rel.binaries[t], 0o755); err != nil {
				return err
			}
			files = append(files, "exe/"+t.exe())
		}
		if err := copyFiles(filepath.Join(src, "plugins", "jekyll"), dir, "lib/jekyll-robotsmith.rb"); err != nil {
			return err
		}
		if err := copyFiles(src, dir, "LICENSE", "README.md"); err != nil {
			return err
		}
		if err := writeFile(filepath.Join(dir, "jekyll-robotsmith.gemspec"), []byte(gemspec(version, platform, files)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// gemspec is the jekyll-robotsmith gemspec for one platform. Its files are listed by name, as gem
// build takes them from the folder it runs in.
func gemspec(version, platform string, files []string) string {
	quoted := make([]string, len(files))
	for i, f := range files {
		quoted[i] = fmt.Sprintf("%q", f)
	}
	return fmt.Sprintf(`# frozen_string_literal: true

# Written by robotsmith's release/assemble from a GoReleaser release; not edited by hand.
Gem::Specification.new do |s|
  s.name        = "jekyll-robotsmith"
  s.version     = %q
  s.platform    = %q
  s.summary     = "Runs robotsmith on Jekyll's output after every build: robots meta tags, X-Robots-Tag, sitemaps"
  s.description = "A Jekyll plugin that runs robotsmith build on the site's destination after Jekyll has written it. " \
                  "Platform gems bring robotsmith's binary; the ruby gem finds it on PATH or where _config.yml names it."
  s.authors     = ["The robotsmith authors"]
  s.license     = "MIT"
  s.homepage    = "https://github.com/robotsmith/robotsmith"
  s.files       = [%s]
  s.require_paths = ["lib"]
  s.required_ruby_version = ">= 2.7"
  s.add_dependency "jekyll", ">= 3.8", "< 5"
end
`, version, platform, strings.Join(quoted, ", "))
}

// formulaRelease is the line of release/homebrew/robotsmith.rb that a release replaces with its url.
const formulaRelease = "  # RELEASE: url and version lines are written here by release/assemble.\n"

// writeFormula writes the Homebrew formula for the release: the one in release/homebrew, building
// the release's tag, checked out at its commit (Homebrew verifies the revision, so a tag moved
// after the release fails the install instead of building other code).
func writeFormula(src, out string, rel *release) error {
	b, err := os.ReadFile(filepath.Join(src, "release", "homebrew", "robotsmith.rb"))
	if err != nil {
		return err
	}
	if !bytes.Contains(b, []byte(formulaRelease)) {
		return errors.New("release/homebrew/robotsmith.rb: no RELEASE line to write the url at")
	}
	url := fmt.Sprintf("  url \"https://github.com/robotsmith/robotsmith.git\", tag: %q, revision: %q\n", rel.tag, rel.commit)
	b = bytes.Replace(b, []byte(formulaRelease), []byte(url), 1)
	return writeFile(filepath.Join(out, "robotsmith.rb"), b, 0o644)
}

func copyFiles(from, to string, names ...string) error {
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(from, filepath.FromSlash(name)))
		if err != nil {
			return err
		}
		if err := writeFile(filepath.Join(to, filepath.FromSlash(name)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeJSON writes v as npm writes package.json: two-space indents, ">=" as it is.
func writeJSON(file string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return writeFile(file, buf.Bytes(), 0o644)
}

func writeFile(file string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, data, mode)
}
