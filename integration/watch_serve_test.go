//go:build linux

package integration

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/serve"
	"github.com/robotsmith/robotsmith/testsupport/devtools"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// TestWatchServe: `robotsmith watch --serve ADDR SITE -- hugo --watch` with the real Hugo serves
// the output as the configured host would: a PDF of a noindex rule gets its X-Robots-Tag over
// HTTP, from the _headers robotsmith wrote, in either host's format. A real browser (headless
// Chromium, through the DevTools protocol) showing a page reloads by itself after a front matter
// edit, and the page it then shows with the edit is the one robotsmith fixed, its noindex tag
// there: the reload comes after robotsmith's batch, never on the generator's write alone.
func TestWatchServe(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Hugo and Chromium; not with -short")
	}
	hugo := watchHugo(t)
	tests := []struct {
		desc   string
		config string // robotsmith.yaml's text; "" keeps the fixture's
		pdf    string // the X-Robots-Tag the PDF is served with
	}{
		{desc: "netlify", pdf: "noindex, follow"},
		{
			desc:   "cloudflare",
			config: "headers: {format: cloudflare}\nrules:\n  - path: /files/**\n    robots: noindex\n",
			pdf:    "noindex, follow",
		},
	}
	bin := testtool.Robotsmith(t)
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			site := t.TempDir()
			testtool.CopyTree(t, "testdata/watch/hugo", site)
			if tc.config != "" {
				if err := os.WriteFile(filepath.Join(site, "robotsmith.yaml"), []byte(tc.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			addr := "127.0.0.1:" + strconv.Itoa(testtool.FreePort(t))
			base := "http://" + addr
			cmd, stdout, stderr, exited := startWatch(t, bin, "watch", "--serve", addr, site, "--", hugo, "--watch")
			defer func() {
				cmd.Process.Signal(os.Interrupt)
				if err := <-exited; err != nil {
					t.Errorf("after Ctrl-C: %v, want exit status 0", err)
				}
				if t.Failed() {
					t.Logf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
				}
			}()
			waitFor(t, time.Minute, exited, func() []string {
				var missing []string
				if !strings.Contains(stdout.String(), "robotsmith: serving ") {
					missing = append(missing, "the serving line")
				}
				if !strings.Contains(stdout.String(), "(first pass)") {
					missing = append(missing, "robotsmith's first pass")
				}
				return missing
			})

			// The PDF's headers, as its host sends them from robotsmith's _headers.
			resp, err := http.Get(base + "/files/x.pdf")
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if got := resp.Header.Get("X-Robots-Tag"); resp.StatusCode != http.StatusOK || got != tc.pdf {
				t.Errorf("GET /files/x.pdf: %d, X-Robots-Tag %q; want 200, %q", resp.StatusCode, got, tc.pdf)
			}

			page := devtools.Dial(t, devtools.Chromium(t))
			page.Call("Page.enable", nil)
			page.Call("Page.navigate", map[string]any{"url": base + "/blog/a/"})
			page.WaitEvent("Page.loadEventFired")
			const heading, robots = "document.querySelector('h1').textContent",
				`(document.querySelector('meta[name="robots"]') || {content: ""}).content`
			if got := page.Eval(heading); got != "A" {
				t.Fatalf("the browser shows %q, want the page A", got)
			}
			if got := page.Eval(robots); strings.Contains(got, "noindex") {
				t.Fatalf("before the edit, the page's robots tag is %q", got)
			}
			quiet(t, stdout, stderr)

			// The edit; the page reloads by itself (its script hears robotsmith's Reload; a
			// Reload before it connected is heard when it connects).
			edited := time.Now()
			if err := os.WriteFile(filepath.Join(site, "content", "blog", "a.md"), []byte("---\ntitle: A2\nrobots: noindex\n---\nalpha2\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for {
				page.WaitEvent("Page.loadEventFired") // fails past devtools.Patience
				if page.Eval(heading) != "A2" {
					continue // a reload of a batch before Hugo wrote the page
				}
				if got := page.Eval(robots); !strings.HasPrefix(got, "noindex") {
					t.Errorf("the browser reloaded the edited page with the robots tag %q: not the page robotsmith fixed", got)
				}
				break
			}
			t.Logf("the browser showed the edited page, fixed, %v after the edit", time.Since(edited).Round(time.Millisecond))
			if b, err := os.ReadFile(filepath.Join(site, "public", "blog", "a", "index.html")); err != nil || strings.Contains(string(b), serve.EventsPath) {
				t.Errorf("the page on disk holds the reload script (or cannot be read: %v)", err)
			}
		})
	}
}
