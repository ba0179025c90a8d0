package pipeline

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/internal/safefs"
	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
)

// The hosts that do not read _headers (headers.format: vercel, firebase, apache, nginx, caddy):
// each gets its own file, written by its writer in package headers from the same files as
// _headers. The server formats (apache, nginx, caddy) are files of the output's root, in the run's
// transaction; vercel.json and firebase.json are the site's own files, beside its configuration,
// in a transaction of the site's folder that commits with the output's (siteFiles).

// recordName is the file, beside vercel.json or firebase.json, that lists the entries robotsmith
// wrote there: neither file has room for a marker (both hosts refuse keys they do not know).
func recordName(h headers.Host) string { return ".robotsmith-" + h.String() + ".json" }

// hostsOf are the hosts of the run: the output's CNAME is the one fact of the output that auto
// reads (a GitHub Pages site, when the site's folder has no host's file).
func (ps *pass) hostsOf() plan.Hosts {
	cname := ""
	if ps.fileIndex("CNAME") >= 0 {
		cname = ps.out.outName("CNAME")
	}
	return ps.p.Hosts(cname)
}

// has reports whether hs lists h.
func has(hs []headers.Host, h headers.Host) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

// hostFiles writes the file of each host of hosts that does not read _headers.
func (ps *pass) hostFiles(rep *Report, hosts plan.Hosts) error {
	var errs []error
	for _, h := range hosts.List {
		if h.Write() == nil {
			continue
		}
		if err := ps.hostFile(rep, h); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// hostFile writes host h's file. The JSON hosts may serve a page about.html at /about too (with
// cleanUrls), and a rule for a path no file has changes nothing there, so their files list both;
// a server serves the file at its own name only, and an exact location for /about would take the
// path from the owner's own locations (try_files), so theirs list the file's own path.
func (ps *pass) hostFile(rep *Report, h headers.Host) error {
	mode := ownPath
	if h.InSite() {
		mode = withExtensionless
	}
	hf := newHeaderFiles(ps.p, ps.files, mode)
	usage := ps.p.Config().AI.HeaderUsage()
	cfg := ps.p.Config().Headers
	opt := headers.Options{ContentUsage: usage}
	switch h {
	case headers.HostNginx:
		opt.NginxInclude = cfg.NginxInclude
	case headers.HostFirebase:
		opt.Site = cfg.FirebaseSite
	}
	var (
		name    string // as messages name it
		changed string // as Report.ChangedFiles lists it: relative to the output folder
		data    []byte
		info    fs.FileInfo
		rec     []byte
		recInfo fs.FileInfo
		sf      siteFile
		err     error
	)
	if h.InSite() {
		sd, err := ps.out.siteDir()
		if err != nil {
			return err
		}
		name, changed = sd.name(h.File()), sd.fromOutput(h.File())
		if data, info, err = sd.read(h.File()); err != nil {
			return err
		}
		if rec, recInfo, err = sd.read(recordName(h)); err != nil {
			return err
		}
		opt.Record = rec
	} else {
		if sf, err = ps.out.readSiteFile(h.File()); err != nil {
			return err
		}
		name = ps.out.outName(sf.rel)
		if sf.skip != nil {
			w := *sf.skip
			w.Msg += "; its X-Robots-Tag rules are not written"
			rep.Warnings = append(rep.Warnings, w)
			return nil
		}
		data, info, changed = sf.data, sf.info, sf.rel
		if h.Server() {
			opt.Self = "/" + h.File() // never served once included
		} else if usage == "" && !bytes.Contains(data, []byte(headers.BeginMarker)) && !anyLines(hf) {
			return nil // no .htaccess made for nothing
		}
	}
	opt.Existing = data
	r, err := h.Write()(hf, opt)
	if err != nil {
		return inHostFile(h.File(), name, err)
	}
	for _, f := range r.Findings {
		f.File = filepath.ToSlash(name)
		if f.Code == problem.HostRecordUnreadable {
			f.File = filepath.ToSlash(filepath.Join(filepath.Dir(name), recordName(h)))
		}
		rep.Findings = append(rep.Findings, f.Problem())
	}
	if r.Data == nil {
		return nil // nothing to write, and no file there
	}
	var errs []error
	if !bytes.Equal(r.Data, data) {
		rep.Changed++
		rep.ChangedFiles = append(rep.ChangedFiles, changed)
		if h.InSite() {
			errs = append(errs, ps.out.site.write(h.File(), info, r.Data))
		} else {
			errs = append(errs, ps.out.writeFile(sf.rel, info, r.Data))
		}
	}
	if r.Record != nil && !bytes.Equal(r.Record, rec) {
		rep.Changed++
		rep.ChangedFiles = append(rep.ChangedFiles, ps.out.site.fromOutput(recordName(h)))
		errs = append(errs, ps.out.site.write(recordName(h), recInfo, r.Record))
	}
	return errors.Join(errs...)
}

// anyLines reports whether any file of hf has X-Robots-Tag lines.
func anyLines(hf *headerFiles) bool {
	for i := range hf.Len() {
		if len(hf.At(i).Lines) > 0 {
			return true
		}
	}
	return false
}

// inHostFile names the host's file, as messages name it (name), in each of headers' errors that err
// joins, where they name it as the host does (base: "vercel.json").
func inHostFile(base, name string, err error) error {
	var out []error
	for _, e := range unjoin(err) {
		var (
			pe *headers.PathError
			le *headers.LimitError
			ce *headers.CountError
			me *headers.MarkerError
		)
		switch {
		case errors.As(e, &pe):
			pe.File = name
		case errors.As(e, &le):
			le.File = name
		case errors.As(e, &ce):
			ce.File = name
		case errors.As(e, &me):
			me.File = name
		case problem.CodeOf(e) != 0:
			// A JSON file robotsmith cannot read, routes beside headers: its file and line.
			if p, ok := problem.Of(e); ok && p.File == base && name != base {
				p.File = name
				e = &p
			}
		default:
			e = problem.Wrap(0, problem.Position{File: name}, e)
		}
		out = append(out, e)
	}
	return errors.Join(out...)
}

// notSent is the finding of each file whose directives only a header can carry (a file that is
// not a page, with X-Robots-Tag lines) on a site whose host sends none: why says why.
func (ps *pass) notSent(rep *Report, why string) {
	for i := range ps.files {
		f := &ps.files[i]
		if f.HTML() {
			continue // its robots <meta> tags carry its directives
		}
		lines := ps.p.HeaderLines(f)
		if len(lines) == 0 {
			continue
		}
		rep.Findings = append(rep.Findings, *problem.Newf(problem.HeaderNotSent, problem.Position{File: ps.out.outName(f.Rel())},
			"%s is to be %s, which only an X-Robots-Tag header can say of a file that is not a page, and %s: crawlers may index it (deploy to a host that sends headers and name it in headers.format, or keep the file out of the output)",
			f.URL(), joinedLines(lines), why))
	}
}

// joinedLines is the X-Robots-Tag lines as one value, for a message.
func joinedLines(lines []rules.HeaderLine) string {
	var b bytes.Buffer
	for i, l := range lines {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(l.String())
	}
	return b.String()
}

// siteFiles is a run's hold on the site's own folder, for the host files that live there
// (vercel.json, firebase.json, and robotsmith's records beside them): read through an os.Root, and
// written, in a build, in a transaction of that folder, which the output's commit commits after
// its own. When the output is the site's folder itself, the output's transaction writes them.
type siteFiles struct {
	dir    string // the site's folder
	outDir string // the output folder, which ChangedFiles are relative to
	root   *os.Root
	folder *safefs.Folder
	tx     *safefs.Tx // nil in check, or when out is set
	out    *output    // the output, when it is the site's folder
}

// siteDir opens the site's folder, once a run.
func (out *output) siteDir() (*siteFiles, error) {
	if out.site != nil {
		return out.site, nil
	}
	dir := out.p.Options().Root
	sd := &siteFiles{dir: dir, outDir: out.dir}
	var err error
	if sd.root, err = os.OpenRoot(dir); err != nil {
		return nil, problem.Wrap(problem.IOError, problem.Position{File: dir}, err)
	}
	sd.folder = safefs.NewFolder(sd.root)
	if same(dir, out.dir) {
		sd.out = out
	} else if out.tx != nil {
		// Not waiting on ctx: the run holds the output's lock, which any other run takes first.
		if sd.tx, err = safefs.Begin(context.Background(), dir); err != nil {
			sd.close()
			return nil, recoveryError(dir, err)
		}
	}
	out.site = sd
	return sd, nil
}

// same reports whether the folders a and b are one.
func same(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// name is the site's file rel as messages name it.
func (sd *siteFiles) name(rel string) string { return filepath.Join(sd.dir, rel) }

// fromOutput is the site's file rel relative to the output folder, as ChangedFiles lists it.
func (sd *siteFiles) fromOutput(rel string) string {
	abs, err1 := filepath.Abs(sd.name(rel))
	out, err2 := filepath.Abs(sd.outDir)
	if r, err := filepath.Rel(out, abs); err1 == nil && err2 == nil && err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(sd.name(rel))
}

// read reads the site's file rel, bounded, never through a link: nil when there is none.
func (sd *siteFiles) read(rel string) ([]byte, fs.FileInfo, error) {
	data, fi, err := sd.folder.ReadFile(rel, nil, maxFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, nil
	case err != nil:
		var se *safefs.SizeError
		if errors.As(err, &se) {
			se.Name = sd.name(rel)
			return nil, nil, se
		}
		code := problem.CodeOf(err)
		if code == 0 {
			code = problem.IOError
		}
		return nil, nil, problem.Wrap(code, problem.Position{File: sd.name(rel)}, err)
	}
	return data, fi, nil
}

// write is writeFile for the site's file rel.
func (sd *siteFiles) write(rel string, orig fs.FileInfo, data []byte) error {
	if sd.out != nil {
		return sd.out.writeFile(rel, orig, data)
	}
	if sd.tx == nil {
		return nil
	}
	if err := sd.tx.WriteFile(rel, orig, data); err != nil {
		return problem.Wrap(problem.IOError, problem.Position{File: sd.name(rel)}, err)
	}
	return nil
}

// commit puts the site's files in place, after the output's.
func (sd *siteFiles) commit(ctx context.Context) (wrote bool, warnings []problem.Problem, err error) {
	if sd == nil || sd.tx == nil {
		return false, nil, nil
	}
	n := sd.tx.Len()
	if err := sd.tx.Commit(ctx); err != nil {
		return false, nil, err
	}
	return n > 0, sd.tx.Warnings, nil
}

// close undoes a transaction not committed and closes the folder.
func (sd *siteFiles) close() error {
	if sd == nil {
		return nil
	}
	var err error
	if sd.tx != nil {
		err = sd.tx.Abort()
	}
	if sd.folder != nil {
		sd.folder.Close()
	}
	if sd.root != nil {
		sd.root.Close()
	}
	sd.tx, sd.folder, sd.root = nil, nil, nil
	return err
}
