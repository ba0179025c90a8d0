package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/fsnotify/fsnotify"
)

// notifier is the part of *fsnotify.Watcher the watcher uses.
type notifier interface {
	Add(path string) error
	Remove(path string) error
	Close() error
	Events() <-chan fsnotify.Event
	Errors() <-chan error
}

type fsnotifyWatcher struct{ *fsnotify.Watcher }

func (f fsnotifyWatcher) Events() <-chan fsnotify.Event { return f.Watcher.Events }
func (f fsnotifyWatcher) Errors() <-chan error          { return f.Watcher.Errors }

func newFsnotify() (notifier, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	return fsnotifyWatcher{w}, nil
}

// exhausted reports whether err says the system has run out of what events need: inotify's
// per-user watch limit (ENOSPC) or instance limit (EMFILE), or file descriptors (kqueue needs one
// per watched file). Then only polling works.
func exhausted(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}

// notify is the fsnotify backend. Its goroutine alone touches dirs.
type notify struct {
	w    *Watcher
	n    notifier
	dirs map[string]bool // watched folders -> watched for what is under them (not only as a root's parent)
	// fail, set while a watch is being added, receives problems that do not stop the backend.
	fail func(error)
}

// startNotify watches every root's parent folder and every folder under each root. An error means
// events are unavailable (and nothing is left open); problems are what could not be watched
// without stopping the rest (a folder that cannot be read).
func startNotify(w *Watcher, newN func() (notifier, error)) (b *notify, problems []error, err error) {
	n, err := newN()
	if err != nil {
		return nil, nil, err
	}
	b = &notify{w: w, n: n, dirs: make(map[string]bool)}
	b.fail = func(err error) { problems = append(problems, err) }
	for _, r := range w.roots {
		err := b.watchParent(filepath.Dir(r))
		if err == nil {
			err = b.addTree(r, nil)
		}
		if err != nil {
			n.Close()
			return nil, nil, err
		}
	}
	return b, problems, nil
}

// watchParent watches folder d for the roots in it (created, removed, replaced).
func (b *notify) watchParent(d string) error {
	if _, ok := b.dirs[d]; ok {
		return nil
	}
	if err := b.n.Add(d); err != nil {
		return fmt.Errorf("watch: %s: %w", d, err)
	}
	b.dirs[d] = false
	return nil
}

// addTree watches folder p (if it is one) and every folder under it; with created set, it also
// reports every file found, since files written before the watch was in place sent no event.
// It returns an error only when the system has run out of watches; other problems go to b.fail.
func (b *notify) addTree(p string, created func(c Change)) error {
	fi, err := os.Lstat(p)
	if err != nil || !fi.IsDir() {
		return nil
	}
	var limit error
	err = b.w.walk(p, func(q string, d fs.DirEntry) error {
		if !d.IsDir() {
			if created != nil {
				if c, ok := b.w.change(q, Create, false); ok {
					created(c)
				}
			}
			return nil
		}
		if err := b.n.Add(q); err != nil {
			if exhausted(err) {
				limit = fmt.Errorf("watch: %s: %w", q, err)
				return fs.SkipAll
			}
			if !errors.Is(err, fs.ErrNotExist) {
				b.fail(fmt.Errorf("watch: %s: %w", q, err))
			}
			return fs.SkipDir
		}
		b.dirs[q] = true
		if created != nil && q != p {
			if c, ok := b.w.change(q, Create, true); ok {
				created(c)
			}
		}
		return nil
	}, b.fail)
	if limit != nil {
		return limit
	}
	return err
}

// dropTree forgets folder p and every watched folder under it (removed or moved away: a folder
// moved out of the tree keeps its watch, and its events would come under the old name).
func (b *notify) dropTree(p string) bool {
	found := false
	prefix := p + string(filepath.Separator)
	for d, under := range b.dirs {
		if under && (d == p || strings.HasPrefix(d, prefix)) {
			found = true
			b.n.Remove(d) // fails when the system already dropped it with the folder
			delete(b.dirs, d)
		}
	}
	return found
}

func (b *notify) run(ctx context.Context, events chan<- event) (backend, error) {
	var out []event
	b.fail = func(err error) { out = append(out, event{err: err}) }
	emit := func(c Change) { out = append(out, event{change: c}) }
	for {
		select {
		case <-ctx.Done():
			return nil, nil
		case err, ok := <-b.n.Errors():
			if !ok {
				return nil, nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				out = append(out, event{lost: true})
			} else {
				out = append(out, event{err: fmt.Errorf("watch: %w", err)})
			}
		case e, ok := <-b.n.Events():
			if !ok {
				return nil, nil
			}
			if err := b.handle(e, emit); err != nil {
				// The system ran out of watches: hand over to polling, which starts from what is on
				// disk now, so whatever happened meanwhile counts as lost.
				out = append(out,
					event{err: fmt.Errorf("%w; polling every %v instead", err, b.w.poll)},
					event{lost: true})
				for _, ev := range out {
					if !send(ctx, events, ev) {
						return nil, nil
					}
				}
				return b.w.startPoll(), nil
			}
		}
		for _, ev := range out {
			if !send(ctx, events, ev) {
				return nil, nil
			}
		}
		out = out[:0]
	}
}

// handle turns one fsnotify event into changes, following folders as they come and go.
func (b *notify) handle(e fsnotify.Event, emit func(Change)) error {
	p := filepath.Clean(e.Name)
	if b.w.rootOf(p) < 0 {
		return nil // a sibling of a root in a parent folder watched for the root's sake
	}
	switch {
	case e.Has(fsnotify.Create):
		fi, err := os.Lstat(p)
		if err == nil && fi.IsDir() {
			if b.w.ignored(p, true) {
				return nil
			}
			if c, ok := b.w.change(p, Create, true); ok {
				emit(c)
			}
			return b.addTree(p, emit)
		}
		if c, ok := b.w.change(p, Create, false); ok {
			emit(c)
		}
	case e.Has(fsnotify.Write):
		if c, ok := b.w.change(p, Write, false); ok {
			emit(c)
		}
	case e.Has(fsnotify.Remove), e.Has(fsnotify.Rename):
		dir := b.dropTree(p)
		if c, ok := b.w.change(p, Remove, dir); ok {
			emit(c)
		}
	}
	// Chmod alone (a touch, a permission change) changes no content.
	return nil
}

func (b *notify) close() error { return b.n.Close() }
