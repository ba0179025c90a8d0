package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/plan"
	"github.com/robotsmith/robotsmith/problem"
)

// headerFiles are the _headers entries of the processed files, one per URL the host serves a file
// at. Every served file has them, those without lines too, so that a folded Cloudflare rule is
// proved to cover no other file. A page file not named index.html (about.html) is served at /about
// as well by both hosts; Cloudflare answers /about.html with a redirect to /about, so only /about
// counts there. Each entry is worked out from the file's record when asked, from the record's own
// path: a site's entries are not held as a slice of their own beside its records.
type headerFiles struct {
	p     *plan.Plan
	files []plan.Record
	// at is each entry's file, as its index in files times two, plus one for a page's URL
	// without .html.
	at []uint32
}

func newHeaderFiles(p *plan.Plan, files []plan.Record, mode aliases) *headerFiles {
	hf := &headerFiles{p: p, files: files, at: make([]uint32, 0, len(files))}
	for i := range files {
		f := &files[i]
		n := uint32(i) << 1
		switch {
		case !f.HTML() || !strings.HasSuffix(f.URL(), ".html") || mode == ownPath:
			hf.at = append(hf.at, n)
		case mode == extensionlessOnly:
			hf.at = append(hf.at, n|1)
		default:
			hf.at = append(hf.at, n, n|1)
		}
	}
	return hf
}

// aliases says at which URLs a host serves a page not named index.html (about.html).
type aliases uint8

const (
	withExtensionless aliases = iota // at /about.html and /about (Netlify; Vercel and Firebase with cleanUrls)
	extensionlessOnly                // at /about, /about.html redirecting there (Cloudflare Pages)
	ownPath                          // at /about.html only (nginx, Apache, Caddy serving files)
)

// aliasesOf is how the _headers dialect f serves pages.
func aliasesOf(f headers.Format) aliases {
	if f == headers.Cloudflare {
		return extensionlessOnly
	}
	return withExtensionless
}

func (hf *headerFiles) Len() int { return len(hf.at) }

func (hf *headerFiles) At(i int) headers.File {
	f := &hf.files[hf.at[i]>>1]
	u := f.URL()
	if hf.at[i]&1 != 0 {
		u = strings.TrimSuffix(u, ".html")
	}
	return headers.File{Path: u, Lines: hf.p.HeaderLines(f)}
}

// headers writes the file of each host headers.format names: _headers for Netlify or Cloudflare
// Pages (headersFile), the other hosts' files (hostFiles); with none of them (headers.format none,
// a GitHub Pages site), each file only a header can carry the directives of is a finding.
func (ps *pass) headers(rep *Report) error {
	hosts := ps.hostsOf()
	format := ps.p.Format()
	hf := newHeaderFiles(ps.p, ps.files, aliasesOf(format))
	for i := range hf.Len() {
		if len(hf.At(i).Lines) > 0 {
			rep.HeaderRules++
		}
	}
	if hosts.None != "" {
		rep.headerFiles = "no host's file (" + hosts.None + ")"
		ps.notSent(rep, hosts.None)
		return nil
	}
	var names []string
	for _, h := range hosts.List {
		if !slices.Contains(names, h.File()) {
			names = append(names, h.File())
		}
	}
	rep.headerFiles = strings.Join(names, ", ")
	var errs []error
	if has(hosts.List, headers.HostNetlify) || has(hosts.List, headers.HostCloudflare) {
		errs = append(errs, ps.headersFile(rep, hf))
	}
	errs = append(errs, ps.hostFiles(rep, hosts))
	return errors.Join(errs...)
}

// headersFile writes the _headers file (writeFile), when any file needs a rule or the output
// already has one. A _headers that is a link into the output is kept a link, and the file it leads
// to gets the rules; one that cannot be read or written (a link outside the output, a FIFO) is
// left alone with a warning.
func (ps *pass) headersFile(rep *Report, hf *headerFiles) error {
	const rel = "_headers"
	sf, err := ps.out.readSiteFile(rel)
	if err != nil {
		return err
	}
	format := ps.p.Format()
	if sf.skip != nil {
		if rep.HeaderRules > 0 {
			w := *sf.skip
			w.Msg += fmt.Sprintf("; the X-Robots-Tag rules of %s are not written", Plural(rep.HeaderRules, "file"))
			rep.Warnings = append(rep.Warnings, w)
		}
		return nil
	}
	existing := sf.data
	name := ps.out.outName(sf.rel)
	rep.Warnings = append(rep.Warnings, ps.headerFindings(name, existing)...)
	usage := ps.p.Config().AI.HeaderUsage() // sent for every path (SPEC §9)
	if rep.HeaderRules == 0 && usage == "" && !bytes.Contains(existing, []byte(headers.BeginMarker)) {
		return nil
	}
	block, err := headers.BlockFiles(hf, headers.Options{Format: format, Existing: existing, ContentUsage: usage})
	if err != nil {
		return inHeadersFile(name, err)
	}
	for _, f := range headers.LintFiles(existing, hf, format) {
		f.File = name
		rep.Findings = append(rep.Findings, f.Problem())
	}
	if usage != "" {
		for _, f := range headers.LintContentUsage(existing, format) {
			f.File = filepath.ToSlash(name)
			rep.Findings = append(rep.Findings, f.Problem())
		}
	}
	out, err := headers.Merge(existing, block)
	if me := (*headers.MarkerError)(nil); errors.As(err, &me) {
		me.File = name
	}
	if err != nil {
		return err
	}
	if bytes.Equal(out, existing) {
		return nil
	}
	rep.Changed++
	rep.ChangedFiles = append(rep.ChangedFiles, sf.rel)
	return ps.out.writeFile(sf.rel, sf.info, out)
}

// inHeadersFile names the _headers file, as messages name it, in each of headers' errors that err
// joins (those that say _headers); another error is wrapped with the name.
func inHeadersFile(name string, err error) error {
	var out []error
	for _, e := range unjoin(err) {
		var (
			pe *headers.PathError
			le *headers.LimitError
		)
		switch {
		case errors.As(e, &pe):
			pe.File = name
		case errors.As(e, &le):
			le.File = name
		default:
			e = problem.Wrap(0, problem.Position{File: name}, e)
		}
		out = append(out, e)
	}
	return errors.Join(out...)
}
