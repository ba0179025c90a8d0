package serve

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/headers"
)

// rawGet sends a request line as written (no client cleans its path) and returns the status.
func rawGet(t *testing.T, addr, target string) int {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write([]byte("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestBeneath: nothing outside the output folder is served: a path with "..", however written,
// is refused; a link to a file or folder outside is not followed; robotsmith's temporary files
// and _headers are not served. Files named with spaces and non-ASCII letters are.
func TestBeneath(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := writeFixture(t)
	for name, target := range map[string]string{
		"link-out.txt":    filepath.Join(outside, "secret.txt"),
		"folder-out":      outside,
		"docs/link-in.md": "../about.html",
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".robotsmith-1.tmp"), []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []headers.Format{headers.Netlify, headers.Cloudflare} {
		srv, err := New(dir, f)
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv)
		addr := strings.TrimPrefix(ts.URL, "http://")
		tests := []struct {
			target string
			want   int
			body   string // the file served, for a 200
		}{
			{"/../secret.txt", http.StatusBadRequest, ""},
			{"/docs/../../secret.txt", http.StatusBadRequest, ""},
			{"/%2e%2e/secret.txt", http.StatusBadRequest, ""},
			{"/docs/%2E%2E/%2E%2E/secret.txt", http.StatusBadRequest, ""},
			{"/..%2fsecret.txt", http.StatusBadRequest, ""},
			{"/link-out.txt", http.StatusNotFound, ""},
			{"/folder-out/secret.txt", http.StatusNotFound, ""},
			{"/.robotsmith-1.tmp", http.StatusNotFound, ""},
			{"/_headers", http.StatusNotFound, ""},
			{"/files/my%20report.pdf", http.StatusOK, "files/my report.pdf"},
			{"/files/r%C3%A9sum%C3%A9.pdf", http.StatusOK, "files/résumé.pdf"},
			{"/docs/link-in.md", http.StatusOK, "about.html"}, // a link inside the folder
		}
		for _, tc := range tests {
			t.Run(f.String()+tc.target, func(t *testing.T) {
				if got := rawGet(t, addr, tc.target); got != tc.want {
					t.Errorf("GET %s = %d, want %d", tc.target, got, tc.want)
				}
				if tc.body != "" {
					resp, err := http.Get(ts.URL + tc.target)
					if err != nil {
						t.Fatal(err)
					}
					a := answerOf(resp)
					resp.Body.Close()
					if a.Body != tc.body {
						t.Errorf("GET %s served %q, want %q", tc.target, a.Body, tc.body)
					}
				}
			})
		}
		ts.Close()
		srv.Close()
	}
}

// TestInject: an HTML page is served with the reload script, and the file on disk keeps its
// bytes; any other file is served as it is.
func TestInject(t *testing.T) {
	dir := writeFixture(t)
	before, _ := os.ReadFile(filepath.Join(dir, "about.html"))
	srv, err := New(dir, headers.Cloudflare)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	defer srv.Close()
	for _, tc := range []struct {
		path   string
		script bool
	}{{"/about", true}, {"/", true}, {"/missing", true}, {"/files/report.pdf", false}, {"/robots.txt", false}} {
		t.Run(tc.path, func(t *testing.T) {
			resp, err := http.Get(ts.URL + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var b strings.Builder
			bufio.NewReader(resp.Body).WriteTo(&b)
			body := b.String()
			if got := strings.Contains(body, EventsPath); got != tc.script {
				t.Errorf("GET %s: script in the body = %v, want %v:\n%s", tc.path, got, tc.script, body)
			}
			if tc.script && !strings.Contains(body, "</script></body>") {
				t.Errorf("GET %s: the script is not just before </body>:\n%s", tc.path, body)
			}
		})
	}
	after, _ := os.ReadFile(filepath.Join(dir, "about.html"))
	if string(after) != string(before) {
		t.Errorf("about.html changed on disk:\n%s", after)
	}
}

// TestReloadEvents: a page's event stream hears the reload count when it connects, then after
// each Reload; Close ends it.
func TestReloadEvents(t *testing.T) {
	srv, err := New(writeFixture(t), headers.Netlify)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+EventsPath, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type = %q", ct)
	}
	r := bufio.NewReader(resp.Body)
	next := func() string {
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return "error: " + err.Error()
			}
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok {
				return v
			}
		}
	}
	if got := next(); got != "0" {
		t.Fatalf("on connect: data %q, want 0", got)
	}
	srv.Reload()
	if got := next(); got != "1" {
		t.Fatalf("after Reload: data %q, want 1", got)
	}
	srv.Reload()
	if got := next(); got != "2" {
		t.Fatalf("after a second Reload: data %q, want 2", got)
	}
	srv.Close()
	if got := next(); !strings.HasPrefix(got, "error: ") {
		t.Fatalf("after Close: %q, want the stream ended", got)
	}
}

func TestListen(t *testing.T) {
	for _, tc := range []struct{ addr, host string }{{":0", "127.0.0.1"}, {"127.0.0.1:0", "127.0.0.1"}, {"[::1]:0", "::1"}} {
		t.Run(tc.addr, func(t *testing.T) {
			ln, err := Listen(tc.addr)
			if err != nil {
				if tc.host == "::1" {
					t.Skipf("no IPv6 loopback: %v", err)
				}
				t.Fatal(err)
			}
			defer ln.Close()
			if host, _, _ := net.SplitHostPort(ln.Addr().String()); host != tc.host {
				t.Errorf("Listen(%q) on %s, want host %s", tc.addr, ln.Addr(), tc.host)
			}
		})
	}
	if _, err := Listen("1313"); err == nil {
		t.Error("Listen(\"1313\"): want an error (no colon)")
	}
}
