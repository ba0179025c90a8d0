package main

import (
	"context"
	"fmt"
	"html"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/serve"
)

// preview is watch --serve: the output folder served as its host serves it (package serve), every
// open page reloaded after each of robotsmith's batches, so that the page the author sees is the
// one robotsmith fixed, never the generator's alone. Before the output folder is there, each
// request gets a page that asks again every second.
type preview struct {
	http *http.Server
	ln   net.Listener

	mu     sync.Mutex
	srv    *serve.Server  // nil until the output folder is there
	served string         // the folder srv serves
	format headers.Format // and the host whose headers it sends
	dir    string         // the output folder, slash-separated, as the waiting page names it
}

// startPreview listens on addr (serve.Listen: loopback unless a host is named) and serves the
// output folder dir from then on.
func startPreview(addr, dir string) (*preview, error) {
	ln, err := serve.Listen(addr)
	if err != nil {
		return nil, err
	}
	p := &preview{ln: ln, dir: filepath.ToSlash(dir)}
	p.http = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go p.http.Serve(ln)
	return p, nil
}

// URL is the address a browser opens.
func (p *preview) URL() string { return "http://" + p.ln.Addr().String() + "/" }

func (p *preview) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	srv, dir := p.srv, p.dir
	p.mu.Unlock()
	if srv != nil {
		srv.ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusServiceUnavailable)
	fmt.Fprintf(w, "<!doctype html><meta http-equiv=\"refresh\" content=\"1\"><title>robotsmith watch</title><p>robotsmith: waiting for the output folder %s to be written and fixed</p>\n", html.EscapeString(dir))
}

// after is called after each batch of l's (and its first pass): it serves l's output folder with
// its headers format from then on, and reloads every open page. A batch that left files for later
// (Update.Retry: the generator was still writing them) reloads nothing: the pages would show
// before robotsmith fixed them, and the batch that fixes them reloads.
func (p *preview) after(l *pipeline.Live, u *pipeline.Update) {
	if u.Retry {
		return
	}
	dir, f := l.Output(), l.Format()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dir = filepath.ToSlash(dir)
	if p.srv != nil && dir == p.served && f == p.format {
		p.srv.Reload()
		return
	}
	// The first pass, or the configuration moved the output folder or changed its host: a new
	// server, and the pages open on the old one reload from it.
	srv, err := serve.New(dir, f)
	if err != nil {
		return // not written yet: the waiting page still answers
	}
	old := p.srv
	p.srv, p.format = srv, f
	p.served = dir
	if old != nil {
		old.Reload()
		old.Close()
	}
}

// close ends the pages' event streams and the HTTP server.
func (p *preview) close() {
	p.mu.Lock()
	if p.srv != nil {
		p.srv.Close()
	}
	p.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	p.http.Shutdown(ctx)
}
