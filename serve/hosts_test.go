package serve

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/testsupport/hosttest"
)

// fixtureHeaders is the fixture site's _headers: the owner's rules around robotsmith's block,
// read alike by both hosts (each combines them its own way).
const fixtureHeaders = `# The owner's rules.
/*
  X-Content-Type-Options: nosniff
/files/*
  X-Robots-Tag: noarchive
# robotsmith: begin
/files/report.pdf
  X-Robots-Tag: noindex
/files/my%20report.pdf
  X-Robots-Tag: noindex
  X-Robots-Tag: googlebot: nofollow
/files/r%C3%A9sum%C3%A9.pdf
  X-Robots-Tag: none
/docs/guide.html
  X-Robots-Tag: noai
/about
  X-Robots-Tag: noindex
/*
  Content-Usage: train-ai=n
# robotsmith: end
/img/*
  X-Robots-Tag: noimageindex
/*.PNG
  X-Robots-Tag: nosnippet
/blog/:slug/*
  X-Robots-Tag: max-snippet: 10
https://:hash.:project.pages.dev/*
  X-Robots-Tag: noindex
/legal/*
  ! X-Robots-Tag
`

// fixtureFiles are the fixture site's files.
var fixtureFiles = []string{
	"index.html", "about.html", "404.html", "docs/index.html", "docs/guide.html", "docs/404.html",
	"files/report.pdf", "files/my report.pdf", "files/résumé.pdf", "img/Logo.PNG", "img/a.png",
	"blog/post-1/index.html", "blog/post-1/cover.jpg", "legal/terms.pdf", "robots.txt",
}

// fixturePaths are the paths the tests request: every file, each page by its other addresses,
// folders with and without their slash, case changed, missing files.
var fixturePaths = []string{
	"/", "/index.html", "/about", "/about.html", "/about/", "/docs", "/docs/", "/docs/index.html",
	"/docs/guide", "/docs/guide.html", "/docs/guide/", "/docs/missing", "/files/report.pdf",
	"/files/my report.pdf", "/files/résumé.pdf", "/FILES/report.pdf", "/img/Logo.PNG", "/img/logo.png",
	"/img/a.png", "/blog/post-1/", "/blog/post-1", "/blog/post-1/cover.jpg", "/legal/terms.pdf",
	"/missing", "/missing/deeper.pdf", "/robots.txt", "/_headers", "/404.html", "/404",
}

// writeFixture makes the fixture site in a new folder: each file holds its own name (an HTML
// page as a small page).
func writeFixture(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range fixtureFiles {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := f
		if strings.HasSuffix(f, ".html") {
			body = "<!doctype html><html><head><title>" + f + "</title></head><body><p>" + f + "</p></body></html>\n"
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "_headers"), []byte(fixtureHeaders), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// hostAnswer is what the tests compare of an answer.
type hostAnswer struct {
	Status                 int
	Location               string // the redirect's path, decoded
	XRobotsTag, UsageValue string
	Body                   string // the first line of the body of a 200 or 404 (which file answered)
}

func (a hostAnswer) String() string {
	return fmt.Sprintf("%d loc=%q x-robots-tag=%q content-usage=%q body=%q", a.Status, a.Location, a.XRobotsTag, a.UsageValue, a.Body)
}

func answerOf(resp *http.Response) hostAnswer {
	a := hostAnswer{
		Status:     resp.StatusCode,
		XRobotsTag: strings.Join(resp.Header.Values("X-Robots-Tag"), ", "),
		UsageValue: strings.Join(resp.Header.Values("Content-Usage"), ", "),
	}
	if loc := resp.Header.Get("Location"); loc != "" {
		if u, err := url.Parse(loc); err == nil {
			a.Location = u.Path
		} else {
			a.Location = loc
		}
	}
	if a.Status == http.StatusOK || a.Status == http.StatusNotFound {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		a.Body = bodyName(string(b))
	}
	return a
}

// bodyName is which fixture file a body is: its name, as writeFixture wrote it.
func bodyName(b string) string {
	if i := strings.Index(b, "<title>"); i >= 0 {
		b = b[i+len("<title>"):]
		if j := strings.Index(b, "</title>"); j >= 0 {
			return b[:j]
		}
	}
	if strings.ContainsAny(b, "<\n") {
		return "(a page of the server's own)"
	}
	return b
}

// get requests p (not encoded) from base, as hosttest does, following no redirect.
func get(t *testing.T, base, p string) hostAnswer {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(base + hosttest.EncodePath(p))
	if err != nil {
		t.Fatalf("GET %s: %v", p, err)
	}
	defer resp.Body.Close()
	return answerOf(resp)
}

// divergences are the paths where Server answers as the deployed host does, not as its local
// server, with why.
var divergences = map[string]string{
	"/_headers": "the hosts read _headers and do not publish it, and Server does not serve it; wrangler pages dev answers 502 (it looks for _headers/index.html), netlify dev serves the file",
}

// TestHosts runs netlify dev and wrangler pages dev on the fixture site, in a network namespace
// of their own (TestHostsInNetns).
func TestHosts(t *testing.T) {
	hosttest.RunInNetns(t, "TestHostsInNetns", hosttest.Wrangler, hosttest.Netlify)
}

// TestHostsInNetns: for every path of the fixture site, Server answers as the host's own server
// does: the same status, redirect, X-Robots-Tag and Content-Usage, and the same file.
func TestHostsInNetns(t *testing.T) {
	hosttest.RequireNetns(t)
	dir := writeFixture(t)
	for _, tc := range []struct {
		host   hosttest.Host
		format headers.Format
	}{{hosttest.Wrangler, headers.Cloudflare}, {hosttest.Netlify, headers.Netlify}} {
		t.Run(tc.host.String(), func(t *testing.T) {
			real := hosttest.Serve(t, tc.host, dir)
			srv, err := New(dir, tc.format)
			if err != nil {
				t.Fatal(err)
			}
			ours := httptest.NewServer(srv)
			defer ours.Close()
			defer srv.Close()
			for _, p := range fixturePaths {
				if why, ok := divergences[p]; ok {
					t.Logf("%s: not compared: %s", p, why)
					continue
				}
				want, got := get(t, real.Base, p), get(t, ours.URL, p)
				if got != want {
					t.Errorf("%s:\n got %s\nwant %s (%s)", p, got, want, tc.host)
				}
			}
		})
	}
}
