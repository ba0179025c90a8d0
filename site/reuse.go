package site

// Mapping a site again and again (watch mode), reading only the sources that changed.

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
)

// Remap maps the site as Map does, for a site that is mapped again and again while its author
// edits it (robotsmith watch), told each time which paths on disk changed since the last call
// (changed: what a watcher reported, files and folders that were written, created, removed or
// renamed; a folder stands for everything under it, and Site.Root for the whole site). It keeps
// what reading each source produced (the few front matter values that mapping uses, its robots
// inputs, its problems; never its bytes) and each content folder's listing, and reads again only
// the sources that are new or named changed, and lists again only the folders named changed or in
// which a path named changed came or went. A Hugo page is placed again when its reading is new or
// a branch page (_index) says something new; a Jekyll page when its reading is new or the
// defaults' glob paths match other files. The rest of the mapping (paths, cascades, Jekyll's
// defaults, permalinks, aliases, pagers, bundles, languages, the pages made without a source) is
// done anew, so the Map is the one Map would make of the same files.
//
// Only the names say what changed: a check of every file and folder (a stat each) would cost
// more than all the rest on a large site (about 20 ms of the 50 that watch mode may take on
// 10,000 pages), and a watcher reports every write. A caller that cannot tell what changed
// (events lost) names Site.Root. The first call reads every source. A change of the generator's
// configuration needs a new Site (Open): the readings depend on it. Remap is not for concurrent
// use, and the Map's pages must not be changed: the next call copies those whose place holds.
func (s *Site) Remap(changed []string) (*Map, error) {
	return s.RemapContext(context.Background(), changed)
}

// RemapContext is Remap, given up once ctx ends (MapContext); what was kept stays good for the next
// call, which reads again what this one did not reach.
func (s *Site) RemapContext(ctx context.Context, changed []string) (*Map, error) {
	if s.kept == nil {
		s.kept = &readings{}
	}
	r := s.kept
	r.gen++
	r.all, r.changed = false, r.changed[:0]
	root := absOr(s.Root)
	for _, p := range changed {
		p = filepath.Clean(p)
		if absOr(p) == root {
			r.all = true
		}
		r.changed = append(r.changed, p)
		// Sources are named as the site names them: under Root as given (it may be relative).
		if rel, err := filepath.Rel(root, absOr(p)); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			r.changed = append(r.changed, filepath.Join(s.Root, rel))
		}
	}
	r.opened.Store(0)
	m, err := s.mapWith(ctx, r)
	r.hugoDirs.sweep(r.gen)
	r.jekyll.sweep(r.gen)
	r.yaml.sweep(r.gen)
	return m, err
}

// readings are what Remap keeps between mappings of a site, by source file.
type readings struct {
	gen     uint64   // the mapping under way; a reading not used by it is of a file gone
	all     bool     // read every source again
	changed []string // paths named changed, as given and as the site names them
	// opened counts the files the mapping under way opened (tests: only what changed is read).
	opened atomic.Int64
	// onOpen, when set, is called as the mapping under way opens its n'th file (tests: to end
	// its context part way).
	onOpen func(n int64)

	hugoDirs sourceCache[*hugoDir] // the content folders' listings
	// hugoDirCount is how many folders the last walk listed, hugoContent what it found, and
	// hugoReads the readings of hugoContent.pages, in their places.
	hugoDirCount int
	hugoContent  *hugoContent
	hugoReads    []*hugoRead
	// branches are the branch pages (Hugo's _index files) of the last mapping, with their
	// readings, and epoch counts the mappings in which they changed: a page's place depends on
	// them (hugoPlace).
	branches []keptBranch
	epoch    uint64
	jekyll   sourceCache[*jekyllRead]
	// jekyllGlobs are what the defaults' glob paths matched in the last mapping, and jekyllEpoch
	// counts the mappings in which that changed: a page's Page depends on it (jekyllPlace).
	jekyllGlobs map[string][]string
	jekyllEpoch uint64
	yaml        sourceCache[bool] // Jekyll: whether a file starts with a front matter line
}

type keptBranch struct {
	abs string
	rd  *hugoRead
}

// opening is called as the mapping opens its n'th file.
func (r *readings) opening(n int64) {
	if r.onOpen != nil {
		r.onOpen(n)
	}
}

// named reports whether the source p was named changed.
func (r *readings) named(p string) bool {
	if r.all {
		return true
	}
	for _, c := range r.changed {
		if p == c || strings.HasPrefix(p, c) && len(p) > len(c) && p[len(c)] == filepath.Separator {
			return true
		}
	}
	return false
}

// namedIn returns the paths named changed that are directly in the folder dir: a file there that
// came or went. A folder named changed (or one above it) is all read again: none is kept.
func (r *readings) namedIn(dir string) []string {
	var in []string
	for _, c := range r.changed {
		if filepath.Dir(c) == dir {
			in = append(in, c)
		}
	}
	return in
}

// keeper keeps what reading each of the files that readSources reads produced, for a site mapped
// again: kept returns the reading kept of file i (at p), keep keeps v, read from it. Both are
// called for many files at once, each file once.
type keeper[T any] interface {
	kept(i int, p string) (T, bool)
	keep(i int, p string, v T)
}

// sourceCache is what reading each source produced, by its path on disk. Its methods are safe for
// concurrent use: sources are read on many workers at once.
type sourceCache[T any] struct {
	mu    sync.RWMutex
	files map[string]*cachedRead[T]
}

type cachedRead[T any] struct {
	gen atomic.Uint64 // the last mapping that used it
	v   T
}

// get returns the reading of the file p kept from an earlier mapping, unless p was named changed.
func (c *sourceCache[T]) get(r *readings, p string) (v T, ok bool) {
	if r.named(p) {
		return v, false
	}
	c.mu.RLock()
	e := c.files[p]
	c.mu.RUnlock()
	if e == nil {
		return v, false
	}
	e.gen.Store(r.gen)
	return e.v, true
}

// put keeps v, what reading the file p produced.
func (c *sourceCache[T]) put(r *readings, p string, v T) {
	e := &cachedRead[T]{v: v}
	e.gen.Store(r.gen)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		c.files = map[string]*cachedRead[T]{}
	}
	c.files[p] = e
}

// cacheKeeper keeps readings in a sourceCache, by path.
type cacheKeeper[T any] struct {
	r *readings
	c *sourceCache[T]
}

func (k cacheKeeper[T]) kept(_ int, p string) (T, bool) { return k.c.get(k.r, p) }
func (k cacheKeeper[T]) keep(_ int, p string, v T)      { k.c.put(k.r, p, v) }

// sweep lets go of the readings the mapping gen did not use: their files are gone, or no longer
// sources.
func (c *sourceCache[T]) sweep(gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for p, e := range c.files {
		if e.gen.Load() != gen {
			delete(c.files, p)
		}
	}
}

// keptPage is a copy of the page p, kept from the last Map, without what the mapping gives it anew
// (has says p has some, clear takes it away). p's Extra is that Map's, shared: it is copied before
// it changes, and left out when nothing remains in it, as a page mapped afresh has none.
func keptPage(p *Page, has func(*Extra) bool, clear func(*Extra)) Page {
	pg := *p
	if pg.Extra == nil || !has(pg.Extra) {
		return pg
	}
	x := *pg.Extra
	clear(&x)
	pg.Extra = &x
	if reflect.ValueOf(x).IsZero() {
		pg.Extra = nil
	}
	return pg
}

// absOr is p made absolute, p itself if that fails.
func absOr(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
