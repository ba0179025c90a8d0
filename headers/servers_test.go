package headers

// Integration tests: serve a site with the real nginx, Apache httpd and Caddy (Debian's packages),
// each started by the test on 127.0.0.1 with a configuration written into a temporary folder, with
// robotsmith's file included, and read back every file's X-Robots-Tag and Content-Usage.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/testsupport/hosttest"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
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

// liveServer is a server a test started.
type liveServer struct {
	name string
	base string
	log  *testtool.Output
}

// startServer runs args in its own process group, waits until base answers, and kills the
// group when t ends.
func startServer(t *testing.T, name string, args, env []string, base string) *liveServer {
	t.Helper()
	s := &liveServer{name: name, base: base, log: &testtool.Output{}}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = s.log, s.log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		if t.Failed() {
			t.Logf("%s output:\n%s", name, s.log.String())
		}
	})
	client := &http.Client{Timeout: time.Second}
	// A bound on failure, not a measure: each server answers within a second on an idle machine.
	for start := time.Now(); time.Since(start) < time.Minute; time.Sleep(100 * time.Millisecond) {
		select {
		case <-done:
			t.Fatalf("%s exited before it answered:\n%s", name, s.log.String())
		default:
		}
		if resp, err := client.Get(base + "/"); err == nil {
			resp.Body.Close()
			return s
		}
	}
	t.Fatalf("%s did not answer within a minute:\n%s", name, s.log.String())
	return nil
}

// get requests the raw (already encoded) path.
func (s *liveServer) get(t *testing.T, raw string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(context.Background(), "GET", s.base+raw, nil)
	if err != nil {
		return nil, err
	}
	req.URL.Opaque = raw // sent exactly as written
	client := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp, nil
}

// checkServed requests every file of site in every form and compares what the server sends with
// what the files' lines mean: X-Robots-Tag (one header field per line, read as a crawler joins
// them), Content-Usage on every answer, and the site's own header, kept. robotsDefault is the
// X-Robots-Tag of the site's own configuration for the files robotsmith does not cover.
func checkServed(t *testing.T, s *liveServer, site []siteFile, own, robotsDefault string) {
	t.Helper()
	for _, f := range site {
		for _, raw := range requestForms(f.url) {
			resp, err := s.get(t, raw)
			if err != nil {
				t.Errorf("%s: GET %s: %v", s.name, raw, err)
				continue
			}
			if resp.StatusCode != 200 {
				t.Errorf("%s: GET %s: status %d, want 200", s.name, raw, resp.StatusCode)
				continue
			}
			got := strings.Join(resp.Header.Values("X-Robots-Tag"), ", ")
			want := strings.Join(written(f.lines), ", ")
			if want == "" {
				want = robotsDefault
			}
			if (got == "") != (want == "") || !Interpret(got).Equal(Interpret(want)) {
				t.Errorf("%s: GET %s: X-Robots-Tag %q, want the meaning of %q", s.name, raw, got, want)
			}
			if n := len(resp.Header.Values("X-Robots-Tag")); f.lines != nil && n != len(f.lines) {
				t.Errorf("%s: GET %s: %d X-Robots-Tag fields, want one per line (%d)", s.name, raw, n, len(f.lines))
			}
			if got := resp.Header.Values("Content-Usage"); len(got) != 1 || got[0] != serverUsage {
				t.Errorf("%s: GET %s: Content-Usage %q, want [%q]", s.name, raw, got, serverUsage)
			}
			if got := resp.Header.Get("X-Site"); got != own {
				t.Errorf("%s: GET %s: the site's own header X-Site is %q, want %q", s.name, raw, got, own)
			}
		}
	}
}

// checkHidden requests robotsmith's own file where it lies in the site, which must not be served.
func checkHidden(t *testing.T, s *liveServer, raw string, want int) {
	t.Helper()
	resp, err := s.get(t, raw)
	if err != nil {
		t.Fatalf("%s: GET %s: %v", s.name, raw, err)
	}
	if resp.StatusCode != want {
		t.Errorf("%s: GET %s: status %d, want %d: robotsmith's file must not be served", s.name, raw, resp.StatusCode, want)
	}
}

// lookTool finds a server's binary on PATH or in /usr/sbin (where Debian puts nginx and apache2,
// which a user's PATH may not hold), or calls testtool.Missing.
func lookTool(t *testing.T, name, pkg string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if p := "/usr/sbin/" + name; fileExists(p) {
		return p
	}
	testtool.Missing(t, "%s not found: apt-get install %s (as .ci/run does)", name, pkg)
	return ""
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

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
	start func(t *testing.T, work, root string, files []File) (s *liveServer, own, robotsDefault, hidden string, status int)
}

var servers = []server{
	{"nginx", func(t *testing.T, work, root string, files []File) (*liveServer, string, string, string, int) {
		nginx := lookTool(t, "nginx", "nginx")
		// The site's own header, which nginx would not send in robotsmith's locations: kept by
		// the file of add_header lines that each location includes.
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
		port := testtool.FreePort(t)
		cfg := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log stderr;
events {}
http {
    access_log off;
    client_body_temp_path %[1]s/tmp; proxy_temp_path %[1]s/tmp; fastcgi_temp_path %[1]s/tmp;
    uwsgi_temp_path %[1]s/tmp; scgi_temp_path %[1]s/tmp;
    server {
        listen 127.0.0.1:%[2]d;
        root %[3]s;
        include %[4]s;
        %[5]s
    }
}
`, work, port, nginxQuote(root), nginxQuote(own), include)
		if err := os.WriteFile(filepath.Join(work, "nginx.conf"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		s := startServer(t, "nginx", []string{nginx, "-p", work, "-c", filepath.Join(work, "nginx.conf"), "-e", "stderr"}, nil,
			fmt.Sprintf("http://127.0.0.1:%d", port))
		return s, "kept", "", "/" + NginxFile, 404
	}},
	{"apache", func(t *testing.T, work, root string, files []File) (*liveServer, string, string, string, int) {
		apache := lookTool(t, "apache2", "apache2")
		const modules = "/usr/lib/apache2/modules"
		if !fileExists(filepath.Join(modules, "mod_headers.so")) {
			testtool.Missing(t, "Apache's modules are not in %s: apt-get install apache2", modules)
		}
		// The site's own .htaccess: a header of its own, and X-Robots-Tag in both of
		// mod_headers' tables, which robotsmith's block must replace for the files it covers.
		user := "Header set X-Site \"kept\"\nHeader set X-Robots-Tag \"noarchive\"\nHeader always set X-Robots-Tag \"noarchive\"\n"
		r := writeResult(t, Apache, files, Options{ContentUsage: serverUsage, Existing: []byte(user)}, filepath.Join(root, ApacheFile))
		if len(r.Findings) != 2 {
			t.Errorf("findings %v, want the two lines of the site's own that set X-Robots-Tag", r.Findings)
		}
		port := testtool.FreePort(t)
		if err := os.MkdirAll(filepath.Join(work, "run"), 0o755); err != nil {
			t.Fatal(err)
		}
		var mods strings.Builder
		for _, m := range []string{"mpm_event", "authz_core", "mime", "dir", "headers"} {
			fmt.Fprintf(&mods, "LoadModule %s_module %s/mod_%s.so\n", m, modules, m)
		}
		cfg := fmt.Sprintf(`ServerRoot "%[1]s"
DefaultRuntimeDir "%[1]s/run"
%[4]sListen 127.0.0.1:%[2]d
PidFile "%[1]s/httpd.pid"
ErrorLog "%[1]s/error.log"
ServerName localhost
TypesConfig /dev/null
DocumentRoot "%[3]s"
DirectoryIndex index.html
<Directory />
    AllowOverride None
    Require all denied
</Directory>
<Directory "%[3]s">
    AllowOverride FileInfo
    Require all granted
</Directory>
# As Debian's apache2.conf: .htaccess is never served.
<FilesMatch "^\.ht">
    Require all denied
</FilesMatch>
`, work, port, root, mods.String())
		if err := os.WriteFile(filepath.Join(work, "httpd.conf"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		s := startServer(t, "apache2", []string{apache, "-f", filepath.Join(work, "httpd.conf"), "-X"}, nil,
			fmt.Sprintf("http://127.0.0.1:%d", port))
		t.Cleanup(func() {
			if t.Failed() {
				log, _ := os.ReadFile(filepath.Join(work, "error.log"))
				t.Logf("error.log:\n%s", log)
			}
		})
		return s, "kept", "noarchive, noarchive", "/" + ApacheFile, 403
	}},
	{"caddy", func(t *testing.T, work, root string, files []File) (*liveServer, string, string, string, int) {
		caddy := lookTool(t, "caddy", "caddy")
		file := filepath.Join(root, CaddyFile)
		writeResult(t, Caddy, files, Options{ContentUsage: serverUsage, Self: "/" + CaddyFile}, file)
		imp, err := CaddyImport(file)
		if err != nil {
			t.Fatal(err)
		}
		port := testtool.FreePort(t)
		cfg := fmt.Sprintf(`{
	admin off
	auto_https off
	storage file_system %[1]s/data
}
http://127.0.0.1:%[2]d {
	root * %[3]s
	header X-Site "kept"
	%[4]s
	file_server
}
`, work, port, root, imp)
		if err := os.WriteFile(filepath.Join(work, "Caddyfile"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		env := []string{"HOME=" + work, "XDG_CONFIG_HOME=" + work, "XDG_DATA_HOME=" + work}
		s := startServer(t, "caddy", []string{caddy, "run", "--config", filepath.Join(work, "Caddyfile"), "--adapter", "caddyfile"}, env,
			fmt.Sprintf("http://127.0.0.1:%d", port))
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
