// Package watch tells robotsmith what changed while a site is being edited: it watches the output
// folder, the content folder and the configuration (SPEC §8), gathers each burst of changes into
// one Batch, and drops the changes robotsmith caused itself. It also runs the generator's own
// watch mode as a child process (Child).
//
// Usage:
//
//	own := watch.NewOwn() // the pipeline records here every file it writes
//	w, err := watch.New(watch.Options{
//		Roots: []string{"public", "content", "hugo.toml"},
//		Own:   own,
//	})
//	if err != nil {
//		return err
//	}
//	defer w.Close()
//	for {
//		b, err := w.Next(ctx) // blocks until a burst of changes has settled
//		if err != nil {
//			return err // ctx ended, or w was closed
//		}
//		for _, c := range b.Changes {
//			fmt.Println(c.Root, c.Rel, c.Op) // re-process what c affects
//		}
//	}
//
// MovedFlags names the flags of the generator's command line that the installed generator
// replaced (hugo server --renderToDisk), asking the generator's own help, and gives the command
// line back as meant.
//
// Events come from fsnotify. Every folder under a root is watched, folders that appear are
// watched (and the files already in them reported) and folders that go are dropped. A root that is
// a single file, or that does not exist yet, is watched through its parent folder, so that a save
// that replaces the file (vim's backup-and-rename, atomic-save tools) is seen under the file's own
// name. Editors' temporary files and robotsmith's own (see Temporary) are never reported, nor are
// version control folders; a tool's temporary file named too much like the site's own (sed's, see
// Fleeting) is not reported once it is gone. Where the system cannot deliver events (fsnotify unsupported, the inotify
// watch or instance limit reached, kqueue out of file descriptors) the watcher polls instead, by
// itself, and says so in the next Batch; Options.Poll asks for polling from the start (for network
// and virtual machine file systems, where events may never come).
//
// A burst is over when no event has come for Options.Quiet (300 ms): one goroutine owns the timer
// and the pending set, and each event restarts the timer. A change for a file whose content is what
// robotsmith last wrote there (Own) is dropped when the batch is taken, so robotsmith never reacts
// to its own writes and never loops.
package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Op says what happened to a path during a batch's window. A path's Op gathers every kind of event
// seen for it, so a file an editor replaced reads "remove|create|write". Only the file's state when
// the batch is handled counts (stat it): the Op is a hint.
type Op uint8

const (
	Create Op = 1 << iota // the path appeared (or something was renamed onto it)
	Write                 // its content was written
	Remove                // it was removed or renamed away
)

func (o Op) String() string {
	var parts []string
	for _, x := range []struct {
		op   Op
		name string
	}{{Remove, "remove"}, {Create, "create"}, {Write, "write"}} {
		if o&x.op != 0 {
			parts = append(parts, x.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "|")
}

// Change is one path that changed.
type Change struct {
	Path string // absolute
	Root int    // the index in Options.Roots of the root Path is under (the deepest, where roots nest)
	Rel  string // Path relative to that root, slash-separated; "." for the root itself
	Op   Op
	// Dir says Path is, or was, a folder. A removed folder takes everything under it along (its
	// files may not be reported one by one: a folder moved out of the tree sends one event). A
	// created folder has had the files already in it reported as created.
	Dir bool
}

// Batch is the changes of one burst, and whatever went wrong while watching.
type Batch struct {
	Changes []Change // one per path, sorted by path
	// Lost says the system dropped events (its queue overflowed, or the watcher switched to
	// polling): anything under the roots may have changed, so everything should be looked at.
	Lost bool
	// Errs are the problems met while watching (a folder that could not be watched, a switch to
	// polling). None of them stopped the watcher.
	Errs []error
}

// Options says what to watch and how. Roots is the only field that must be set.
type Options struct {
	// Roots are the folders watched with everything under them (the output folder, the content
	// folder, a configuration folder) and the single files watched (configuration files). A root
	// may be missing when New is called (an output folder the generator has yet to write), but its
	// parent folder must exist.
	Roots []string
	// Skip, when set, leaves out a path under a root (a folder with everything in it), given
	// absolute; for the generator's excluded folders, such as Jekyll's .jekyll-cache or
	// node_modules. Temporary files and version control folders are left out in any case.
	Skip func(path string, dir bool) bool
	// Quiet is how long no event may come before a burst is delivered; 0 means DefaultQuiet.
	Quiet time.Duration
	// Poll polls the roots instead of asking the system for events.
	Poll bool
	// PollInterval is the time between two polls; 0 means DefaultPollInterval.
	PollInterval time.Duration
	// Own, when set, holds what robotsmith wrote: a change for a file that holds exactly that is
	// dropped from the batch.
	Own *Own

	// newNotifier, when set, replaces fsnotify (tests use it to make the system refuse watches).
	newNotifier func() (notifier, error)
	// newTimer, when set, replaces the coalescer's real timers.
	newTimer func(time.Duration) timer
}

// DefaultPollInterval is the time between two polls.
const DefaultPollInterval = 500 * time.Millisecond

// ErrClosed is returned by Next once the watcher is closed.
var ErrClosed = errors.New("watch: watcher closed")

// Watcher watches the roots of Options and delivers batches of changes through Next.
type Watcher struct {
	roots  []string // Options.Roots, absolute and clean
	skip   func(string, bool) bool
	own    *Own
	quiet  time.Duration
	poll   time.Duration
	cancel context.CancelFunc
	done   chan struct{} // closed when every goroutine has ended
	out    chan *pending
	// polling is set once the watcher polls; read by Polling, written by the backend goroutine.
	polling  chan struct{}
	pollOnce sync.Once
	close    sync.Once
	err      error // what closing the backend returned
}

// New starts watching. It fails only when a root's parent folder does not exist or cannot be
// read; a system that cannot deliver events makes it poll instead.
func New(opt Options) (*Watcher, error) {
	if len(opt.Roots) == 0 {
		return nil, errors.New("watch: no roots")
	}
	w := &Watcher{
		skip:    opt.Skip,
		own:     opt.Own,
		poll:    opt.PollInterval,
		done:    make(chan struct{}),
		out:     make(chan *pending),
		polling: make(chan struct{}),
	}
	if w.poll <= 0 {
		w.poll = DefaultPollInterval
	}
	w.quiet = opt.Quiet
	if w.quiet <= 0 {
		w.quiet = DefaultQuiet
	}
	for _, r := range opt.Roots {
		p, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("watch: %w", err)
		}
		if fi, err := os.Stat(filepath.Dir(p)); err != nil {
			return nil, fmt.Errorf("watch: %s: %w", r, err)
		} else if !fi.IsDir() {
			return nil, fmt.Errorf("watch: %s: %s is not a folder", r, filepath.Dir(p))
		}
		w.roots = append(w.roots, p)
	}

	var b backend
	var notes []event
	if !opt.Poll {
		newN := opt.newNotifier
		if newN == nil {
			newN = newFsnotify
		}
		n, problems, err := startNotify(w, newN)
		if err == nil {
			b = n
			for _, p := range problems {
				notes = append(notes, event{err: p})
			}
		} else {
			notes = append(notes, event{err: fmt.Errorf("watch: file system events are unavailable (%w); polling every %v instead", err, w.poll)})
		}
	}
	if b == nil {
		b = w.startPoll()
	}

	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	events := make(chan event)
	c := &coalescer{quiet: w.quiet, newTimer: opt.newTimer}
	var wg sync.WaitGroup
	wg.Go(func() { c.run(ctx, events, w.out) })
	wg.Go(func() {
		defer close(events)
		for _, ev := range notes {
			if !send(ctx, events, ev) {
				return
			}
		}
		w.err = w.runBackend(ctx, b, events)
	})
	go func() {
		wg.Wait()
		close(w.done)
	}()
	return w, nil
}

// Polling reports whether the watcher polls (because Options.Poll asked, or because the system
// could not deliver events).
func (w *Watcher) Polling() bool {
	select {
	case <-w.polling:
		return true
	default:
		return false
	}
}

// Next waits for the next batch: a burst of changes that has settled, with robotsmith's own writes
// taken out (a burst that held nothing else is not delivered). It returns ctx's error when ctx
// ends, and ErrClosed once the watcher is closed.
func (w *Watcher) Next(ctx context.Context) (Batch, error) {
	for {
		select {
		case <-ctx.Done():
			return Batch{}, ctx.Err()
		case <-w.done:
			return Batch{}, ErrClosed
		case p := <-w.out:
			if b := w.batch(p); len(b.Changes) > 0 || b.Lost || len(b.Errs) > 0 {
				return b, nil
			}
		}
	}
}

// batch turns a pending set into a Batch, dropping the files that hold what robotsmith wrote.
// It runs in the caller of Next, as late as possible: a file compared here is compared as the
// caller is about to look at it.
func (w *Watcher) batch(p *pending) Batch {
	b := Batch{Lost: p.lost, Errs: p.errs}
	for _, c := range p.changes {
		if w.own != nil && !c.Dir && w.own.Same(c.Path) {
			continue
		}
		if !c.Dir && Fleeting(filepath.Base(c.Path)) && gone(c.Path) {
			continue // a tool's temporary file, renamed over the file it edited (reported itself)
		}
		b.Changes = append(b.Changes, c)
	}
	slices.SortFunc(b.Changes, func(x, y Change) int { return strings.Compare(x.Path, y.Path) })
	return b
}

// gone reports whether nothing is at p.
func gone(p string) bool {
	_, err := os.Lstat(p)
	return errors.Is(err, fs.ErrNotExist)
}

// Close stops watching: it cancels the watcher's goroutines and waits for them to end. Next then
// returns ErrClosed. Close may be called more than once.
func (w *Watcher) Close() error {
	w.close.Do(func() {
		w.cancel()
		<-w.done
	})
	return w.err
}

// send delivers ev unless ctx ends first.
func send(ctx context.Context, ch chan<- event, ev event) bool {
	select {
	case ch <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

// rootOf returns the index of the deepest root that p is or is under, or -1.
func (w *Watcher) rootOf(p string) int {
	best := -1
	for i, r := range w.roots {
		if (p == r || strings.HasPrefix(p, r+string(filepath.Separator))) &&
			(best < 0 || len(r) > len(w.roots[best])) {
			best = i
		}
	}
	return best
}

// isRoot reports whether p is one of the roots.
func (w *Watcher) isRoot(p string) bool {
	return slices.Contains(w.roots, p)
}

// change builds the Change for p, or reports false for a path that is under no root, is
// temporary, or is left out.
func (w *Watcher) change(p string, op Op, dir bool) (Change, bool) {
	ri := w.rootOf(p)
	if ri < 0 || w.ignored(p, dir) {
		return Change{}, false
	}
	rel, err := filepath.Rel(w.roots[ri], p)
	if err != nil {
		return Change{}, false
	}
	return Change{Path: p, Root: ri, Rel: filepath.ToSlash(rel), Op: op, Dir: dir}, true
}

// ignored reports whether p, under a root, is left out: a temporary file, a version control
// folder, or what Options.Skip leaves out, or anything inside such a folder. A root itself is
// never left out.
func (w *Watcher) ignored(p string, dir bool) bool {
	ri := w.rootOf(p)
	if ri < 0 {
		return true
	}
	base := w.roots[ri]
	if p == base {
		return false
	}
	name := filepath.Base(p)
	if !dir && Temporary(name) || vcsFolder(name) {
		return true
	}
	if w.skip != nil && w.skip(p, dir) {
		return true
	}
	// A folder between the root and p that is left out leaves p out too (its events can still
	// arrive: a watch added before the folder was known to be left out, or a poll of a parent).
	for d := filepath.Dir(p); len(d) > len(base); d = filepath.Dir(d) {
		if vcsFolder(filepath.Base(d)) || w.skip != nil && w.skip(d, true) {
			return true
		}
	}
	return false
}

// backend is where events come from: the system (fsnotify) or polling.
type backend interface {
	// run sends events until ctx ends; it returns a non-nil next backend when it has to hand over
	// (fsnotify hitting the watch limit hands over to polling).
	run(ctx context.Context, events chan<- event) (next backend, err error)
	close() error
}

// runBackend runs b, and the backends it hands over to, until ctx ends.
func (w *Watcher) runBackend(ctx context.Context, b backend, events chan<- event) error {
	for {
		next, err := b.run(ctx, events)
		cerr := b.close()
		if next == nil {
			return errors.Join(err, cerr)
		}
		b = next
	}
}

// walk calls fn for p and, when p is a folder, for everything under it that is not left out, in
// lexical order; symbolic links are not followed. Problems reading a folder are passed to fail.
func (w *Watcher) walk(p string, fn func(p string, d fs.DirEntry) error, fail func(error)) error {
	return filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // gone since it was listed
			}
			fail(err)
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if q != p && w.ignored(q, d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if q != p && d.IsDir() && w.isRoot(q) {
			return fs.SkipDir // a root inside this one (Jekyll's _site in the site folder) is walked as itself
		}
		return fn(q, d)
	})
}
