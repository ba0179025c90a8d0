package pipeline_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/testsupport/hosttest"
)

// TestServersBuild builds a site with robotsmith (headers.format apache, nginx and caddy, pages
// too), serves the output with the real nginx, Apache and Caddy (Debian's packages) with
// robotsmith's files included as its docs say, and compares every X-Robots-Tag field each server
// sends with what explain says that host sends (SPEC §6: "proven against the real server where one
// runs on this machine"). Names with a space, '%' (and a literal "%25"), non-ASCII letters, two
// that differ only in case with different decisions, a folder's page at /docs/ and a file whose
// directives are the default (no field).
func TestServersBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nginx, Apache and Caddy; not with -short")
	}
	const html = "<!DOCTYPE html>\n<html>\n<head>\n<title>t</title>\n</head>\n<body></body>\n</html>\n"
	dir := t.TempDir()
	files := map[string]string{
		"robotsmith.yaml": `headers: {format: [apache, nginx, caddy], html: true}
rules:
  - path: /files/**
    robots: noindex
    googlebot: nosnippet
  - path: /docs/**
    robots: noindex, follow
  - path: /media/UP.pdf
    robots: noarchive
`,
		"index.html":                   html,
		"about.html":                   html,
		"docs/index.html":              html,
		"files/a b.pdf":                "pdf",
		"files/100%.pdf":               "pdf",
		"files/100%25.pdf":             "pdf",
		"files/résumé.pdf":             "pdf",
		"files/Ünïcödé folder/x y.pdf": "pdf",
		"media/UP.pdf":                 "pdf",
		"media/up.pdf":                 "pdf",
		"img/logo.png":                 "png",
	}
	for name, body := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), body)
	}
	if _, err := pipeline.Run(context.Background(), pipeline.Options{Root: dir, Write: true}); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for name := range files {
		if name != "robotsmith.yaml" {
			paths = append(paths, "/"+name)
		}
	}
	slices.Sort(paths)
	paths = append(paths, "/docs/")
	es, err := pipeline.Explain(context.Background(), pipeline.Options{Root: dir}, paths)
	if err != nil {
		t.Fatal(err)
	}
	nginxLine, err := headers.NginxInclude(filepath.Join(dir, headers.NginxFile))
	if err != nil {
		t.Fatal(err)
	}
	caddyLine, err := headers.CaddyImport(filepath.Join(dir, headers.CaddyFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, srv := range []struct {
		host    hosttest.Host
		name    string // in headers.format
		include string
		own     string // robotsmith's own file there, never served
		status  int
	}{
		{hosttest.Nginx, "nginx", nginxLine, "/" + headers.NginxFile, 404},
		{hosttest.Apache, "apache", "", "/" + headers.ApacheFile, 403},
		{hosttest.Caddy, "caddy", caddyLine, "/" + headers.CaddyFile, 404},
	} {
		t.Run(srv.name, func(t *testing.T) {
			t.Parallel()
			s := hosttest.ServeServer(t, srv.host, dir, srv.include)
			covered := 0
			for _, e := range es {
				var want []string
				for _, h := range e.Hosts {
					if h.Host == srv.name {
						for _, f := range h.Fields {
							if v, ok := strings.CutPrefix(f, "X-Robots-Tag: "); ok {
								want = append(want, v)
							}
						}
					}
				}
				if len(want) > 0 {
					covered++
				}
				resp, err := s.Get(e.Query, "")
				if err != nil {
					t.Errorf("GET %s: %v", e.Query, err)
					continue
				}
				got := resp.Header.Values("X-Robots-Tag")
				if resp.Status != 200 || !slices.Equal(got, want) {
					t.Errorf("GET %s: status %d, X-Robots-Tag %q; want 200, %q (explain)", e.Query, resp.Status, got, want)
				}
			}
			if covered < 8 {
				t.Errorf("explain gave %s lines for %d paths, want the 8 the rules cover", srv.name, covered)
			}
			resp, err := s.Get(srv.own, "")
			if err != nil || resp.Status != srv.status {
				t.Errorf("GET %s: %v, %v; want status %d: robotsmith's file is never served", srv.own, resp.Status, err, srv.status)
			}
		})
	}
}

func writeFile(t *testing.T, name, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
