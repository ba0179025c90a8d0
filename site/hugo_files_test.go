package site

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareAbs holds compareAbs to strings.Compare of the paths themselves (abs), for files of
// one root, of roots side by side, of a root inside another, of a root that is a file and of a
// root mounted under a folder of the content tree.
func TestCompareAbs(t *testing.T) {
	roots := []*hugoRoot{
		{dir: "/site/content"},
		{dir: "/site/content-fr", lang: "fr"},
		{dir: "/site/content/nested"},
		{dir: "/site/docs", under: "docs"},
		{dir: "/site/single.md", under: "extra"},
		{dir: "/"},
	}
	h := &hugoConfig{defaultLang: "en", langs: []hugoLang{{code: "en"}, {code: "fr"}}}
	var files []hugoFile
	for _, r := range roots {
		for _, tail := range []string{"a.md", "a-b.md", "a/b.md", "a/b/_index.md", "b.fr.md", "Z.md", "a.b/c.md"} {
			p, at := filepath.Join(r.dir, filepath.FromSlash(tail)), filepath.FromSlash(tail)
			if strings.HasSuffix(r.dir, ".md") {
				p, at = r.dir, "."
			}
			f := h.fileAt(r, at)
			if f.abs() != p {
				t.Errorf("abs() = %q, want %q", f.abs(), p)
			}
			files = append(files, f)
		}
	}
	for _, a := range files {
		for _, b := range files {
			got, want := compareAbs(a, b), strings.Compare(a.abs(), b.abs())
			if got != want {
				t.Errorf("compareAbs(%q, %q) = %d, want %d", a.abs(), b.abs(), got, want)
			}
		}
	}
}

// TestCompareJoined holds compareJoined to strings.Compare of the joined strings, on random parts
// over a small alphabet (so that prefixes and ties are common).
func TestCompareJoined(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	part := func() string {
		b := make([]byte, r.IntN(4))
		for i := range b {
			b[i] = "ab/"[r.IntN(3)]
		}
		return string(b)
	}
	for range 20000 {
		a := [3]string{part(), part(), part()}
		b := [3]string{part(), part(), part()}
		got, want := compareJoined(a, b), strings.Compare(strings.Join(a[:], ""), strings.Join(b[:], ""))
		if got != want {
			t.Fatalf("compareJoined(%q, %q) = %d, want %d", a, b, got, want)
		}
	}
}
