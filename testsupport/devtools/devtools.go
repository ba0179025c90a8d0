// Package devtools drives a real browser for integration tests: Debian's Chromium, headless and on
// loopback only, through the DevTools protocol (a WebSocket per page), to see what a page shows
// after robotsmith's preview (package serve, robotsmith watch --serve) reloads it.
//
// Usage, in a test:
//
//	page := devtools.Dial(t, devtools.Chromium(t))
//	page.Call("Page.enable", nil)
//	page.Call("Page.navigate", map[string]any{"url": base + "/blog/"})
//	page.WaitEvent("Page.loadEventFired")
//	title := page.Eval("document.title")
//
// A missing Chromium goes through testtool.Missing: the test skips on a developer's machine and
// fails under .ci/run. $CHROMIUM names another binary.
package devtools

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/websocket"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// Patience bounds how long the browser test waits for one thing (Chromium's start, a page's
// load); a bound on failure, not a measure.
const Patience = 60 * time.Second

// Chromium starts Debian's Chromium headless, on loopback only, and returns the DevTools
// WebSocket address of its first page. It is killed when t ends.
func Chromium(t *testing.T) string {
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
		if time.Since(start) > Patience {
			t.Fatalf("chromium did not listen within %v:\n%s", Patience, out.String())
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

// Page is a connection to one page through the DevTools protocol.
type Page struct {
	t      *testing.T
	ws     *websocket.Conn
	id     int
	events chan string // the methods of the events the page sends
}

type message struct {
	ID     int             `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// Dial connects to the page whose DevTools WebSocket address is url (Chromium's answer); the
// connection is closed when t ends.
func Dial(t *testing.T, url string) *Page {
	ws, err := websocket.Dial(url, "", "http://127.0.0.1/")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return &Page{t: t, ws: ws, events: make(chan string, 64)}
}

// Call sends a command and returns its result; events that come meanwhile are queued.
func (d *Page) Call(method string, params any) json.RawMessage {
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

func (d *Page) receive() message {
	d.t.Helper()
	d.ws.SetReadDeadline(time.Now().Add(Patience))
	var m message
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

// WaitEvent waits for the page's next event named method.
func (d *Page) WaitEvent(method string) {
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

// Eval evaluates a JavaScript expression in the page and returns its value as a string.
func (d *Page) Eval(expr string) string {
	d.t.Helper()
	var r struct {
		Result struct{ Value any } `json:"result"`
	}
	if err := json.Unmarshal(d.Call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}), &r); err != nil {
		d.t.Fatal(err)
	}
	return fmt.Sprint(r.Result.Value)
}
