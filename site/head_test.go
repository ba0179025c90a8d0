package site

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/frontmatter"
)

// TestReadHead: readHead reads what frontmatter.ReadHead reads from an os.File, and fails as
// os.Open and os.File's Read fail, naming the file.
func TestReadHead(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "page.md")
	src := "---\ntitle: x\nrobots: noindex\n---\n" + strings.Repeat("body ", 5000)
	if err := os.WriteFile(page, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(page)
	if err != nil {
		t.Fatal(err)
	}
	want, err := frontmatter.ReadHead(f, frontmatter.Hugo, nil)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	got, err := readHead(page, frontmatter.Hugo, make([]byte, 0, 4))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	missing := filepath.Join(dir, "missing.md")
	if _, err := readHead(missing, frontmatter.Hugo, nil); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing file: got %v", err)
	}
	if _, err := readHead(dir, frontmatter.Hugo, nil); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("a folder: got %v", err)
	}
}
