package pipeline

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/robotsmith/robotsmith/internal/safefs"
)

// TestReadOnce: check and build open each file of the output they read once, pages included,
// though the indexability model needs each page's canonical and hreflang links besides its
// rewrite (the scan that rewrites a page reads its links), robots.txt, _headers and the sitemaps
// too, and the configuration. The kernel counts the opens (inotify), not the code under test. The run's findings prove
// the links were read.
func TestReadOnce(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"robotsmith.yaml":         "rules:\n  - path: /private/**\n    robots: noindex\n",
		"robots.txt":              "User-agent: *\nDisallow:\nSitemap: https://example.org/sitemap.xml\n",
		"_headers":                "/files/*\n  Cache-Control: max-age=60\n",
		"index.html":              withHead(`<link rel="canonical" href="/">`, `<link rel="alternate" hreflang="de" href="/de/">`),
		"de/index.html":           withHead(`<link rel="canonical" href="/de/">`, `<link rel="alternate" hreflang="en" href="/">`),
		"a/index.html":            withHead(`<link rel="canonical" href="/private/a/">`),
		"private/a/index.html":    page,
		"posts/deep/b/index.html": withHead(`<link rel="alternate" hreflang="fr" href="../../../fr/b/">`),
		"files/x.pdf":             "%PDF-1.4\n",
		"sitemap.xml":             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n  <sitemap><loc>https://example.org/en.xml</loc></sitemap>\n</sitemapindex>\n",
		"en.xml":                  sitemapOf("/", "/a/", "/private/a/"),
	})
	want := []string{"_headers", "a/index.html", "de/index.html", "en.xml", "index.html", "posts/deep/b/index.html", "private/a/index.html", "robots.txt", "robotsmith.yaml", "sitemap.xml"}
	for _, run := range []struct {
		desc  string
		write bool
	}{{"check", false}, {"build", true}, {"rebuild", true}} {
		t.Run(run.desc, func(t *testing.T) {
			w := watchOpens(t, dir)
			rep, err := Run(context.Background(), Options{Root: dir, Write: run.write})
			if err != nil {
				t.Fatal(err)
			}
			if run.desc != "rebuild" && len(rep.Findings) != 2 {
				t.Errorf("%d findings, want the canonical to /private/a/ and the hreflang to /fr/b/: %q", len(rep.Findings), rep.Findings)
			}
			opens := w.opens()
			for _, name := range want {
				if opens[name] != 1 {
					t.Errorf("%s opened %d times, want once", name, opens[name])
				}
				delete(opens, name)
			}
			for name, n := range opens {
				if !safefs.Own(filepath.Base(name)) {
					t.Errorf("%s opened %d times, want never", name, n)
				}
			}
		})
	}
}

// openWatch counts the opens of the files of a folder tree, by name relative to it.
type openWatch struct {
	fd   int
	dirs map[int32]string // watch descriptor: folder, relative
}

// watchOpens watches every folder of the tree at root for opens of its files until the test ends.
func watchOpens(t *testing.T, root string) *openWatch {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		t.Skipf("inotify: %v", err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	w := &openWatch{fd: fd, dirs: map[int32]string{}}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		wd, err := syscall.InotifyAddWatch(fd, p, syscall.IN_OPEN)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		w.dirs[int32(wd)] = filepath.ToSlash(rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// opens reads the events queued so far: how many times each file was opened (folders not counted).
func (w *openWatch) opens() map[string]int {
	n := map[string]int{}
	buf := make([]byte, 64<<10)
	for {
		k, err := syscall.Read(w.fd, buf)
		if k <= 0 || err != nil {
			return n
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= k; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := strings.TrimRight(string(buf[off+syscall.SizeofInotifyEvent:off+syscall.SizeofInotifyEvent+int(ev.Len)]), "\x00")
			off += syscall.SizeofInotifyEvent + int(ev.Len)
			if ev.Mask&syscall.IN_ISDIR != 0 || name == "" {
				continue
			}
			n[strings.TrimPrefix(w.dirs[ev.Wd]+"/"+name, "./")]++
		}
	}
}
