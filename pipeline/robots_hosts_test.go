package pipeline_test

// End-to-end test of robots.txt and the AI preferences: build the sample site (its robotsmith.yaml
// has robots_txt groups and an ai policy) with the pipeline, serve the output with both hosts' own
// local servers, and read back robots.txt and the Content-Usage header.

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/internal/markers"
	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/robotstxt"
	"github.com/robotsmith/robotsmith/sample-site/standin"
	"github.com/robotsmith/robotsmith/testsupport/hosttest"
)

// TestRobotsHosts runs TestRobotsHostsInNetns inside `unshare -n`.
func TestRobotsHosts(t *testing.T) {
	hosttest.RunInNetns(t, "TestRobotsHostsInNetns", hosttest.Wrangler, hosttest.Netlify)
}

// TestRobotsHostsInNetns does the work, for each dialect side by side.
func TestRobotsHostsInNetns(t *testing.T) {
	hosttest.RequireNetns(t)
	for _, d := range []struct {
		config string
		host   hosttest.Host
	}{
		{"robotsmith.yaml", hosttest.Netlify},
		{"robotsmith.cloudflare.yaml", hosttest.Wrangler},
	} {
		t.Run(d.host.String(), func(t *testing.T) {
			t.Parallel()
			checkRobotsServed(t, d.config, d.host)
		})
	}
}

// usage is the sample site's ai policy as a Content-Usage value (train: no, search: yes).
const usage = "train-ai=n, search=y"

func checkRobotsServed(t *testing.T, config string, host hosttest.Host) {
	dir := t.TempDir()
	copySample(t, dir)
	if err := standin.Generate(dir); err != nil {
		t.Fatalf("standin.Generate: %v", err)
	}
	public := filepath.Join(dir, "public")
	theme, err := os.ReadFile(filepath.Join(public, "robots.txt"))
	if err != nil {
		t.Fatalf("the generator wrote no robots.txt: %v", err)
	}
	rep, err := pipeline.Run(context.Background(), pipeline.Options{Root: dir, Config: filepath.Join(dir, config), Write: true})
	if err != nil {
		t.Fatalf("pipeline.Run: %v", err)
	}
	if len(rep.Findings) > 0 {
		t.Errorf("findings: %q", rep.Findings)
	}
	built, err := os.ReadFile(filepath.Join(public, "robots.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(built), string(theme)) || !strings.HasSuffix(string(built), markers.End+"\n") {
		t.Errorf("robots.txt: want the theme's lines, then robotsmith's block:\n%s", built)
	}

	srv := hosttest.Serve(t, host, public)
	client := &http.Client{Timeout: 20 * time.Second}
	resp, err := client.Get(srv.Base + "/robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	served, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /robots.txt: status %d, %v", resp.StatusCode, err)
	}
	if string(served) != string(built) {
		t.Errorf("%s serves robots.txt as:\n%s\nwant what build wrote:\n%s", host, served, built)
	}
	// What crawlers read in it, as Google's parser reads it.
	f := robotstxt.Parse(served)
	for _, c := range []struct {
		agent, path string
		allowed     bool
	}{
		{"GPTBot", "/blog/hello-world/", false},
		{"Google-Extended", "/", false},
		{"AI", "/", false}, // AI2Bot, as Google's parser reads it
		{"Googlebot", "/blog/hello-world/", true},
		{"Googlebot", "/search/?q=x", false},
		{"facebookexternalhit", "/blog/hello-world/", true},
		{"OAI-SearchBot", "/blog/hello-world/", true},
	} {
		if got := f.Decide(c.agent, c.path).Allowed; got != c.allowed {
			t.Errorf("served robots.txt: %s may fetch %s: %v, want %v", c.agent, c.path, got, c.allowed)
		}
	}
	var lines []string
	for _, o := range f.Other {
		lines = append(lines, o.Key+": "+o.Value)
	}
	for _, want := range []string{"Content-Usage: " + usage, "Content-Signal: search=yes, ai-input=yes, ai-train=no"} {
		if !strings.Contains(strings.Join(lines, "\n"), want) {
			t.Errorf("served robots.txt lacks %q (it has %q)", want, lines)
		}
	}

	// The Content-Usage header on every kind of path, with the site's own headers kept.
	for _, p := range []string{"/", "/blog/hello-world/", "/internal/handbook/", "/files/terms.pdf", "/images/logo.png", "/robots.txt", "/sitemap.xml"} {
		r, err := srv.Get(p, "")
		if err != nil || r.Status != 200 {
			t.Errorf("GET %s: status %d, %v", p, r.Status, err)
			continue
		}
		if got := strings.Join(r.Header.Values("Content-Usage"), ", "); got != usage {
			t.Errorf("GET %s: Content-Usage %q, want %q", p, got, usage)
		}
		t.Logf("%s %s: %v", host, p, r.Header)
		if got := r.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("GET %s: the site's own /* rule was lost: X-Content-Type-Options %q", p, got)
		}
	}
}
