package watch

import (
	"context"
	"io/fs"
	"time"
)

// poller is the polling backend: it lists every root again and again and reports what differs
// from the last listing. Written here rather than taken from a library: fsnotify has no polling
// mode, and the polling libraries (radovskyb/watcher and the like) bring their own event model,
// filters and goroutines, where this needs a listing and a comparison that share the watcher's
// roots, left-out rules and Change.
type poller struct {
	w        *Watcher
	snap     map[string]pollState
	problems []error       // from the first listing, reported when run starts
	took     time.Duration // how long the last listing took
}

// pollState is what a listing keeps of each path: enough to see that a file was written (size or
// modification time differ; a change of mode alone changes no content, as for fsnotify's Chmod).
type pollState struct {
	size  int64
	mtime int64
	dir   bool
}

// startPoll lists the roots as they are now; changes are reported from then on.
func (w *Watcher) startPoll() *poller {
	w.pollOnce.Do(func() { close(w.polling) })
	p := &poller{w: w}
	p.snap = p.list(func(err error) { p.problems = append(p.problems, err) })
	return p
}

// list returns the state of every path under the roots that is not left out.
func (p *poller) list(fail func(error)) map[string]pollState {
	start := time.Now()
	m := make(map[string]pollState, len(p.snap))
	for _, r := range p.w.roots {
		p.w.walk(r, func(q string, d fs.DirEntry) error {
			fi, err := d.Info()
			if err != nil {
				return nil // gone since it was listed
			}
			m[q] = pollState{size: fi.Size(), mtime: fi.ModTime().UnixNano(), dir: d.IsDir()}
			return nil
		}, fail)
	}
	p.took = time.Since(start)
	return m
}

func (p *poller) run(ctx context.Context, events chan<- event) (backend, error) {
	for _, err := range p.problems {
		if !send(ctx, events, event{err: err}) {
			return nil, nil
		}
	}
	p.problems = nil
	t := time.NewTimer(p.w.poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, nil
		case <-t.C:
		}
		var out []event
		now := p.list(func(err error) { out = append(out, event{err: err}) })
		// A file half-written at this listing is seen changing again at the next one, which comes
		// an interval after this listing ends: the batch must wait past it.
		hold := p.w.poll + 2*p.took + p.w.quiet
		for path, st := range now {
			old, ok := p.snap[path]
			var op Op
			switch {
			case !ok:
				op = Create
			case old.dir != st.dir:
				op = Remove | Create
			case !st.dir && (old.size != st.size || old.mtime != st.mtime):
				op = Write
			default:
				continue
			}
			if c, ok := p.w.change(path, op, st.dir); ok {
				out = append(out, event{change: c, hold: hold})
			}
		}
		for path, old := range p.snap {
			if _, ok := now[path]; !ok {
				if c, ok := p.w.change(path, Remove, old.dir); ok {
					out = append(out, event{change: c, hold: hold})
				}
			}
		}
		p.snap = now
		for _, ev := range out {
			if !send(ctx, events, ev) {
				return nil, nil
			}
		}
		t.Reset(p.w.poll)
	}
}

func (p *poller) close() error { return nil }
