package site

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"
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

// TestHugoFileSize holds the size of a file of the content tree: the site's file list is held
// beside every page until all are placed, so a field more is paid for every source of the site.
func TestHugoFileSize(t *testing.T) {
	const want = 32 // the root, rel, and its offsets, language and bits in one word
	if got := unsafe.Sizeof(hugoFile{}); got > want {
		t.Errorf("hugoFile is %d bytes, want at most %d", got, want)
	}
}

// TestFileAt holds what a file of the content tree says of itself (its folder, base name,
// language, whether it is content and whether its name gave its language) for files at the top
// and in folders, of a root mounted under a folder, of a root that is the file itself, of a root
// of one language, and for a list page Hugo makes without a content file.
func TestFileAt(t *testing.T) {
	h := &hugoConfig{defaultLang: "de", langs: []hugoLang{{code: "en"}, {code: "fr"}}}
	top, docs := &hugoRoot{dir: "/site/content"}, &hugoRoot{dir: "/site/docs", under: "docs/v1"}
	fr := &hugoRoot{dir: "/site/content-fr", lang: "fr"}
	single, singleTop := &hugoRoot{dir: "/site/About.fr.md", under: "pages/about"}, &hugoRoot{dir: "/site/x.md"}
	tests := []struct {
		desc      string
		f         hugoFile
		rel       string
		dir, base string
		lang      string
		content   bool
		named     bool
	}{
		{"top page", h.fileAt(top, "a.md"), "a.md", "", "a", "de", true, false},
		{"home", h.fileAt(top, "_index.md"), "_index.md", "", "_index", "de", true, false},
		{"page in folders", h.fileAt(top, filepath.FromSlash("blog/2024/post.MD")), "blog/2024/post.MD", "blog/2024", "post", "de", true, false},
		{"bundle", h.fileAt(top, filepath.FromSlash("blog/b/index.fr.md")), "blog/b/index.fr.md", "blog/b", "index", "fr", true, true},
		{"bundle image", h.fileAt(top, filepath.FromSlash("blog/b/cat.en.jpg")), "blog/b/cat.en.jpg", "blog/b", "cat", "en", false, true},
		{"unconfigured language", h.fileAt(top, "a.es.md"), "a.es.md", "", "a.es", "de", true, false},
		{"dots in the name", h.fileAt(top, "v1.2.md"), "v1.2.md", "", "v1.2", "de", true, false},
		{"no extension", h.fileAt(top, filepath.FromSlash("s/README")), "s/README", "s", "README", "de", false, false},
		{"trailing dot", h.fileAt(top, "a."), "a.", "", "a", "de", false, false},
		{"language name only", h.fileAt(top, ".fr.md"), ".fr.md", "", ".fr", "de", true, false},
		{"mounted under a folder", h.fileAt(docs, filepath.FromSlash("guide/x.fr.md")), "docs/v1/guide/x.fr.md", "docs/v1/guide", "x", "fr", true, true},
		{"root of one language", h.fileAt(fr, "a.en.md"), "a.en.md", "", "a", "fr", true, true},
		{"root that is a file", h.fileAt(single, "."), "pages/about", "pages", "About", "fr", true, true},
		{"root that is a file at the top", h.fileAt(singleTop, "."), ".", "", "x", "de", true, false},
		{"home Hugo makes", h.madeFile("fr", ""), "", "", "_index", "fr", false, false},
		{"section Hugo makes", h.madeFile("en", "blog/sub"), "blog/sub", "blog/sub", "_index", "en", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			f := tc.f
			got := []any{f.rel, f.dir(), f.base(), f.lang(h), f.content(), f.named()}
			want := []any{tc.rel, tc.dir, tc.base, tc.lang, tc.content, tc.named}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("rel, dir, base, lang, content, named = %q, want %q", got, want)
			}
		})
	}
}
