package pipeline

import (
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/internal/safefs"
	"github.com/robotsmith/robotsmith/robotstxt"
)

// maxRobotsTxt bounds the robots.txt read: Google reads 500 KiB of it (robotstxt.MaxBytes), and the
// whole file is kept byte for byte around robotsmith's block, so a little more is read; a file
// larger than this is an error, not a silent cut.
const maxRobotsTxt = 8 << 20

// robotsTxt is the one place that reads robots.txt: it returns robots.txt at the output root as it
// will be after this build (nil when there is none and will be none). files are the run's
// processed records, for what robotsmith's own block of the file says (its Sitemap: lines; no
// Disallow of its own may hide a noindex page). Every check of the run reads this one body, parsed
// once (parseRobots), so what they find is what crawlers read once the build is in place.
func (j *job) robotsTxt(files []record) ([]byte, error) {
	sf, err := j.readSiteFile("robots.txt")
	if err != nil {
		return nil, err
	}
	if len(sf.data) > maxRobotsTxt {
		return nil, &safefs.SizeError{Name: j.outName(sf.rel), Size: int64(len(sf.data)), Limit: maxRobotsTxt}
	}
	return sf.data, nil
}

// robots is robots.txt as parsed once for the run, with the crawlers asked about so far.
type robots struct {
	name string // as messages name it: public/robots.txt
	file *robotstxt.File
	// crawlers are the groups each agent obeys, by robotsmith's agent name ("robots" for a
	// crawler no group names). Filled as agents are asked about, by one goroutine.
	crawlers map[string]robotstxt.Crawler
	named    []string // the product tokens robots.txt's groups name, lower case, each once
}

// parseRobots parses body (nil: the site has no robots.txt, and every crawler may crawl
// everything).
func (j *job) parseRobots(body []byte) *robots {
	r := &robots{name: j.outName("robots.txt"), file: robotstxt.Parse(body), crawlers: map[string]robotstxt.Crawler{}}
	for _, g := range r.file.Groups {
		for _, a := range g.Agents {
			if t := strings.ToLower(a.Token); t != "" && !slices.Contains(r.named, t) {
				r.named = append(r.named, t)
			}
		}
	}
	return r
}

// crawler is what the crawler robotsmith calls agent obeys: for "robots" (every crawler), the
// groups of a crawler that no group names; Google's other crawlers (googlebot-news,
// googlebot-image) fall back to Googlebot's group, as Google documents.
func (r *robots) crawler(agent string) robotstxt.Crawler {
	if c, ok := r.crawlers[agent]; ok {
		return c
	}
	var c robotstxt.Crawler
	switch {
	case agent == "robots":
		c = r.file.Crawler()
	case strings.HasPrefix(agent, "googlebot-"):
		c = r.file.Crawler(agent, "googlebot")
	default:
		c = r.file.Crawler(agent)
	}
	r.crawlers[agent] = c
	return c
}

// crawlPath is the path a crawler asks robots.txt about for the absolute URL path p (the base
// URL's path included, percent-encoded as a browser sends it): robots.txt compares octets.
func crawlPath(p string) string { return robotstxt.Escape(p) }

// disallowedForAll returns the rule that keeps every crawler from the path (crawlPath), or nil when
// some crawler may fetch it: a crawler no group names, and each one a group names, must all be
// kept out.
func (r *robots) disallowedForAll(path string) *robotstxt.Rule {
	d := r.crawler("robots").Decide(path)
	if d.Allowed {
		return nil
	}
	for _, name := range r.named {
		if r.crawler(name).Decide(path).Allowed {
			return nil
		}
	}
	return d.Rule
}
