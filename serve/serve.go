// Package serve serves a site's output folder over HTTP as its static host would, for robotsmith
// watch --serve: each file with the headers the host sends for it from the folder's `_headers`
// (robotsmith's block and the owner's rules, read as the host reads them: headers.Served), found
// at the addresses the host finds it (pretty URLs, index.html, the 404 page), and every HTML page
// with a small script that reloads the browser when Reload is called, after each of robotsmith's
// batches. The script is added to the response only, never to the file.
//
// Usage:
//
//	srv, err := serve.New("public", headers.Cloudflare)
//	if err != nil {
//		return err
//	}
//	defer srv.Close() // ends the browsers' event streams, so that the HTTP server can stop
//	ln, err := serve.Listen(":1313") // 127.0.0.1:1313: loopback unless a host is named
//	if err != nil {
//		return err
//	}
//	go http.Serve(ln, srv)
//	...
//	srv.Reload() // after each batch robotsmith wrote: every open page reloads
//
// Nothing outside the folder is ever served: a request whose path holds ".." is refused, and the
// folder is opened as an os.Root, which follows no link out of it. Files the host does not serve
// (`_headers`, `_redirects`, robotsmith's own temporary files) are not served either. The folder
// is read on every request, so a file robotsmith or the generator just wrote is served as it is
// now, `_headers` included.
package serve

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/internal/safefs"
)

// EventsPath is the address of the stream of reload events the injected script listens to. It is
// named as robotsmith's own temporary files are (safefs.Own), which are never a site's files.
const EventsPath = "/.robotsmith-reload"

// maxHTML bounds the size of an HTML page read whole to add the reload script to; a larger page
// is served as it is, without the script.
const maxHTML = 64 << 20

// Server is an http.Handler that serves one output folder. Its methods are safe for concurrent
// use.
type Server struct {
	dir    string
	format headers.Format

	mu      sync.Mutex
	gen     uint64               // counts Reload calls
	clients map[chan uint64]bool // the open event streams
	done    chan struct{}        // closed by Close
	closed  bool
}

// New returns a Server for the output folder dir, sending headers as the host of format f does.
// The folder must exist.
func New(dir string, f headers.Format) (*Server, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("serve: %s is not a folder", dir)
	}
	return &Server{dir: dir, format: f, clients: map[chan uint64]bool{}, done: make(chan struct{})}, nil
}

// Listen listens on addr for Serve: "host:port", or ":port" for 127.0.0.1 (loopback unless a
// host is named, so that a preview is not served to the network by default).
func Listen(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("serve: %s: want host:port or :port", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.Listen("tcp", net.JoinHostPort(host, port))
}

// Reload makes every page open in a browser reload: call it after each batch robotsmith wrote.
// A page loaded before the call and whose script connects after it reloads too.
func (s *Server) Reload() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	for c := range s.clients {
		select {
		case c <- s.gen:
		default: // a reload is pending on it already
		}
	}
}

// Close ends the open event streams (a browser's script then tries again, and finds the server
// gone or back). The Server still answers other requests.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.done)
	}
	return nil
}

// ServeHTTP answers GET and HEAD requests for the folder's files.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	if !strings.HasPrefix(p, "/") || hasDotDot(p) || strings.ContainsRune(p, 0) || strings.Contains(p, "\\") {
		http.Error(w, "bad path", http.StatusBadRequest)
		return
	}
	if p == EventsPath {
		s.events(w, r)
		return
	}
	root, err := os.OpenRoot(s.dir)
	if err != nil {
		http.Error(w, "the output folder cannot be read", http.StatusInternalServerError)
		return
	}
	defer root.Close()
	res := resolve(root, s.format, p)
	match := p
	if res.match != "" {
		match = res.match
	}
	hdrs := headers.ReadServed(readHeaders(root), s.format).Headers(hostName(r.Host), headers.EncodePath(match))
	if res.location != "" {
		for _, h := range hdrs {
			w.Header().Add(h.Name, h.Value)
		}
		loc := res.location
		if r.URL.RawQuery != "" {
			loc += "?" + r.URL.RawQuery
		}
		w.Header().Set("Location", headers.EncodePath(loc))
		w.WriteHeader(res.status)
		return
	}
	if res.file == "" {
		for _, h := range hdrs {
			w.Header().Add(h.Name, h.Value)
		}
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	f, err := root.Open(res.file)
	if err != nil {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	for _, h := range hdrs {
		w.Header().Add(h.Name, h.Value)
	}
	var body io.ReadSeeker = f
	// A validator that changes with every write: Last-Modified counts whole seconds, and a page
	// robotsmith rewrites in the second the generator wrote it would be answered 304 and shown
	// stale. An HTML page's carries the reload count its script holds, so that a reloaded page
	// never keeps an old count (and reloads again, and again).
	etag := fmt.Sprintf(`"%x-%x`, fi.Size(), fi.ModTime().UnixNano())
	if isHTML(res.file) {
		if b, err := safefs.ReadAll(f, fi, maxHTML); err == nil {
			b, gen := s.inject(b)
			body = bytes.NewReader(b)
			etag += fmt.Sprintf("-%x", gen)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		} else if _, err := f.Seek(0, io.SeekStart); err != nil {
			http.Error(w, "the file cannot be read", http.StatusInternalServerError)
			return
		}
	}
	if res.status != http.StatusOK {
		// http.ServeContent answers 200 (or 206, 304); the 404 page is sent whole.
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		w.WriteHeader(res.status)
		if r.Method == http.MethodGet {
			io.Copy(w, body)
		}
		return
	}
	w.Header().Set("ETag", etag+`"`)
	http.ServeContent(w, r, path.Base(res.file), time.Time{}, body)
}

// hasDotDot reports whether a path has a ".." element: such a request is refused, never cleaned
// into another path.
func hasDotDot(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return true
		}
	}
	return false
}

// hostName is a request's Host without its port.
func hostName(h string) string {
	if host, _, err := net.SplitHostPort(h); err == nil {
		return host
	}
	return h
}

// readHeaders is the folder's _headers, nil when there is none (or it cannot be read: no rules).
func readHeaders(root *os.Root) []byte {
	f, fi, err := safefs.OpenIn(root, "_headers")
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := safefs.ReadAll(f, fi, maxHTML)
	if err != nil {
		return nil
	}
	return b
}

func isHTML(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	return ext == ".html" || ext == ".htm"
}

// script is what a served HTML page gets, with the reload count it was served at: it listens to
// EventsPath, and reloads the page when the count it hears differs (a reload it missed while it
// connected included). EventSource reconnects by itself when the stream ends.
const script = `<script>/* robotsmith watch --serve: reloads this page after each change */(function(){var g=%q;var e=new EventSource(%q);e.onmessage=function(m){if(m.data!==g){e.close();location.reload()}}})()</script>`

// inject adds the reload script to an HTML page: before its last </body>, else at its end. It
// returns the reload count the script holds.
func (s *Server) inject(page []byte) ([]byte, uint64) {
	s.mu.Lock()
	gen := s.gen
	s.mu.Unlock()
	tag := []byte(fmt.Sprintf(script, strconv.FormatUint(gen, 10), EventsPath))
	at := lastIndexFold(page, []byte("</body"))
	if at < 0 {
		at = len(page)
	}
	out := make([]byte, 0, len(page)+len(tag))
	out = append(out, page[:at]...)
	out = append(out, tag...)
	return append(out, page[at:]...), gen
}

// lastIndexFold is the last index of the ASCII sep in b, ignoring case; -1 when none.
func lastIndexFold(b, sep []byte) int {
	for i := len(b) - len(sep); i >= 0; i-- {
		if bytes.EqualFold(b[i:i+len(sep)], sep) {
			return i
		}
	}
	return -1
}

// events streams the reload count to one page's script (Server-Sent Events): once when it
// connects, then after each Reload.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	c := make(chan uint64, 1)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "closed", http.StatusServiceUnavailable)
		return
	}
	s.clients[c] = true
	gen := s.gen
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.clients, c)
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	send := func(gen uint64) bool {
		_, err := fmt.Fprintf(w, "retry: 500\ndata: %d\n\n", gen)
		fl.Flush()
		return err == nil
	}
	if !send(gen) {
		return
	}
	keep := time.NewTicker(30 * time.Second)
	defer keep.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		case gen := <-c:
			if !send(gen) {
				return
			}
		case <-keep.C:
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil {
				return
			}
			fl.Flush()
		}
	}
}
