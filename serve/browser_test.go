package serve

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/testsupport/devtools"
)

// clients is how many event streams the server has open.
func (s *Server) clientCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.clients)
}

// TestBrowserReload: a real browser (Debian's Chromium, headless, driven through the DevTools
// protocol) shows a page served with its headers, and reloads it after each Reload: the page it
// then shows is the file as robotsmith rewrote it, robots <meta> included. The folder's files
// hold no trace of the reload script.
func TestBrowserReload(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium; not with -short")
	}
	dir := writeFixture(t)
	page := filepath.Join(dir, "docs", "guide.html")
	srv, err := New(dir, headers.Cloudflare)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	defer srv.Close() // first: ends the page's event stream, which ts.Close waits for

	d := devtools.Dial(t, devtools.Chromium(t))
	d.Call("Page.enable", nil)
	d.Call("Page.navigate", map[string]any{"url": ts.URL + "/docs/guide"})
	d.WaitEvent("Page.loadEventFired")
	if got := d.Eval("document.title"); got != "docs/guide.html" {
		t.Fatalf("the page shows %q, want docs/guide.html", got)
	}
	for round := 1; round <= 3; round++ {
		// The page's script connects once it has loaded: Reload before that would be heard on
		// connect (the count differs), but the test checks the usual way, a connected page.
		for start := time.Now(); srv.clientCount() == 0; time.Sleep(20 * time.Millisecond) {
			if time.Since(start) > devtools.Patience {
				t.Fatalf("round %d: the page's script never connected to %s", round, EventsPath)
			}
		}
		// robotsmith rewrites the page (its robots <meta>), then its batch ends.
		robots := fmt.Sprintf("noindex, round %d", round)
		html := fmt.Sprintf("<!doctype html><html><head><title>round %d</title><meta name=\"robots\" content=%q></head><body><p>x</p></body></html>\n", round, robots)
		if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
			t.Fatal(err)
		}
		srv.Reload()
		d.WaitEvent("Page.loadEventFired")
		if got := d.Eval("document.title"); got != fmt.Sprintf("round %d", round) {
			t.Fatalf("round %d: after Reload the page shows %q", round, got)
		}
		if got := d.Eval(`document.querySelector('meta[name="robots"]').content`); got != robots {
			t.Errorf("round %d: robots <meta> in the browser = %q, want %q", round, got, robots)
		}
		// Wait for the old page's stream to be gone before the next round counts streams.
		for start := time.Now(); srv.clientCount() > 1; time.Sleep(20 * time.Millisecond) {
			if time.Since(start) > devtools.Patience {
				t.Fatalf("round %d: %d event streams still open", round, srv.clientCount())
			}
		}
		b, _ := os.ReadFile(page)
		if strings.Contains(string(b), EventsPath) {
			t.Fatalf("round %d: the reload script was written to the file", round)
		}
	}
}
