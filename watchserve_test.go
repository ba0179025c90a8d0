package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/watch"
)

// TestPreview: watch --serve answers before the generator has written the output folder (a page
// that says so and asks again, never a server error), then serves the folder from the first pass
// on; a batch that left files for the generator to finish changes nothing of that.
func TestPreview(t *testing.T) {
	site := t.TempDir()
	files := map[string]string{
		"hugo.toml":         "baseURL = \"https://example.org/\"\ntitle = \"t\"\n",
		"content/_index.md": "---\ntitle: Home\n---\n",
	}
	for name, body := range files {
		p := filepath.Join(site, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := pipeline.NewLive(context.Background(), pipeline.Options{Root: site}, watch.NewOwn())
	if err != nil {
		t.Fatal(err)
	}
	pv, err := startPreview("127.0.0.1:0", l.Output())
	if err != nil {
		t.Fatal(err)
	}
	defer pv.close()
	get := func(t *testing.T) (int, string) {
		t.Helper()
		resp, err := http.Get(pv.URL())
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	steps := []struct {
		desc   string
		write  bool // the generator writes public/index.html first
		update pipeline.Update
		status int
		body   string
	}{
		{desc: "before the output is written", status: http.StatusServiceUnavailable, body: `http-equiv="refresh"`},
		{desc: "a batch before the output is written", update: pipeline.Update{}, status: http.StatusServiceUnavailable, body: "waiting for the output folder"},
		{desc: "a batch left for later", write: true, update: pipeline.Update{Retry: true}, status: http.StatusServiceUnavailable, body: "waiting"},
		{desc: "the first pass", update: pipeline.Update{Why: pipeline.FirstPass}, status: http.StatusOK, body: "<h1>Home</h1>"},
	}
	for i, s := range steps {
		t.Run(s.desc, func(t *testing.T) {
			if s.write {
				os.MkdirAll(filepath.Join(site, "public"), 0o755)
				if err := os.WriteFile(filepath.Join(site, "public", "index.html"), []byte("<html><body><h1>Home</h1></body></html>\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if i > 0 {
				pv.after(l, &s.update)
			}
			status, body := get(t)
			if status != s.status || !strings.Contains(body, s.body) {
				t.Errorf("GET /: %d %q, want %d with %q", status, body, s.status, s.body)
			}
		})
	}
}
