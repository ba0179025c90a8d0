package pipeline

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/rules"
)

// record is what a run keeps of one output file: a few words, whatever the file's size. The
// decision is shared with every file decided alike (rules.Memo), so a site of 100,000 pages keeps
// 100,000 records and a handful of verdicts. Room for more of what the step learns in its one scan
// (a page's canonical and hreflang targets) is here, beside the verdict.
type record struct {
	path    string         // "/" + the slash path relative to the output folder: "/blog/a/index.html"
	verdict *rules.Verdict // the file's decision; nil until the step ran, and for a page it could not read
	mode    fs.FileMode    // a page's mode, read when the step opens it; 0 for files never opened
	flags   recordFlags
}

type recordFlags uint8

const (
	isHTML    recordFlags = 1 << iota // a .html or .htm file
	isSkipped                         // an .html file that is not an HTML document, left byte-identical
	isChanged                         // build wrote it, or would (check)
)

func (f *record) rel() string   { return f.path[1:] }
func (f *record) html() bool    { return f.flags&isHTML != 0 }
func (f *record) skipped() bool { return f.flags&isSkipped != 0 }
func (f *record) changed() bool { return f.flags&isChanged != 0 }

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
	if ext := strings.ToLower(path.Ext(p)); ext == ".html" || ext == ".htm" {
		r.flags |= isHTML
	}
	return r
}

// hostFiles are files that hosts read as configuration and never serve.
var hostFiles = map[string]bool{"_headers": true, "_redirects": true, "_routes.json": true, "_worker.js": true}

const tempPrefix = ".robotsmith-"

// walk lists the output's files, sorted by path. It reads folders only: no file is opened or
// stat'ed here. Every record's path is a part of one string holding them all: a file costs its
// record and its path's bytes, and no allocation of its own.
func (j *job) walk() ([]record, error) {
	root := filepath.Clean(j.site.Output)
	var (
		all   strings.Builder
		files []record
		ends  []int // where each file's path ends in all
	)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel := p // WalkDir(".") gives paths without "./"
		if root != "." {
			rel = strings.TrimPrefix(strings.TrimPrefix(p, root), string(filepath.Separator))
		}
		rel = filepath.ToSlash(rel)
		if !j.listed(p, rel, d) {
			return nil
		}
		all.WriteByte('/')
		all.WriteString(rel)
		ends = append(ends, all.Len())
		return nil
	})
	paths := strings.Clone(all.String()) // exactly as long as the paths
	start := 0
	files = make([]record, len(ends))
	for i, end := range ends {
		files[i] = newRecord(paths[start:end])
		start = end
	}
	slices.SortFunc(files, func(a, b record) int { return strings.Compare(a.path, b.path) })
	return files, err
}

// listed reports whether the entry d at p in the output (rel: its slash path relative to the
// output folder) is one of the site's files, which get a record: not a folder, not one of
// robotsmith's temporary files, not a host's configuration file, not robotsmith's configuration.
// The walk and watch mode (Live) both ask here.
func (j *job) listed(p, rel string, d fs.DirEntry) bool {
	return !d.IsDir() && !strings.HasPrefix(d.Name(), tempPrefix) && !hostFiles[rel] && !j.isConfig(p)
}

// isConfig reports whether p is robotsmith's configuration file, which stands in the output folder
// when the site is a plain folder (`robotsmith build public/`): it is not one of the site's files.
func (j *job) isConfig(p string) bool {
	if j.cfgInfo == nil || filepath.Base(p) != j.cfgInfo.Name() {
		return false
	}
	fi, err := os.Stat(p)
	return err == nil && os.SameFile(fi, j.cfgInfo)
}

// has reports whether the output holds rel (slash path relative to the output folder), by the walk.
func has(files []record, rel string) bool {
	_, ok := slices.BinarySearchFunc(files, rel, func(r record, rel string) int { return strings.Compare(r.path[1:], rel) })
	return ok
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
