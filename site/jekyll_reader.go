package site

// Jekyll's reader: which files are pages, posts and documents, and their front matter merged over
// the defaults (reader.rb, entry_filter.rb, post_reader.rb, collection.rb).

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

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
func hasYAMLHeader(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 512)
	n, _ := f.Read(buf)
	buf = buf[:n]
	i := bytes.IndexByte(buf, '\n')
	if i < 0 || !bytes.HasPrefix(buf, []byte("---")) {
		return false
	}
	return len(bytes.TrimRight(buf[3:i], " \t\r\f\v")) == 0
}

// jekyllWalk collects pages as Reader#read does: it finds the pages and documents, then reads
// them all at once (readAll).
type jekyllWalk struct {
	s        *Site
	c        *jekyllConfig
	source   string              // the source folder
	dest     string              // the destination folder, cleaned
	globs    map[string][]string // what the defaults' glob paths match (jekyllConfig.defaultGlobs)
	found    []jekyllFound       // the pages and documents to read, in the order Jekyll reads them
	pages    []Page
	seen     map[string]bool // page sources already found
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

// readAll reads every page and document found, on the workers of readHeads, each only up to the
// end of its front matter, and keeps their Pages and problems in the order they were found.
func (w *jekyllWalk) readAll() {
	pages := make([]Page, len(w.found))
	ok := make([]bool, len(w.found))
	probs := make([]*jekyllProblems, len(w.found))
	abs := func(i int) string {
		f := w.found[i]
		if f.col == nil {
			return filepath.Join(w.source, filepath.FromSlash(path.Join(f.dirRel, f.name)))
		}
		return filepath.Join(w.source, filepath.FromSlash(f.rel))
	}
	readHeads(len(w.found), abs, frontmatter.Jekyll, func(i int, head []byte, err error) {
		pr := &jekyllProblems{}
		if f := w.found[i]; f.col == nil {
			pages[i], ok[i] = w.page(f.dirRel, f.name, head, err, pr)
		} else {
			pages[i], ok[i] = w.document(f.col, f.rel, f.draft, head, err, pr)
		}
		if len(pr.warnings) > 0 || len(pr.errs) > 0 {
			probs[i] = pr
		}
	})
	w.pages = pages[:0]
	for i := range pages {
		if pr := probs[i]; pr != nil {
			w.warnings = append(w.warnings, pr.warnings...)
			w.errs = append(w.errs, pr.errs...)
		}
		if ok[i] {
			w.pages = append(w.pages, pages[i])
		}
	}
	clear(pages[len(w.pages):])
}

// jekyllGen is Jekyll's generator: the pages of a site opened as Jekyll.
type jekyllGen struct{ s *Site }

func (g jekyllGen) mapSite() (mapped, error) {
	s := g.s
	w := &jekyllWalk{s: s, c: s.jek, source: s.Content, dest: filepath.Clean(s.Output), seen: map[string]bool{}}
	w.warnings = append(w.warnings, w.c.warnings...)
	w.globs = w.c.defaultGlobs(w.source)
	w.readDirectories("")
	w.readIncluded()
	for _, col := range w.c.collections {
		if col.label != "posts" && col.label != "data" {
			w.readCollection(col)
		}
	}
	w.readAll()
	sort.SliceStable(w.pages, func(i, j int) bool { return w.pages[i].Source < w.pages[j].Source })
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
	var pats []string
	for _, p := range w.c.exclude {
		inc := false
		for _, q := range w.c.include {
			if p == q {
				inc = true
			}
		}
		if !inc {
			pats = append(pats, p)
		}
	}
	return w.globInclude(pats, rel)
}

// globInclude is EntryFilter#glob_include?: both sides are joined to the source folder, so a
// pattern matches by fnmatch, as a prefix, or as the folder itself with a trailing slash.
func (w *jekyllWalk) globInclude(patterns []string, entry string) bool {
	e := "/" + strings.TrimLeft(entry, "/")
	isDir := false
	if fi, err := os.Stat(filepath.Join(w.source, filepath.FromSlash(entry))); err == nil && fi.IsDir() {
		isDir = true
	}
	for _, p := range patterns {
		pp := "/" + strings.TrimLeft(p, "/")
		if rubyFnmatch(pp, e) || strings.HasPrefix(e, pp) || (isDir && pp == e+"/") {
			return true
		}
	}
	return false
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
		p := filepath.Join(base, e)
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if fi.IsDir() {
			dirs = append(dirs, e)
		} else if hasYAMLHeader(p) {
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
		if err != nil || fi.IsDir() || !hasYAMLHeader(p) {
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

// read loads a file's front matter (once; head is the file up to its end, or err why it could not
// be read) merged over its defaults, and its robots inputs: the matching defaults' first, then the
// front matter's own.
func (w *jekyllWalk) read(head []byte, err error, srcRel, defaultsRel, typ string, pr *jekyllProblems) (data jekyllData, in []rules.Input, dateLine int, ok bool) {
	if err != nil {
		pr.errs = append(pr.errs, err)
		return nil, nil, 0, false
	}
	doc, err := frontmatter.Parse(srcRel, head, frontmatter.Jekyll)
	if err != nil {
		pr.errs = append(pr.errs, err)
		return nil, nil, 0, false
	}
	matched, data := w.c.jekyllMatched(w.globs, defaultsRel, typ)
	own, err := doc.Robots()
	if err != nil {
		pr.errs = append(pr.errs, err)
	}
	pr.warnings = append(pr.warnings, doc.Warnings...) // Robots' too
	in = jekyllInputs(matched, own)
	if doc.Root != nil {
		for _, k := range doc.Root.Keys {
			if !k.Value.IsNull() {
				data[k.Name] = k.Value
			}
		}
		if k, ok := doc.Root.Key("date"); ok {
			dateLine = doc.Line(k.Off)
		}
	}
	// Categories union defaults' and front matter's (Document#merge_categories!).
	if fmc := doc.Root.Get("categories"); !fmc.IsNull() {
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
	return data, in, dateLine, true
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
	dir := path.Join(w.c.collectionsDir, "_"+col.label)
	for _, e := range w.entriesCollection(dir, "_"+col.label) {
		abs := filepath.Join(w.source, filepath.FromSlash(path.Join(dir, e)))
		if !hasYAMLHeader(abs) {
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
