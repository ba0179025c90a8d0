package testtool

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// ModuleRoot is the repository's root folder (where go.mod is), found from the working folder up:
// the tests of a package below it run from there, so that paths read the same in every package.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("no go.mod above the working folder")
		}
		dir = up
	}
}

// built are the binaries a test process built, once each: each go build of its own, checked
// against the build cache, cost seconds on a busy machine, and a package's tests then waited on the
// build lock behind the other packages' builds.
var built struct {
	mu   sync.Mutex
	dir  string
	bins map[string]string // package -> binary
}

// Robotsmith builds robotsmith from the repository, as a user builds it from a clone, the first time
// a test of the process asks, and returns its path. The tests share it and must not change it;
// TestMain calls RemoveBuilt.
func Robotsmith(t testing.TB) string {
	t.Helper()
	// -trimpath, as the host guides' build commands have it: the build cache then serves a copy of
	// the source elsewhere (the Netlify plugin's test builds one) without compiling it again.
	return build(t, ".", "robotsmith", "-trimpath")
}

// SampleGenerator builds the sample site's stand-in generator once, so that test sites in temporary
// folders (outside the module) can run it as their configured command.
func SampleGenerator(t testing.TB) string {
	t.Helper()
	return build(t, "./sample-site/gen", "gen")
}

func build(t testing.TB, pkg, name string, flags ...string) string {
	t.Helper()
	built.mu.Lock()
	defer built.mu.Unlock()
	if p, ok := built.bins[pkg]; ok {
		return p
	}
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if built.dir == "" {
		if built.dir, err = os.MkdirTemp("", "robotsmith-test-"); err != nil {
			t.Fatal(err)
		}
		built.bins = map[string]string{}
	}
	bin := filepath.Join(built.dir, name)
	cmd := exec.Command("go", append(append([]string{"build"}, flags...), "-o", bin, pkg)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	built.bins[pkg] = bin
	return bin
}

// RemoveBuilt removes what Robotsmith and SampleGenerator built, once every test has run.
func RemoveBuilt() {
	built.mu.Lock()
	defer built.mu.Unlock()
	if built.dir != "" {
		os.RemoveAll(built.dir)
		built.dir, built.bins = "", nil
	}
}

// WriteFile writes content to dir/rel (a slash path), making its folders.
func WriteFile(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(fmt.Errorf("write %s: %w", rel, err))
	}
}

// WriteFiles writes each of files (slash paths relative to dir, and their content) into dir,
// making their folders.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		WriteFile(t, dir, rel, content)
	}
}

// ReadFile is the content of the file at p.
func ReadFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// SampleSite copies the sample site (without its output) to a temporary folder and points its
// command at gen, the prebuilt generator (SampleGenerator).
func SampleSite(t testing.TB, gen string) string {
	t.Helper()
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	CopyTree(t, filepath.Join(root, "sample-site"), dst, "public", "gen", "standin")
	cfgPath := filepath.Join(dst, "robotsmith.yaml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg = bytes.Replace(cfg, []byte("command: go run ./gen"), []byte("command: "+gen), 1)
	if !bytes.Contains(cfg, []byte(gen)) {
		t.Fatal("sample-site/robotsmith.yaml has no `command: go run ./gen` line to replace")
	}
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// Golden compares got with the golden file at path, and with update (each package's -update
// flag) writes got there first: the one way every package's golden files are checked and rewritten.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (go test -update rewrites it):\n got:\n%s\nwant:\n%s", path, got, want)
	}
}
