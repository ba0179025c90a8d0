package site

// Jekyll's reader: which files are pages, posts and documents, and their front matter merged over
// the defaults (reader.rb, entry_filter.rb, post_reader.rb, collection.rb).

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/rules"
)

// jekyllData is a page's or document's top-level data: defaults merged with front matter, keys
// exactly as written (Jekyll's keys are case-sensitive).
type jekyllData map[string]*frontmatter.Node

func (d jekyllData) str(key string) (string, bool) {
	n, ok := d[key]
	if !ok || n.IsNull() {
		return "", false
	}
	return n.Scalar()
}

// isFalse reports a YAML false (Ruby's `== false`; Psych reads YAML 1.1's no and off as false).
func (d jekyllData) isFalse(key string) bool {
	n, ok := d[key]
	if !ok || n.Kind == frontmatter.KindString && !n.Plain {
		return false
	}
	b, ok := n.Truth()
	return ok && !b && n.Kind != frontmatter.KindInt
}

// list reads a list or a string as Ruby's Array() would, to_s on each item.
func (d jekyllData) list(key string, split bool) []string {
	n, ok := d[key]
	if !ok || n.IsNull() {
		return nil
	}
	if n.Kind == frontmatter.KindList {
		var out []string
		for _, e := range n.List {
			if v, ok := e.Scalar(); ok {
				out = append(out, v)
			}
		}
		return out
	}
	v, ok := n.Scalar()
	if !ok {
		return nil
	}
	if split {
		return strings.Fields(v)
	}
	return []string{v}
}

// hasYAMLHeader is Utils.has_yaml_header?: the first line is `---` and spaces.
func hasYAMLHeader(p string) (bool, error) {
	f, err := os.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	buf := make([]byte, 512)
	n, _ := f.Read(buf)
	buf = buf[:n]
	i := bytes.IndexByte(buf, '\n')
	if i < 0 || !bytes.HasPrefix(buf, []byte("---")) {
		return false, nil
	}
	return len(bytes.TrimRight(buf[3:i], " \t\r\f\v")) == 0, nil
}

// yamlHeader is hasYAMLHeader for the file p. For a site mapped again (Remap), what a file not
// named changed since said is kept, as its readings are.
func (w *jekyllWalk) yamlHeader(p string) bool {
	if w.r == nil {
		ok, _ := hasYAMLHeader(p)
		return ok
	}
	if ok, kept := w.r.yaml.get(w.r, p); kept {
		return ok
	}
	w.r.opened.Add(1)
	ok, err := hasYAMLHeader(p)
	if err == nil {
		w.r.yaml.put(w.r, p, ok)
	}
	return ok
}

// jekyllWalk collects pages as Reader#read does: it finds the pages and documents, then reads
// them all at once (readAll).
type jekyllWalk struct {
	ctx      context.Context // the mapping's: once it ends, no file is opened (readSources)
	s        *Site
	c        *jekyllConfig
	r        *readings           // the readings kept of a site mapped again (Remap); nil for none
	source   string              // the source folder
	dest     string              // the destination folder, cleaned
	globs    map[string][]string // what the defaults' glob paths match (jekyllConfig.defaultGlobs)
	found    []jekyllFound       // the pages and documents to read, in the order Jekyll reads them
	pages    []Page
	seen     map[string]bool // page sources already found
	excludes []string        // the excludes that are not included too, once worked out
	errs     []error
	warnings []error
}

// jekyllFound is a page (col nil: dirRel and name) or a post, draft or collection document (rel,
// relative to the source folder) to read.
type jekyllFound struct {
	col          *jekyllCollection
	dirRel, name string
	rel          string
	draft        bool
}

// jekyllProblems are what reading one page or document found: warnings, and errors that may
// have kept it from being mapped.
type jekyllProblems struct{ warnings, errs []error }

// readAll reads every page and document found, on the workers of readSources, each only up to
// the end of its front matter, maps each, and keeps their Pages (by source) and problems (in the
// order they were found). For a site mapped again, a file whose reading was kept, mapped while the
// defaults' globs matched what they match now, keeps its Page (jekyllPlace).
func (w *jekyllWalk) readAll() {
	reads := make([]*jekyllRead, len(w.found))
	var k keeper[*jekyllRead]
	epoch := uint64(0)
	if w.r != nil {
		k = cacheKeeper[*jekyllRead]{w.r, &w.r.jekyll}
		epoch = w.r.jekyllEpoch
	}
	read := func(i int, head []byte, err error) *jekyllRead {
		f := w.found[i]
		rd := readJekyll(w.srcRel(f.path()), head, err)
		if f.draft && rd.ok {
			// A draft without a date is dated by its file (docDate).
			if fi, err := os.Stat(w.abs(f)); err == nil {
				rd.mtime = fi.ModTime()
			}
		}
		return rd
	}
	readSources(w.ctx, w.r, k, len(w.found), func(i int) string { return w.abs(w.found[i]) }, frontmatter.Jekyll, read, func(i int, rd *jekyllRead) {
		reads[i] = rd
		if w.r != nil && rd.placed && rd.epoch == epoch {
			return
		}
		pr := &jekyllProblems{}
		var pg Page
		var ok bool
		if f := w.found[i]; f.col == nil {
			pg, ok = w.page(f.dirRel, f.name, rd, pr)
		} else {
			pg, ok = w.document(f.col, f.rel, f.draft, rd, pr)
		}
		pl := jekyllPlace{placed: true, epoch: epoch}
		if ok {
			pl.page = &pg
		}
		if len(pr.warnings) > 0 || len(pr.errs) > 0 {
			pl.problems = pr
		}
		rd.jekyllPlace = pl
	})
	var order []int
	for i, rd := range reads {
		if pr := rd.problems; pr != nil {
			w.warnings = append(w.warnings, pr.warnings...)
			w.errs = append(w.errs, pr.errs...)
		}
		if rd.page != nil {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(reads[a].page.Source, reads[b].page.Source) })
	w.pages = make([]Page, len(order))
	for n, i := range order {
		// setPager gives the pager again.
		w.pages[n] = keptPage(reads[i].page, func(x *Extra) bool { return x.Pager != nil }, func(x *Extra) { x.Pager = nil })
	}
	if w.r != nil {
		// The next mapping copies each Page from the Map's, while it holds.
		for n, i := range order {
			reads[i].page = &w.pages[n]
		}
	}
}

// jekyllPlace is a page's or document's Page and the problems mapping it found. It depends on the
// file's path and reading, the configuration, and what the defaults' glob paths match (epoch,
// readings.jekyllEpoch), so a site mapped again keeps it while those hold.
type jekyllPlace struct {
	placed   bool
	epoch    uint64
	page     *Page // nil when it is not mapped
	problems *jekyllProblems
}

// path is the file's path relative to the source folder.
func (f jekyllFound) path() string {
	if f.col == nil {
		return path.Join(f.dirRel, f.name)
	}
	return f.rel
}

// abs is the file f on disk.
func (w *jekyllWalk) abs(f jekyllFound) string {
	return filepath.Join(w.source, filepath.FromSlash(f.path()))
}

// jekyllGen is Jekyll's generator: the pages of a site opened as Jekyll.
type jekyllGen struct{ s *Site }

func (g jekyllGen) mapSite(ctx context.Context, r *readings) (mapped, error) {
	s := g.s
	w := &jekyllWalk{ctx: ctx, s: s, c: s.jek, r: r, source: s.Content, dest: filepath.Clean(s.Output), seen: map[string]bool{}}
	w.warnings = append(w.warnings, w.c.warnings...)
	w.globs = w.c.defaultGlobs(w.source)
	if r != nil && !reflect.DeepEqual(w.globs, r.jekyllGlobs) {
		r.jekyllEpoch++ // the defaults may apply to other files: every file is mapped again
		r.jekyllGlobs = w.globs
	}
	w.readDirectories("")
	w.readIncluded()
	for _, col := range w.c.collections {
		if col.label != "posts" && col.label != "data" {
			w.readCollection(col)
		}
	}
	if err := ctx.Err(); err != nil {
		return mapped{}, err
	}
	w.readAll()
	if err := ctx.Err(); err != nil {
		return mapped{}, err
	}
	w.setPager()
	return mapped{pages: w.pages, warnings: w.warnings}, errors.Join(w.errs...)
}

// filter is EntryFilter#filter for entries (relative to dirRel, itself relative to the source).
func (w *jekyllWalk) filter(entries []string, dirRel string) []string {
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e, ".") {
			continue
		}
		included := w.globInclude(w.c.include, e) || w.globInclude(w.c.include, path.Base(e))
		if !included && w.excluded(path.Join(dirRel, e)) {
			continue
		}
		if !included && (jekyllSpecial(e) || jekyllSpecial(path.Base(e)) || strings.HasSuffix(e, "~")) {
			continue
		}
		out = append(out, e)
	}
	return out
}

func (w *jekyllWalk) excluded(rel string) bool {
	if w.excludes == nil {
		w.excludes = []string{}
		for _, p := range w.c.exclude {
			if !slices.Contains(w.c.include, p) {
				w.excludes = append(w.excludes, p)
			}
		}
	}
	return w.globInclude(w.excludes, rel)
}

// globInclude is EntryFilter#glob_include?: both sides are joined to the source folder, so a
// pattern matches by fnmatch, as a prefix, or as the folder itself with a trailing slash.
func (w *jekyllWalk) globInclude(patterns []string, entry string) bool {
	e := "/" + strings.TrimLeft(entry, "/")
	for _, p := range patterns {
		pp := "/" + strings.TrimLeft(p, "/")
		if rubyFnmatch(pp, e) || strings.HasPrefix(e, pp) || pp == e+"/" && w.isDir(entry) {
			return true
		}
	}
	return false
}

// isDir reports whether the entry (relative to the source folder) is a folder.
func (w *jekyllWalk) isDir(entry string) bool {
	fi, err := os.Stat(filepath.Join(w.source, filepath.FromSlash(entry)))
	return err == nil && fi.IsDir()
}

// readDirectories is Reader#read_directories; dirRel is "" for the source folder.
func (w *jekyllWalk) readDirectories(dirRel string) {
	base := filepath.Join(w.source, filepath.FromSlash(dirRel))
	ents, err := os.ReadDir(base)
	if err != nil {
		if dirRel == "" {
			w.errs = append(w.errs, err)
		}
		return
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		names = append(names, e.Name())
	}
	var dirs, pages []string
	for _, e := range w.filter(names, dirRel) {
		if w.ctx.Err() != nil {
			return // each file's first line is read (yamlHeader): none once the mapping is given up
		}
		p := filepath.Join(base, e)
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if fi.IsDir() {
			dirs = append(dirs, e)
		} else if w.yamlHeader(p) {
			pages = append(pages, e)
		}
	}
	w.readPosts(dirRel)
	for _, d := range dirs {
		if filepath.Clean(filepath.Join(base, d)) == w.dest {
			continue
		}
		w.readDirectories(path.Join(dirRel, d))
	}
	for _, name := range pages {
		w.findPage(dirRel, name)
	}
}

// readIncluded is Reader#read_included_excludes: included files read again from the top.
func (w *jekyllWalk) readIncluded() {
	for _, inc := range w.c.include {
		p := filepath.Join(w.source, filepath.FromSlash(inc))
		fi, err := os.Stat(p)
		if err != nil || fi.IsDir() || !w.yamlHeader(p) {
			continue
		}
		dir, name := path.Split(strings.TrimPrefix(path.Clean("/"+filepath.ToSlash(inc)), "/"))
		w.findPage(strings.TrimSuffix(dir, "/"), name)
	}
}

// srcRel is a source-relative path as Page.Source (relative to Site.Root).
func (w *jekyllWalk) srcRel(rel string) string {
	r, err := filepath.Rel(w.s.Root, filepath.Join(w.source, filepath.FromSlash(rel)))
	if err != nil {
		return rel
	}
	return filepath.ToSlash(r)
}

// jekyllInputs are a page's robots inputs: the matching defaults' first, then its own. A page that
// only one default gives inputs to shares that default's slice (clipped: nothing appends to it),
// so that the pages one default reaches hold one slice, compiled once.
func jekyllInputs(matched []jekyllDefault, own []rules.Input) []rules.Input {
	var in []rules.Input
	from := 0
	for _, d := range matched {
		if len(d.inputs) > 0 {
			in, from = d.inputs, from+1
		}
	}
	if from == 1 && len(own) == 0 {
		return slices.Clip(in)
	}
	in = nil
	for _, d := range matched {
		in = append(in, d.inputs...)
	}
	return append(in, own...)
}

// jekyllKeys are the robots keys of a map (a page's front matter, the values of a defaults scope)
// that replace an inherited key, one for each agent of a robots map. A key that says nothing
// replaces nothing: Jekyll keeps a default's value under a key with no value, as robotsmith does
// (and robotsmith keeps it too under an empty string or list, which Jekyll would put in its place).
func jekyllKeys(keys []frontmatter.RobotsKey) []rules.Source {
	var out []rules.Source
	for _, k := range keys {
		if !k.Empty {
			out = append(out, k.Source)
		}
	}
	return out
}

// jekyllClash reports whether the robots keys a and b (frontmatter.RobotsKey's Key, an input's) are
// the same value in Jekyll's merge of hashes (Utils.deep_merge_hashes): the same key, or one a
// robots map and the other a value of it or the value it would replace ("robots" and
// "robots.googlebot"). Two agents of a robots map are two values, merged key by key. Keys differ
// in case, as Ruby's hashes tell them apart.
func jekyllClash(a, b string) bool {
	ka, aa, _ := strings.Cut(a, ".")
	kb, ab, _ := strings.Cut(b, ".")
	return ka == kb && (aa == "" || ab == "" || aa == ab)
}

// jekyllInherit is a page's robots inputs: the matching defaults' first, then its own, with the
// inherited ones that Jekyll does not give the page replaced (SPEC §3.3). Jekyll merges the values
// of the defaults that apply (FrontmatterDefaults#all, in the order written: a scope with
// precedence over the one that had it so far is merged over the values so far, any other under
// them), then the page's front matter over those, hash by hash (jekyllClash); so an inherited value
// is replaced by the key merged over it. A page none of whose values are replaced has
// jekyllInputs's slice, shared with the other pages alike.
func jekyllInherit(matched []jekyllDefault, own []rules.Input, ownKeys []rules.Source) []rules.Input {
	keyed := 0
	for _, d := range matched {
		if len(d.keys) > 0 {
			keyed++
		}
	}
	if keyed == 0 || keyed == 1 && len(ownKeys) == 0 {
		return jekyllInputs(matched, own)
	}
	var (
		in       []rules.Input   // the inherited inputs so far
		held     []*rules.Source // the keys of the values merged so far that no other replaced
		old      *jekyllDefault  // the scope with precedence so far
		replaced bool
	)
	// over replaces the inputs of in that a key of by clashes with.
	over := func(in []rules.Input, by []*rules.Source) {
		for i := range in {
			for _, k := range by {
				if in[i].ReplacedBy == nil && jekyllClash(in[i].Source.Key, k.Key) {
					in[i].ReplacedBy, replaced = k, true
				}
			}
		}
	}
	ptrs := func(keys []rules.Source) []*rules.Source {
		out := make([]*rules.Source, len(keys))
		for i := range keys {
			out[i] = &keys[i]
		}
		return out
	}
	for i := range matched {
		d := &matched[i]
		keys := ptrs(d.keys)
		at := len(in)
		in = append(in, d.inputs...)
		if precedes(old, *d) {
			over(in[:at], keys)
			held = slices.DeleteFunc(held, func(h *rules.Source) bool {
				return slices.ContainsFunc(keys, func(k *rules.Source) bool { return jekyllClash(h.Key, k.Key) })
			})
			held = append(held, keys...)
			old = d
			continue
		}
		over(in[at:], held)
		for _, k := range keys {
			if !slices.ContainsFunc(held, func(h *rules.Source) bool { return jekyllClash(h.Key, k.Key) }) {
				held = append(held, k)
			}
		}
	}
	over(in, ptrs(ownKeys))
	if !replaced {
		return jekyllInputs(matched, own)
	}
	return append(in, own...)
}

// jekyllRead is what reading one page's or document's front matter produced (readJekyll), which
// a site mapped again keeps while the file does not change (Remap): the values of the keys
// mapping reads, its robots inputs, and its problems. The defaults are merged over it each time
// the site is mapped (jekyllWalk.merge): which apply can change with the files of the site.
type jekyllRead struct {
	jekyllPlace
	ok       bool           // the front matter could be parsed: the file is one of the site's
	noData   bool           // Jekyll's YAML reader refuses it: the file is built without its data
	fields   []jekyllField  // the keys of jekyllDataKeys it sets, not null
	own      []rules.Input  // its own robots inputs
	ownKeys  []rules.Source // the robots keys it sets (jekyllKeys)
	dateLine int            // the line of its date key, 0 when none
	mtime    time.Time      // a draft's modification time
	warnings []error
	errs     []error
}

// jekyllField is one front matter key a page sets.
type jekyllField struct {
	key string
	v   *frontmatter.Node
}

// jekyllDataKeys are the front matter keys that mapping a page or document reads: what a reading
// keeps of its front matter, so that what a site mapped again keeps of a page is small. A key that
// mapping comes to read goes here.
var jekyllDataKeys = []string{"published", "permalink", "date", "slug", "categories", "category"}

// readJekyll parses a file's front matter (head: the file up to its end, or err why it could not
// be read) once, and keeps what mapping and deciding read of it.
func readJekyll(srcRel string, head []byte, err error) *jekyllRead {
	if err != nil {
		return &jekyllRead{errs: []error{err}}
	}
	doc, err := frontmatter.Parse(srcRel, head, frontmatter.Jekyll)
	if err != nil {
		return &jekyllRead{errs: []error{err}}
	}
	rd := &jekyllRead{ok: true, noData: doc.Unreadable}
	own, err := doc.Robots()
	if err != nil {
		rd.errs = append(rd.errs, err)
	}
	rd.own = own
	var buf [8]frontmatter.RobotsKey
	rd.ownKeys = jekyllKeys(doc.RobotsKeys(buf[:0], doc.Root, rules.FromFrontMatter))
	rd.warnings = doc.Warnings // Robots' too
	if doc.Root != nil {
		for _, k := range doc.Root.Keys {
			if !k.Value.IsNull() && slices.Contains(jekyllDataKeys, k.Name) {
				rd.fields = append(rd.fields, jekyllField{k.Name, k.Value})
			}
		}
		if k, ok := doc.Root.Key("date"); ok {
			rd.dateLine = doc.Line(k.Off)
		}
	}
	return rd
}

// merge is a file's data: its front matter (rd) merged over the defaults that apply to it (at
// defaultsRel, of type typ), and its robots inputs: the matching defaults' first, then the front
// matter's own. ok is false when the file's front matter could not be read.
func (w *jekyllWalk) merge(rd *jekyllRead, defaultsRel, typ string, pr *jekyllProblems) (data jekyllData, in []rules.Input, ok bool) {
	pr.errs = append(pr.errs, rd.errs...)
	if !rd.ok {
		return nil, nil, false
	}
	pr.warnings = append(pr.warnings, rd.warnings...)
	matched, data := w.c.jekyllMatched(w.globs, defaultsRel, typ)
	in = jekyllInherit(matched, rd.own, rd.ownKeys)
	var fmc *frontmatter.Node
	for _, f := range rd.fields {
		data[f.key] = f.v
		if f.key == "categories" {
			fmc = f.v
		}
	}
	// Categories union defaults' and front matter's (Document#merge_categories!).
	if fmc != nil {
		if dc, ok := mergedDefault(matched, "categories"); ok && dc.Kind == frontmatter.KindList {
			var union []string
			union = appendUnique(union, jekyllData{"c": dc}.list("c", true)...)
			union = appendUnique(union, jekyllData{"c": fmc}.list("c", true)...)
			u := &frontmatter.Node{Kind: frontmatter.KindList}
			for _, v := range union {
				u.List = append(u.List, &frontmatter.Node{Kind: frontmatter.KindString, Text: v})
			}
			data["categories"] = u
		}
	}
	return data, in, true
}

func mergedDefault(matched []jekyllDefault, key string) (*frontmatter.Node, bool) {
	var out *frontmatter.Node
	for _, d := range matched {
		if v := d.values.Get(key); v != nil {
			out = v
		}
	}
	return out, out != nil
}

// readPosts is Reader#retrieve_posts for one folder: its _posts (and _drafts) at any depth.
func (w *jekyllWalk) readPosts(dirRel string) {
	if cd := w.c.collectionsDir; cd != "" && !strings.HasPrefix("/"+dirRel, "/"+cd) {
		return
	}
	var posts *jekyllCollection
	for _, col := range w.c.collections {
		if col.label == "posts" {
			posts = col
		}
	}
	for _, magic := range []string{"_posts", "_drafts"} {
		magicRel := path.Join(dirRel, magic)
		for _, e := range w.entries(magicRel, false) {
			if magic == "_posts" && !postNameRE.MatchString(e) {
				continue
			}
			if magic == "_drafts" && !draftNameRE.MatchString(e) {
				continue
			}
			w.findDocument(posts, path.Join(magicRel, e), magic == "_drafts")
		}
	}
}

var (
	postNameRE  = regexp.MustCompile(`^(?:.+/)*?(\d{2,4}-\d{1,2}-\d{1,2})-([^/]*)(\.[^.]+)$`)
	draftNameRE = regexp.MustCompile(`^(?:.+/)*(.*)(\.[^.]+)$`)
)

// entries is Reader#get_entries (Dir["**/*"], no dot files) or, with dots, the Collection#entries
// glob; then the entry filter; folders dropped.
func (w *jekyllWalk) entries(dirRel string, dots bool) []string {
	base := filepath.Join(w.source, filepath.FromSlash(dirRel))
	var all []string
	filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == base {
			return nil
		}
		if !dots && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		r, _ := filepath.Rel(base, p)
		if !d.IsDir() {
			all = append(all, filepath.ToSlash(r))
		} else if d.Type()&fs.ModeSymlink != 0 {
			return filepath.SkipDir
		}
		return nil
	})
	return w.filter(all, dirRel)
}

// readCollection is Collection#read: documents are files with front matter.
func (w *jekyllWalk) readCollection(col *jekyllCollection) {
	dir := w.c.collectionDir(col)
	for _, e := range w.entriesCollection(dir, "_"+col.label) {
		abs := filepath.Join(w.source, filepath.FromSlash(path.Join(dir, e)))
		if !w.yamlHeader(abs) {
			continue
		}
		w.findDocument(col, path.Join(dir, e), false)
	}
}

// entriesCollection filters a collection's entries as Collection#filtered_entries does: the
// entry filter's base is the collection's own folder name, without collections_dir.
func (w *jekyllWalk) entriesCollection(dir, label string) []string {
	base := filepath.Join(w.source, filepath.FromSlash(dir))
	var all []string
	filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == base || d.IsDir() {
			return nil
		}
		r, _ := filepath.Rel(base, p)
		all = append(all, filepath.ToSlash(r))
		return nil
	})
	return w.filter(all, label)
}
