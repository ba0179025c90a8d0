package site

// Reading a Hugo site's content: the folders, and each content file's front matter, into the small
// values mapping uses, which a site mapped again (Remap) keeps while the files do not change.

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/rules"
)

// hugoRead is what reading one content file's front matter produced (readFrontMatter): the front
// matter values that mapping reads, its robots inputs, the cascades a branch page declares, and
// its problems; then where its page was placed (hugoPlace). A site mapped again keeps it until the
// file is named changed.
type hugoRead struct {
	ok bool // the front matter could be parsed: the file is one of the site's pages
	// params are the robots parameters its front matter sets, which replace a cascade's: the keys
	// are those of its inputs (ownIn), and of hugoRare.silent for those that give none.
	params hugoParams
	fields []metaField // the keys of hugoMetaKeys and the taxonomies' that it sets
	ownIn  []rules.Input
	rare   *hugoRare // what few pages have
	hugoPlace
}

// hugoRare is what few pages' readings have: cascades (branch pages), problems, a bundle's folder.
type hugoRare struct {
	cascades []hugoCascade
	silent   []hugoSetter // the robots parameters its front matter sets with keys that give no input (noindex: false)
	warnings []error
	err      error  // why the front matter could not be read, or its robots keys not
	pageErr  error  // why the page could not be placed
	dir      string // the output folder a bundle publishes its files in
}

// hugoPlace is where a page goes, and what of it the site-wide steps need (hugoMapping.placement).
// A page's place depends on its file and reading, the branch pages and the configuration alone,
// so a site mapped again keeps it while the page's reading is kept and the branch pages say what
// they said when it was placed (epoch, readings.epoch).
type hugoPlace struct {
	placed    bool
	publishes bool   // Hugo writes the page and publishes its bundle's files
	epoch     uint64 // the branch pages it was placed with
	// page is its Page, in the last Map made: the next mapping copies it from there. nil when
	// it could not be placed (hugoRare.pageErr).
	page  *Page
	terms []placedTerm // the terms it uses
}

// placedTerm is a term a page uses, and where it is among the page's: t is the taxonomy's place
// among the language's (hugoMapping.plurals), v the term's in its value.
type placedTerm struct {
	term string
	t, v int32
}

// setRare changes the reading's rare part.
func (rd *hugoRead) setRare(set func(*hugoRare)) {
	if rd.rare == nil {
		rd.rare = &hugoRare{}
	}
	set(rd.rare)
}

func (rd *hugoRead) cascades() []hugoCascade {
	if rd.rare == nil {
		return nil
	}
	return rd.rare.cascades
}

// sameAs reports whether two readings say the same: a branch page read again that does (its
// content edited, not its front matter) changes no other page's place.
func (rd *hugoRead) sameAs(o *hugoRead) bool {
	if rd == o {
		return true
	}
	if rd.ok != o.ok || rd.params != o.params || !reflect.DeepEqual(rd.fields, o.fields) || !reflect.DeepEqual(rd.ownIn, o.ownIn) {
		return false
	}
	var a, b hugoRare
	if rd.rare != nil {
		a = hugoRare{cascades: rd.rare.cascades, silent: rd.rare.silent, warnings: rd.rare.warnings, err: rd.rare.err}
	}
	if o.rare != nil {
		b = hugoRare{cascades: o.rare.cascades, silent: o.rare.silent, warnings: o.rare.warnings, err: o.rare.err}
	}
	return reflect.DeepEqual(a, b)
}

// metaField is one front matter key a page sets, as Node.Any reads it.
type metaField struct {
	key string
	v   any
}

// hugoMetaKeys are the front matter keys (lower case) that mapping a page reads, with the
// configured taxonomies' plural keys (hugoConfig.metaKeys): a reading keeps only those, so that
// what a site mapped again keeps of a page is small. A key that mapping comes to read goes here.
var hugoMetaKeys = []string{
	"title", "slug", "url", "aliases", "outputs", "headless", "build", "_build", "draft",
	"date", "publishdate", "pubdate", "published", "lastmod", "modified", "expirydate", "unpublishdate",
}

// metaKeys are hugoMetaKeys and the plural keys of every language's taxonomies, each mapped to
// itself: a reading keeps these strings, not each file's own copy.
func (h *hugoConfig) metaKeys() map[string]string {
	keys := map[string]string{}
	for _, k := range hugoMetaKeys {
		keys[k] = k
	}
	for k := range h.taxonomies {
		keys[k] = k
	}
	for _, l := range h.langs {
		for k := range l.taxonomies {
			keys[k] = k
		}
	}
	return keys
}

// meta is the page's front matter as mapping reads it: a map of its own, which the cascades
// that reach the page fill.
func (rd *hugoRead) meta() map[string]any {
	m := make(map[string]any, len(rd.fields))
	for _, f := range rd.fields {
		m[f.key] = f.v
	}
	return m
}

// readFrontMatter parses the front matter of the content file f (head: the file up to the end of
// the block) and keeps what mapping and deciding need: the values of the keys mapping reads, its
// robots inputs, and the cascades a branch page declares. A page whose front matter cannot be
// parsed is not ok.
func (g hugoGen) readFrontMatter(f hugoFile, head []byte, keys map[string]string) *hugoRead {
	// The name is the page's source path, a string of its own: the inputs keep it for the whole
	// run (rules.Source.File), and a part of the path on disk would keep all of that path.
	doc, err := frontmatter.Parse(g.s.source(f.abs()), head, frontmatter.Hugo)
	if err != nil {
		return &hugoRead{rare: &hugoRare{err: err}}
	}
	rd := &hugoRead{ok: true}
	if doc.Root != nil {
		for _, k := range doc.Root.Keys {
			// Node.Any's reading of the map, of the keys kept: lower case, and of keys that fold
			// alike the one written last.
			name, keep := keys[strings.ToLower(k.Name)]
			if !keep || slices.ContainsFunc(rd.fields, func(f metaField) bool { return f.key == name }) {
				continue
			}
			w, _ := doc.Root.Fold(name)
			rd.fields = append(rd.fields, metaField{name, w.Value.Any(true)})
		}
	}
	var rare hugoRare
	var errs []error
	own, err := doc.Robots()
	if err != nil {
		errs = append(errs, err)
	}
	if f.base() == "_index" {
		cs, err := doc.Cascades()
		if err != nil {
			errs = append(errs, err)
		}
		for _, c := range cs {
			hc, err := newHugoCascade(doc, c)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			rare.cascades = append(rare.cascades, hc)
		}
	}
	rd.ownIn = own
	var (
		robotsKeys [8]frontmatter.RobotsKey
		sets       [len(hugoParamNames)]hugoSetter
	)
	for _, set := range hugoSetters(sets[:0], doc.RobotsKeys(robotsKeys[:0], doc.Root, rules.FromFrontMatter)) {
		rd.params |= set.param
		if !slices.ContainsFunc(own, func(in rules.Input) bool { return hugoParam(in.Source.Key) == set.param }) {
			rare.silent = append(rare.silent, set)
		}
	}
	rare.warnings, rare.err = doc.Warnings, errors.Join(errs...)
	if rare.cascades != nil || rare.silent != nil || rare.warnings != nil || rare.err != nil {
		rd.rare = &rare
	}
	return rd
}

// hugoKeeper keeps the readings of a Hugo site mapped again in readings.hugoReads, by the file's
// place among hugoContent.pages: readEach reads the files idx names.
type hugoKeeper struct {
	r   *readings
	idx []int32
}

func (k hugoKeeper) kept(n int, _ string) (*hugoRead, bool) {
	rd := k.r.hugoReads[k.idx[n]]
	return rd, rd != nil
}

func (k hugoKeeper) keep(n int, _ string, rd *hugoRead) { k.r.hugoReads[k.idx[n]] = rd }

// hugoContent is the files of the content tree that mapping reads: the content files that are
// pages, in file order, and the other files of bundles, by bundle folder (bundleFiles).
type hugoContent struct {
	pages     []hugoFile
	resources map[resKey][]hugoFile
}

// hugoContent lists the content tree. For a site mapped again (r) whose folders are all the ones
// listed last time, it is the listing made then; otherwise the readings kept (readings.hugoReads)
// are put in the places of their files in the new one.
func (s *Site) hugoContent(r *readings) (hugoContent, error) {
	files, same, err := s.hugoWalk(r)
	if err != nil {
		if r != nil {
			r.hugoContent = nil // the folders listed before the error are kept: list all again
		}
		return hugoContent{}, err
	}
	if same && r.hugoContent != nil {
		return *r.hugoContent, nil
	}
	if same {
		// Walked again as before, but what it found was let go: list it again.
		r.hugoDirCount = -1
		return s.hugoContent(r)
	}
	var c hugoContent
	c.pages, c.resources = bundleFiles(files)
	if r != nil {
		// Both lists are in file order (by path on disk).
		reads := make([]*hugoRead, len(c.pages))
		if r.hugoContent != nil {
			old, j := r.hugoContent.pages, 0
			for i, f := range c.pages {
				for j < len(old) && compareAbs(old[j], f) < 0 {
					j++
				}
				if j < len(old) && compareAbs(old[j], f) == 0 {
					reads[i] = r.hugoReads[j]
					j++
				}
			}
		}
		r.hugoContent, r.hugoReads = &c, reads
	}
	return c, nil
}

// hugoWalk lists the files under every content root with their language, as filepath.WalkDir
// would find them (symbolic links are not followed; names Hugo ignores are left out). For a site
// mapped again (r), a folder that is not named changed, and in which no path named changed came or
// went, is not listed again: its names are kept. same reports that no folder was listed again and
// that as many were walked as then: the files are the ones listed then, and files is nil.
func (s *Site) hugoWalk(r *readings) (files []hugoFile, same bool, err error) {
	w := hugoWalker{s: s, r: r, same: true}
	for i := range s.hugo.roots {
		root := &s.hugo.roots[i]
		// Hugo follows a link at a content root itself (content -> ../pages), and none below it.
		fi, err := os.Stat(root.dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return nil, false, err
		case !fi.IsDir():
			w.dirs = append(w.dirs, walkedDir{root: root, files: []string{root.dir}})
			w.same = false
			continue
		}
		if err := w.walk(root, root.dir); err != nil {
			return nil, false, err
		}
	}
	if r != nil {
		w.same = w.same && len(w.dirs) == r.hugoDirCount
		r.hugoDirCount = len(w.dirs)
		if w.same {
			return nil, true, nil
		}
	}
	n := 0
	for _, d := range w.dirs {
		n += len(d.files)
	}
	files = make([]hugoFile, 0, n)
	for _, d := range w.dirs {
		if d.dir == "" { // a root that is a file
			files = append(files, s.hugo.fileAt(d.root, "."))
			continue
		}
		// Each file's path under its root is made once, in one string of its own: the file
		// list keeps no path on disk.
		under, err := filepath.Rel(d.root.dir, d.dir)
		if err != nil {
			return nil, false, err
		}
		for _, name := range d.files {
			r := name
			if under != "." {
				r = under + string(filepath.Separator) + name
			}
			files = append(files, s.hugo.fileAt(d.root, r))
		}
	}
	if len(s.hugo.roots) > 1 {
		files = shadow(files)
	}
	slices.SortStableFunc(files, compareAbs)
	return files, false, nil
}

// shadow leaves out the files (in root order) that a file of an earlier root hides: the same
// file of the content tree in the same language. Hugo mounts the project's content over its
// themes' and modules', and an earlier mount over a later one (modules/collect.go; hugofs's
// overlay): a theme's docs/_index.md behind the project's is not read, nor its cascade.
func shadow(files []hugoFile) []hugoFile {
	type key struct {
		lang uint16
		file string
	}
	first := make(map[key]*hugoRoot, len(files))
	out := files[:0]
	for _, f := range files {
		k := key{f.langAt, f.dir() + "/" + f.base() + path.Ext(f.name())}
		if r, ok := first[k]; ok && r != f.root {
			continue
		} else if !ok {
			first[k] = f.root
		}
		out = append(out, f)
	}
	clear(files[len(out):])
	return out[:len(out):len(out)]
}

// hugoWalker is one walk of the content roots (hugoWalk).
type hugoWalker struct {
	s    *Site
	r    *readings
	dirs []walkedDir // the folders walked, in walk order
	same bool        // none was listed again
}

// walkedDir is a folder walked (dir, "" for a root that is a file) with its listing.
type walkedDir struct {
	root  *hugoRoot
	dir   string
	files []string
}

// hugoDir is one folder of a content root as hugoWalk lists it: the names of its files and of its
// folders, in name order.
type hugoDir struct {
	files, dirs []string
}

// walk lists dir and the folders under it.
func (w *hugoWalker) walk(root *hugoRoot, dir string) error {
	r := w.r
	var d *hugoDir
	if r != nil {
		if d, _ = r.hugoDirs.get(r, dir); d != nil && !d.holds(r.namedIn(dir)) {
			d = nil
		}
	}
	if d == nil {
		w.same = false
		ents, err := os.ReadDir(dir)
		if err != nil && (dir != root.dir || !errors.Is(err, fs.ErrNotExist)) {
			return err
		}
		d = &hugoDir{}
		for _, e := range ents {
			switch name := e.Name(); {
			case hugoIgnored(name), e.Type()&fs.ModeSymlink != 0:
				// Hugo's walk does not follow a link inside the content tree, to a file or a folder.
			case e.IsDir():
				d.dirs = append(d.dirs, name)
			default:
				d.files = append(d.files, name)
			}
		}
		if r != nil && err == nil {
			r.hugoDirs.put(r, dir, d)
		}
	}
	w.dirs = append(w.dirs, walkedDir{root, dir, d.files})
	for _, name := range d.dirs {
		if err := w.walk(root, filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// hugoIgnored reports the names Hugo's walk leaves out, files and folders: hidden ones, and
// editors' backup and lock files.
func hugoIgnored(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "#") || strings.HasSuffix(name, "~")
}

// holds reports whether the listing d still holds the paths named changed in its folder as they
// are now: a file named changed that is listed is still a file, one not listed is still not there.
func (d *hugoDir) holds(named []string) bool {
	for _, p := range named {
		name := filepath.Base(p)
		if hugoIgnored(name) {
			continue
		}
		isDir := slices.Contains(d.dirs, name)
		listed := isDir || slices.Contains(d.files, name)
		fi, err := os.Lstat(p)
		if err != nil && !errors.Is(err, fs.ErrNotExist) || (err == nil) != listed || err == nil && fi.IsDir() != isDir {
			return false
		}
	}
	return true
}
