package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/robotsmith/robotsmith/headers"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/internal/safefs"
	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/watch"
)

// How a run reads and writes the output folder. Every read of an output file goes through readFile
// or readSiteFile, every write through writeFile (or createFile), and a build's writes are put in
// place by commit, all of them or none: internal/safefs does the work (its package doc has the
// design).

// maxFile is the most robotsmith reads of any one file of the output (a page, _headers, a sitemap,
// robots.txt): a larger file is an error naming it, found from its size before a byte is read, so
// no file (a link to /dev/zero is never opened at all) can take memory out of proportion. Real
// pages are kilobytes; search engines read at most the first 15 MB of one.
const maxFile = 128 << 20

// place is where the output folder is: as the user gave it, and as every read and write names it.
type place struct {
	// name is the output folder as the user gave it (site.Site.Output): messages name its files
	// under it (plan.OutName).
	name string
	// dir is the output folder as every read and write of it names it: name with the symbolic
	// links on its way resolved, once (follow).
	dir      string
	symlinks []Symlink // the links followed to the site's folder and to dir (Report.Symlinks)
}

// follow resolves the symbolic links on the way to the site's folder root and to the output folder
// out, once (SPEC §1: a SITE or an output folder that is a link is followed to the folder it names,
// and the summary says so). Every read and write of the output then names the folder the links
// led to (os.Root, the walk, the transaction, watch mode's watcher), so that a link changed during
// the run cannot move it, and below it the walk's rule holds unchanged: no link there is followed
// out of it (SPEC §10). Before, the walk stopped at a linked output folder and found no file at
// all. An output folder that is not there yet (a link to nothing, a folder the generator makes) is
// resolved by check, once it is.
func follow(root, out string) place {
	pl := place{name: out, dir: out}
	rootTo, rootLinked := followed(root)
	if rootLinked {
		pl.symlinks = append(pl.symlinks, Symlink{filepath.ToSlash(root), filepath.ToSlash(rootTo)})
	}
	to, linked := followed(out)
	if !linked {
		return pl
	}
	pl.dir = to
	// An output folder in a linked site's folder (the folder itself, with no generator) is said by
	// the site's link.
	if rootLinked {
		rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(out))
		if err == nil && filepath.IsLocal(rel) && filepath.Join(rootTo, rel) == to {
			return pl
		}
	}
	pl.symlinks = append(pl.symlinks, Symlink{filepath.ToSlash(out), filepath.ToSlash(to)})
	return pl
}

// followed is p with every symbolic link on its way resolved, and whether that is another path
// than p's own; p itself (false) when it cannot be resolved (it is not there).
func followed(p string) (string, bool) {
	to, err := filepath.EvalSymlinks(p)
	if err != nil || to == filepath.Clean(p) {
		return p, false
	}
	return to, true
}

// placeOf is where the plan's output folder is (follow).
func placeOf(p *plan.Plan) place { return follow(p.Options().Root, p.Site().Output) }

// check fails with ErrNoOutput when the output folder is not there. An output folder that was not
// there when the run began (the generator made it, or the folder a link names) has its links
// followed now (follow).
func (pl place) check(p *plan.Plan, runsCommand bool) (place, error) {
	if pl.dir == pl.name {
		pl = placeOf(p)
	}
	if fi, err := os.Stat(pl.dir); err != nil || !fi.IsDir() {
		hint := ""
		if p.Config().Command != "" && !runsCommand {
			hint = " (run `robotsmith build` or the generator first)"
		}
		return pl, problem.Wrap(0, problem.Position{File: pl.name}, fmt.Errorf("%w%s", ErrNoOutput, hint))
	}
	return pl, nil
}

// output is a run's hold on the output folder, from openOutput to close: every read and write of
// it goes through here, a build's writes in one transaction.
type output struct {
	p *plan.Plan // the files' names in messages; the configuration, which is no file of the site
	place
	root   *os.Root       // the output folder: every read and write of it goes through here
	folder *safefs.Folder // root, to open its files for reading
	tx     *safefs.Tx     // build: the transaction that replaces the output's changed files; nil in check
	// own, in watch mode, stamps the content of each write, so that the watcher does not report
	// robotsmith's own writes back; nil otherwise.
	own *ownWrites
	// site, once a host's file of the site's own folder is read (vercel.json, firebase.json), is
	// the run's hold on that folder (hostfiles.go); nil until then.
	site *siteFiles
	// robots is robots.txt as the run leaves it, read and parsed when the folder is opened
	// (robots.go).
	robots *robotsTxt
	// warnings are what opening found, each once: a killed run's transaction finished or undone,
	// a robots.txt that is not a file.
	warnings []problem.Problem
}

// openOutput opens the output folder at pl for the plan p: every read and write of it goes through
// out.root, a build's writes (write) through a transaction (which first finishes or undoes a
// killed run's), and robots.txt is read once. On an error the folder is closed again, and out
// holds what opening found (its warnings). Watch mode opens it this way for each batch, and closes
// it after.
func openOutput(ctx context.Context, p *plan.Plan, pl place, write bool) (out *output, err error) {
	out = &output{p: p, place: pl}
	if out.root, err = os.OpenRoot(pl.dir); err != nil {
		return out, err
	}
	out.folder = safefs.NewFolder(out.root)
	if write {
		tx, err := safefs.Begin(ctx, pl.dir)
		if err != nil {
			out.close()
			return out, recoveryError(pl.name, err)
		}
		out.tx = tx
		if w := out.recovered(tx.Recovered); w != nil {
			out.warnings = append(out.warnings, *w)
		}
	}
	if out.robots, err = out.readRobotsTxt(); err != nil {
		out.close()
		return out, err
	}
	return out, nil
}

// recover finishes or undoes a build that was killed in the output folder at pl, if it is there,
// before anything reads or writes the output, even the generator: no temporary file of it is
// left, and every file is whole (SPEC §10). It returns what it found, as a warning (nil for
// nothing).
func recoverOutput(ctx context.Context, pl place) (*problem.Problem, error) {
	fi, err := os.Stat(pl.dir)
	if err != nil || !fi.IsDir() {
		return nil, nil
	}
	rec, err := safefs.Recover(ctx, pl.dir)
	if err != nil {
		return nil, recoveryError(pl.name, err)
	}
	return recovered(pl.name, rec), nil
}

// recoveryError is an error from locking the output folder or recovering an interrupted build in
// it, named as messages name it: a journal robotsmith cannot read names itself, with its line.
func recoveryError(output string, err error) error {
	var je *safefs.JournalError
	if errors.As(err, &je) || errors.Is(err, context.Canceled) {
		return err
	}
	return problem.Wrap(0, problem.Position{File: output}, fmt.Errorf("recovering an interrupted robotsmith build: %w", err))
}

// recovered is the warning for what safefs found of an interrupted build in the output folder
// name and undid or finished, nil for nothing.
func recovered(name string, r safefs.Recovery) *problem.Problem {
	if !r.Any() {
		return nil
	}
	return problem.New(problem.BuildRecovered, problem.Position{File: name}, r.String())
}

func (out *output) recovered(r safefs.Recovery) *problem.Problem { return recovered(out.name, r) }

// runCommand runs the configured generator command in the site's root through the shell, as a
// Netlify or Cloudflare Pages build command is run.
func runCommand(ctx context.Context, root, command string, w io.Writer) error {
	if w == nil {
		w = io.Discard
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = root
	cmd.Stdout = w
	cmd.Stderr = w
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCommand, command, err)
	}
	return nil
}

// outName names the output file rel the way messages show it (plan.OutName).
func (out *output) outName(rel string) string { return out.p.OutName(rel) }

// outFile is the output file rel (a slash path relative to the output folder) as a path to open.
func (out *output) outFile(rel string) string {
	return filepath.Join(out.dir, filepath.FromSlash(rel))
}

// readFile reads the output file rel (a slash path relative to the output folder) into buf, grown
// as needed and returned for the next file's read: a regular file, never through a symbolic link
// (the walk decides what a link means), at most maxFile bytes. fi is the file as opened, which
// writeFile needs to replace it.
func (out *output) readFile(rel string, buf []byte) (data []byte, fi fs.FileInfo, err error) {
	data, fi, err = out.folder.ReadFile(rel, buf, maxFile)
	if err != nil {
		return data, nil, out.fileError(rel, err)
	}
	return data, fi, nil
}

// fileError names the output file rel in err as messages name output files.
func (out *output) fileError(rel string, err error) error {
	var pe *fs.PathError
	var se *safefs.SizeError
	switch {
	case errors.As(err, &se):
		se.Name = out.outName(rel)
		return se
	case errors.As(err, &pe):
		return &fs.PathError{Op: pe.Op, Path: out.outName(rel), Err: pe.Err}
	}
	code := problem.CodeOf(err)
	if code == 0 {
		code = problem.IOError
	}
	return problem.Wrap(code, problem.Position{File: out.outName(rel)}, err)
}

// siteFile is a file of the output's that robotsmith reads whole and may rewrite: _headers,
// robots.txt, a sitemap.
type siteFile struct {
	rel  string      // the file to read and write: the name asked for, or the file a link of that name leads to
	data []byte      // its bytes; nil when there is no such file
	info fs.FileInfo // the file as read, for writeFile; nil when there is none (writing creates it)
	// skip, when not nil, is why the file can be neither read nor written, as a warning: a link
	// that leads outside the output or to nothing, a FIFO, a device.
	skip *problem.Problem
}

// readSiteFile reads the site-level file rel (a slash path relative to the output folder). A
// symbolic link into the output is kept a link: its target is read, and is the file to write. A
// name that is missing is a file to create.
func (out *output) readSiteFile(rel string) (siteFile, error) {
	sf := siteFile{rel: rel}
	lfi, err := out.root.Lstat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return sf, nil
	case err != nil:
		return sf, out.fileError(rel, err)
	case lfi.Mode()&fs.ModeSymlink != 0:
		link, warning, ok := out.classify(rel, lfi.Mode().Type())
		if !ok || !link {
			sf.skip = warning
			return sf, nil
		}
		if sf.rel, err = safefs.ResolveLink(out.dir, rel); err != nil {
			return sf, out.fileError(rel, err)
		}
	case lfi.IsDir():
		// Not a file robotsmith may skip: the rules it needs cannot be written anywhere else.
		return sf, &fs.PathError{Op: "read", Path: out.outName(rel), Err: syscall.EISDIR}
	case !lfi.Mode().IsRegular():
		sf.skip = problem.Newf(problem.NotARegularFile, problem.Position{File: out.outName(rel)}, "%s: skipped, never read", safefs.Kind(lfi.Mode()))
		return sf, nil
	}
	sf.data, sf.info, err = out.readFile(sf.rel, nil)
	return sf, err
}

// writeFile is the one way a run writes the output: the new content of the file rel (a slash path
// relative to the output folder), whose read gave orig (nil for a file that does not exist yet),
// goes to a temporary file beside it, which keeps orig's mode and owner, until commit puts every
// file of the build in place at once. In check, which writes nothing, it does nothing. It may be
// called from many goroutines.
func (out *output) writeFile(rel string, orig fs.FileInfo, data []byte) error {
	if out.tx == nil {
		return nil
	}
	if err := out.tx.WriteFile(rel, orig, data); err != nil {
		return out.fileError(rel, err)
	}
	if out.own != nil {
		out.own.add(rel, data)
	}
	return nil
}

// createFile is writeFile for content too large to hold in memory (a pruned sitemap): write
// streams it into the temporary file. An error of write fails the build.
func (out *output) createFile(rel string, orig fs.FileInfo, write func(io.Writer) error) error {
	if out.tx == nil {
		return nil
	}
	f, err := out.tx.Create(rel, orig)
	if err != nil {
		return out.fileError(rel, err)
	}
	var w io.Writer = f
	var d *watch.Digest
	if out.own != nil {
		// Watch mode stamps what it writes, as it streams.
		d = out.own.own.NewDigest()
		w = io.MultiWriter(f, d)
	}
	err = write(w)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return out.fileError(rel, err)
	}
	if d != nil {
		out.own.set(rel, d.Stamp())
	}
	return nil
}

// ownWrites, in watch mode, stamps what each of a batch's writes puts in its file (watch.Own's
// stamp: a size and a hash, never the content), so that once the batch is in place the watcher
// can be told, and drop the events of robotsmith's own writes. Safe for concurrent use.
type ownWrites struct {
	own    *watch.Own
	mu     sync.Mutex
	stamps map[string]watch.Stamp // by slash path relative to the output folder
}

func (o *ownWrites) add(rel string, data []byte) { o.set(rel, o.own.Stamp(data)) }

func (o *ownWrites) set(rel string, s watch.Stamp) {
	o.mu.Lock()
	o.stamps[rel] = s
	o.mu.Unlock()
}

// commit puts every file writeFile wrote in place, or (an error) none: a failure, a file that
// another process changed meanwhile, or ctx ending (SIGINT, SIGTERM) undoes the files already
// replaced. It reports whether any file was written; its warnings are leftovers the next run
// removes.
func (out *output) commit(ctx context.Context) (wrote bool, warnings []problem.Problem, err error) {
	if out.tx == nil {
		return false, nil, nil
	}
	n := out.tx.Len()
	if err := out.tx.Commit(ctx); err != nil {
		return false, nil, err
	}
	warnings = out.tx.Warnings
	// The site's own host files (vercel.json, firebase.json) last: a failure there leaves the
	// output's files in place, and the site's as they were, for the next build to write.
	siteWrote, siteWarnings, err := out.site.commit(ctx)
	if err != nil {
		if n == 0 {
			return false, warnings, problem.Wrap(0, problem.Position{File: out.site.dir},
				fmt.Errorf("the site's host files (vercel.json, firebase.json) were not written; the next build writes them: %w", err))
		}
		return true, warnings, problem.Wrap(0, problem.Position{File: out.site.dir},
			fmt.Errorf("%w, and the site's host files (vercel.json, firebase.json) were not; the next build writes them: %w", ErrOutputWritten, err))
	}
	return n > 0 || siteWrote, append(warnings, siteWarnings...), nil
}

// close ends the run's hold on the output: a build's transaction not committed is undone (every
// temporary file removed, the folder unlocked), and the folder is closed. Every run calls it, on
// every path. Its error is an undo that could not finish, which left files of robotsmith's for the
// next run to remove: a build that fails must say so (SPEC §10).
func (out *output) close() error {
	var err error
	if out.tx != nil {
		err = out.tx.Abort()
	}
	err = errors.Join(err, out.site.close())
	out.site = nil
	if out.folder != nil {
		out.folder.Close()
	}
	if out.root != nil {
		out.root.Close()
	}
	out.tx, out.root, out.folder = nil, nil, nil
	return err
}

// hostFiles are files that hosts read as configuration and never serve.
var hostFiles = map[string]bool{"_headers": true, "_redirects": true, "_routes.json": true, "_worker.js": true,
	headers.ApacheFile: true, headers.NginxFile: true, headers.CaddyFile: true,
	// robotsmith's records beside vercel.json and firebase.json, when the output is the site's folder
	".robotsmith-vercel.json": true, ".robotsmith-firebase.json": true}

// walk lists the output's files, sorted by path, each with its record (plan.NewRecord), and warns
// of every entry it leaves out; once ctx ends (SIGINT, SIGTERM: a large output took seconds to
// list on a busy machine) it stops, with ctx's error. It reads folders only: no file is opened, and
// only links, other kinds of file and a file named like the configuration are stat'ed. Every
// record's path is a part of a string holding many (pathChunks): a file costs its record and its
// path's bytes, and no allocation of its own.
//
// What a walk takes (SPEC §10): regular files; a link to a regular file inside the output (kept a
// link, decided by its own path as a file, never opened: its target is processed as itself). What
// it leaves out, each with a warning: a link that leads outside the output, to nothing or round in
// a loop; a link to a folder (never followed: the files of the folder it leads to are decided
// there); FIFOs, sockets and devices (never opened). Silently: the hosts' own files, robotsmith's
// configuration, and robotsmith's own temporary files (safefs.Own), which a build removes as
// leftovers of an interrupted run.
func (out *output) walk(ctx context.Context) ([]plan.Record, []problem.Problem, error) {
	root := filepath.Clean(out.dir)
	var (
		paths    pathChunks
		links    []bool
		warnings []problem.Problem
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
			if out.tx == nil {
				left++
				return nil
			}
			if err := out.tx.RemoveLeftover(rel); err != nil {
				return err
			}
			warnings = append(warnings, *problem.New(problem.LeftoverFiles, problem.Position{File: out.outName(rel)},
				"removed, a temporary file that an interrupted robotsmith build left"))
			return nil
		}
		link, warning, ok := out.listed(rel, d)
		if warning != nil {
			warnings = append(warnings, *warning)
		}
		if !ok {
			return nil
		}
		paths.add(rel)
		links = append(links, link)
		return nil
	})
	if left > 0 {
		warnings = append(warnings, *problem.Newf(problem.LeftoverFiles, problem.Position{File: out.name},
			"%s of an interrupted or running robotsmith build (the next build removes them)", Plural(left, "temporary file")))
	}
	files := make([]plan.Record, len(links), len(links)+1)
	paths.each(func(i int, p string) {
		files[i] = plan.NewRecord(p, links[i])
	})
	slices.SortFunc(files, func(a, b plan.Record) int { return strings.Compare(a.Path(), b.Path()) })
	if out.robots != nil && out.robots.creates() && plan.Index(files, out.robots.rel) < 0 {
		// The robots.txt that the run makes for robotsmith's block is a file of the output as the
		// run leaves it: decided, counted and given its rules in _headers like one the generator
		// wrote, so that a check right after the build finds what the build did.
		i, _ := slices.BinarySearchFunc(files, "/"+out.robots.rel, func(f plan.Record, p string) int { return strings.Compare(f.Path(), p) })
		files = slices.Insert(files, i, plan.NewRecord("/"+out.robots.rel, false))
	}
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
// one of the site's files, which gets a record, whether it is a link to another file of the output,
// and the warning to give when it is left out for what it is (classify). Folders, the hosts' own
// files, robotsmith's configuration and robotsmith's own files (safefs.Own) are left out silently.
// The walk and watch mode (Live, for a file the generator writes) both ask here.
func (out *output) listed(rel string, d fs.DirEntry) (link bool, warning *problem.Problem, ok bool) {
	if d.IsDir() || safefs.Own(d.Name()) || hostFiles[rel] {
		return false, nil, false
	}
	link, warning, ok = out.classify(rel, d.Type())
	if !ok || out.isConfig(rel, d) {
		return false, warning, false
	}
	return link, warning, true
}

// classify says whether the output entry rel, of type typ (fs.DirEntry.Type: the entry itself,
// never what a link leads to), is a file to decide, whether as a link to another file of the
// output, and the warning to give when it is not. It is the one place that knows what each kind of
// entry means, for the walk and for explain alike.
func (out *output) classify(rel string, typ fs.FileMode) (link bool, warning *problem.Problem, ok bool) {
	at := problem.Position{File: out.outName(rel)}
	switch {
	case typ.IsRegular():
		return false, nil, true
	case typ&fs.ModeSymlink == 0:
		return false, problem.Newf(problem.NotARegularFile, at, "%s: skipped, never read", safefs.Kind(typ)), false
	}
	target, err := safefs.ResolveLink(out.dir, rel)
	if err != nil {
		code, why := linkProblem(err)
		return false, problem.Newf(code, at, "%s: skipped", why), false
	}
	fi, err := out.root.Stat(target)
	switch {
	case err != nil:
		return false, problem.Newf(problem.LinkBroken, at, "a symbolic link to %s: %v: skipped", target, err), false
	case fi.IsDir():
		return false, problem.Newf(problem.LinkToFolder, at, "a symbolic link to the folder %s: not followed (its files are decided there)", target), false
	case !fi.Mode().IsRegular():
		return false, problem.Newf(problem.NotARegularFile, at, "a symbolic link to %s, %s: skipped, never read", target, safefs.Kind(fi.Mode())), false
	}
	// A link to a file of the output: its target is processed as itself, and the link, kept a link,
	// is decided by its own path as a file (X-Robots-Tag in _headers): the host serves the target's
	// bytes at the link's URL too, so a page's tags cannot differ between the two.
	return true, nil, true
}

// linkProblem says why a symbolic link of the output is not followed, and its code.
func linkProblem(err error) (problem.Code, string) {
	switch {
	case errors.Is(err, safefs.ErrOutside):
		return problem.LinkOutside, "a symbolic link that leads outside the output folder (robotsmith never reads or writes there)"
	case errors.Is(err, fs.ErrNotExist):
		return problem.LinkBroken, "a symbolic link to nothing"
	case errors.Is(err, syscall.ELOOP):
		return problem.LinkBroken, "a symbolic link in a loop"
	}
	return problem.LinkBroken, fmt.Sprintf("a symbolic link robotsmith cannot follow (%v)", err)
}

// isConfig reports whether the output file rel, a regular file, is robotsmith's configuration: the
// file itself, when the site is a plain folder (`robotsmith build public/`), or a copy of it
// (Jekyll copies every file of the site that its `exclude:` does not name into _site/). Either is
// robotsmith's input, not a page or file of the site: it is not decided and gets no _headers rule.
// Only a file with the configuration's name and size is compared, byte for byte.
func (out *output) isConfig(rel string, d fs.DirEntry) bool {
	cfgInfo := out.p.ConfigInfo()
	if cfgInfo == nil || d.Name() != cfgInfo.Name() || !d.Type().IsRegular() {
		return false
	}
	fi, err := d.Info()
	if err != nil || fi.Size() != cfgInfo.Size() {
		return false
	}
	if os.SameFile(fi, cfgInfo) {
		return true
	}
	copied, _, err := out.readFile(rel, nil)
	if err != nil {
		return false
	}
	orig, err := safefs.ReadFile(out.p.Config().File, config.MaxSize)
	return err == nil && bytes.Equal(copied, orig)
}
