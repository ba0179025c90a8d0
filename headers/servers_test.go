package headers

// Integration tests: serve a site with the real nginx, Apache httpd and Caddy (Debian's packages),
// each started by hosttest.ServeServer on 127.0.0.1 with a configuration written into a temporary
// folder, with robotsmith's file included after the site's own lines, and read back every file's
// X-Robots-Tag and Content-Usage.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/hosttest"
)

// serverSite is the files the servers serve: names with a space, '%', '+', brackets, quotes,
// non-ASCII letters, characters the servers' configurations give a meaning to (';', '{', '#',
// '$', '\', '*', '?'), two names that differ only in case with different decisions, a folder
// index (a page with html headers on, served at /docs/), an agent-only decision, and files
// whose directives are the default, which must get no X-Robots-Tag.
func serverSite() []siteFile {
	gb := ag("googlebot", "nosnippet")
	return []siteFile{
		{disk: "index.html", url: "/"},
		{disk: "docs/index.html", url: "/docs/", lines: ls(g("noindex, follow"))},
		{disk: "files/a b.pdf", url: "/files/a b.pdf", lines: ls(g("noindex, nofollow"), gb)},
		{disk: "files/100%.pdf", url: "/files/100%.pdf", lines: ls(g("noindex"))},
		{disk: "files/100%25.pdf", url: "/files/100%25.pdf"},
		{disk: "files/a+b.pdf", url: "/files/a+b.pdf", lines: ls(g("noarchive"))},
		{disk: `files/[x] it's "q".pdf`, url: `/files/[x] it's "q".pdf`, lines: ls(g("noindex"))},
		{disk: "files/résumé.pdf", url: "/files/résumé.pdf", lines: ls(g("noindex"), gb)},
		{disk: "files/UP.pdf", url: "/files/UP.pdf", lines: ls(g("noindex"))},
		{disk: "files/up.pdf", url: "/files/up.pdf"},
		{disk: "files/q?x.pdf", url: "/files/q?x.pdf", lines: ls(g("noindex"))},
		{disk: "files/semi;colon {brace} #hash.pdf", url: "/files/semi;colon {brace} #hash.pdf", lines: ls(g("noindex"))},
		{disk: `files/back\slash.pdf`, url: `/files/back\slash.pdf`, lines: ls(g("noindex"))},
		{disk: "files/dollar$ and %{x} ${y}.pdf", url: "/files/dollar$ and %{x} ${y}.pdf", lines: ls(g("noindex"))},
		{disk: "files/star*.pdf", url: "/files/star*.pdf", lines: ls(g("nosnippet"))},
		{disk: "files/default.pdf", url: "/files/default.pdf"},
		{disk: "img/agent-only.png", url: "/img/agent-only.png", lines: ls(ag("googlebot", "noindex"), ag("bingbot", "noarchive"))},
	}
}

const serverUsage = "train-ai=n, search=y"

// writeServerSite writes site's files into dir and returns them as Files.
func writeServerSite(t *testing.T, dir string, site []siteFile) []File {
	t.Helper()
	var files []File
	for _, s := range site {
		p := filepath.Join(dir, filepath.FromSlash(s.disk))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("body of "+s.disk), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, File{Path: s.url, Lines: s.lines})
	}
	return files
}

// requestForms are the ways a client may send p: as a browser does, with lower-case hex digits,
// and with every character outside the unreserved ones percent-encoded. Each must get the same
// headers.
func requestForms(p string) []string {
	browser := hosttest.EncodePath(p)
	forms := []string{browser}
	lower := []byte(browser)
	for i := 0; i+2 < len(lower); i++ {
		if lower[i] == '%' {
			lower[i+1], lower[i+2] = toLowerHex(lower[i+1]), toLowerHex(lower[i+2])
		}
	}
	all := ""
	for i := 0; i < len(p); i++ {
		if c := p[i]; c == '/' || unreserved(c) {
			all += string(c)
		} else {
			all += fmt.Sprintf("%%%02X", c)
		}
	}
	for _, f := range []string{string(lower), all} {
		if f != forms[len(forms)-1] && f != browser {
			forms = append(forms, f)
		}
	}
	return forms
}

func toLowerHex(c byte) byte {
	if c >= 'A' && c <= 'F' {
		return c + 'a' - 'A'
	}
	return c
}

// checkServed requests every file of site in every form and compares what the server sends with
// what the files' lines mean: X-Robots-Tag (one header field per line, read as a crawler joins
// them), Content-Usage on every answer, and the site's own header, kept. robotsDefault is the
// X-Robots-Tag of the site's own configuration for the files robotsmith does not cover.
func checkServed(t *testing.T, s *hosttest.Server, site []siteFile, own, robotsDefault string) {
	t.Helper()
	for _, f := range site {
		for _, raw := range requestForms(f.url) {
			resp, err := s.GetRaw(raw, "")
			if err != nil {
				t.Errorf("%s: GET %s: %v", s.Host, raw, err)
				continue
			}
			if resp.Status != 200 {
				t.Errorf("%s: GET %s: status %d, want 200", s.Host, raw, resp.Status)
				continue
			}
			got := strings.Join(resp.Header.Values("X-Robots-Tag"), ", ")
			want := strings.Join(written(f.lines), ", ")
			if want == "" {
				want = robotsDefault
			}
			if (got == "") != (want == "") || !Interpret(got).Equal(Interpret(want)) {
				t.Errorf("%s: GET %s: X-Robots-Tag %q, want the meaning of %q", s.Host, raw, got, want)
			}
			if n := len(resp.Header.Values("X-Robots-Tag")); f.lines != nil && n != len(f.lines) {
				t.Errorf("%s: GET %s: %d X-Robots-Tag fields, want one per line (%d)", s.Host, raw, n, len(f.lines))
			}
			if got := resp.Header.Values("Content-Usage"); len(got) != 1 || got[0] != serverUsage {
				t.Errorf("%s: GET %s: Content-Usage %q, want [%q]", s.Host, raw, got, serverUsage)
			}
			if got := resp.Header.Get("X-Site"); got != own {
				t.Errorf("%s: GET %s: the site's own header X-Site is %q, want %q", s.Host, raw, got, own)
			}
		}
	}
}

// checkHidden requests robotsmith's own file where it lies in the site, which must not be served.
func checkHidden(t *testing.T, s *hosttest.Server, raw string, want int) {
	t.Helper()
	resp, err := s.GetRaw(raw, "")
	if err != nil {
		t.Fatalf("%s: GET %s: %v", s.Host, raw, err)
	}
	if resp.Status != want {
		t.Errorf("%s: GET %s: status %d, want %d: robotsmith's file must not be served", s.Host, raw, resp.Status, want)
	}
}

// writeResult writes a writer's file into place and checks that writing it again from itself
// changes nothing.
func writeResult(t *testing.T, w func(Files, Options) (Result, error), files []File, opt Options, dest string) Result {
	t.Helper()
	r, err := w(List(files), opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Existing, opt.Record = r.Data, r.Record
	again, err := w(List(files), opt)
	if err != nil {
		t.Fatal(err)
	}
	if string(again.Data) != string(r.Data) {
		t.Errorf("a second run changed the file:\n%s\nfirst:\n%s", again.Data, r.Data)
	}
	if err := os.WriteFile(dest, r.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	return r
}

// manySite is 1,200 files in folders of 100, two decisions taking turns, with names of spaces
// and '+': more paths than one line of .htaccess or one of Caddy's matchers holds.
func manySite() []siteFile {
	a, b := ls(g("noindex")), ls(g("nofollow"), ag("googlebot", "noarchive"))
	site := []siteFile{{disk: "index.html", url: "/"}}
	for i := 0; i < 1200; i++ {
		name := fmt.Sprintf("many/folder %02d/file + %04d.pdf", i/100, i)
		l := a
		if i%2 == 1 {
			l = b
		}
		if i%7 == 0 {
			l = nil
		}
		site = append(site, siteFile{disk: name, url: "/" + name, lines: l})
	}
	return site
}

// sample is every 29th file of a site, and its last.
func sample(site []siteFile) []siteFile {
	var out []siteFile
	for i := 0; i < len(site); i += 29 {
		out = append(out, site[i])
	}
	return append(out, site[len(site)-1])
}

// server starts one kind of server for the site in root (under work), with robotsmith's file for
// files written in, and says what the site's own configuration adds.
type server struct {
	name string
	// start returns the running server, the site's own X-Site header, the X-Robots-Tag the
	// site's own configuration sends for the files robotsmith does not cover, and where
	// robotsmith's file would be served with the status that must answer it.
	start func(t *testing.T, work, root string, files []File) (s *hosttest.Server, own, robotsDefault, hidden string, status int)
}

var servers = []server{
	{"nginx", func(t *testing.T, work, root string, files []File) (*hosttest.Server, string, string, string, int) {
		// The site's own header, which nginx would not send in robotsmith's locations: kept by
		// the file of add_header lines that each location includes, and that the server block
		// includes too, before robotsmith's file.
		own := filepath.Join(work, "site-headers.conf")
		if err := os.WriteFile(own, []byte("add_header X-Site \"kept\" always;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		conf := filepath.Join(root, NginxFile)
		writeResult(t, Nginx, files, Options{ContentUsage: serverUsage, Self: "/" + NginxFile, NginxInclude: own}, conf)
		include, err := NginxInclude(conf)
		if err != nil {
			t.Fatal(err)
		}
		s := hosttest.ServeServer(t, hosttest.Nginx, root, "include "+nginxQuote(own)+";\n        "+include)
		return s, "kept", "", "/" + NginxFile, 404
	}},
	{"apache", func(t *testing.T, work, root string, files []File) (*hosttest.Server, string, string, string, int) {
		// The site's own .htaccess: a header of its own, and X-Robots-Tag in both of
		// mod_headers' tables, which robotsmith's block must replace for the files it covers.
		user := "Header set X-Site \"kept\"\nHeader set X-Robots-Tag \"noarchive\"\nHeader always set X-Robots-Tag \"noarchive\"\n"
		r := writeResult(t, Apache, files, Options{ContentUsage: serverUsage, Existing: []byte(user)}, filepath.Join(root, ApacheFile))
		if len(r.Findings) != 2 {
			t.Errorf("findings %v, want the two lines of the site's own that set X-Robots-Tag", r.Findings)
		}
		s := hosttest.ServeServer(t, hosttest.Apache, root, "")
		return s, "kept", "noarchive, noarchive", "/" + ApacheFile, 403
	}},
	{"caddy", func(t *testing.T, work, root string, files []File) (*hosttest.Server, string, string, string, int) {
		file := filepath.Join(root, CaddyFile)
		writeResult(t, Caddy, files, Options{ContentUsage: serverUsage, Self: "/" + CaddyFile}, file)
		imp, err := CaddyImport(file)
		if err != nil {
			t.Fatal(err)
		}
		// The site's own header, set in the site block before robotsmith's import.
		s := hosttest.ServeServer(t, hosttest.Caddy, root, "header X-Site \"kept\"\n\t"+imp)
		return s, "kept", "", "/" + CaddyFile, 404
	}},
}

func TestServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nginx, Apache and Caddy; not with -short")
	}
	sites := []struct {
		desc        string
		site, check []siteFile
	}{
		{"awkward names", serverSite(), serverSite()},
		{"many files", manySite(), sample(manySite())},
	}
	for _, srv := range servers {
		for _, st := range sites {
			t.Run(srv.name+"/"+st.desc, func(t *testing.T) {
				t.Parallel()
				work := t.TempDir()
				root := filepath.Join(work, "site")
				files := writeServerSite(t, root, st.site)
				s, own, robotsDefault, hidden, status := srv.start(t, work, root, files)
				checkServed(t, s, st.check, own, robotsDefault)
				checkHidden(t, s, hidden, status)
			})
		}
	}
}
