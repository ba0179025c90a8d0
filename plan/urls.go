package plan

import (
	"net/url"
	"strings"

	whatwg "github.com/nlnwa/whatwg-url/url"

	"github.com/robotsmith/robotsmith/robotstxt"
)

// The site's URLs: pages' canonical and hreflang links and sitemaps' <loc> are URLs, and the
// output is files. A URL is resolved as a browser resolves it (the WHATWG URL Standard, which is
// what a crawler's HTML parser follows: white space and tabs in an href, backslashes, dot
// segments, percent-encoding of what a path may not hold), against the page's own URL under the
// site's base URL and the page's <base>. github.com/nlnwa/whatwg-url implements the standard and
// passes the web-platform-tests URL suite; net/url follows RFC 3986, which refuses or reads
// differently hrefs that browsers accept.

// placeholderBase stands for the site's base URL when its generator's configuration gives none:
// relative links still resolve, and no absolute link is taken for the site's.
const placeholderBase = "https://robotsmith.invalid/"

// AbsoluteURL reports whether s is an absolute URL as the URL Standard reads one: a scheme
// ("https:") first, after the spaces and controls a parser trims. A path ("/a/"), a relative
// reference ("a/", "../a/") and a scheme-relative one ("//example.org/a/") are not: search engines
// want an absolute URL in a sitemap's <loc>, a Sitemap: line and an hreflang link, and ignore
// the others, which robotsmith still resolves as a browser would (against the page, or the base
// URL).
func AbsoluteURL(s string) bool {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return r <= ' ' })
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// Shown is an absolute URL of the site as robotsmith prints it: in full, or without the
// placeholder host when the site has no base URL of its own (its path, query and fragment, as
// the site's relative link meant them), so that the placeholder never reaches the user.
func (u URLs) Shown(abs *whatwg.Url) string {
	h := abs.Href(false)
	if u.own || !strings.EqualFold(abs.Host(), u.base.Host()) {
		return h
	}
	return abs.Pathname() + abs.Search() + abs.Hash()
}

// URLs is the site's URL space, read-only after newURLs.
type URLs struct {
	// base is the site's base URL, ending in "/"; placeholderBase when it has none, so that only
	// relative links are then known to be the site's.
	base   *whatwg.Url
	path   string // the base URL's path, "/" or "/docs/"
	prefix string // the base URL as a browser serializes it, "https://example.org/docs/"
	own    bool   // the site has a base URL of its own
}

// newURLs reads the site's base URL (site.Site.BaseURL). One that is not an absolute http(s)
// URL ("/blog", a Jekyll baseurl without url) keeps its path on the placeholder host.
func newURLs(baseURL string) URLs {
	ph, _ := whatwg.Parse(placeholderBase)
	shared(ph)
	u := URLs{base: ph, path: "/"}
	if baseURL == "" {
		return u
	}
	if !strings.HasSuffix(baseURL, "/") {
		baseURL += "/"
	}
	b, err := ph.Parse(baseURL)
	if err != nil || (b.Scheme() != "http" && b.Scheme() != "https") {
		return u
	}
	shared(b)
	u.base, u.path, u.own = b, b.Pathname(), b.Host() != ph.Host()
	if h := b.Href(false); b.Search() == "" && b.Hash() == "" && strings.HasSuffix(h, u.path) {
		u.prefix = h // not for a base URL with a query or a fragment, which no link continues
	}
	return u
}

// shared readies u to be parsed against by every worker at once: whatwg-url's Parse clones the
// URL it resolves against, and the clone makes that URL's search parameters on first use, a write
// into the shared base that two workers raced on. Made once here, every clone after only reads.
func shared(u *whatwg.Url) { u.SearchParams() }

// Base is the site's base URL, ending in "/"; a placeholder host when the site has none of its own
// (Own).
func (u URLs) Base() *whatwg.Url { return u.base }

// Own reports whether the site has a base URL of its own.
func (u URLs) Own() bool { return u.own }

// Path is the base URL's path: "/", or "/docs/".
func (u URLs) Path() string { return u.path }

// Page is the absolute URL an output file is served at (urlPath as Record.URL gives it).
func (u URLs) Page(urlPath string) *whatwg.Url {
	// "./" keeps a first segment with a colon ("a:b/") from reading as a scheme.
	p, err := u.base.Parse("./" + strings.TrimPrefix(urlPath, "/"))
	if err != nil {
		return u.base
	}
	return p
}

// docBase is the URL a page's relative links resolve against: its <base href> (resolved against
// the page's URL) when it has one that resolves, else the page's URL.
func docBase(page *whatwg.Url, base string) *whatwg.Url {
	if base == "" {
		return page
	}
	if b, err := page.Parse(base); err == nil {
		return b
	}
	return page
}

// Resolve resolves href as a browser would on the page at page whose <base href> is base (""
// for none), and says whether the URL is the site's and its path within the site. abs is nil for
// an href that does not resolve.
func (u URLs) Resolve(page *whatwg.Url, base, href string) (abs *whatwg.Url, p string, ours bool) {
	abs, err := docBase(page, base).Parse(href)
	if err != nil {
		return nil, "", false
	}
	p, ours = u.SitePath(abs, false)
	return abs, p, ours
}

// quickPath is Resolve's answer, without parsing, for the links most pages carry: an absolute URL
// under the site's base URL ("https://example.org/posts/a/", as Hugo's and jekyll-seo-tag's
// canonical links are) or a root-relative one ("/posts/a/") on a page without a <base href>, whose
// path holds only letters, digits, "-", "_", ".", "~" and "/" and no dot segment, so that a browser's parser would take it as it
// is. ok is false for any other href: Resolve decides. Written by hand because parsing every
// page's links with the URL Standard's parser was a twentieth of check's time; FuzzQuickPath holds
// it to Resolve's answer.
func (u URLs) quickPath(base, href string) (p string, ok bool) {
	var rest string
	switch {
	case u.own && u.prefix != "" && strings.HasPrefix(href, u.prefix):
		rest = href[len(u.prefix):]
	case base == "" && strings.HasPrefix(href, u.path) && !strings.HasPrefix(href, "//"):
		rest = href[len(u.path):]
	default:
		return "", false
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	seg := 0 // the start of the current segment
	for i := 0; i <= len(rest); i++ {
		if i == len(rest) || rest[i] == '/' {
			if s := rest[seg:i]; s == "." || s == ".." {
				return "", false
			}
			seg = i + 1
			continue
		}
		c := rest[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~') {
			return "", false
		}
	}
	return "/" + rest, true
}

// SitePath is the URL path within the site of an absolute URL: its path with the base URL's path
// removed and percent-decoded, as the output's files are named ("/blog/café/"). ok is false for a
// URL that is not the site's: another scheme than http(s), another host than the base URL's
// (unless anyHost: a sitemap's <loc> is matched by its path whatever its host), or a path outside
// the base URL's.
func (u URLs) SitePath(abs *whatwg.Url, anyHost bool) (string, bool) {
	if s := abs.Scheme(); s != "http" && s != "https" {
		return "", false
	}
	if !anyHost && !strings.EqualFold(abs.Host(), u.base.Host()) {
		return "", false
	}
	p := abs.Pathname()
	if !strings.HasPrefix(p, u.path) {
		if p+"/" != u.path {
			return "", false
		}
		p = u.path
	}
	p = "/" + p[len(u.path):]
	if d, err := url.PathUnescape(p); err == nil {
		p = d
	}
	return p, true
}

// Loc is the site's URL path of a sitemap's <loc> (matched by its path whatever its host) and
// the path and query a crawler asks robots.txt about (CrawlPath); ok is false for a URL that is not
// the site's. A <loc> is absolute; one that is not is read as a browser would. Most are answered by
// quickPath, without parsing: a sitemap lists every page of the site.
func (u URLs) Loc(loc string) (p, crawl string, ok bool) {
	if q, ok := u.quickPath("", loc); ok && !strings.ContainsAny(loc, "?#") {
		return q, CrawlPath(u.path + q[1:]), true
	}
	abs, err := u.base.Parse(loc)
	if err != nil {
		return "", "", false
	}
	p, ok = u.SitePath(abs, true)
	return p, CrawlPath(abs.Pathname() + abs.Search()), ok
}

// CrawlPath is the path a crawler asks robots.txt about for the absolute URL path p (the base
// URL's path included, percent-encoded as a browser sends it): robots.txt compares octets.
func CrawlPath(p string) string { return robotstxt.Escape(p) }

// ServedBy calls try with each output file (slash path relative to the output folder) that may
// serve the URL path p, in the order hosts look for them, until try returns true: /a/ is
// a/index.html; /a is a itself, then a/index.html and a.html (Netlify and Cloudflare Pages serve
// pretty URLs from both). It reports whether try did.
func ServedBy(p string, try func(rel string) bool) bool {
	rel := strings.TrimPrefix(p, "/")
	if rel == "" || strings.HasSuffix(rel, "/") {
		return try(rel + "index.html")
	}
	return try(rel) || try(rel+"/index.html") || try(rel+".html")
}
