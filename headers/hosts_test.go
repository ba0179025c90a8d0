package headers

// Integration tests: serve a built site with the hosts' own local servers,
// Cloudflare's `wrangler pages dev` and Netlify's `netlify dev`, request
// every file and compare the X-Robots-Tag they send with the decided lines.
//
// The servers are npm packages installed by .ci/install-hosts into
// ${ROBOTSMITH_TOOLS:-$HOME/.cache/robotsmith/tools}/npm/{wrangler,netlify}
// (or named by $WRANGLER and $NETLIFY: an executable or a .js entry point).
// `netlify dev` binds every interface, so the test re-runs itself inside a
// private network namespace (`unshare -n`) that only has a loopback
// interface; nothing can leave the machine, telemetry included. Each server
// is started once, in its own process group, and that group is killed at
// the end.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const inNetnsEnv = "ROBOTSMITH_HEADERS_NETNS"

// siteFile is a file of the integration site.
type siteFile struct {
	disk  string // relative path on disk
	url   string // URL path to request (as File.Path, not encoded)
	lines []string
}

// integrationSite is a small site with mixed decisions: PDFs and images in
// folders, a file name that needs percent-encoding, pages served at their
// folder URL (html: true), and a gallery big enough that Cloudflare must
// fold it under its rule limit while a neighbouring folder of mixed
// decisions stays exact.
func integrationSite() []siteFile {
	g := []string{"googlebot: nosnippet"}
	fs := []siteFile{
		{disk: "index.html", url: "/"},
		{disk: "blog/a/index.html", url: "/blog/a/", lines: []string{"noindex, follow"}},
		{disk: "blog/b/index.html", url: "/blog/b/"},
		{disk: "blog/b/diagram.png", url: "/blog/b/diagram.png", lines: []string{"noimageindex"}},
		{disk: "files/report.pdf", url: "/files/report.pdf", lines: append([]string{"noindex, nofollow"}, g...)},
		{disk: "files/public.pdf", url: "/files/public.pdf"},
		{disk: "files/my report (v2).pdf", url: "/files/my report (v2).pdf", lines: []string{"noindex"}},
		{disk: "files/agent-only.pdf", url: "/files/agent-only.pdf", lines: []string{"googlebot: noindex", "bingbot: noarchive, nosnippet"}},
		{disk: "files/dated.pdf", url: "/files/dated.pdf", lines: []string{"unavailable_after: 2027-01-31T00:00:00Z", "googlebot: max-snippet:20"}},
	}
	for i := 0; i < 90; i++ {
		fs = append(fs, siteFile{disk: fmt.Sprintf("gallery/all/p%03d.png", i), url: fmt.Sprintf("/gallery/all/p%03d.png", i), lines: []string{"noindex"}})
	}
	// A folder whose page keeps the default: only /shots/*.png can fold.
	fs = append(fs, siteFile{disk: "shots/index.html", url: "/shots/"})
	for i := 0; i < 100; i++ {
		fs = append(fs, siteFile{disk: fmt.Sprintf("shots/s%03d.png", i), url: fmt.Sprintf("/shots/s%03d.png", i), lines: []string{"noindex, noimageindex"}})
	}
	fs = append(fs, siteFile{disk: "shots/sub/deep.png", url: "/shots/sub/deep.png", lines: []string{"noindex, noimageindex"}},
		siteFile{disk: "shots/sub/deep.jpg", url: "/shots/sub/deep.jpg"})
	for i := 0; i < 12; i++ {
		f := siteFile{disk: fmt.Sprintf("gallery/mix/m%02d.jpg", i), url: fmt.Sprintf("/gallery/mix/m%02d.jpg", i)}
		if i%3 != 0 {
			f.lines = []string{"noindex, noimageindex"}
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
	if err := os.WriteFile(filepath.Join(dir, "_headers"), Merge([]byte(userHeaders), block), 0o644); err != nil {
		t.Fatal(err)
	}
}

func toolsDir() string {
	if d := os.Getenv("ROBOTSMITH_TOOLS"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "robotsmith", "tools")
}

// hostCommand returns the command that runs a host's server: $env, or the
// package's entry point in the tools cache; it skips the test when missing.
func hostCommand(t *testing.T, env, pkg, entry string) []string {
	t.Helper()
	p := os.Getenv(env)
	if p == "" {
		p = filepath.Join(toolsDir(), "npm", pkg, "node_modules", entry)
	}
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s not installed (%v): run .ci/install-hosts, or set $%s", pkg, err, env)
	}
	if strings.HasSuffix(p, ".js") {
		node, err := exec.LookPath("node")
		if err != nil {
			t.Skipf("node not found: install Node.js and run .ci/install-hosts")
		}
		return []string{node, p}
	}
	return []string{p}
}

// TestHosts runs TestHostsInNetns inside `unshare -n`.
func TestHosts(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the hosts' servers; not with -short")
	}
	if os.Getenv(inNetnsEnv) != "" {
		t.Skip("already inside the network namespace")
	}
	hostCommand(t, "WRANGLER", "wrangler", "wrangler/bin/wrangler.js")
	hostCommand(t, "NETLIFY", "netlify", "netlify-cli/bin/run.js")
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("ip (iproute2) not found: it brings up loopback in the test's network namespace")
	}
	// As root "unshare -n"; otherwise a user namespace too ("-rn").
	flag := ""
	for _, f := range []string{"-n", "-rn"} {
		if exec.Command("unshare", f, "true").Run() == nil {
			flag = f
			break
		}
	}
	if flag == "" {
		t.Skip("cannot create a network namespace (unshare -n); netlify dev would bind every interface")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := []string{flag, "sh", "-c", `ip link set lo up && exec "$0" "$@"`, os.Args[0],
		"-test.run=^TestHostsInNetns$", "-test.count=1", "-test.timeout=170s"}
	if testing.Verbose() {
		args = append(args, "-test.v")
	}
	cmd := exec.CommandContext(ctx, "unshare", args...)
	cmd.Env = append(os.Environ(), inNetnsEnv+"=1")
	out, err := cmd.CombinedOutput()
	t.Logf("inside unshare -n:\n%s", out)
	if err != nil {
		t.Fatalf("TestHostsInNetns failed: %v", err)
	}
	if !strings.Contains(string(out), "PASS") {
		t.Fatalf("TestHostsInNetns did not report PASS")
	}
}

// TestHostsInNetns does the work; it runs only inside the namespace that
// TestHosts makes.
func TestHostsInNetns(t *testing.T) {
	if os.Getenv(inNetnsEnv) == "" {
		t.Skip("run by TestHosts inside unshare -n")
	}
	site := integrationSite()
	t.Run("cloudflare", func(t *testing.T) {
		t.Parallel()
		cmd := hostCommand(t, "WRANGLER", "wrangler", "wrangler/bin/wrangler.js")
		dir := t.TempDir()
		writeSite(t, dir, site, Cloudflare)
		hdr, _ := os.ReadFile(filepath.Join(dir, "_headers"))
		for _, fold := range []string{"\n/gallery/all/*\n", "\n/shots/*.png\n"} {
			if !strings.Contains(string(hdr), fold) {
				t.Errorf("expected the rule %q for cloudflare; _headers:\n%s", fold[1:], hdr)
			}
		}
		work := t.TempDir()
		port := freePort(t)
		args := append(cmd, "pages", "dev", dir, "--ip", "127.0.0.1", "--port", fmt.Sprint(port), "--compatibility-date=2025-01-01")
		env := []string{"XDG_CONFIG_HOME=" + filepath.Join(work, "xdg"), "WRANGLER_SEND_METRICS=false",
			"WRANGLER_SEND_ERROR_REPORTS=false", "WRANGLER_HIDE_BANNER=true", "CLOUDFLARE_CF_FETCH_ENABLED=false",
			"X_LOCAL_EXPLORER=false", "NO_UPDATE_NOTIFIER=1"}
		base := startServer(t, work, args, env, port)
		for _, host := range []string{"", "myproj.pages.dev", "abc123.myproj.pages.dev"} {
			preview := strings.Count(host, ".") >= 3
			checkSite(t, base, host, site, preview)
		}
	})
	t.Run("netlify", func(t *testing.T) {
		t.Parallel()
		cmd := hostCommand(t, "NETLIFY", "netlify", "netlify-cli/bin/run.js")
		dir := t.TempDir()
		writeSite(t, dir, site, Netlify)
		work := t.TempDir()
		xdg := filepath.Join(work, "xdg")
		if err := os.MkdirAll(filepath.Join(xdg, "netlify"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(xdg, "netlify", "config.json"), []byte(`{"telemetryDisabled":true}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		port := freePort(t)
		args := append(cmd, "dev", "--offline", "--no-open", "--skip-gitignore", "--internal-disable-edge-functions",
			"--dir", dir, "--port", fmt.Sprint(port))
		env := []string{"XDG_CONFIG_HOME=" + xdg, "XDG_DATA_HOME=" + xdg, "XDG_CACHE_HOME=" + filepath.Join(xdg, "cache"),
			"NO_UPDATE_NOTIFIER=1", "BROWSER=none", "NETLIFY_TELEMETRY_DISABLED=1"}
		base := startServer(t, work, args, env, port)
		checkSite(t, base, "", site, false)
	})
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// lockedBuffer collects a server's output for the failure message.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startServer starts args in its own process group in dir, waits until it
// answers on 127.0.0.1:port, and kills the group when the test ends.
func startServer(t *testing.T, dir string, args, env []string, port int) string {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var log lockedBuffer
	cmd.Stdout, cmd.Stderr = &log, &log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", args[1], err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		pgid := cmd.Process.Pid
		syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-done
		if t.Failed() {
			t.Logf("server output:\n%s", log.String())
		}
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			t.Fatalf("%s exited before it answered:\n%s", args[1], log.String())
		default:
		}
		if resp, err := client.Get(base + "/"); err == nil {
			resp.Body.Close()
			t.Logf("%s ready", filepath.Base(args[1]))
			return base
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("%s did not answer within 90s:\n%s", args[1], log.String())
	return ""
}

// checkSite requests every file of site and compares the X-Robots-Tag sent
// with what its lines mean; on a Cloudflare preview host every file must
// also carry noindex. The user's own rule (nosniff) must still be sent.
func checkSite(t *testing.T, base, host string, site []siteFile, preview bool) {
	t.Helper()
	client := &http.Client{
		Timeout:       20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	for _, s := range site {
		u := base + encodePath(s.url)
		req, err := http.NewRequest("GET", u, nil)
		if err != nil {
			t.Fatal(err)
		}
		if host != "" {
			req.Host = host
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Errorf("GET %s (host %q): %v", s.url, host, err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("GET %s (host %q): status %d, want 200", s.url, host, resp.StatusCode)
			continue
		}
		got := strings.Join(resp.Header.Values("X-Robots-Tag"), ", ")
		wantLines := s.lines
		if preview {
			wantLines = append([]string{"noindex"}, s.lines...)
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
