package site

import "strings"

// BaseURL is the absolute URL the site is served at, as its generator's configuration gives it:
// Hugo's baseURL, or Jekyll's url followed by its baseurl (what Jekyll's absolute_url puts before a
// path). It is "" for a site without a generator, and when the configuration gives no url. It is
// not checked: the callers that need an absolute URL say what is wrong with it.
func (s *Site) BaseURL() string {
	switch {
	case s.hugo != nil:
		v, _ := s.hugo.raw["baseurl"].(string)
		return strings.TrimSpace(v)
	case s.jek != nil && strings.TrimSpace(s.jek.url) != "":
		return strings.TrimSuffix(strings.TrimSpace(s.jek.url), "/") + "/" + strings.Trim(s.jek.baseurl, "/")
	}
	return ""
}
