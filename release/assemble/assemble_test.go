package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const fakeCommit = "0123456789abcdef0123456789abcdef01234567"

// fakeDist writes a dist folder laid out as GoReleaser's: one archive a target, each holding a
// "binary" that names its target, checksums.txt and metadata.json.
func fakeDist(t *testing.T, version string) string {
	t.Helper()
	dist := t.TempDir()
	var sums []string
	for _, tg := range targets {
		name := fmt.Sprintf("robotsmith_%s_%s_%s", version, tg.goos, tg.goarch)
		bin := []byte("binary for " + tg.goos + "/" + tg.goarch)
		var data []byte
		if tg.goos == "windows" {
			name += ".zip"
			data = zipOf(t, map[string][]byte{tg.exe(): bin, "README.md": []byte("readme")})
		} else {
			name += ".tar.gz"
			data = tgzOf(t, map[string][]byte{tg.exe(): bin, "README.md": []byte("readme")})
		}
		if err := os.WriteFile(filepath.Join(dist, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		sums = append(sums, hex.EncodeToString(sum[:])+"  "+name)
	}
	sort.Strings(sums)
	writeTestFile(t, filepath.Join(dist, "checksums.txt"), strings.Join(sums, "\n")+"\n")
	writeTestFile(t, filepath.Join(dist, "metadata.json"),
		fmt.Sprintf(`{"project_name":"robotsmith","tag":"v%s","version":%q,"commit":"none"}`+"\n", version, version))
	return dist
}

func tgzOf(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range sortedKeys(files) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(files[name])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(files[name])
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zipOf(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range sortedKeys(files) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(files[name])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func writeTestFile(t *testing.T, file, s string) {
	t.Helper()
	if err := writeFile(file, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAssemble assembles a fake release and compares every file it wrote that is not a copy
// (package.json, the gemspecs, the formula) with its golden file, and every binary with the one
// in its target's archive.
func TestAssemble(t *testing.T) {
	dist := fakeDist(t, "1.2.3-rc.1")
	// The binary's record of its commit stands in for the snapshot's missing one.
	if err := assembleWith("../..", dist, func([]byte) (string, error) { return fakeCommit, nil }); err != nil {
		t.Fatal(err)
	}
	var written []string
	err := filepath.WalkDir(dist, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dist, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "npm/") || strings.HasPrefix(rel, "gem/") || strings.HasPrefix(rel, "homebrew/") {
			written = append(written, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	golden := []string{}
	for _, rel := range written {
		b, err := os.ReadFile(filepath.Join(dist, rel))
		if err != nil {
			t.Fatal(err)
		}
		switch base := filepath.Base(rel); {
		case base == "robotsmith" || base == "robotsmith.exe":
			// bin/robotsmith (npm), exe/robotsmith (gem): the target's own binary.
			if !strings.HasPrefix(string(b), "binary for ") {
				t.Errorf("%s: %q is not a release binary", rel, b)
			}
			golden = append(golden, fmt.Sprintf("%s: %s", rel, b))
		case base == "package.json" || base == "jekyll-robotsmith.gemspec" || rel == "homebrew/robotsmith.rb":
			golden = append(golden, fmt.Sprintf("==> %s\n%s", rel, b))
		default:
			golden = append(golden, rel)
		}
	}
	got := strings.Join(golden, "\n") + "\n"
	file := filepath.Join("testdata", "assemble.golden")
	if *update {
		writeTestFile(t, file, got)
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("assemble wrote, not as %s (go test -update rewrites it):\n%s", file, got)
	}
}

// TestAssembleRefuses: a binary whose archive does not match its checksum, or a target without an
// archive, fails the whole assembly: no package may carry a binary the release did not publish.
func TestAssembleRefuses(t *testing.T) {
	commit := func([]byte) (string, error) { return fakeCommit, nil }
	tests := []struct {
		desc    string
		breakIt func(t *testing.T, dist string)
		want    string
	}{
		{"a changed archive", func(t *testing.T, dist string) {
			writeTestFile(t, filepath.Join(dist, "robotsmith_1.0.0_linux_amd64.tar.gz"), "other bytes")
		}, "robotsmith_1.0.0_linux_amd64.tar.gz: its SHA-256 is not the one checksums.txt gives"},
		{"a missing target", func(t *testing.T, dist string) {
			b, _ := os.ReadFile(filepath.Join(dist, "checksums.txt"))
			var keep []string
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				if !strings.Contains(l, "darwin_arm64") {
					keep = append(keep, l)
				}
			}
			writeTestFile(t, filepath.Join(dist, "checksums.txt"), strings.Join(keep, "\n")+"\n")
		}, "no archive for darwin/arm64"},
		{"a bad checksum line", func(t *testing.T, dist string) {
			writeTestFile(t, filepath.Join(dist, "checksums.txt"), "abc robotsmith_1.0.0_linux_amd64.tar.gz\n")
		}, "checksums.txt:1: not a checksum line"},
		{"two versions", func(t *testing.T, dist string) {
			b, _ := os.ReadFile(filepath.Join(dist, "checksums.txt"))
			s := strings.Replace(string(b), "robotsmith_1.0.0_windows_arm64.zip", "robotsmith_0.9.0_windows_arm64.zip", 1)
			writeTestFile(t, filepath.Join(dist, "checksums.txt"), s)
			if err := os.Rename(filepath.Join(dist, "robotsmith_1.0.0_windows_arm64.zip"), filepath.Join(dist, "robotsmith_0.9.0_windows_arm64.zip")); err != nil {
				t.Fatal(err)
			}
		}, "lists versions"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dist := fakeDist(t, "1.0.0")
			tc.breakIt(t, dist)
			err := assembleWith("../..", dist, commit)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("assemble: got %v, want an error saying %q", err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dist, "npm")); err == nil {
				t.Errorf("a failed assembly wrote dist/npm")
			}
		})
	}
}

// TestVersions: the release's semver as npm and RubyGems take it.
func TestVersions(t *testing.T) {
	tests := []struct{ in, npm, gem string }{
		{"1.2.3", "1.2.3", "1.2.3"},
		{"0.0.1-snapshot", "0.0.1-snapshot", "0.0.1.pre.snapshot"},
		{"1.2.3-rc.1", "1.2.3-rc.1", "1.2.3.pre.rc.1"},
		{"1.2.3+meta", "1.2.3", "1.2.3"},
	}
	for _, tc := range tests {
		if got := npmVersion(tc.in); got != tc.npm {
			t.Errorf("npmVersion(%q) = %q, want %q", tc.in, got, tc.npm)
		}
		if got := gemVersion(tc.in); got != tc.gem {
			t.Errorf("gemVersion(%q) = %q, want %q", tc.in, got, tc.gem)
		}
	}
}
