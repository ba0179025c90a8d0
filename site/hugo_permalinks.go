package site

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gobuffalo/flect"
)

// decodePermalinks reads the permalinks setting in its three forms (resources/page/permalinks.go):
// a list of {target, pattern}, a legacy "section = pattern" map (for kinds page and term), or a
// map per kind.
func (h *hugoConfig) decodePermalinks(v any) error {
	switch v := v.(type) {
	case nil:
		return nil
	case []any:
		for _, x := range v {
			m, _ := x.(map[string]any)
			pat, ok := m["pattern"].(string)
			if !ok {
				return fmt.Errorf("missing pattern")
			}
			t, _ := m["target"].(map[string]any)
			h.permalinks = append(h.permalinks, hugoPermalink{
				kind:    strings.ToLower(strOr(t["kind"], "")),
				glob:    strings.ToLower(strOr(t["path"], "")),
				pattern: pat,
			})
		}
	case map[string]any:
		// Go randomises map order and so does Hugo; sorted keys keep ours stable.
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch x := v[k].(type) {
			case string:
				g := sectionGlob(k)
				h.permalinks = append(h.permalinks, hugoPermalink{kind: "page", glob: g, pattern: x},
					hugoPermalink{kind: "term", glob: g, pattern: x})
			case map[string]any:
				if !contains([]string{"page", "section", "taxonomy", "term"}, k) {
					return fmt.Errorf("kind %q not supported", k)
				}
				secs := make([]string, 0, len(x))
				for s := range x {
					secs = append(secs, s)
				}
				sort.Strings(secs)
				for _, sec := range secs {
					h.permalinks = append(h.permalinks, hugoPermalink{kind: k, glob: sectionGlob(sec), pattern: strOr(x[sec], "")})
				}
			default:
				return fmt.Errorf("unknown value for key %q", k)
			}
		}
	default:
		return fmt.Errorf("unsupported value %T", v)
	}
	return nil
}

func sectionGlob(section string) string {
	section = strings.Trim(section, " /")
	if section == "" {
		return "/*"
	}
	return "/{" + section + "," + section + "/**}"
}

// permalinkToken finds the :tokens of a permalink pattern (resources/page/permalinks.go).
var permalinkToken = regexp.MustCompile(`:\w+(\[.+?\])?`)

// hugoReferenceTime tells date layouts (":2006") from other tokens, as Hugo does.
var hugoReferenceTime = time.Date(2019, time.November, 9, 23, 1, 42, 1, time.UTC)

var errPermalinkToken = errors.New("permalink attribute not recognised")

// expand expands a permalink pattern (or a url with :tokens) for a page.
func (h *hugoConfig) expand(pattern string, p *hugoSrc, sections map[sectionKey]*hugoSrc) (string, error) {
	pattern = strings.ReplaceAll(pattern, `\:`, "\x00")
	var firstErr error
	out := permalinkToken.ReplaceAllStringFunc(pattern, func(tok string) string {
		v, err := h.token(tok[1:], p, sections)
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("expanding %q: %w", pattern, err)
		}
		return v
	})
	return strings.ReplaceAll(out, "\x00", ":"), firstErr
}

func (h *hugoConfig) urlize(s string) string { return h.sanitize(s) }

// slugElseTitle is a page's slug, else its urlised title.
func (h *hugoConfig) slugElseTitle(p *hugoSrc) string {
	if p.slug != "" {
		return h.urlize(p.slug)
	}
	return h.urlize(p.title)
}

func (h *hugoConfig) token(attr string, p *hugoSrc, sections map[sectionKey]*hugoSrc) (string, error) {
	d := p.date
	switch attr {
	case "year":
		return strconv.Itoa(d.Year()), nil
	case "month":
		return fmt.Sprintf("%02d", int(d.Month())), nil
	case "monthname":
		return d.Month().String(), nil
	case "day":
		return fmt.Sprintf("%02d", d.Day()), nil
	case "weekday":
		return strconv.Itoa(int(d.Weekday())), nil
	case "weekdayname":
		return d.Weekday().String(), nil
	case "yearday":
		return strconv.Itoa(d.YearDay()), nil
	case "section":
		return firstSeg(p.path), nil
	case "sectionslug":
		if firstSeg(p.path) == "" {
			return "", nil
		}
		return h.slugElseTitle(h.sectionPage(p.lang, "/"+firstSeg(p.path), sections)), nil
	case "sections":
		return strings.TrimPrefix(p.section, "/"), nil
	case "sectionslugs":
		return path.Join(h.sectionSlugs(p, sections)...), nil
	case "title":
		return h.urlize(p.title), nil
	case "slug":
		return h.slugElseTitle(p), nil
	case "slugorfilename":
		if p.slug != "" {
			return h.urlize(p.slug), nil
		}
		return h.filename(p), nil
	case "filename":
		return h.filename(p), nil
	case "contentbasename":
		return h.urlize(h.contentBaseName(p)), nil
	case "slugorcontentbasename":
		if p.slug != "" {
			return h.urlize(p.slug), nil
		}
		return h.urlize(h.contentBaseName(p)), nil
	}
	if strings.HasPrefix(attr, "sections[") {
		return path.Join(sliceSpec(strings.TrimPrefix(attr, "sections"), sectionEntries(p.section))...), nil
	}
	if strings.HasPrefix(attr, "sectionslugs[") {
		return path.Join(sliceSpec(strings.TrimPrefix(attr, "sectionslugs"), h.sectionSlugs(p, sections))...), nil
	}
	if hugoReferenceTime.Format(attr) != attr {
		return d.Format(attr), nil
	}
	return "", fmt.Errorf(":%s: %w", attr, errPermalinkToken)
}

func sectionEntries(section string) []string {
	if section == "/" || section == "" {
		return nil
	}
	return strings.Split(strings.TrimPrefix(section, "/"), "/")
}

// sectionPage is the branch page at a logical path, or a stand-in for a section with no
// _index file, titled by its name pluralised as Hugo does (hugolib/page__meta.go, with the
// inflection library Hugo uses).
func (h *hugoConfig) sectionPage(lang, p string, sections map[sectionKey]*hugoSrc) *hugoSrc {
	if s := sections[sectionKey{lang, p}]; s != nil {
		return s
	}
	title := path.Base(p)
	if h.pluralizeTitles {
		title = flect.Pluralize(title)
	}
	return &hugoSrc{title: title}
}

func (h *hugoConfig) sectionSlugs(p *hugoSrc, sections map[sectionKey]*hugoSrc) []string {
	var out []string
	entries := sectionEntries(p.section)
	for i := range entries {
		out = append(out, h.slugElseTitle(h.sectionPage(p.lang, "/"+strings.Join(entries[:i+1], "/"), sections)))
	}
	return out
}

// filename is the urlised file name; a bundle's folder name for index files, "" for _index.
func (h *hugoConfig) filename(p *hugoSrc) string {
	switch p.base() {
	case "index":
		return h.urlize(path.Base(p.dir()))
	case "_index":
		return ""
	}
	return h.urlize(p.base())
}

func (h *hugoConfig) contentBaseName(p *hugoSrc) string {
	if p.base() == "index" || p.base() == "_index" {
		return path.Base("/" + p.dir())
	}
	return p.base()
}

// sliceSpec applies a "[low:high]", "[n]" or "[last]" cut to s, leniently as Hugo's toSliceFunc.
func sliceSpec(cut string, s []string) []string {
	cut = strings.ToLower(strings.TrimSpace(cut))
	if cut == "" {
		return s
	}
	if len(cut) < 3 || cut[0] != '[' || cut[len(cut)-1] != ']' || len(s) == 0 {
		return nil
	}
	idx := func(x string, low bool) int {
		switch x {
		case "":
			if low {
				return 0
			}
			return len(s)
		case "last":
			return len(s) - 1
		}
		n, _ := strconv.Atoi(x)
		if n < 0 {
			n = 0
		}
		if n >= len(s) {
			if low {
				return -1
			}
			return len(s)
		}
		return n
	}
	inner := cut[1 : len(cut)-1]
	lo, hi, isRange := strings.Cut(inner, ":")
	if !isRange {
		n := idx(lo, true)
		if n < 0 || s[n] == "" {
			return nil
		}
		return []string{s[n]}
	}
	n1, n2 := idx(lo, true), idx(hi, false)
	if n1 < 0 || n2 < 0 || n1 > n2 {
		return nil
	}
	return s[n1:n2]
}
