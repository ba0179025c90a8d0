package site

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/problem"
)

// hugoFormat is one of Hugo's output formats (output/outputFormat.go): where a page's file in that
// format goes, relative to its HTML file. suffix is its media type's first suffix, with the dot.
type hugoFormat struct {
	name, baseName, path, suffix string
	mediaType                    string
	isHTML, ugly, noUgly, root   bool
}

// hugoBuiltinFormats are Hugo v0.165's DefaultFormats (output/outputFormat.go), by name.
var hugoBuiltinFormats = []hugoFormat{
	{name: "amp", mediaType: "text/html", baseName: "index", path: "amp", isHTML: true},
	{name: "calendar", mediaType: "text/calendar", baseName: "index"},
	{name: "css", mediaType: "text/css", baseName: "styles"},
	{name: "csv", mediaType: "text/csv", baseName: "index"},
	{name: "html", mediaType: "text/html", baseName: "index", isHTML: true},
	{name: "gotmpl", mediaType: "text/x-gotmpl"},
	{name: "404", mediaType: "text/html", ugly: true, isHTML: true},
	{name: "alias", mediaType: "text/html", ugly: true, isHTML: true},
	{name: "json", mediaType: "application/json", baseName: "index"},
	{name: "markdown", mediaType: "text/markdown", baseName: "index"},
	{name: "webappmanifest", mediaType: "application/manifest+json", baseName: "manifest"},
	{name: "robots", mediaType: "text/plain", baseName: "robots", root: true},
	{name: "rss", mediaType: "application/rss+xml", baseName: "index", noUgly: true},
	{name: "sitemap", mediaType: "application/xml", baseName: "sitemap", ugly: true},
	{name: "sitemapindex", mediaType: "application/xml", baseName: "sitemap", ugly: true, root: true},
}

// hugoMediaSuffixes are the first suffixes of Hugo's built-in media types (media/builtin.go) that an
// output format can use; a site's mediaTypes config adds to and overrides them.
var hugoMediaSuffixes = map[string]string{
	"text/calendar": "ics", "text/css": "css", "text/csv": "csv", "text/html": "html",
	"text/javascript": "js", "text/x-gotmpl": "gotmpl", "application/json": "json",
	"application/manifest+json": "webmanifest", "application/rss+xml": "xml",
	"application/xml": "xml", "image/svg+xml": "svg", "text/plain": "txt",
	"application/toml": "toml", "application/yaml": "yaml", "text/markdown": "md",
	"application/pdf": "pdf", "text/asciidoc": "adoc", "text/org": "org", "text/rst": "rst",
	"text/pandoc": "pandoc", "text/typescript": "ts", "text/tsx": "tsx", "text/jsx": "jsx",
}

// hugoDefaultOutputs are the formats of each kind when the configuration's outputs leave it out
// (createDefaultOutputFormats in config/allconfig).
var hugoDefaultOutputs = map[string][]string{
	"page": {"html"}, "home": {"html", "rss"}, "section": {"html", "rss"},
	"taxonomy": {"html", "rss"}, "term": {"html", "rss"},
}

// decodeOutputs reads mediaTypes, outputFormats and outputs as Hugo does (media.DecodeTypes,
// output.DecodeConfig, the outputs decoder): a format the site defines under a built-in's name
// changes only the fields it sets; a new one starts from baseName "index". Formats whose media
// type is unknown are left out, as Hugo refuses them.
func (h *hugoConfig) decodeOutputs(cfg map[string]any) {
	suffixes := map[string]string{} // media type -> its first suffix with its delimiter
	for t, s := range hugoMediaSuffixes {
		suffixes[t] = "." + s
	}
	if mt, ok := cfg["mediatypes"].(map[string]any); ok {
		for t, v := range mt {
			suffixes[t] = mediaSuffix(hugoMediaSuffixes[t], v)
		}
	}
	h.formats = map[string]hugoFormat{}
	for _, f := range hugoBuiltinFormats {
		h.formats[f.name] = f
	}
	if of, ok := cfg["outputformats"].(map[string]any); ok {
		for name, v := range of {
			m, _ := v.(map[string]any)
			f, ok := h.formats[name]
			if !ok {
				f = hugoFormat{name: name, baseName: "index"}
			}
			f.apply(m)
			h.formats[name] = f
		}
	}
	for name, f := range h.formats {
		s, ok := suffixes[f.mediaType]
		if !ok {
			delete(h.formats, name)
			continue
		}
		f.suffix = s
		h.formats[name] = f
	}
	h.kindOutputs = map[string][]string{}
	if o, ok := cfg["outputs"].(map[string]any); ok {
		for kind, v := range o {
			if kind == "taxonomyterm" { // the name Hugo's taxonomy lists had before v0.73
				kind = "taxonomy"
			}
			var names []string
			for _, n := range lowerAll(toStrings(v)) {
				if n != "rss" || !h.disableKinds["rss"] { // disableKinds "rss" removes the format
					names = append(names, n)
				}
			}
			h.kindOutputs[kind] = names
		}
	}
	for kind, names := range hugoDefaultOutputs {
		if _, ok := h.kindOutputs[kind]; !ok {
			if h.disableKinds["rss"] {
				names = names[:1]
			}
			h.kindOutputs[kind] = names
		}
	}
}

// mediaSuffix is a media type's first suffix with its delimiter (media.Type's FullSuffix) after a
// site's mediaTypes entry v changed the built-in's suffix: "" for a type with no suffix, whose
// files are named by the format's base name alone (`_redirects`).
func mediaSuffix(builtin string, v any) string {
	m, _ := v.(map[string]any)
	suffix, delim := builtin, "."
	if ss, ok := m["suffixes"]; ok {
		suffix = ""
		if list := toStrings(ss); len(list) > 0 {
			suffix = strings.ToLower(list[0])
		}
	}
	if d, ok := m["delimiter"]; ok {
		delim = strOr(d, "")
	}
	if suffix == "" {
		return ""
	}
	return delim + suffix
}

// apply sets the fields a site's outputFormats entry gives.
func (f *hugoFormat) apply(m map[string]any) {
	for k, v := range m {
		switch k {
		case "mediatype":
			f.mediaType = strings.ToLower(strOr(v, f.mediaType))
		case "basename":
			f.baseName = strOr(v, f.baseName)
		case "path":
			f.path = strOr(v, f.path)
		case "ishtml":
			f.isHTML = toBool(v)
		case "ugly":
			f.ugly = toBool(v)
		case "nougly":
			f.noUgly = toBool(v)
		case "root":
			f.root = toBool(v)
		}
	}
}

// pageFormats are the output formats Hugo renders the page in: its own `outputs` (front matter
// or cascade), else the configuration's for its kind (pageState.outputFormats). A name no format
// has is an error (unknownFormat): Hugo refuses it, so it is defined where robotsmith did not read.
func (h *hugoConfig) pageFormats(kind string, meta map[string]any) ([]hugoFormat, error) {
	names := h.kindOutputs[kind]
	if v, ok := meta["outputs"]; ok && len(toStrings(v)) > 0 {
		names = lowerAll(toStrings(v))
	}
	var out []hugoFormat
	for _, n := range names {
		f, ok := h.formats[n]
		if !ok {
			return nil, fmt.Errorf("outputs: %w", h.unknownFormat(n))
		}
		out = append(out, f)
	}
	return out, nil
}

// unknownFormat is the error for an output format name that no configuration robotsmith read
// defines. Hugo refuses such a name (allconfig's "unknown output format", pagemeta's "OutputFormat
// with key not found"), so a site it built defines it, in a configuration robotsmith could not
// read: a module it did not find. The files Hugo writes in that format would be placed nowhere and
// decided as pages of their own (public where their page is not, and otherwise than in a run that
// finds the module), so robotsmith stops rather than guess.
func (h *hugoConfig) unknownFormat(name string) error {
	why := "every module the site imports was read, and none defines it"
	if len(h.missing) > 0 {
		why = missingError(h.missing)
	}
	return problem.Newf(problem.OutputFormatUnknown, problem.Position{},
		"output format %q is defined by no configuration robotsmith could read, so the files Hugo writes in it cannot take their page's decision: %s",
		cutText(name), why)
}

// checkOutputs reports each name in the configuration's outputs that no output format has, at
// its line (unknownFormat), for the kinds Hugo renders: it skips a disabled kind's and one it does
// not know, and "rss" where disableKinds removes it (allconfig.go).
func (r *hugoConfigReader) checkOutputs(h *hugoConfig) error {
	o, ok := r.cfg["outputs"].(map[string]any)
	if !ok {
		return nil
	}
	kinds := make([]string, 0, len(o))
	for k := range o {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var errs []error
	first := map[string]string{}             // name -> the place of its first error, which says why
	firstAt := map[string]problem.Position{} // and that place, for the error's other side
	for _, written := range kinds {
		kind := written
		if kind == "taxonomyterm" {
			kind = "taxonomy"
		}
		if _, known := hugoDefaultOutputs[kind]; !known || h.disableKinds[kind] {
			continue
		}
		for _, n := range lowerAll(toStrings(o[written])) {
			if _, ok := h.formats[n]; ok || (n == "rss" && h.disableKinds["rss"]) {
				continue
			}
			e := &frontmatter.Error{File: r.s.rel(r.s.Root), Code: problem.OutputFormatUnknown}
			if doc, list := r.locate("outputs", written); doc != nil {
				e.File, e.Line = doc.File, doc.Line(list.Off)
				for _, item := range list.List {
					if v, _ := item.Scalar(); strings.EqualFold(v, n) {
						e.Line = doc.Line(item.Off)
						break
					}
				}
			}
			if at, ok := first[n]; ok {
				e.Err = fmt.Errorf("outputs: %s: output format %q: as at %s", written, cutText(n), at)
				e.Related = []problem.Related{{Position: firstAt[n], Msg: "why, said here"}}
			} else {
				e.Err = fmt.Errorf("outputs: %s: %w", written, h.unknownFormat(n))
				first[n] = fmt.Sprintf("%s:%d", e.File, e.Line)
				firstAt[n] = problem.Position{File: e.File, Line: e.Line}
			}
			errs = append(errs, e)
		}
	}
	return errors.Join(errs...)
}

func lowerAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}

// mergeShallow adds to dst the keys of src it does not have: how a theme's or module's
// outputFormats and mediaTypes join the project's (config.defaultConfigProvider's merge
// strategy "shallow").
func mergeShallow(dst map[string]any, key string, src map[string]any) {
	sm, ok := src[key].(map[string]any)
	if !ok {
		return
	}
	dm, ok := dst[key].(map[string]any)
	if !ok {
		dm = map[string]any{}
		dst[key] = dm
	}
	keys := make([]string, 0, len(sm))
	for k := range sm {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := dm[k]; !ok {
			dm[k] = sm[k]
		}
	}
}
