package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/internal/safefs"
	"github.com/robotsmith/robotsmith/rules"
)

// record is what a run keeps of one output file: a few words, whatever the file's size. The
// decision is shared with every file decided alike (rules.Memo), so a site of 100,000 pages keeps
// 100,000 records and a handful of verdicts. What the step learns in its one scan of a page beside
// the decision, its canonical and hreflang links, is a span of the run's link table (links.go).
// With the run's robots.txt and sitemaps (model.go) this is the file's indexability record.
type record struct {
	path    string         // "/" + the slash path relative to the output folder: "/blog/a/index.html"
	verdict *rules.Verdict // the file's decision; nil until the step ran, and for a page it could not read
	links   uint32         // the page's first link in the run's link table
	// tagLine is the line of the page's first robots tag that says noindex (as explain names its
	// source), 0 for none: the page's side of a finding about its noindex.
	tagLine int32
	nlinks  uint16 // how many links the page has there
	flags   recordFlags
	// page is 1 + the index in job.info of the page the file takes its decision from, 0 for none;
	// set by letPagesGo (until then job.pageOf asks the site's map).
	page uint32
}

type recordFlags uint8

const (
	isHTML    recordFlags = 1 << iota // a .html or .htm file
	isSkipped                         // an .html file left byte-identical: not an HTML document, or a link
	isChanged                         // build wrote it, or would (check)
	isLink                            // a symbolic link to a file of the output, decided as a file, never opened
)

func (f *record) rel() string   { return f.path[1:] }
func (f *record) html() bool    { return f.flags&isHTML != 0 }
func (f *record) skipped() bool { return f.flags&isSkipped != 0 }
func (f *record) changed() bool { return f.flags&isChanged != 0 }
func (f *record) link() bool    { return f.flags&isLink != 0 }

// url is the URL path the file is served at (URLPath), without a copy.
func (f *record) url() string {
	if strings.HasSuffix(f.path, "/index.html") {
		return f.path[:len(f.path)-len("index.html")]
	}
	return f.path
}

// newRecord describes the output file at path ("/" and the slash path relative to the output
// folder).
func newRecord(p string) record {
	r := record{path: p}
	if isHTMLName(p) {
		r.flags |= isHTML
	}
	return r
}

// isHTMLName reports whether a file is a page by its name: .html or .htm.
func isHTMLName(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return ext == ".html" || ext == ".htm"
}

// hostFiles are files that hosts read as configuration and never serve.
var hostFiles = map[string]bool{"_headers": true, "_redirects": true, "_routes.json": true, "_worker.js": true}

// walk lists the output's files, sorted by path, and warns of every entry it leaves out. It reads
// folders only: no file is opened, and only links, other kinds of file and a file named like the
// configuration are stat'ed. Every record's path is a part of a string holding many (pathChunks): a
// file costs its record and its path's bytes, and no allocation of its own.
//
// What a walk takes (SPEC §10): regular files; a link to a regular file inside the output (kept a
// link, decided by its own path as a file, never opened: its target is processed as itself). What
// it leaves out, each with a warning: a link that leads outside the output, to nothing or round in
// a loop; a link to a folder (never followed: the files of the folder it leads to are decided
// there); FIFOs, sockets and devices (never opened). Silently: the hosts' own files, robotsmith's
// configuration, and robotsmith's own temporary files (safefs.Own), which a build removes as
// leftovers of an interrupted run.
func (j *job) walk() ([]record, []string, error) {
	return j.walkContext(context.Background())
}

// walkContext is walk, stopped once ctx ends (SIGINT, SIGTERM), with ctx's error: a large output
// took seconds to list on a busy machine.
func (j *job) walkContext(ctx context.Context) ([]record, []string, error) {
	root := filepath.Clean(j.outDir)
	var (
		paths    pathChunks
		files    []record
		flags    []recordFlags
		warnings []string
		left     int // robotsmith's own files left in check
	)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel := p // WalkDir(".") gives paths without "./"
		if root != "." {
			rel = strings.TrimPrefix(strings.TrimPrefix(p, root), string(filepath.Separator))
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			return nil
		}
		if safefs.Own(d.Name()) {
			if j.tx == nil {
				left++
				return nil
			}
			if err := j.tx.RemoveLeftover(rel); err != nil {
				return err
			}
			warnings = append(warnings, fmt.Sprintf("%s: removed, a temporary file that an interrupted robotsmith build left", j.outName(rel)))
			return nil
		}
		fl, warning, ok := j.listed(rel, d)
		if warning != "" {
			warnings = append(warnings, warning)
		}
		if !ok {
			return nil
		}
		paths.add(rel)
		flags = append(flags, fl)
		return nil
	})
	if left > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: %s of an interrupted or running robotsmith build (the next build removes them)",
			j.site.Output, Plural(left, "temporary file")))
	}
	files = make([]record, len(flags))
	paths.each(func(i int, p string) {
		files[i] = newRecord(p)
		files[i].flags |= flags[i]
	})
	slices.SortFunc(files, func(a, b record) int { return strings.Compare(a.path, b.path) })
	return files, warnings, err
}

// pathChunks holds the walk's paths, each "/" and the slash path, in strings of about 64 KiB: one
// allocation for many paths, and never a copy of them all (a single growing buffer would hold up to
// twice the paths while it grows, and once more when made a string).
type pathChunks struct {
	chunks []string // the chunks filled
	starts []int    // the index of the first path of each chunk
	buf    []byte   // the chunk being filled, reused from chunk to chunk
	ends   []int32  // where each path ends in its chunk
}

const pathChunkSize = 64 << 10

func (c *pathChunks) add(rel string) {
	if len(c.buf) > 0 && len(c.buf)+1+len(rel) > pathChunkSize {
		c.flush()
	}
	if len(c.buf) == 0 {
		c.starts = append(c.starts, len(c.ends))
		if c.buf == nil {
			c.buf = make([]byte, 0, pathChunkSize)
		}
	}
	c.buf = append(c.buf, '/')
	c.buf = append(c.buf, rel...)
	c.ends = append(c.ends, int32(len(c.buf)))
}

func (c *pathChunks) flush() {
	c.chunks = append(c.chunks, string(c.buf))
	c.buf = c.buf[:0]
}

// each calls fn with every path added, in order, and its index.
func (c *pathChunks) each(fn func(i int, p string)) {
	if len(c.buf) > 0 {
		c.flush()
	}
	for k, chunk := range c.chunks {
		end := len(c.ends)
		if k+1 < len(c.starts) {
			end = c.starts[k+1]
		}
		from := 0
		for i := c.starts[k]; i < end; i++ {
			fn(i, chunk[from:c.ends[i]])
			from = int(c.ends[i])
		}
	}
}

// listed says whether the output entry rel (d: the entry itself, never what a link leads to) is
// one of the site's files, which gets a record, with its flags, and the warning to give when it is
// left out for what it is (classify). Folders, the hosts' own files, robotsmith's configuration and
// robotsmith's own files (safefs.Own) are left out silently. The walk and watch mode (Live, for a
// file the generator writes) both ask here.
func (j *job) listed(rel string, d fs.DirEntry) (recordFlags, string, bool) {
	if d.IsDir() || safefs.Own(d.Name()) || hostFiles[rel] {
		return 0, "", false
	}
	fl, warning, ok := j.classify(rel, d.Type())
	if !ok || j.isConfig(rel, d) {
		return 0, warning, false
	}
	return fl, warning, true
}

// classify says whether the output entry rel, of type typ (fs.DirEntry.Type: the entry itself,
// never what a link leads to), is a file to decide, with what flags, and the warning to give when it
// is not (or is, but as a link). It is the one place that knows what each kind of entry means, for
// the walk and for explain alike.
func (j *job) classify(rel string, typ fs.FileMode) (recordFlags, string, bool) {
	switch {
	case typ.IsRegular():
		return 0, "", true
	case typ&fs.ModeSymlink == 0:
		return 0, fmt.Sprintf("%s: %s: skipped, never read", j.outName(rel), safefs.Kind(typ)), false
	}
	target, err := safefs.ResolveLink(j.outDir, rel)
	if err != nil {
		return 0, fmt.Sprintf("%s: %s: skipped", j.outName(rel), linkProblem(err)), false
	}
	fi, err := j.root.Stat(target)
	switch {
	case err != nil:
		return 0, fmt.Sprintf("%s: a symbolic link to %s: %v: skipped", j.outName(rel), target, err), false
	case fi.IsDir():
		return 0, fmt.Sprintf("%s: a symbolic link to the folder %s: not followed (its files are decided there)", j.outName(rel), target), false
	case !fi.Mode().IsRegular():
		return 0, fmt.Sprintf("%s: a symbolic link to %s, %s: skipped, never read", j.outName(rel), target, safefs.Kind(fi.Mode())), false
	}
	// A link to a file of the output: its target is processed as itself, and the link, kept a link,
	// is decided by its own path as a file (X-Robots-Tag in _headers): the host serves the target's
	// bytes at the link's URL too, so a page's tags cannot differ between the two.
	fl := isLink
	if isHTMLName(rel) {
		fl |= isSkipped
	}
	return fl, "", true
}

// linkProblem says why a symbolic link of the output is not followed.
func linkProblem(err error) string {
	switch {
	case errors.Is(err, safefs.ErrOutside):
		return "a symbolic link that leads outside the output folder (robotsmith never reads or writes there)"
	case errors.Is(err, fs.ErrNotExist):
		return "a symbolic link to nothing"
	case errors.Is(err, syscall.ELOOP):
		return "a symbolic link in a loop"
	}
	return fmt.Sprintf("a symbolic link robotsmith cannot follow (%v)", err)
}

// isConfig reports whether the output file rel, a regular file, is robotsmith's configuration: the
// file itself, when the site is a plain folder (`robotsmith build public/`), or a copy of it
// (Jekyll copies every file of the site that its `exclude:` does not name into _site/). Either is
// robotsmith's input, not a page or file of the site: it is not decided and gets no _headers rule.
// Only a file with the configuration's name and size is compared, byte for byte.
func (j *job) isConfig(rel string, d fs.DirEntry) bool {
	if j.cfgInfo == nil || d.Name() != j.cfgInfo.Name() || !d.Type().IsRegular() {
		return false
	}
	fi, err := d.Info()
	if err != nil || fi.Size() != j.cfgInfo.Size() {
		return false
	}
	if os.SameFile(fi, j.cfgInfo) {
		return true
	}
	copied, _, err := j.readFile(rel, nil)
	if err != nil {
		return false
	}
	orig, err := safefs.ReadFile(j.cfg.File, config.MaxSize)
	return err == nil && bytes.Equal(copied, orig)
}

// has reports whether the output holds rel (slash path relative to the output folder), by the walk.
func has(files []record, rel string) bool {
	return indexOf(files, rel) >= 0
}

// URLPath is the URL path a host serves an output file at: posts/a/index.html is /posts/a/,
// files/x.pdf is /files/x.pdf (SPEC §2).
func URLPath(rel string) string {
	u := "/" + strings.TrimPrefix(rel, "/")
	if path.Base(u) == "index.html" {
		return strings.TrimSuffix(u, "index.html")
	}
	return u
}

// outName names an output file the way messages show it: relative to the working directory.
func (j *job) outName(rel string) string {
	return filepath.ToSlash(filepath.Join(j.site.Output, filepath.FromSlash(rel)))
}
