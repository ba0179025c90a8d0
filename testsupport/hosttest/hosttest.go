// Package hosttest serves a built site with the static hosts' own local
// servers, Cloudflare's `wrangler pages dev` and Netlify's `netlify dev`, so
// that integration tests can request files and read back the headers a host
// really sends.
//
// Usage, in a test file (the outer test re-runs the binary inside a network
// namespace that has only a loopback interface; the inner test does the work):
//
//	func TestHosts(t *testing.T) {
//		hosttest.RunInNetns(t, "TestHostsInNetns", hosttest.Wrangler, hosttest.Netlify)
//	}
//
//	func TestHostsInNetns(t *testing.T) {
//		hosttest.RequireNetns(t)
//		srv := hosttest.Serve(t, hosttest.Wrangler, dir) // dir holds the site and its _headers
//		resp, err := srv.Get("/files/my report.pdf", "abc123.myproj.pages.dev")
//		...
//	}
//
// The servers are npm packages installed by .ci/install-hosts into
// ${ROBOTSMITH_TOOLS:-$HOME/.cache/robotsmith/tools}/npm/{wrangler,netlify}
// (or named by $WRANGLER and $NETLIFY: an executable or a .js entry point).
// A missing server, node, unshare or ip goes through testtool.Missing: the
// test skips on a developer's machine and fails under .ci/run.
//
// `netlify dev` binds every interface, so RunInNetns re-runs the current test
// binary inside a private network namespace (`unshare -n`, or `unshare -rn`
// when not root) where only loopback exists; nothing can leave the machine,
// telemetry included, and telemetry is turned off as well. Each server runs
// in its own process group on a free 127.0.0.1 port, and the group is killed
// when the test that started it ends.
package hosttest

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

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// NetnsEnv is set (to "1") in the environment of a test binary that
// RunInNetns re-ran inside the network namespace.
const NetnsEnv = "ROBOTSMITH_HOSTTEST_NETNS"

// Host is a static host whose local server a test can start.
type Host int

const (
	// Wrangler is Cloudflare Pages' `wrangler pages dev`.
	Wrangler Host = iota
	// Netlify is Netlify's `netlify dev`.
	Netlify
	// Nginx, Apache and Caddy are the real servers from Debian's packages (servers.go), which
	// listen on 127.0.0.1 only and need no namespace.
	Nginx
	Apache
	Caddy
)

// String is the host's server name, as in test messages.
func (h Host) String() string {
	switch h {
	case Wrangler:
		return "wrangler"
	case Netlify:
		return "netlify"
	case Nginx:
		return "nginx"
	case Apache:
		return "apache"
	case Caddy:
		return "caddy"
	}
	return fmt.Sprintf("Host(%d)", int(h))
}

// env is the environment variable that names the server instead of the
// tools cache; pkg and entry place it in the cache.
func (h Host) env() (env, pkg, entry string, ok bool) {
	switch h {
	case Wrangler:
		return "WRANGLER", "wrangler", "wrangler/bin/wrangler.js", true
	case Netlify:
		return "NETLIFY", "netlify", "netlify-cli/bin/run.js", true
	}
	return "", "", "", false
}

// ToolsDir is the tools cache: $ROBOTSMITH_TOOLS, else
// $HOME/.cache/robotsmith/tools.
func ToolsDir() string {
	if d := os.Getenv("ROBOTSMITH_TOOLS"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "robotsmith", "tools")
}

// Command returns the command line that runs h's server: $WRANGLER or
// $NETLIFY, else the package's entry point in the tools cache, run with
// node when it is a .js file. When the server or node is missing it calls
// testtool.Missing (a skip, or a failure under ROBOTSMITH_REQUIRE_TOOLS).
func Command(t testing.TB, h Host) []string {
	t.Helper()
	env, pkg, entry, ok := h.env()
	if !ok {
		t.Fatalf("hosttest: unknown host %v", h)
	}
	p := os.Getenv(env)
	if p == "" {
		p = filepath.Join(ToolsDir(), "npm", pkg, "node_modules", entry)
	}
	if _, err := os.Stat(p); err != nil {
		testtool.Missing(t, "%s not installed (%v): run .ci/install-hosts, or set $%s", h, err, env)
	}
	if strings.HasSuffix(p, ".js") {
		node, err := exec.LookPath("node")
		if err != nil {
			testtool.Missing(t, "node not found: install Node.js 20 or newer and run .ci/install-hosts")
		}
		return []string{node, p}
	}
	return []string{p}
}

// InNetns reports whether this test binary runs inside RunInNetns's
// namespace.
func InNetns() bool { return os.Getenv(NetnsEnv) != "" }

// RequireNetns skips t unless it runs inside RunInNetns's namespace; call it
// first in the inner test.
func RequireNetns(t testing.TB) {
	t.Helper()
	if !InNetns() {
		t.Skip("run by its outer test inside unshare -n")
	}
}

// RunInNetns re-runs the current test binary for the top-level test named
// inner (only) inside `unshare -n` with loopback up, and fails t when inner
// fails or does not run. It checks first that the servers of hosts are
// installed. It skips with -short and inside the namespace itself.
func RunInNetns(t *testing.T, inner string, hosts ...Host) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts the hosts' servers; not with -short")
	}
	if InNetns() {
		t.Skip("already inside the network namespace")
	}
	for _, h := range hosts {
		Command(t, h)
	}
	if _, err := exec.LookPath("ip"); err != nil {
		testtool.Missing(t, "ip (iproute2) not found: it brings up loopback in the test's network namespace")
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
		testtool.Missing(t, "cannot create a network namespace (unshare -n, util-linux); netlify dev would bind every interface")
	}
	// A bound on failure: the inner run starts host servers (minutes each on a loaded machine), and
	// the outer test's own deadline still caps it.
	timeout := 15 * time.Minute
	if d, ok := t.Deadline(); ok && time.Until(d)-5*time.Second < timeout {
		timeout = time.Until(d) - 5*time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args := []string{flag, "sh", "-c", `ip link set lo up && exec "$0" "$@"`, os.Args[0],
		"-test.run=^" + inner + "$", "-test.count=1", "-test.v",
		fmt.Sprintf("-test.timeout=%s", (timeout - 5*time.Second).Round(time.Second))}
	cmd := exec.CommandContext(ctx, "unshare", args...)
	cmd.Env = append(os.Environ(), NetnsEnv+"=1")
	// The inner binary starts servers in their own process groups and kills
	// them itself; WaitDelay bounds the wait for pipes a stray one holds.
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	passed := strings.Contains(string(out), "--- PASS: "+inner+" (")
	if err != nil || !passed || testing.Verbose() {
		t.Logf("%s inside unshare %s:\n%s", inner, flag, out)
	}
	if err != nil {
		t.Fatalf("%s failed inside the network namespace: %v", inner, err)
	}
	if !passed {
		t.Fatalf("%s did not report --- PASS inside the network namespace", inner)
	}
}

// NetlifyBuild runs `netlify build --offline` (netlify is Command(t, Netlify)) in site, with
// telemetry and update checks off, in the deploy context given, with env added to its environment,
// and returns what it printed. It must run inside RunInNetns's namespace.
func NetlifyBuild(t testing.TB, netlify []string, site, deployContext string, env ...string) (string, error) {
	t.Helper()
	xdg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(xdg, "netlify"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(xdg, "netlify", "config.json"), []byte(`{"telemetryDisabled":true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Go's build cache is found through XDG_CACHE_HOME, set below for netlify; keep the test's.
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := append(netlify[1:len(netlify):len(netlify)], "build", "--offline", "--context", deployContext)
	cmd := exec.CommandContext(ctx, netlify[0], args...)
	cmd.Dir = site
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+xdg, "XDG_DATA_HOME="+xdg, "XDG_CACHE_HOME="+filepath.Join(xdg, "cache"),
		"NO_UPDATE_NOTIFIER=1", "BROWSER=none", "NETLIFY_TELEMETRY_DISABLED=1", "CONTEXT=", "GITHUB_ACTIONS=",
		"GOCACHE="+strings.TrimSpace(string(gocache)))
	cmd.Env = append(cmd.Env, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Server is a running host server.
type Server struct {
	Host Host
	Base string // "http://127.0.0.1:PORT"
	log  *testtool.Output
}

// Serve starts h's server for the site in dir (its _headers included) on a
// free 127.0.0.1 port, in its own process group, with telemetry, update
// checks and browsers off, and waits until it answers. The group is killed
// when t ends. It must run inside RunInNetns's namespace.
func Serve(t testing.TB, h Host, dir string) *Server {
	t.Helper()
	cmd := Command(t, h)
	work := t.TempDir()
	xdg := filepath.Join(work, "xdg")
	port := testtool.FreePort(t)
	var args, env []string
	switch h {
	case Wrangler:
		args = append(cmd, "pages", "dev", dir, "--ip", "127.0.0.1", "--port", fmt.Sprint(port), "--compatibility-date=2025-01-01")
		env = []string{"XDG_CONFIG_HOME=" + xdg, "WRANGLER_SEND_METRICS=false",
			"WRANGLER_SEND_ERROR_REPORTS=false", "WRANGLER_HIDE_BANNER=true", "CLOUDFLARE_CF_FETCH_ENABLED=false",
			"X_LOCAL_EXPLORER=false", "NO_UPDATE_NOTIFIER=1"}
	case Netlify:
		if err := os.MkdirAll(filepath.Join(xdg, "netlify"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(xdg, "netlify", "config.json"), []byte(`{"telemetryDisabled":true}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		// --internal-disable-edge-functions: offline, the edge runtime
		// download fails and takes the server down on the first request.
		args = append(cmd, "dev", "--offline", "--no-open", "--skip-gitignore", "--internal-disable-edge-functions",
			"--dir", dir, "--port", fmt.Sprint(port))
		env = []string{"XDG_CONFIG_HOME=" + xdg, "XDG_DATA_HOME=" + xdg, "XDG_CACHE_HOME=" + filepath.Join(xdg, "cache"),
			"NO_UPDATE_NOTIFIER=1", "BROWSER=none", "NETLIFY_TELEMETRY_DISABLED=1"}
	default:
		t.Fatalf("hosttest: unknown host %v", h)
	}
	s := &Server{Host: h, Base: fmt.Sprintf("http://127.0.0.1:%d", port), log: &testtool.Output{}}
	s.start(t, work, args, env)
	return s
}

// Log is what the server has printed so far.
func (s *Server) Log() string { return s.log.String() }

// start runs args in its own process group in dir, waits until the server
// answers, and kills the group when t ends (printing its output if t
// failed).
func (s *Server) start(t testing.TB, dir string, args, env []string) {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = s.log, s.log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", s.Host, err)
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
			t.Logf("%s output:\n%s", s.Host, s.log.String())
		}
	})
	client := &http.Client{Timeout: 2 * time.Second}
	start := time.Now()
	// A bound on failure, not a measure: netlify dev takes seconds on an idle machine and minutes on
	// a loaded one (its Node start-up and the edge-functions runtime), and waiting longer costs
	// nothing when it answers.
	const patience = 5 * time.Minute
	for time.Since(start) < patience {
		select {
		case <-done:
			t.Fatalf("%s exited before it answered:\n%s", s.Host, s.log.String())
		default:
		}
		if resp, err := client.Get(s.Base + "/"); err == nil {
			resp.Body.Close()
			t.Logf("%s ready after %.1fs", s.Host, time.Since(start).Seconds())
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("%s did not answer within %v:\n%s", s.Host, patience, s.log.String())
}

// Response is what the server answered to one GET.
type Response struct {
	Status   int
	Header   http.Header
	Location string // the redirect target, for a 3xx
}

// XRobotsTag is the response's X-Robots-Tag values joined with ", ", as a
// crawler reads repeated headers.
func (r Response) XRobotsTag() string {
	return strings.Join(r.Header.Values("X-Robots-Tag"), ", ")
}

// Get requests the URL path p (not percent-encoded: "/files/my report.pdf")
// with Host set to host when it is not "". Redirects are not followed.
func (s *Server) Get(p, host string) (Response, error) {
	req, err := http.NewRequest("GET", s.Base+EncodePath(p), nil)
	if err != nil {
		return Response{}, err
	}
	return s.do(req, host)
}

// GetRaw requests raw, a URL path already percent-encoded, sent to the server exactly as written
// ("/files/a%20b.pdf", "/files/r%c3%a9sum%c3%a9.pdf"), with Host set to host when it is not "".
// It is for a test that checks that every way a client may encode one path (lower-case hex
// digits, every byte encoded) gets the same answer: forms that Get, which sends what a browser
// sends, never makes. Redirects are not followed.
func (s *Server) GetRaw(raw, host string) (Response, error) {
	req, err := http.NewRequest("GET", s.Base+raw, nil)
	if err != nil {
		return Response{}, err
	}
	req.URL.Opaque = raw
	return s.do(req, host)
}

// do sends req, with Host set to host when it is not "", and reads the whole answer.
func (s *Server) do(req *http.Request, host string) (Response, error) {
	if host != "" {
		req.Host = host
	}
	client := &http.Client{
		Timeout:       20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(req)
	if err != nil {
		return Response{}, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return Response{}, err
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Location: resp.Header.Get("Location")}, nil
}

// EncodePath percent-encodes a URL path the way a browser sends it (the
// WHATWG path percent-encode set: controls, space, non-ASCII, and
// " # < > ? ` { }), plus '%' and '\' so that any file name survives. Written
// by hand: net/url's EscapedPath also escapes characters such as '!' and '$'
// that browsers send as they are, and a test must send what a browser sends.
// It is kept apart from the headers package's own encoder on purpose: the
// request a test sends must not come from the code whose rules it checks.
func EncodePath(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c <= 0x20 || c >= 0x7f || strings.IndexByte("\"#<>?`{}%\\", c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
