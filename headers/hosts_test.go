package headers

// Integration tests: serve a built site with the hosts' own local servers,
// Cloudflare's `wrangler pages dev` and Netlify's `netlify dev`, request
// every file and compare the X-Robots-Tag they send with the decided lines.
//
// The harness (finding the servers, the `unshare -n` re-run, starting and
// stopping them) is testsupport/hosttest; this file writes the site with Block
// and Merge and checks what the servers send. Each server is started once.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/rules"
	"github.com/robotsmith/robotsmith/testsupport/hosttest"
)

// siteFile is a file of the integration site.
type siteFile struct {
	disk  string // relative path on disk
	url   string // URL path to request (as File.Path, not encoded)
	lines []rules.HeaderLine
}

// integrationSite is a small site with mixed decisions: PDFs and images in
// folders, a file name that needs percent-encoding, pages served at their
// folder URL (html: true), and a gallery big enough that Cloudflare must
// fold it under its rule limit while a neighbouring folder of mixed
// decisions stays exact.
func integrationSite() []siteFile {
	gb := ls(ag("googlebot", "nosnippet"))
	fs := []siteFile{
		{disk: "index.html", url: "/"},
		{disk: "blog/a/index.html", url: "/blog/a/", lines: ls(g("noindex, follow"))},
		{disk: "blog/b/index.html", url: "/blog/b/"},
		{disk: "blog/b/diagram.png", url: "/blog/b/diagram.png", lines: ls(g("noimageindex"))},
		{disk: "files/report.pdf", url: "/files/report.pdf", lines: append(ls(g("noindex, nofollow")), gb...)},
		{disk: "files/public.pdf", url: "/files/public.pdf"},
		{disk: "files/my report (v2).pdf", url: "/files/my report (v2).pdf", lines: ls(g("noindex"))},
		{disk: "files/agent-only.pdf", url: "/files/agent-only.pdf", lines: ls(ag("googlebot", "noindex"), ag("bingbot", "noarchive, nosnippet"))},
		{disk: "files/dated.pdf", url: "/files/dated.pdf", lines: ls(g("unavailable_after: 2027-01-31T00:00:00Z"), ag("googlebot", "max-snippet:20"))},
	}
	for i := 0; i < 90; i++ {
		fs = append(fs, siteFile{disk: fmt.Sprintf("gallery/all/p%03d.png", i), url: fmt.Sprintf("/gallery/all/p%03d.png", i), lines: ls(g("noindex"))})
	}
	// A folder whose page keeps the default: only /shots/*.png can fold.
	fs = append(fs, siteFile{disk: "shots/index.html", url: "/shots/"})
	for i := 0; i < 100; i++ {
		fs = append(fs, siteFile{disk: fmt.Sprintf("shots/s%03d.png", i), url: fmt.Sprintf("/shots/s%03d.png", i), lines: ls(g("noindex, noimageindex"))})
	}
	fs = append(fs, siteFile{disk: "shots/sub/deep.png", url: "/shots/sub/deep.png", lines: ls(g("noindex, noimageindex"))},
		siteFile{disk: "shots/sub/deep.jpg", url: "/shots/sub/deep.jpg"})
	for i := 0; i < 12; i++ {
		f := siteFile{disk: fmt.Sprintf("gallery/mix/m%02d.jpg", i), url: fmt.Sprintf("/gallery/mix/m%02d.jpg", i)}
		if i%3 != 0 {
			f.lines = ls(g("noindex, noimageindex"))
		}
		fs = append(fs, f)
	}
	return fs
}

const userHeaders = "# the site's own headers\n/*\n  X-Content-Type-Options: nosniff\n"

// writeSite writes the site and its _headers for format f into dir.
func writeSite(t *testing.T, dir string, site []siteFile, f Format) {
	t.Helper()
	var files []File
	for _, s := range site {
		p := filepath.Join(dir, filepath.FromSlash(s.disk))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := "binary " + s.disk
		if strings.HasSuffix(s.disk, ".html") {
			body = "<!doctype html><title>" + s.disk + "</title><p>" + s.disk
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, File{Path: s.url, Lines: s.lines})
	}
	block, err := Block(files, Options{Format: f, Existing: []byte(userHeaders)})
	if err != nil {
		t.Fatalf("Block: %v", err)
	}
	merged, err := Merge([]byte(userHeaders), block)
	if err != nil {
		t.Fatalf("Merge: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "_headers"), merged, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHosts runs TestHostsInNetns inside `unshare -n`.
func TestHosts(t *testing.T) {
	hosttest.RunInNetns(t, "TestHostsInNetns", hosttest.Wrangler, hosttest.Netlify)
}

// TestHostsInNetns does the work; it runs only inside the namespace that
// TestHosts makes.
func TestHostsInNetns(t *testing.T) {
	hosttest.RequireNetns(t)
	site := integrationSite()
	t.Run("cloudflare", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		writeSite(t, dir, site, Cloudflare)
		hdr, _ := os.ReadFile(filepath.Join(dir, "_headers"))
		for _, fold := range []string{"\n/gallery/all/*\n", "\n/shots/*.png\n"} {
			if !strings.Contains(string(hdr), fold) {
				t.Errorf("expected the rule %q for cloudflare; _headers:\n%s", fold[1:], hdr)
			}
		}
		srv := hosttest.Serve(t, hosttest.Wrangler, dir)
		for _, host := range []string{"", "myproj.pages.dev", "abc123.myproj.pages.dev"} {
			preview := strings.Count(host, ".") >= 3
			checkSite(t, srv, host, site, preview)
		}
	})
	t.Run("netlify", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		writeSite(t, dir, site, Netlify)
		srv := hosttest.Serve(t, hosttest.Netlify, dir)
		checkSite(t, srv, "", site, false)
	})
}

// checkSite requests every file of site and compares the X-Robots-Tag sent
// with what its lines mean; on a Cloudflare preview host every file must
// also carry noindex. The user's own rule (nosniff) must still be sent.
func checkSite(t *testing.T, srv *hosttest.Server, host string, site []siteFile, preview bool) {
	t.Helper()
	for _, s := range site {
		resp, err := srv.Get(s.url, host)
		if err != nil {
			t.Errorf("GET %s (host %q): %v", s.url, host, err)
			continue
		}
		if resp.Status != 200 {
			t.Errorf("GET %s (host %q): status %d, want 200", s.url, host, resp.Status)
			continue
		}
		got := resp.XRobotsTag()
		wantLines := written(s.lines)
		if preview {
			wantLines = append([]string{"noindex"}, wantLines...)
		}
		want := strings.Join(wantLines, ", ")
		if (got == "") != (want == "") || !Interpret(got).Equal(Interpret(want)) {
			t.Errorf("GET %s (host %q): X-Robots-Tag %q, want the meaning of %q", s.url, host, got, want)
		}
		if n := resp.Header.Get("X-Content-Type-Options"); n != "nosniff" {
			t.Errorf("GET %s (host %q): the user's rule was lost: X-Content-Type-Options %q", s.url, host, n)
		}
	}
}
