package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/websocket"

	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// patience bounds how long the browser test waits for one thing (Chromium's start, a page's
// load); a bound on failure, not a measure.
const patience = 60 * time.Second

// chromium starts Debian's Chromium headless, on loopback only, and returns the DevTools
// WebSocket address of its first page. It is killed when t ends.
func chromium(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("CHROMIUM")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("chromium"); err != nil {
			testtool.Missing(t, "chromium not found: apt-get install chromium (as .ci/run does), or set $CHROMIUM")
		}
	}
	profile := t.TempDir()
	// The flags keep it off the network (the machine has none) and quick to start.
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--remote-allow-origins=*",
		"--user-data-dir="+profile, "about:blank")
	var out testtool.Output
	cmd.Stdout, cmd.Stderr = &out, &out
	// Its own group, killed when t ends; killed with the test binary too, if that dies first.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		if t.Failed() {
			t.Logf("chromium output:\n%s", out.String())
		}
	})
	// Chromium writes its port to DevToolsActivePort in the profile once it listens.
	var port string
	for start := time.Now(); port == ""; time.Sleep(100 * time.Millisecond) {
		if time.Since(start) > patience {
			t.Fatalf("chromium did not listen within %v:\n%s", patience, out.String())
		}
		if b, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort")); err == nil {
			port, _, _ = strings.Cut(string(b), "\n")
		}
	}
	resp, err := http.Get("http://127.0.0.1:" + port + "/json/list")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var targets []struct{ Type, WebSocketDebuggerURL string }
	if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
		t.Fatal(err)
	}
	for _, tg := range targets {
		if tg.Type == "page" {
			return tg.WebSocketDebuggerURL
		}
	}
	t.Fatalf("chromium has no page: %+v", targets)
	return ""
}

// devtools is a connection to one page through the DevTools protocol.
type devtools struct {
	t      *testing.T
	ws     *websocket.Conn
	id     int
	events chan string // the methods of the events the page sends
}

type devtoolsMessage struct {
	ID     int             `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func dialDevtools(t *testing.T, url string) *devtools {
	ws, err := websocket.Dial(url, "", "http://127.0.0.1/")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return &devtools{t: t, ws: ws, events: make(chan string, 64)}
}

// call sends a command and returns its result; events that come meanwhile are queued.
func (d *devtools) call(method string, params any) json.RawMessage {
	d.t.Helper()
	d.id++
	msg := map[string]any{"id": d.id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if err := websocket.JSON.Send(d.ws, msg); err != nil {
		d.t.Fatal(err)
	}
	for {
		m := d.receive()
		if m.ID == d.id {
			if len(m.Error) > 0 {
				d.t.Fatalf("%s: %s", method, m.Error)
			}
			return m.Result
		}
	}
}

func (d *devtools) receive() devtoolsMessage {
	d.t.Helper()
	d.ws.SetReadDeadline(time.Now().Add(patience))
	var m devtoolsMessage
	if err := websocket.JSON.Receive(d.ws, &m); err != nil {
		d.t.Fatalf("devtools: %v", err)
	}
	if m.Method != "" {
		select {
		case d.events <- m.Method:
		default:
		}
	}
	return m
}

// waitEvent waits for the page's next event named method.
func (d *devtools) waitEvent(method string) {
	d.t.Helper()
	for {
		select {
		case m := <-d.events:
			if m == method {
				return
			}
			continue
		default:
		}
		d.receive()
	}
}

// eval evaluates a JavaScript expression in the page and returns its value as a string.
func (d *devtools) eval(expr string) string {
	d.t.Helper()
	var r struct {
		Result struct{ Value any } `json:"result"`
	}
	if err := json.Unmarshal(d.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}), &r); err != nil {
		d.t.Fatal(err)
	}
	return fmt.Sprint(r.Result.Value)
}

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

	d := dialDevtools(t, chromium(t))
	d.call("Page.enable", nil)
	d.call("Page.navigate", map[string]any{"url": ts.URL + "/docs/guide"})
	d.waitEvent("Page.loadEventFired")
	if got := d.eval("document.title"); got != "docs/guide.html" {
		t.Fatalf("the page shows %q, want docs/guide.html", got)
	}
	for round := 1; round <= 3; round++ {
		// The page's script connects once it has loaded: Reload before that would be heard on
		// connect (the count differs), but the test checks the usual way, a connected page.
		for start := time.Now(); srv.clientCount() == 0; time.Sleep(20 * time.Millisecond) {
			if time.Since(start) > patience {
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
		d.waitEvent("Page.loadEventFired")
		if got := d.eval("document.title"); got != fmt.Sprintf("round %d", round) {
			t.Fatalf("round %d: after Reload the page shows %q", round, got)
		}
		if got := d.eval(`document.querySelector('meta[name="robots"]').content`); got != robots {
			t.Errorf("round %d: robots <meta> in the browser = %q, want %q", round, got, robots)
		}
		// Wait for the old page's stream to be gone before the next round counts streams.
		for start := time.Now(); srv.clientCount() > 1; time.Sleep(20 * time.Millisecond) {
			if time.Since(start) > patience {
				t.Fatalf("round %d: %d event streams still open", round, srv.clientCount())
			}
		}
		b, _ := os.ReadFile(page)
		if strings.Contains(string(b), EventsPath) {
			t.Fatalf("round %d: the reload script was written to the file", round)
		}
	}
}
